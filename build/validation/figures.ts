// The figures issue 8 ("Risk model v2") names, computed from a model output by one function, so
// the 1.0.0 baseline and the current model are measured by the same code path. Pure.
// build/validation/baseline-1.0.0.json = issueFigures(computeModel 1.0.0) with the 1.0.0 model,
// sources loader and seeds of commit 9ada6c3 (`git archive 9ada6c3 build seeds | tar -x -C DIR`)
// and this file, on the same source directory; `outcomes_by_reference` is computeOutcomes
// (outcomes.ts) on that model, the 1.0.0 column of the validation table. The two ILO 2025 rows
// were added later: rhoWithCi (outcomes.ts) of the same 1.0.0 final scores (mean per SOC 2018
// code, as scoresBySoc2018) against iloToSoc2018 (ilo.ts) of the mirror's ILO and crosswalk files;
// the two Table 1.12 sensitivity rows likewise (aiStatementAuc of those scores; the same scores
// reproduce the stored primary AUC 0.542 [0.346, 0.733]).
import { round, spearman } from '../model/num.ts';
import type { ModelOutput, OccupationRecord } from '../model/record-schemas.ts';
import type { ModelInputs } from '../model/inputs.ts';
import { bootstrap, median, rankAuc, type Interval } from './stats.ts';

/** BLS EP Table 1.12 statements that name AI, per SOC 2018 code: does AI reduce or raise the share? */
export type AiDirection = 'reduces' | 'raises';

export interface IssueFigures {
  occupations: number;
  rho_beta_gpt4: number | null;
  rho_beta_human: number | null;
  table_1_12: { n_reduces: number; n_raises: number; median_reduces: number | null; median_raises: number | null; auc: Interval };
  at_100: number;
  at_0: number;
  at_0_high_confidence: number;
  employment_at_0: number;
  poets: number | null;
  data_entry_keyers: number | null;
  all_equal_task_shares: number;
  confidence_score_spearman: number | null;
  /** 95% pairs-bootstrap interval of confidence_score_spearman. */
  confidence_score_spearman_ci: Interval;
  zero_scores_high_confidence: number;
  scores_ge_80: number;
  scores_ge_80_high_confidence: number;
  coverage_below_1: number;
  years_of_lowest_score: string;
  years_clamped_first_year: number;
  median_window_years: number | null;
  skill_gaps_empty: number;
  skill_gaps_empty_employment_pct: number;
  skill_gaps_empty_named: string[];
  transitions_empty: number;
  options_total: number;
  options_same_tier: number;
  options_pay_below_75_pct: number | null;
  high_tier: number;
  high_tier_with_two_lower_tier_keeping_pay: number;
  scored_without_own_skills: number;
}

const BETA: Record<string, number> = { E0: 0, E1: 1, E2: 0.5 };
const CONF: Record<string, number> = { low: 0, medium: 1, high: 2 };
/** Occupations the issue names as having empty skill gaps under 1.0.0. */
export const NAMED_GUIDANCE = ['15-1252.00', '13-2051.00', '15-2051.00', '25-2031.00'];

/** Mean score per SOC 2018 detailed code (first 7 characters of the O*NET-SOC code). */
export function scoresBySoc2018(occ: readonly OccupationRecord[], value: (o: OccupationRecord) => number): Map<string, number> {
  const acc = new Map<string, { s: number; n: number }>();
  for (const o of occ) {
    const k = o.soc_code.slice(0, 7);
    const a = acc.get(k) ?? { s: 0, n: 0 };
    acc.set(k, { s: a.s + value(o), n: a.n + 1 });
  }
  return new Map([...acc].map(([k, a]) => [k, a.s / a.n]));
}

/** AUC of the AI statements: P(score of an occupation AI reduces > score of one AI raises), bootstrap CI. */
export function aiStatementAuc(bySoc: ReadonlyMap<string, number>, statements: ReadonlyMap<string, AiDirection>) {
  const reduces: number[] = [];
  const raises: number[] = [];
  for (const [soc, dir] of [...statements].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const s = bySoc.get(soc);
    if (s === undefined) continue;
    (dir === 'reduces' ? reduces : raises).push(s);
  }
  const auc = bootstrap([reduces, raises], ([a, b]) => rankAuc(a!, b!));
  return { reduces, raises, auc: { value: r3(auc.value), low: r3(auc.low), high: r3(auc.high) } };
}

const r3 = (x: number | null) => (x === null ? null : round(x, 3));

/** Employment of each occupation: its OEWS code's employment split equally among the O*NET occupations sharing it. */
export function splitEmployment(occ: readonly OccupationRecord[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const o of occ) if (o.labor_data.oews_code) n.set(o.labor_data.oews_code, (n.get(o.labor_data.oews_code) ?? 0) + 1);
  return new Map(occ.map((o) => [o.soc_code, o.labor_data.oews_code && o.labor_data.employment ? o.labor_data.employment / n.get(o.labor_data.oews_code)! : 0]));
}

export function issueFigures(model: ModelOutput, bundle: ModelInputs, statements: ReadonlyMap<string, AiDirection>): IssueFigures {
  const occ = model.occupations;
  const score = (o: OccupationRecord) => o.risk_score.final_score;
  const byCode = new Map(occ.map((o) => [o.soc_code, o]));
  const tier = new Map(occ.map((o) => [o.soc_code, o.risk_score.risk_tier]));
  const wage = new Map(occ.map((o) => [o.soc_code, o.labor_data.median_annual_wage]));
  const emp = splitEmployment(occ);
  const totalEmp = [...emp.values()].reduce((a, b) => a + b, 0);

  // Eloundou beta recomputed from the task labels (unweighted mean over the occupation's tasks).
  const beta = { gpt4: new Map<string, number[]>(), human: new Map<string, number[]>() };
  for (const l of bundle.exposure_labels) {
    if (!byCode.has(l.soc_code)) continue;
    if (l.gpt4) beta.gpt4.set(l.soc_code, [...(beta.gpt4.get(l.soc_code) ?? []), BETA[l.gpt4]!]);
    if (l.human) beta.human.set(l.soc_code, [...(beta.human.get(l.soc_code) ?? []), BETA[l.human]!]);
  }
  const rho = (m: Map<string, number[]>) => {
    const keys = occ.map((o) => o.soc_code).filter((k) => m.has(k));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return r3(spearman(keys.map((k) => score(byCode.get(k)!)), keys.map((k) => mean(m.get(k)!))));
  };

  const t112 = aiStatementAuc(scoresBySoc2018(occ, score), statements);
  const equalShares = occ.filter((o) => {
    if (o.tasks.length < 2) return false;
    const f = o.tasks.map((t) => t.time_fraction);
    return Math.max(...f) - Math.min(...f) <= 0.00011;
  }).length;
  const at0 = occ.filter((o) => score(o) === 0);
  const ge80 = occ.filter((o) => score(o) >= 80);
  const minScore = Math.min(...occ.map(score));
  const lowest = occ.filter((o) => score(o) === minScore);
  const yearsLowest = [...new Set(lowest.map((o) => `${o.risk_score.displacement_year_low}-${o.risk_score.displacement_year_high}`))];
  // 2027 is first_year in both versions' seeds: the clamp "nothing is dated in the past".
  const firstYear = 2027;

  const gapsEmpty = occ.filter((o) => o.skill_gaps.length === 0);
  const options = occ.flatMap((o) => o.transition_options.map((t) => ({ from: o, to: t })));
  const ratios = options.flatMap(({ from, to }) => {
    const a = wage.get(from.soc_code);
    const b = wage.get(to.soc_code);
    return a && b ? [b / a] : [];
  });
  const order: Record<string, number> = { low: 0, medium: 1, high: 2 };
  const high = occ.filter((o) => o.risk_score.risk_tier === 'high');
  const highOk = high.filter((o) => {
    const w = wage.get(o.soc_code);
    return o.transition_options.filter((t) => order[t.risk_tier]! < order.high! && w && (wage.get(t.soc_code) ?? 0) >= 0.75 * w).length >= 2;
  }).length;
  const skillSocs = new Set(bundle.skills.map((s) => s.soc_code));

  return {
    occupations: occ.length,
    rho_beta_gpt4: rho(beta.gpt4),
    rho_beta_human: rho(beta.human),
    table_1_12: {
      n_reduces: t112.reduces.length,
      n_raises: t112.raises.length,
      median_reduces: r3(median(t112.reduces)),
      median_raises: r3(median(t112.raises)),
      auc: t112.auc,
    },
    at_100: occ.filter((o) => score(o) === 100).length,
    at_0: at0.length,
    at_0_high_confidence: at0.filter((o) => o.risk_score.confidence === 'high').length,
    employment_at_0: Math.round(at0.reduce((a, o) => a + (emp.get(o.soc_code) ?? 0), 0)),
    poets: byCode.get('27-3043.05')?.risk_score.final_score ?? null,
    data_entry_keyers: byCode.get('43-9021.00')?.risk_score.final_score ?? null,
    all_equal_task_shares: equalShares,
    confidence_score_spearman: r3(spearman(occ.map((o) => CONF[o.risk_score.confidence]!), occ.map(score))),
    confidence_score_spearman_ci: ((ci) => ({ value: r3(ci.value), low: r3(ci.low), high: r3(ci.high) }))(
      bootstrap([occ.map((o) => [CONF[o.risk_score.confidence]!, score(o)] as const)], ([g]) => spearman(g!.map((x) => x[0]), g!.map((x) => x[1]))),
    ),
    zero_scores_high_confidence: at0.filter((o) => o.risk_score.confidence === 'high').length,
    scores_ge_80: ge80.length,
    scores_ge_80_high_confidence: ge80.filter((o) => o.risk_score.confidence === 'high').length,
    coverage_below_1: occ.filter((o) => o.risk_score.label_coverage < 1).length,
    years_of_lowest_score: `score ${minScore}: ${yearsLowest.join(', ')}`,
    years_clamped_first_year: occ.filter((o) => o.risk_score.displacement_year_low === firstYear).length,
    median_window_years: median(occ.map((o) => o.risk_score.displacement_year_high - o.risk_score.displacement_year_low)),
    skill_gaps_empty: gapsEmpty.length,
    skill_gaps_empty_employment_pct: round((100 * gapsEmpty.reduce((a, o) => a + (emp.get(o.soc_code) ?? 0), 0)) / Math.max(1, totalEmp), 1),
    skill_gaps_empty_named: NAMED_GUIDANCE.filter((s) => byCode.get(s)?.skill_gaps.length === 0),
    transitions_empty: occ.filter((o) => o.transition_options.length === 0).length,
    options_total: options.length,
    options_same_tier: options.filter(({ from, to }) => tier.get(to.soc_code) === from.risk_score.risk_tier).length,
    options_pay_below_75_pct: ratios.length ? round((100 * ratios.filter((r) => r < 0.75).length) / ratios.length, 1) : null,
    high_tier: high.length,
    high_tier_with_two_lower_tier_keeping_pay: highOk,
    scored_without_own_skills: occ.filter((o) => !skillSocs.has(o.soc_code)).length,
  };
}

/** The issue's figures, model 1.0.0 (baseline) beside the current model, as a markdown table. */
export function formatFigures(before: IssueFigures, after: IssueFigures, version: string): string {
  const i = (x: { value: number | null; low: number | null; high: number | null }) => `${x.value} [${x.low}, ${x.high}]`;
  const rows: Array<[string, unknown, unknown]> = [
    ['Spearman with Eloundou GPT-4 beta (recomputed; main input)', before.rho_beta_gpt4, after.rho_beta_gpt4],
    ['Spearman with Eloundou human beta (recomputed; main input)', before.rho_beta_human, after.rho_beta_human],
    ['Table 1.12 AI statements: n reduces / n raises (independent; distinct detailed SOC codes whose statement names AI, by its stated direction; see the Table 1.12 count note below)', `${before.table_1_12.n_reduces} / ${before.table_1_12.n_raises}`, `${after.table_1_12.n_reduces} / ${after.table_1_12.n_raises}`],
    ['Table 1.12: median score, reduces vs raises', `${before.table_1_12.median_reduces} vs ${before.table_1_12.median_raises}`, `${after.table_1_12.median_reduces} vs ${after.table_1_12.median_raises}`],
    ['Table 1.12: rank AUC [95% bootstrap CI] (independent)', i(before.table_1_12.auc), i(after.table_1_12.auc)],
    ['Occupations at exactly 100', before.at_100, after.at_100],
    ['Occupations at exactly 0 (of which high confidence)', `${before.at_0} (${before.at_0_high_confidence})`, `${after.at_0} (${after.at_0_high_confidence})`],
    ['Employment in occupations at 0', before.employment_at_0, after.employment_at_0],
    ['Poets, Lyricists and Creative Writers vs Data Entry Keyers', `${before.poets} vs ${before.data_entry_keyers}`, `${after.poets} vs ${after.data_entry_keyers}`],
    ['Occupations with all-equal task shares', before.all_equal_task_shares, after.all_equal_task_shares],
    ['Spearman(confidence, score) [95% bootstrap CI]', i(before.confidence_score_spearman_ci), i(after.confidence_score_spearman_ci)],
    ['Zero scores with high confidence', before.zero_scores_high_confidence, after.zero_scores_high_confidence],
    ['Scores >= 80: n (high confidence)', `${before.scores_ge_80} (${before.scores_ge_80_high_confidence})`, `${after.scores_ge_80} (${after.scores_ge_80_high_confidence})`],
    ['Occupations with label coverage < 1', before.coverage_below_1, after.coverage_below_1],
    ['Years of the lowest score', before.years_of_lowest_score, after.years_of_lowest_score],
    ['Occupations with displacement_year_low clamped at 2027', before.years_clamped_first_year, after.years_clamped_first_year],
    ['Median window (high - low), years', before.median_window_years, after.median_window_years],
    ['Empty skill_gaps (share of employment)', `${before.skill_gaps_empty} (${before.skill_gaps_empty_employment_pct}%)`, `${after.skill_gaps_empty} (${after.skill_gaps_empty_employment_pct}%)`],
    ['Named occupations with empty skill_gaps', before.skill_gaps_empty_named.join(', ') || 'none', after.skill_gaps_empty_named.join(', ') || 'none'],
    ['Occupations without any transition', before.transitions_empty, after.transitions_empty],
    ['Transition options: total / same tier as origin', `${before.options_total} / ${before.options_same_tier}`, `${after.options_total} / ${after.options_same_tier}`],
    ['Options paying < 75% of current wage (%)', before.options_pay_below_75_pct, after.options_pay_below_75_pct],
    ['High-tier occupations with >= 2 lower-tier options keeping >= 75% of pay', `${before.high_tier_with_two_lower_tier_keeping_pay} of ${before.high_tier}`, `${after.high_tier_with_two_lower_tier_keeping_pay} of ${after.high_tier}`],
    ['Scored occupations without own 29.3 Skills ratings', before.scored_without_own_skills, after.scored_without_own_skills],
  ];
  return [
    `| Figure | 1.0.0 | ${version} |`,
    '|---|---|---|',
    ...rows.map(([k, a, b]) => `| ${k} | ${String(a)} | ${String(b)} |`),
  ].join('\n');
}
