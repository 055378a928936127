// Published indices the model is compared with (never fed into it). Pure types + the
// SOC 2010 -> SOC 2018 aggregation, so the report can be computed and tested without files.

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
  /** Every Table 1.12 row (SOC code, statement), for the count breakdown and the sensitivity rules. */
  ep_factor_rows: Array<{ soc: string; statement: string }>;
  /** ILO 2025 scores by ISCO-08 and the ISCO-08 -> SOC 2010 crosswalk (validation only). */
  ilo: IloRefs;
  /** Files read, for the report. */
  files: string[];
}

export interface IloRefs {
  /** mean_score_2025 per ISCO-08 unit group (4 digits). */
  scores: Map<string, number>;
  /** ISCO-08 -> SOC 2010 links of the BLS crosswalk ("ISCO-08 to 2010 SOC" sheet); isco has 4 digits, or 3 for a minor group. */
  links: Array<{ isco: string; soc2010: string }>;
  /** Largest spread of mean_score_2025 within one ISCO-08 code (the file repeats it per task). */
  max_within_code_spread: number;
  /** Rows of either file skipped because a code or score did not parse. */
  rows_skipped: number;
  /** Why no comparison is possible (file missing, unreadable, columns missing); null when it is. */
  unavailable: string | null;
  files: string[];
}

export const emptyIlo = (unavailable: string): IloRefs => ({ scores: new Map(), links: [], max_within_code_spread: 0, rows_skipped: 0, unavailable, files: [] });

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

/** AI technologies named in other words (sensitivity rule only): machine learning, chatbots, LLMs, generative models. */
const OTHER_WORDS = /machine learning|\bML\b|chatbots?|large language models?|\bLLMs?\b|generative/i;
export const mentionsAiInOtherWords = (s: string): boolean => !mentionsAi(s) && OTHER_WORDS.test(s);

/** A rising share that AI only offsets ("share increases ... partially offset by ... AI"): AI is not a reason for the rise. */
export const aiOnlyOffsetsRise = (s: string): boolean => {
  const at = s.search(/\boffset\b/i);
  return /share increases/i.test(s) && at >= 0 && (mentionsAi(s.slice(at)) || OTHER_WORDS.test(s.slice(at)));
};

export interface AiRule {
  /** Also count statements naming AI in other words (machine learning, chatbots, LLMs). */
  otherWords?: boolean;
  /** Leave out statements where AI only offsets a rising share. */
  withoutOffsets?: boolean;
}

/**
 * Direction of an EP Table 1.12 statement: every statement says whether the occupation's share
 * of industry employment "decreases" or "increases"; statements naming AI are the reference.
 * The primary rule (no options) is the one the issue and the 1.0.0 baseline use: literal AI
 * mention, stated direction of the share. The options are sensitivity checks, never chosen by their AUC.
 */
export function aiDirection(statement: string, rule: AiRule = {}): 'reduces' | 'raises' | null {
  if (!mentionsAi(statement) && !(rule.otherWords && mentionsAiInOtherWords(statement))) return null;
  if (rule.withoutOffsets && aiOnlyOffsetsRise(statement)) return null;
  if (/share decreases/i.test(statement)) return 'reduces';
  if (/share increases/i.test(statement)) return 'raises';
  return null;
}

/**
 * Per SOC code (an occupation is counted once however many industry rows name AI): the
 * direction of its AI statements; codes with both directions are left out.
 */
export function aiStatementsBySoc(rows: ReadonlyArray<{ soc: string; statement: string }>, rule: AiRule = {}): Map<string, 'reduces' | 'raises'> {
  const dirs = new Map<string, Set<'reduces' | 'raises'>>();
  for (const r of rows) {
    const d = aiDirection(r.statement, rule);
    if (d) dirs.set(r.soc, (dirs.get(r.soc) ?? new Set()).add(d));
  }
  return new Map([...dirs].filter(([, s]) => s.size === 1).map(([k, s]) => [k, [...s][0]!]));
}

export interface Table112Breakdown {
  rows: number;
  rows_naming_ai: { reduces: number; raises: number };
  codes: { reduces: number; raises: number; both: number };
  /** Codes with more than one AI row (the same occupation in several industries) and the rows they add. */
  codes_with_several_rows: number;
  extra_rows: number;
  /** Codes whose statement says the share rises and names AI only as an offset. */
  offset_codes: string[];
  /** Codes whose statements name AI only in other words, with their direction. */
  other_word_codes: Array<{ soc: string; direction: 'reduces' | 'raises' | null }>;
}

/** How the Table 1.12 rows become the counted occupations: every step of the count, for the report. */
export function table112Breakdown(rows: ReadonlyArray<{ soc: string; statement: string }>): Table112Breakdown {
  const ai = rows.filter((r) => mentionsAi(r.statement));
  const perCode = new Map<string, number>();
  for (const r of ai) perCode.set(r.soc, (perCode.get(r.soc) ?? 0) + 1);
  const dirs = new Map<string, Set<string>>();
  for (const r of ai) {
    const d = aiDirection(r.statement);
    if (d) dirs.set(r.soc, (dirs.get(r.soc) ?? new Set()).add(d));
  }
  const one = (d: string) => [...dirs.values()].filter((s) => s.size === 1 && s.has(d)).length;
  const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();
  const aiCodes = new Set(perCode.keys());
  const other = sorted(rows.filter((r) => !aiCodes.has(r.soc) && mentionsAiInOtherWords(r.statement)).map((r) => r.soc));
  const otherDirs = aiStatementsBySoc(rows.filter((r) => other.includes(r.soc)), { otherWords: true });
  return {
    rows: rows.length,
    rows_naming_ai: { reduces: ai.filter((r) => aiDirection(r.statement) === 'reduces').length, raises: ai.filter((r) => aiDirection(r.statement) === 'raises').length },
    codes: { reduces: one('reduces'), raises: one('raises'), both: [...dirs.values()].filter((s) => s.size > 1).length },
    codes_with_several_rows: [...perCode.values()].filter((n) => n > 1).length,
    extra_rows: [...perCode.values()].reduce((a, n) => a + n - 1, 0),
    offset_codes: sorted(ai.filter((r) => aiOnlyOffsetsRise(r.statement)).map((r) => r.soc)),
    other_word_codes: other.map((soc) => ({ soc, direction: otherDirs.get(soc) ?? null })),
  };
}
