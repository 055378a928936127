// Published indices the model is compared with (never fed into it). Pure types + the
// SOC 2010 -> SOC 2018 aggregation, so the report can be computed and tested without files.
import type { IloRefs } from './ilo.ts';

export interface ValidationRefs {
  /** Eloundou et al. occ_level.csv by O*NET-SOC code: GPT-4 (dv) and human beta. */
  eloundou_occ: Map<string, { gpt4_beta: number | null; human_beta: number | null }>;
  /** SOC 2010 keyed indices (6-digit SOC, NN-NNNN). */
  soc2010: {
    felten_aioe: Map<string, number>;
    felten_lm_aioe: Map<string, number>;
    frey_osborne: Map<string, number>;
    webb_ai: Map<string, number>;
  };
  /** BLS SOC 2010 -> 2018 crosswalk rows. */
  crosswalk: Array<{ soc2010: string; soc2018: string }>;
  /** AEI labor-market impacts (Anthropic): observed exposure per SOC 2018 code. */
  aei_job_exposure: Map<string, number>;
  /** BLS EP 2024-34 Table 1.12 statements naming AI, per SOC 2018 code (a yardstick, never an input). */
  ai_statements: Map<string, 'reduces' | 'raises'>;
  /** ILO 2025 scores by ISCO-08 and the ISCO-08 -> SOC 2010 crosswalk (validation only). */
  ilo: IloRefs;
  /** Files read, for the report. */
  files: string[];
}

/**
 * Move a SOC 2010 index onto SOC 2018 codes: each 2018 code gets the mean of the 2010 codes
 * that map to it (splits copy the value to every child, merges average their parents).
 */
export function toSoc2018(values: ReadonlyMap<string, number>, crosswalk: ValidationRefs['crosswalk']): Map<string, number> {
  const acc = new Map<string, { s: number; n: number }>();
  for (const { soc2010, soc2018 } of crosswalk) {
    const v = values.get(soc2010);
    if (v === undefined || !Number.isFinite(v)) continue;
    const a = acc.get(soc2018) ?? { s: 0, n: 0 };
    a.s += v;
    a.n += 1;
    acc.set(soc2018, a);
  }
  return new Map([...acc].map(([k, a]) => [k, a.s / a.n]));
}

/** Does a BLS EP Table 1.12 statement name AI (artificial intelligence, "AI", generative AI)? */
export const mentionsAi = (s: string): boolean => /artificial intelligence|\bAI\b/i.test(s);

/**
 * Direction of an EP Table 1.12 statement: every statement says whether the occupation's share
 * of industry employment "decreases" or "increases"; statements naming AI are the reference.
 */
export function aiDirection(statement: string): 'reduces' | 'raises' | null {
  if (!mentionsAi(statement)) return null;
  if (/share decreases/i.test(statement)) return 'reduces';
  if (/share increases/i.test(statement)) return 'raises';
  return null;
}

/** Per SOC code: the direction of its AI statements; codes with both directions are left out. */
export function aiStatementsBySoc(rows: ReadonlyArray<{ soc: string; statement: string }>): Map<string, 'reduces' | 'raises'> {
  const dirs = new Map<string, Set<'reduces' | 'raises'>>();
  for (const r of rows) {
    const d = aiDirection(r.statement);
    if (d) dirs.set(r.soc, (dirs.get(r.soc) ?? new Set()).add(d));
  }
  return new Map([...dirs].filter(([, s]) => s.size === 1).map(([k, s]) => [k, [...s][0]!]));
}
