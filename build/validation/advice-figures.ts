// Figures of the guidance over a whole build (issue 43): who has a next step, counted by people;
// what each move rule removed; where the moves come from and go. Pure: computed from the records.
import type { OccupationRecord } from '../model/record-schemas.ts';

export interface AdviceFigures {
  high_tier: { occupations: number; with_two_moves: number; worker_share_two_moves: number; with_next_step: number; worker_share_next_step: number; without_step: string[] };
  moves: number;
  moves_per_origin: number;
  share_from_related: number;
  routes: number;
  origins_with_route: number;
  top_destinations: Array<{ soc_code: string; title: string; origins: number }>;
}

/**
 * Workers: OEWS employment, split equally among occupations sharing an OEWS code (as the
 * percentiles do). A next step: two moves or more, a route, or two focus tasks or more.
 */
export function adviceFigures(occupations: readonly OccupationRecord[]): AdviceFigures {
  const sharers = new Map<string, number>();
  for (const o of occupations) {
    const c = o.labor_data.oews_code ?? o.soc_code;
    sharers.set(c, (sharers.get(c) ?? 0) + 1);
  }
  const workers = (o: OccupationRecord) => (o.labor_data.employment ?? 0) / (sharers.get(o.labor_data.oews_code ?? o.soc_code) ?? 1);
  const high = occupations.filter((o) => o.risk_score.risk_tier === 'high');
  const total = high.reduce((a, o) => a + workers(o), 0);
  const two = high.filter((o) => o.transition_options.length >= 2);
  const step = high.filter((o) => o.transition_options.length >= 2 || (o.guidance?.routes.length ?? 0) > 0 || (o.guidance?.focus.tasks.length ?? 0) >= 2);
  const moves = occupations.flatMap((o) => o.transition_options);
  const received = new Map<string, { title: string; n: number }>();
  for (const m of moves) received.set(m.soc_code, { title: m.title, n: (received.get(m.soc_code)?.n ?? 0) + 1 });
  const share = (xs: readonly OccupationRecord[]) => (total > 0 ? xs.reduce((a, o) => a + workers(o), 0) / total : 0);
  return {
    high_tier: {
      occupations: high.length,
      with_two_moves: two.length,
      worker_share_two_moves: share(two),
      with_next_step: step.length,
      worker_share_next_step: share(step),
      without_step: high.filter((o) => !step.includes(o)).map((o) => `${o.soc_code} ${o.title}`),
    },
    moves: moves.length,
    moves_per_origin: occupations.length > 0 ? moves.length / occupations.length : 0,
    share_from_related: moves.length > 0 ? moves.filter((m) => m.related_tier !== null).length / moves.length : 0,
    routes: occupations.reduce((a, o) => a + (o.guidance?.routes.length ?? 0), 0),
    origins_with_route: occupations.filter((o) => (o.guidance?.routes.length ?? 0) > 0).length,
    top_destinations: [...received]
      .sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1))
      .slice(0, 10)
      .map(([soc_code, v]) => ({ soc_code, title: v.title, origins: v.n })),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The figures before (model 3.0 move rules) and after, as report lines. */
export function formatAdviceFigures(
  before: AdviceFigures,
  after: AdviceFigures,
  removed: Record<string, number> | undefined,
  table112?: Record<string, number> | null,
  routes?: Record<string, number> | null,
  focus?: Record<string, number> | null,
): string {
  const row = (name: string, b: string, a: string) => `| ${name} | ${b} | ${a} |`;
  const lines = [
    '| figure | before (3.0 move rules) | after |',
    '|---|---|---|',
    row('high-tier occupations', `${before.high_tier.occupations}`, `${after.high_tier.occupations}`),
    row('high-tier occupations with >= 2 moves', `${before.high_tier.with_two_moves}`, `${after.high_tier.with_two_moves}`),
    row('share of high-tier workers with >= 2 moves', pct(before.high_tier.worker_share_two_moves), pct(after.high_tier.worker_share_two_moves)),
    row('high-tier occupations with a next step (>= 2 moves, a route, or >= 2 focus tasks)', `${before.high_tier.with_next_step}`, `${after.high_tier.with_next_step}`),
    row('share of high-tier workers with a next step', pct(before.high_tier.worker_share_next_step), pct(after.high_tier.worker_share_next_step)),
    row('moves', `${before.moves}`, `${after.moves}`),
    row('moves per origin', before.moves_per_origin.toFixed(2), after.moves_per_origin.toFixed(2)),
    row('share of moves from O*NET Related Occupations', pct(before.share_from_related), pct(after.share_from_related)),
    row('routes (origins with one)', `${before.routes} (${before.origins_with_route})`, `${after.routes} (${after.origins_with_route})`),
    '',
    'Largest ten destinations by origins received (after): ' + after.top_destinations.map((d) => `${d.title} ${d.origins}`).join('; '),
    'Largest ten destinations by origins received (before): ' + before.top_destinations.map((d) => `${d.title} ${d.origins}`).join('; '),
    '',
    'High-tier occupations without a next step (after): ' + (after.high_tier.without_step.join('; ') || 'none'),
  ];
  if (removed) lines.push('', 'Moves each rule removed (after, in the order the rules apply; capacity counts blocked origin-destination pairs): ' + Object.entries(removed).map(([k, v]) => `${k} ${v}`).join(', '));
  if (routes) lines.push('', 'Routes (after; sideways_not_route and ladder count candidates that fail only that rule): ' + Object.entries(routes).map(([k, v]) => `${k} ${v}`).join(', '));
  if (focus) lines.push('', 'Focus (after; removed_by_cut_title counts candidate tasks naming a related cut occupation\'s subject): ' + Object.entries(focus).map(([k, v]) => `${k} ${v}`).join(', '));
  if (table112) lines.push('', 'BLS Table 1.12 (guidance only): ' + Object.entries(table112).map(([k, v]) => `${k.replace(/_/g, ' ')} ${v}`).join(', '));
  return lines.join('\n');
}
