// Validation report: rank correlations of final_score with the paper's own occupation-level
// beta, the Microsoft applicability score, observed AEI usage and published exposure indices.
// Pure: the CLI (build/validate.ts) and the build can both compute and print it.
import type { ModelInputs } from '../model/inputs.ts';
import { round, spearman } from '../model/num.ts';
import type { ModelOutput } from '../model/record-schemas.ts';
import { toSoc2018, type ValidationRefs } from './refs.ts';
import { compareText } from '../model/text.ts';

export interface Correlation {
  reference: string;
  /** What is compared: O*NET-SOC occupations or SOC 2018 detailed codes. */
  level: 'onet' | 'soc2018';
  n: number;
  spearman: number | null;
  /** Sign a labor economist would expect, for reading the table. */
  expected: string;
}

export interface ValidationReport {
  correlations: Correlation[];
  tier_distribution: Record<string, number>;
  confidence_distribution: Record<string, number>;
  score_quantiles: Record<string, number>;
  highest: Array<{ soc_code: string; title: string; final_score: number }>;
  lowest: Array<{ soc_code: string; title: string; final_score: number }>;
  files: string[];
}

const BETA: Record<string, number> = { E0: 0, E1: 1, E2: 0.5 };

function correlate(
  reference: string,
  level: Correlation['level'],
  ours: ReadonlyMap<string, number>,
  theirs: ReadonlyMap<string, number>,
  expected: string,
): Correlation {
  const keys = [...ours.keys()].filter((k) => theirs.has(k)).sort();
  const rho = spearman(keys.map((k) => ours.get(k)!), keys.map((k) => theirs.get(k)!));
  return { reference, level, n: keys.length, spearman: rho === null ? null : round(rho, 3), expected };
}

const count = (xs: string[]) => xs.reduce<Record<string, number>>((a, x) => ((a[x] = (a[x] ?? 0) + 1), a), {});

export function computeValidation(model: ModelOutput, bundle: ModelInputs, refs: ValidationRefs): ValidationReport {
  const occ = model.occupations;
  const byOnet = new Map(occ.map((o) => [o.soc_code, o.risk_score.final_score]));
  // SOC 2018 level: mean score of the O*NET occupations under each detailed code.
  const acc = new Map<string, { s: number; n: number }>();
  for (const o of occ) {
    const k = o.soc_code.slice(0, 7);
    const a = acc.get(k) ?? { s: 0, n: 0 };
    acc.set(k, { s: a.s + o.risk_score.final_score, n: a.n + 1 });
  }
  const bySoc = new Map([...acc].map(([k, a]) => [k, a.s / a.n]));

  // The paper's beta recomputed from the task labels (unweighted mean over the occupation's tasks).
  const served = new Set(occ.map((o) => o.soc_code));
  const betaAcc = { gpt4: new Map<string, number[]>(), human: new Map<string, number[]>() };
  for (const l of bundle.exposure_labels) {
    if (!served.has(l.soc_code)) continue;
    for (const [k, v] of [['gpt4', l.gpt4], ['human', l.human]] as const) {
      if (v === null) continue;
      const arr = betaAcc[k].get(l.soc_code) ?? [];
      arr.push(BETA[v]!);
      betaAcc[k].set(l.soc_code, arr);
    }
  }
  const mean = (m: Map<string, number[]>) => new Map([...m].map(([k, xs]) => [k, xs.reduce((a, b) => a + b, 0) / xs.length]));

  const pub = (f: 'gpt4_beta' | 'human_beta') =>
    new Map([...refs.eloundou_occ].flatMap(([k, v]) => (v[f] === null ? [] : [[k, v[f]!] as const])));
  const msft = new Map(bundle.msft_applicability.map((m) => [m.soc, m.score]));
  const aei = new Map(occ.map((o) => [o.soc_code, o.tasks.reduce((a, t) => a + (t.evidence.aei_usage_pct ?? 0), 0)]));
  const x = (m: Map<string, number>) => toSoc2018(m, refs.crosswalk);

  const correlations: Correlation[] = [
    correlate('Eloundou et al. beta, GPT-4 (recomputed from task labels)', 'onet', byOnet, mean(betaAcc.gpt4), 'positive, strong (main input)'),
    correlate('Eloundou et al. beta, human (recomputed from task labels)', 'onet', byOnet, mean(betaAcc.human), 'positive, strong (main input)'),
    correlate('Eloundou et al. occ_level.csv dv_rating_beta (published)', 'onet', byOnet, pub('gpt4_beta'), 'positive, strong'),
    correlate('Eloundou et al. occ_level.csv human_rating_beta (published)', 'onet', byOnet, pub('human_beta'), 'positive, strong'),
    correlate('Microsoft AI applicability (Tomlinson et al. 2025)', 'soc2018', bySoc, msft, 'positive (observed Copilot use)'),
    correlate('AEI observed usage (sum of task shares, latest release)', 'onet', byOnet, aei, 'positive, moderate (usage is concentrated)'),
    correlate('Felten-Raj-Seamans AIOE (2021)', 'soc2018', bySoc, x(refs.soc2010.felten_aioe), 'positive'),
    correlate('Felten-Raj-Seamans language-modeling AIOE (2023)', 'soc2018', bySoc, x(refs.soc2010.felten_lm_aioe), 'positive'),
    correlate('Webb (2020) AI exposure score', 'soc2018', bySoc, x(refs.soc2010.webb_ai), 'weak: patents target analytical and physical tasks, not language work'),
    correlate('Frey and Osborne (2013) probability of computerisation', 'soc2018', bySoc, x(refs.soc2010.frey_osborne), 'weak or negative: pre-LLM automation hit routine manual work'),
  ];

  const sorted = [...occ].sort((a, b) => b.risk_score.final_score - a.risk_score.final_score || compareText(a.soc_code, b.soc_code));
  const pick = (o: (typeof occ)[number]) => ({ soc_code: o.soc_code, title: o.title, final_score: o.risk_score.final_score });
  const scores = occ.map((o) => o.risk_score.final_score).sort((a, b) => a - b);
  const q = (f: number) => scores[Math.min(scores.length - 1, Math.floor(f * scores.length))] ?? 0;
  return {
    correlations,
    tier_distribution: count(occ.map((o) => o.risk_score.risk_tier)),
    confidence_distribution: count(occ.map((o) => o.risk_score.confidence)),
    score_quantiles: { min: q(0), p10: q(0.1), p25: q(0.25), median: q(0.5), p75: q(0.75), p90: q(0.9), max: scores.at(-1) ?? 0 },
    highest: sorted.slice(0, 10).map(pick),
    lowest: sorted.slice(-10).reverse().map(pick),
    files: refs.files,
  };
}

export function formatValidation(r: ValidationReport): string {
  const total = Object.values(r.tier_distribution).reduce((a, b) => a + b, 0);
  const pct = (n: number) => `${((100 * n) / Math.max(1, total)).toFixed(1)}%`;
  const dist = (d: Record<string, number>, order: string[]) => order.map((k) => `${k} ${d[k] ?? 0} (${pct(d[k] ?? 0)})`).join(', ');
  return [
    '| Reference | Level | n | Spearman rho | Expected |',
    '|---|---|---|---|---|',
    ...r.correlations.map((c) => `| ${c.reference} | ${c.level} | ${c.n} | ${c.spearman ?? 'n/a'} | ${c.expected} |`),
    '',
    `Tiers: ${dist(r.tier_distribution, ['low', 'medium', 'high'])}`,
    `Confidence: ${dist(r.confidence_distribution, ['low', 'medium', 'high'])}`,
    `Score quantiles: ${Object.entries(r.score_quantiles).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    '',
    'Highest scores:',
    ...r.highest.map((o, i) => `${i + 1}. ${o.final_score} ${o.soc_code} ${o.title}`),
    '',
    'Lowest scores:',
    ...r.lowest.map((o, i) => `${i + 1}. ${o.final_score} ${o.soc_code} ${o.title}`),
  ].join('\n');
}
