// The score interval and the displacement years in the validation report (model 3.0.0, issue 28; structural alternatives 3.1.0, issue 44
// items 2 and 3): the interval's coverage of alternatives held out of it, the tier-crossing share
// and the adoption windows, beside model 2.0.0 where a figure exists for both. Pure.
import { tierFor } from '../model/assess.ts';
import type { IntervalCheck } from './interval-check.ts';
import { median, round, spearman } from '../model/num.ts';
import { modalTier } from '../model/uncertainty.ts';
import type { ModelOutput, TierTable } from '../model/record-schemas.ts';
import type { ReleaseSummary } from '../contract/releases.ts';

/** Figures of model 2.0.0 that its recorded release does not hold, as issue 28's review measured them on its build. */
export const REVIEW_2_0_0 = {
  one_year_windows: 109,
  median_earliest_year: { high: 2031, medium: 2032, low: 2033 },
  usage_change_spearman: 0.002,
  usage_change_tasks: 2007,
} as const;

export interface IntervalReport {
  check: IntervalCheck;
  crossing_2_0_0: { count: number; share_pct: number; n: number } | null;
  one_year_windows: number;
  median_earliest_year: Record<string, number | null>;
  usage_level_signal: unknown;
  usage_change_signal: unknown;
  uncertainty: UncertaintyFigures;
}

/** How much confidence and its inputs still follow the score, and what tier_shares and the percentile range show (3.1.0). */
export interface UncertaintyFigures {
  spearman_with_score: { confidence: number | null; tier_share: number | null; label_agreement: number | null; label_coverage: number | null };
  confidence_by_tier: Record<string, Record<string, number>>;
  served_tier_is_mode: number;
  served_tier_share_ge_0_8: number;
  median_percentile_range: number | null;
}

const CONF_RANK: Record<string, number> = { low: 0, medium: 1, high: 2 };

export function uncertaintyFigures(model: ModelOutput): UncertaintyFigures {
  const rs = model.occupations.map((o) => o.risk_score);
  const score = rs.map((r) => r.final_score);
  const r3 = (x: number | null) => (x === null ? null : round(x, 3));
  const share = rs.map((r) => r.tier_shares[r.risk_tier]);
  const byTier: Record<string, Record<string, number>> = {};
  for (const r of rs) {
    const t = (byTier[r.risk_tier] ??= { low: 0, medium: 0, high: 0 });
    t[r.confidence]!++;
  }
  return {
    spearman_with_score: {
      confidence: r3(spearman(rs.map((r) => CONF_RANK[r.confidence]!), score)),
      tier_share: r3(spearman(share, score)),
      label_agreement: r3(spearman(rs.map((r) => r.label_agreement), score)),
      label_coverage: r3(spearman(rs.map((r) => r.label_coverage), score)),
    },
    confidence_by_tier: byTier,
    served_tier_is_mode: rs.filter((r) => modalTier(r.tier_shares) === r.risk_tier).length,
    served_tier_share_ge_0_8: share.filter((x) => x >= 0.8).length,
    median_percentile_range: median(rs.map((r) => r.percentile_high - r.percentile_low)),
  };
}

const pct = (n: number, d: number) => Math.round((1000 * n) / Math.max(1, d)) / 10;

export function intervalReport(model: ModelOutput, check: IntervalCheck, release200: ReleaseSummary | null, tiers: TierTable): IntervalReport {
  const occ = model.occupations;
  const crossing = release200
    ? (() => {
        const c = release200.occupations.filter((o) => tierFor(o.score_low, tiers) !== tierFor(o.score_high, tiers)).length;
        return { count: c, share_pct: pct(c, release200.occupations.length), n: release200.occupations.length };
      })()
    : null;
  const years = occ.map((o) => o.risk_score as { risk_tier: string; displacement_year_low?: number; displacement_year_high?: number });
  const earliest = (tier: string) => {
    const ys = years.filter((y) => y.risk_tier === tier && y.displacement_year_low !== undefined).map((y) => y.displacement_year_low!);
    return ys.length ? median(ys) : null;
  };
  const ev = (model.report as { evidence?: Record<string, unknown> }).evidence ?? {};
  return {
    check,
    crossing_2_0_0: crossing,
    one_year_windows: years.filter((y) => y.displacement_year_low !== undefined && y.displacement_year_low === y.displacement_year_high).length,
    median_earliest_year: { high: earliest('high'), medium: earliest('medium'), low: earliest('low') },
    usage_level_signal: ev.usage_level_signal ?? null,
    usage_change_signal: ev.usage_change_signal ?? null,
    uncertainty: uncertaintyFigures(model),
  };
}

export function formatIntervalReport(r: IntervalReport, version: string): string {
  const c = r.check;
  const u = r.uncertainty;
  const cov = (x: { share_pct: number; inside: number; scores: number; alternatives: number }) => `${x.share_pct}% (${x.inside.toLocaleString('en-US')} of ${x.scores.toLocaleString('en-US')} scores, ${x.alternatives} alternatives)`;
  const worst = Object.entries(c.one_at_a_time.outside_pct_by_variant).sort((a, b) => b[1] - a[1]).slice(0, 3);
  const sig = (s: unknown) => {
    const x = s as { releases?: string[]; tasks?: number; spearman?: number | null } | null;
    return x && x.releases?.length ? `Spearman ${x.spearman ?? 'n/a'} over ${x.tasks} tasks (${x.releases.join(', ')})` : 'not measurable (too few releases)';
  };
  return [
    `The interval is a sensitivity range over modelling choices, not a probability interval: the 2.5th to 97.5th percentile of each occupation's score over 200 sampled combinations of alternative choices (the construction set), widened to hold the base score. Coverage is measured on alternatives that were not used to make it.`,
    '',
    `| Figure | 2.0.0 | ${version} |`,
    '|---|---|---|',
    `| Held-out alternatives (200 other combinations, another seed): share of (occupation, alternative) scores inside the interval | ${cov(c.held_out_by_2x_interval)} (2.x min-max of 22 one-at-a-time variants, on ${version} scores) | ${cov(c.held_out)} |`,
    `| One choice moved at a time (the 22 variants of 2.x, E2 weight 0.25 and 0.75, category factors all 1): scores inside | 57% of occupations outside their interval at E2 0.25/0.75, 35.5% with category factors all 1 (issue 28's review) | ${cov(c.one_at_a_time)}; most outside: ${worst.map(([k, v]) => `${k} ${v}%`).join(', ')} of occupations |`,
    `| Occupations whose interval crosses a tier cut (interval_crosses_tier) | ${r.crossing_2_0_0 ? `${r.crossing_2_0_0.count} of ${r.crossing_2_0_0.n} (${r.crossing_2_0_0.share_pct}%; recorded release)` : 'n/a'} | ${c.tier_crossing.count} (${c.tier_crossing.share_pct}%) |`,
    `| One-year adoption windows (timeline shape) | ${REVIEW_2_0_0.one_year_windows} (review) | ${r.one_year_windows} |`,
    `| Median earliest year (displacement_year_low) by tier: high, medium, low | ${REVIEW_2_0_0.median_earliest_year.high}, ${REVIEW_2_0_0.median_earliest_year.medium}, ${REVIEW_2_0_0.median_earliest_year.low} (review) | ${r.median_earliest_year.high ?? 'n/a'}, ${r.median_earliest_year.medium ?? 'n/a'}, ${r.median_earliest_year.low ?? 'n/a'} |`,
    `| AEI usage change between non-overlapping release pairs, rank agreement over tasks | ${REVIEW_2_0_0.usage_change_spearman} over ${REVIEW_2_0_0.usage_change_tasks.toLocaleString('en-US')} tasks (review) | ${sig(r.usage_change_signal)} |`,
    `| AEI usage level, first vs latest release, rank agreement over tasks | n/a | ${sig(r.usage_level_signal)} |`,
    '',
    'Leave one dimension out: the interval made with one dimension kept at the base model\'s choice, against the held-out alternatives that move that dimension (the harder check: the other dimensions must stand in for it).',
    '',
    '| Dimension left out | Held-out alternatives that move it | Scores inside |',
    '|---|---|---|',
    ...c.leave_one_dimension_out.map((d) => `| ${d.dimension} | ${d.alternatives} | ${d.share_pct}% |`),
    '',
    'Confidence and what it is made of (3.1.0): Spearman with final_score, no mark to reach. Confidence comes from the served tier\'s share of the alternatives, rater agreement and label coverage; it still follows the score through them.',
    '',
    `| Figure | ${version} |`,
    '|---|---|',
    `| Spearman(confidence, score) | ${u.spearman_with_score.confidence} |`,
    `| Spearman(served tier's share, score) | ${u.spearman_with_score.tier_share} |`,
    `| Spearman(label_agreement, score) | ${u.spearman_with_score.label_agreement} |`,
    `| Spearman(label_coverage, score) | ${u.spearman_with_score.label_coverage} |`,
    `| Confidence by tier (low / medium / high confidence) | ${['high', 'medium', 'low'].map((t) => `${t} tier ${u.confidence_by_tier[t]?.low ?? 0} / ${u.confidence_by_tier[t]?.medium ?? 0} / ${u.confidence_by_tier[t]?.high ?? 0}`).join('; ')} |`,
    `| Occupations whose served tier is the most common tier of the alternatives | ${u.served_tier_is_mode} |`,
    `| Occupations whose served tier's share is >= 0.8 | ${u.served_tier_share_ge_0_8} |`,
    `| Median width of the percentile range (percentile_high - percentile_low, points) | ${u.median_percentile_range} |`,
    '',
    'Named structural alternatives, each alone: the share of occupations whose score under it falls inside an interval made without the construction alternatives that take it (held out), and inside the published interval. Reported, not tuned to a mark.',
    '',
    '| Structural alternative | Construction alternatives held out | Inside the held-out interval | Inside the published interval |',
    '|---|---|---|---|',
    ...c.structural.map((x) => `| ${x.name} | ${x.held_out_alternatives} | ${x.inside_held_out_pct}% (${x.inside_held_out} of ${x.occupations}) | ${x.inside_published_pct}% |`),
  ].join('\n');
}
