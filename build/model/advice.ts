// Guidance beside the moves (model 3.1, seeds/advice.json): routes (longer steps a counsellor
// still shows), focus within the job, and the one best next step. Pure. Guidance may read BLS
// Table 1.12 and the projections; nothing here feeds the score.
import type { AdviceSeed } from './advice-params.ts';
import type { Table112Statement } from './ep-factors.ts';
import type { ModelParamsSeed } from './params.ts';
import type { FocusTask, Guidance, RouteOption, TaskBasis, TaskRecord, TransitionOption } from './record-schemas.ts';
import { round } from './num.ts';
import { compareText } from './text.ts';
import { educationLevel, familyOf, isSpecialty, licenceAllows, moveOption, saferBy, type MoveGuide, type RelatedTier, type ScoredRef } from './transitions.ts';

const DOCTORAL = 'Doctoral or professional degree';

/** Share of the paired alternatives (every entry, base first) under which b scores lower than a (by 0.05 or more). */
export function shareLower(a: Pick<ScoredRef, 'final_score' | 'alternatives'>, b: Pick<ScoredRef, 'final_score' | 'alternatives'>): number {
  const xs = a.alternatives ?? [a.final_score];
  const ys = b.alternatives ?? [b.final_score];
  let n = 0;
  for (let i = 0; i < xs.length; i++) if (Math.round((xs[i]! - ys[i]!) * 10) > 0) n++;
  return n / xs.length;
}

/**
 * A doctoral or professional degree only for an origin in the target's licensed family holding
 * its prerequisite (its entry_from: a registered nurse towards nurse anesthesia), or for an origin
 * that holds such a degree itself and may practise there (licenceAllows).
 */
export function routeEducationAllows(origin: ScoredRef, target: ScoredRef, p: ModelParamsSeed, maxStep: number): boolean {
  if (target.entry_education === DOCTORAL && origin.entry_education !== DOCTORAL) {
    const fam = familyOf(target.soc_code, p);
    if (fam === null || !p.skill_gaps.licensed_families.value[fam]!.entry_from.some((m) => origin.soc_code.startsWith(m))) return false;
  }
  if (!licenceAllows(origin.soc_code, target.soc_code, p)) return false;
  const o = educationLevel(origin.entry_education, p);
  const t = educationLevel(target.entry_education, p);
  return o !== null && t !== null && t - o <= maxStep;
}

const lower = (s: string | null | undefined) => (s ?? '').toLowerCase();

/** What a route takes, in BLS's numbers. */
export function routeTakes(o: Pick<TransitionOption, 'entry_education' | 'education_step' | 'related_experience' | 'on_the_job_training'>, originEducation: string | null | undefined): string {
  const parts = [
    `entry ${lower(o.entry_education)}${o.education_step !== null && o.education_step > 0 ? ` (${o.education_step} level${o.education_step > 1 ? 's' : ''} up from ${lower(originEducation)})` : ''}`,
    o.related_experience && o.related_experience !== 'None' ? `${lower(o.related_experience)} of related work experience` : 'no related work experience',
    o.on_the_job_training && o.on_the_job_training !== 'None' ? lower(o.on_the_job_training) : 'no on-the-job training',
  ];
  return parts.join(', ');
}

/** Routes of one origin (the rules in seeds/advice.json routes), most sure first, one per job pool, none a listed move's pool. */
export function routeOptions(
  origin: ScoredRef,
  candidates: readonly ScoredRef[],
  sims: (candidateIndexes: readonly number[], atLeast: number) => ReadonlyArray<number | null>,
  p: ModelParamsSeed,
  related: ReadonlyMap<string, string>,
  guide: MoveGuide,
  moves: readonly TransitionOption[],
  /** Destinations that passed every move rule (listed or not: over capacity, or beyond max_transitions): a move, never a route. */
  moveEligible: readonly string[] = [],
): RouteOption[] {
  const r = guide.advice.routes;
  const g = p.skill_gaps;
  // A route is a longer bet than a move: out of any growing occupation (whatever its tier) only one that pays and grows more.
  const growing = r.growing_origin.value ? (origin.projected_change_pct ?? 0) > 0 : origin.risk_tier !== 'high' && (origin.projected_change_pct ?? 0) > 0;
  const taken = new Set([guide.pool(origin.soc_code), ...moves.map((m) => guide.pool(m.soc_code)), ...moveEligible.map(guide.pool)]);
  const idx: number[] = [];
  candidates.forEach((c, i) => {
    if (c.soc_code !== origin.soc_code && related.has(c.soc_code)) idx.push(i);
  });
  const s = idx.length > 0 ? sims(idx, r.min_similarity.value) : [];
  const q = p.interval.safer_quantile.value;
  const found: Array<{ c: ScoredRef; s: number; share: number; ratio: number }> = [];
  idx.forEach((ci, k) => {
    const c = candidates[ci]!;
    const sim = s[k];
    if (sim == null || sim < r.min_similarity.value) return;
    if (taken.has(guide.pool(c.soc_code)) || isSpecialty(c.soc_code)) return;
    if (c.final_score > origin.final_score - r.min_points.value) return;
    if (!routeEducationAllows(origin, c, p, r.max_education_step.value)) return;
    if (guide.cut(c.soc_code)) return;
    if (c.projected_change_pct == null || c.projected_change_pct <= 0 || c.employment == null || c.employment < g.min_employment.value) return;
    const ratio = origin.median_annual_wage && c.median_annual_wage ? c.median_annual_wage / origin.median_annual_wage : null;
    if (ratio === null || ratio < r.min_wage_ratio.value) return;
    if (growing && !(ratio > 1 && c.projected_change_pct > (origin.projected_change_pct ?? Infinity))) return;
    const share = shareLower(origin, c);
    if (share < r.min_share_lower.value) return;
    found.push({ c, s: sim, share, ratio });
  });
  found.sort((a, b) => b.share - a.share || b.s - a.s || compareText(a.c.soc_code, b.c.soc_code));
  const out: RouteOption[] = [];
  const pools = new Set<string>();
  for (const f of found) {
    if (out.length >= r.max_routes.value) break;
    const key = guide.pool(f.c.soc_code);
    if (pools.has(key)) continue;
    pools.add(key);
    const base = moveOption(origin, { c: f.c, s: f.s, ratio: f.ratio, group: 0, fit: 0, related: related.get(f.c.soc_code) as RelatedTier, safer: saferBy(origin, f.c, q) }, p);
    const pct = Math.round(100 * f.share);
    const reason =
      `Route, a longer step: ${routeTakes(base, origin.entry_education)}. ` +
      `O*NET related occupation (${base.related_tier}), similarity ${base.similarity.toFixed(2)}; ` +
      `${f.c.final_score} vs ${origin.final_score} (${round(origin.final_score - f.c.final_score, 1)} points lower), lower under ${pct}% of model alternatives; ` +
      `pays ${Math.round(100 * f.ratio)}% of current pay; BLS 2024-34 +${(f.c.projected_change_pct ?? 0).toFixed(1)}%` +
      (f.c.projected_openings_annual != null ? `, ${Math.round(f.c.projected_openings_annual).toLocaleString('en-US')} openings a year.` : '.');
    out.push({ ...base, reason, kind: 'route', share_lower: round(f.share, 3) });
  }
  return out;
}

const STOP = new Set(['about', 'other', 'their', 'these', 'those', 'which', 'while', 'where', 'there', 'increase', 'increases', 'increasing', 'decrease', 'decreases', 'share', 'demand', 'change', 'fewer', 'workers', 'occupation', 'occupations', 'because', 'expected', 'continue', 'allow', 'allows', 'number', 'using', 'through', 'within', 'among', 'including', 'industry', 'industries', 'needed', 'need', 'reduce', 'reduces', 'require', 'requires', 'should', 'would', 'could', 'higher', 'lower', 'greater', 'perform', 'performed', 'services', 'service', 'productivity', 'substitution', 'capital', 'labor', 'sourcing', 'technological', 'technology', 'technologies', 'advances']);
/** Content words of a text: letters only, five or more, not in STOP, cut to their first six letters (a crude stem). */
export const stems = (text: string): Set<string> => new Set((text.toLowerCase().match(/[a-z]{5,}/g) ?? []).filter((w) => !STOP.has(w)).map((w) => w.slice(0, 6)));

export const FOCUS_MATCH_WORDS = 2;

/**
 * Focus within the job: tasks in the occupation's lowest third of task risk under at least
 * min_share_alternatives of the alternatives (base first), whose human and GPT-4 exposure labels
 * agree and are not E1, and that no Table 1.12 statement about the occupation names (a statement
 * names a task when they share FOCUS_MATCH_WORDS content words, stems of five letters or more).
 */
export function focusTasks(tasks: readonly TaskRecord[], basis: TaskBasis, statements: readonly Table112Statement[], advice: AdviceSeed): Guidance['focus'] {
  const f = advice.focus;
  const n = basis.ids.length;
  const method =
    `Tasks in the lowest ${Math.round(100 * f.lowest_fraction.value)}% of this occupation's task risks under at least ${Math.round(100 * f.min_share_alternatives.value)}% of the model's alternatives, ` +
    `whose exposure label the human and GPT-4 raters agree on and neither labels fully exposed (E1), and that no BLS Table 1.12 statement about the occupation names ` +
    `(a statement names a task when they share ${FOCUS_MATCH_WORDS} or more content words of five letters or more). ` +
    `Listed as where to put weight within the job, never as points off the score: nothing says the rest of the job keeps its demand.`;
  if (n === 0) return { tasks: [], summary: 'No focus task: the occupation has no scored tasks.', method };
  const inLowest = new Array<number>(n).fill(0);
  const k = Math.max(1, Math.ceil(n * f.lowest_fraction.value));
  for (const [ri] of basis.alts) {
    const r = basis.risks[ri]!;
    const threshold = [...r].sort((a, b) => a - b)[k - 1]!;
    for (let i = 0; i < n; i++) if (r[i]! <= threshold) inLowest[i]!++;
  }
  const statementStems = statements.map((s) => stems(s.statement));
  const byId = new Map(tasks.map((t) => [t.task_id, t]));
  const out: FocusTask[] = [];
  basis.ids.forEach((id, i) => {
    const t = byId.get(id);
    if (!t) return;
    const share = inLowest[i]! / basis.alts.length;
    if (share < f.min_share_alternatives.value) return;
    const { human_label: h, gpt4_label: g } = t.evidence;
    if (h === null || g === null || h !== g || h === 'E1') return;
    const words = stems(t.description);
    if (statementStems.some((ss) => [...ss].filter((w) => words.has(w)).length >= FOCUS_MATCH_WORDS)) return;
    out.push({ task_id: id, description: t.description, time_fraction: t.time_fraction, task_category: t.task_category, share_lowest_third: round(share, 3) });
  });
  out.sort((a, b) => b.time_fraction - a.time_fraction || a.task_id - b.task_id);
  const chosen = out.slice(0, f.max_tasks.value);
  if (chosen.length === 0) return { tasks: [], summary: 'No focus task: no task of this occupation passes every rule below.', method };
  const cats = new Map<string, number>();
  for (const t of chosen) cats.set(t.task_category, (cats.get(t.task_category) ?? 0) + 1);
  const common = [...cats].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
  const time = Math.round(100 * chosen.reduce((a, t) => a + t.time_fraction, 0));
  const summary =
    `${chosen.length} task${chosen.length > 1 ? 's' : ''} (about ${time}% of the work time) where AI exposure stays lowest; ` +
    `${common.map(([c, m]) => `${m} ${c.replace(/_/g, ' ')}`).join(', ')}.`;
  return { tasks: chosen, summary, method };
}

/** The one best next step: the first move, else the first route, else focus (two tasks or more), else staying or none. */
export function nextStep(moves: readonly TransitionOption[], routes: readonly RouteOption[], focus: Guidance['focus'], stay: string | null): Guidance['next_step'] {
  const m = moves[0];
  if (m) return { kind: 'move', soc_code: m.soc_code, text: `Move to ${m.title}: ${m.reason}` };
  const r = routes[0];
  if (r) return { kind: 'route', soc_code: r.soc_code, text: `Route to ${r.title}: ${r.reason}` };
  if (stay !== null) return { kind: 'stay', soc_code: null, text: stay };
  if (focus.tasks.length >= 2) return { kind: 'focus', soc_code: null, text: `Put weight on: ${focus.tasks.map((t) => t.description).join(' / ')}` };
  return { kind: 'none', soc_code: null, text: 'No move, route or focus passes the rules for this occupation; see the notes.' };
}

/** For an origin outside the high tier that BLS projects to grow: staying is the advice. */
export function stayNote(origin: ScoredRef): string | null {
  if (origin.risk_tier === 'high' || (origin.projected_change_pct ?? 0) <= 0) return null;
  return `Staying is the advice: this occupation is in the ${origin.risk_tier} risk tier and BLS projects it to grow ${origin.projected_change_pct!.toFixed(1)}% in 2024-34; a move is shown only when it pays and grows more. Put weight on the focus tasks below.`;
}
