// Guidance beside the moves (model 3.1, seeds/advice.json): routes (longer steps a counsellor
// still shows), focus within the job, and the one best next step. Pure. Guidance may read BLS
// Table 1.12 and the projections; nothing here feeds the score.
import type { AdviceSeed } from './advice-params.ts';
import type { Table112Statement } from './ep-factors.ts';
import type { ModelParamsSeed } from './params.ts';
import type { FocusTask, Guidance, RouteOption, TaskBasis, TaskRecord, TransitionOption } from './record-schemas.ts';
import { round } from './num.ts';
import { compareText } from './text.ts';
import { educationLevel, familyOf, isSpecialty, licenceAllows, moveOption, payWords, saferBy, skipsLadder, type MoveGuide, type RelatedTier, type ScoredRef } from './transitions.ts';

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

/** A related occupation weighed as a route, with the route rules it fails (in words; empty: a route). */
export interface RouteCandidate {
  c: ScoredRef;
  s: number;
  share: number;
  ratio: number | null;
  fails: string[];
}

/** Whether the target's BLS Table 1.2 entry asks more than the origin's in education, related work experience or on-the-job training, and no less education. */
export function entryAbove(origin: ScoredRef, target: ScoredRef, p: ModelParamsSeed, advice: AdviceSeed): boolean {
  const order = advice.routes.entry_above_origin.value;
  const up = (o: number | null | undefined, t: number | null | undefined) => o != null && t != null && t > o;
  const oe = educationLevel(origin.entry_education, p);
  const te = educationLevel(target.entry_education, p);
  // Less entry education with more training is no longer step (heavy truck drivers to transit bus drivers).
  if (oe !== null && te !== null && te < oe) return false;
  return (
    up(oe, te) ||
    up(order.experience[origin.related_experience ?? ''], order.experience[target.related_experience ?? '']) ||
    up(order.training[origin.on_the_job_training ?? ''], order.training[target.on_the_job_training ?? ''])
  );
}

/**
 * Every O*NET related occupation of one origin weighed against the route rules (seeds/advice.json
 * routes), with the rules each fails; those in a listed or move-eligible job pool, the origin's
 * own pool and O*NET specialties are left out (a move, or no size of their own).
 */
export function routeCandidates(
  origin: ScoredRef,
  candidates: readonly ScoredRef[],
  sims: (candidateIndexes: readonly number[], atLeast: number) => ReadonlyArray<number | null>,
  p: ModelParamsSeed,
  related: ReadonlyMap<string, string>,
  guide: MoveGuide,
  taken: ReadonlySet<string>,
): RouteCandidate[] {
  const r = guide.advice.routes;
  const g = p.skill_gaps;
  // A route is a longer bet than a move: out of any growing occupation (whatever its tier) only one that pays and grows more.
  const growing = r.growing_origin.value ? (origin.projected_change_pct ?? 0) > 0 : origin.risk_tier !== 'high' && (origin.projected_change_pct ?? 0) > 0;
  const idx: number[] = [];
  candidates.forEach((c, i) => {
    if (c.soc_code !== origin.soc_code && related.has(c.soc_code) && !taken.has(guide.pool(c.soc_code)) && !isSpecialty(c.soc_code)) idx.push(i);
  });
  const s = idx.length > 0 ? sims(idx, -Infinity) : [];
  const out: RouteCandidate[] = [];
  idx.forEach((ci, k) => {
    const c = candidates[ci]!;
    const sim = s[k];
    if (sim == null) return;
    const fails: string[] = [];
    if (sim < r.min_similarity.value) fails.push(`similarity ${sim.toFixed(2)} (a route needs ${r.min_similarity.value})`);
    const points = round(origin.final_score - c.final_score, 1);
    if (c.final_score > origin.final_score - r.min_points.value) fails.push(points > 0 ? `only ${points} points lower (a route needs ${r.min_points.value})` : 'not lower than this occupation');
    if (!routeEducationAllows(origin, c, p, r.max_education_step.value)) {
      const step = (educationLevel(c.entry_education, p) ?? 0) - (educationLevel(origin.entry_education, p) ?? 0);
      fails.push(
        step > r.max_education_step.value
          ? `entry ${lower(c.entry_education)}, ${step} education levels up from ${lower(origin.entry_education)} (a route takes at most ${r.max_education_step.value})`
          : 'a doctoral, professional or licensed entry this occupation does not lead to',
      );
    }
    if (skipsLadder(origin, c, guide.advice)) fails.push(`asks ${lower(c.related_experience)} of experience in its own field (the top of a ladder)`);
    if (!entryAbove(origin, c, p, guide.advice)) fails.push('its entry asks no more education, experience or training than this one (a sideways step, not a route)');
    if (guide.cut(c.soc_code)) fails.push('named by BLS Table 1.12 as cut by technology or AI');
    if (c.projected_change_pct == null || c.projected_change_pct <= 0) fails.push(`BLS projects ${c.projected_change_pct == null ? 'no figure' : `${c.projected_change_pct.toFixed(1)}%`} for 2024-34 (a route must grow)`);
    if (c.employment == null || c.employment < g.min_employment.value) fails.push(`${c.employment == null ? 'no published' : Math.round(c.employment).toLocaleString('en-US')} jobs (a route needs ${g.min_employment.value.toLocaleString('en-US')})`);
    const ratio = origin.median_annual_wage && c.median_annual_wage ? c.median_annual_wage / origin.median_annual_wage : null;
    if (ratio === null || ratio < r.min_wage_ratio.value) fails.push(ratio === null ? 'pay not published' : `pays ${Math.round(100 * ratio)}% of current pay (a route needs ${Math.round(100 * r.min_wage_ratio.value)}%)`);
    else if (growing && !(ratio > 1 && (c.projected_change_pct ?? -Infinity) > (origin.projected_change_pct ?? Infinity))) fails.push('does not both pay and grow more than this growing occupation');
    const share = shareLower(origin, c);
    if (share < r.min_share_lower.value) fails.push(`lower under only ${Math.round(100 * share)}% of model alternatives (a route needs ${Math.round(100 * r.min_share_lower.value)}%)`);
    out.push({ c, s: sim, share, ratio, fails });
  });
  return out;
}

/** Routes of one origin (the rules in seeds/advice.json routes), most sure first, one per job pool, none a listed move's pool; with every candidate weighed (the near misses of an occupation without a next step). */
export function routeChoice(
  origin: ScoredRef,
  candidates: readonly ScoredRef[],
  sims: (candidateIndexes: readonly number[], atLeast: number) => ReadonlyArray<number | null>,
  p: ModelParamsSeed,
  related: ReadonlyMap<string, string>,
  guide: MoveGuide,
  moves: readonly TransitionOption[],
  /** Destinations that passed every move rule (listed or not: over capacity, or beyond max_transitions): a move, never a route. */
  moveEligible: readonly string[] = [],
): { routes: RouteOption[]; weighed: RouteCandidate[] } {
  const r = guide.advice.routes;
  const taken = new Set([guide.pool(origin.soc_code), ...moves.map((m) => guide.pool(m.soc_code)), ...moveEligible.map(guide.pool)]);
  const weighed = routeCandidates(origin, candidates, sims, p, related, guide, taken);
  const found = weighed.filter((w) => w.fails.length === 0);
  found.sort((a, b) => b.share - a.share || b.s - a.s || compareText(a.c.soc_code, b.c.soc_code));
  const q = p.interval.safer_quantile.value;
  const out: RouteOption[] = [];
  const pools = new Set<string>();
  for (const f of found) {
    if (out.length >= r.max_routes.value) break;
    const key = guide.pool(f.c.soc_code);
    if (pools.has(key)) continue;
    pools.add(key);
    const ratio = f.ratio!;
    const base = moveOption(origin, { c: f.c, s: f.s, ratio, group: 0, fit: 0, related: related.get(f.c.soc_code) as RelatedTier, safer: saferBy(origin, f.c, q) }, p);
    const pct = Math.round(100 * f.share);
    const reason =
      `Route, a longer step: ${routeTakes(base, origin.entry_education)}. ` +
      `O*NET related occupation (${base.related_tier}), similarity ${base.similarity.toFixed(2)}; ` +
      `${f.c.final_score} vs ${origin.final_score} (${round(origin.final_score - f.c.final_score, 1)} points lower), lower under ${pct}% of model alternatives; ` +
      // The served wage_ratio (rounded), as the page's verdict reads it: both then say the same number.
      `${payWords(base.wage_ratio, p.skill_gaps.desirable_wage_ratio.value)}; BLS 2024-34 +${(f.c.projected_change_pct ?? 0).toFixed(1)}%` +
      (f.c.projected_openings_annual != null ? `, ${Math.round(f.c.projected_openings_annual).toLocaleString('en-US')} openings a year.` : '.');
    out.push({ ...base, reason, kind: 'route', share_lower: round(f.share, 3) });
  }
  return { routes: out, weighed };
}

/**
 * Why an occupation has no next step (fewer than two moves, no route, fewer than two focus tasks)
 * and what its worker can do, in words: the moves that passed every rule but capacity, the
 * nearest route missed (lower at the point estimate, not cut by technology, fewest rules failed)
 * and what it lacks, and the focus task left. Null when the occupation has a next step.
 */
export function nextStepNote(
  origin: ScoredRef,
  moves: readonly TransitionOption[],
  routes: readonly RouteOption[],
  focus: Guidance['focus'],
  full: ReadonlyArray<{ title: string; openings: number | null }>,
  weighed: readonly RouteCandidate[],
  capacity: number,
  minSim: number,
  /** skill_gaps.desirable_wage_ratio: pay is said as the moves' and routes' reasons say it (payWords). */
  desirable: number,
): string | null {
  if (moves.length >= 2 || routes.length > 0 || focus.tasks.length >= 2) return null;
  const parts: string[] = [];
  parts.push(
    `No next step passes every rule here: ${moves.length === 0 ? 'no move' : `one move (${moves[0]!.title})`}, no route, ` +
      `${focus.tasks.length === 0 ? 'no focus task' : 'one focus task'}.`,
  );
  if (full.length > 0)
    parts.push(
      `${full.length === 1 ? 'One more occupation passes every move rule but is left out as full (its openings are' : `${full.length} more occupations pass every move rule but are left out as full (their openings are`} ` +
        `already offered to more than ${capacity} workers per opening): ` +
        `${full.slice(0, 3).map((f) => `${f.title}${f.openings != null ? ` (${Math.round(f.openings).toLocaleString('en-US')} openings a year)` : ''}`).join('; ')}; ` +
        'apply there where openings arise, with many others competing for them.',
    );
  const miss = [...weighed]
    .filter((w) => w.c.final_score < origin.final_score && !w.fails.some((f) => f.startsWith('named by BLS')))
    // Shared skills first (a near miss with none is no step), then the fewest rules failed.
    .sort((a, b) => Number(a.s < minSim) - Number(b.s < minSim) || a.fails.length - b.fails.length || b.share - a.share || b.s - a.s || compareText(a.c.soc_code, b.c.soc_code))[0];
  if (miss)
    parts.push(
      `The nearest route missed is ${miss.c.title} (O*NET related, ${round(origin.final_score - miss.c.final_score, 1)} points lower, ` +
        `lower under ${Math.round(100 * miss.share)}% of model alternatives${miss.ratio !== null ? `, ${payWords(miss.ratio, desirable)}` : ''}); it falls short: ${miss.fails.join('; ')}.`,
    );
  else parts.push('No O*NET related occupation is lower at all without being named by BLS Table 1.12 as cut by technology or AI.');
  if (focus.tasks.length === 1) parts.push(`Within the job, one task stays least exposed: ${focus.tasks[0]!.description}`);
  return parts.join(' ');
}

const STOP = new Set(['about', 'other', 'their', 'these', 'those', 'which', 'while', 'where', 'there', 'increase', 'increases', 'increasing', 'decrease', 'decreases', 'share', 'demand', 'change', 'fewer', 'workers', 'occupation', 'occupations', 'because', 'expected', 'continue', 'allow', 'allows', 'number', 'using', 'through', 'within', 'among', 'including', 'industry', 'industries', 'needed', 'need', 'reduce', 'reduces', 'require', 'requires', 'should', 'would', 'could', 'higher', 'lower', 'greater', 'perform', 'performed', 'services', 'service', 'productivity', 'substitution', 'capital', 'labor', 'sourcing', 'technological', 'technology', 'technologies', 'advances']);
/** Content words of a text: letters only, five or more, not in STOP, cut to their first six letters (a crude stem). */
export const stems = (text: string): Set<string> => new Set((text.toLowerCase().match(/[a-z]{5,}/g) ?? []).filter((w) => !STOP.has(w)).map((w) => w.slice(0, 6)));

export const FOCUS_MATCH_WORDS = 2;

/**
 * The subject of an occupation title, as a phrase of words: its first comma-separated part less
 * the last word (the worker noun: 'Customer Service Representatives' -> customer service); a
 * one-word subject only when it names an activity (ends in -ing: 'Bookkeeping, Accounting, and
 * Auditing Clerks' -> bookkeeping), since a lone noun ('office', 'aircraft') names no task. Null when none.
 */
export function titleSubject(title: string): string[] | null {
  const words = (title.split(',')[0] ?? '').toLowerCase().match(/[a-z]+/g) ?? [];
  const subject = words.length > 1 ? words.slice(0, -1) : words;
  if (subject.length === 0 || (subject.length === 1 && !subject[0]!.endsWith('ing'))) return null;
  return subject;
}

/**
 * Whether a text holds the phrase, word for word in a row (the last word also in its plural); a
 * one-word activity only as a noun: followed by punctuation, 'and', 'or' or the end ('do basic
 * bookkeeping, and' holds bookkeeping; 'sharpen cutting tools' does not hold cutting).
 */
export const holdsPhrase = (text: string, phrase: readonly string[]): boolean => {
  const ws = text.toLowerCase().match(/[a-z]+|[^a-z\s]/g) ?? [];
  const last = phrase.length - 1;
  for (let i = 0; i + phrase.length <= ws.length; i++) {
    if (!phrase.every((p, j) => ws[i + j] === p || (j === last && ws[i + j] === `${p}s`))) continue;
    const next = ws[i + phrase.length];
    if (phrase.length > 1 || next === undefined || !/^[a-z]/.test(next) || next === 'and' || next === 'or') return true;
  }
  return false;
};

/**
 * Focus within the job: tasks in the occupation's lowest third of task risk under at least
 * min_share_alternatives of the alternatives (base first), whose human and GPT-4 exposure labels
 * agree and are not E1, and that no Table 1.12 statement about the occupation names (a statement
 * names a task when they share FOCUS_MATCH_WORDS content words, stems of five letters or more).
 */
export function focusTasks(
  tasks: readonly TaskRecord[],
  basis: TaskBasis,
  statements: readonly Table112Statement[],
  advice: AdviceSeed,
  /** Titles of the occupations of its SOC major group that Table 1.12 names as cut by technology or AI. */
  cutTitles: readonly string[] = [],
): Guidance['focus'] & { removed_by_title: number } {
  const f = advice.focus;
  const n = basis.ids.length;
  const method =
    `Tasks in the lowest ${Math.round(100 * f.lowest_fraction.value)}% of this occupation's task risks under at least ${Math.round(100 * f.min_share_alternatives.value)}% of the model's alternatives, ` +
    `whose exposure label the human and GPT-4 raters agree on and neither labels fully exposed (E1), and that no BLS Table 1.12 statement about the occupation names ` +
    `(a statement names a task when they share ${FOCUS_MATCH_WORDS} or more content words of five letters or more), ` +
    `and that does not name the subject of an O*NET related occupation of its SOC major group that Table 1.12 says technology or AI cuts (its title's first part less the worker noun, word for word: customer service for customer service representatives; a one-word subject only when it names an activity, used as a noun, as bookkeeping for bookkeeping, accounting, and auditing clerks). ` +
    `Listed as where to put weight within the job, never as points off the score: nothing says the rest of the job keeps its demand.`;
  if (n === 0) return { tasks: [], summary: 'No focus task: the occupation has no scored tasks.', method, removed_by_title: 0 };
  const inLowest = new Array<number>(n).fill(0);
  const k = Math.max(1, Math.ceil(n * f.lowest_fraction.value));
  // Alternatives share risk vectors (basis.risks holds each once): each is sorted once and counted for every alternative that has it.
  const altsOf = new Map<number, number>();
  for (const [ri] of basis.alts) altsOf.set(ri, (altsOf.get(ri) ?? 0) + 1);
  for (const [ri, count] of altsOf) {
    const r = basis.risks[ri]!;
    const threshold = [...r].sort((a, b) => a - b)[k - 1]!;
    for (let i = 0; i < n; i++) if (r[i]! <= threshold) inLowest[i]! += count;
  }
  const statementStems = statements.map((s) => stems(s.statement));
  const subjects = cutTitles.map(titleSubject).filter((w): w is string[] => w !== null);
  let removedByTitle = 0;
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
    if (subjects.some((ph) => holdsPhrase(t.description, ph))) {
      removedByTitle++;
      return;
    }
    out.push({ task_id: id, description: t.description, time_fraction: t.time_fraction, task_category: t.task_category, share_lowest_third: round(share, 3) });
  });
  out.sort((a, b) => b.time_fraction - a.time_fraction || a.task_id - b.task_id);
  const chosen = out.slice(0, f.max_tasks.value);
  if (chosen.length === 0) return { tasks: [], summary: 'No focus task: no task of this occupation passes every rule below.', method, removed_by_title: removedByTitle };
  const cats = new Map<string, number>();
  for (const t of chosen) cats.set(t.task_category, (cats.get(t.task_category) ?? 0) + 1);
  const common = [...cats].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
  const time = Math.round(100 * chosen.reduce((a, t) => a + t.time_fraction, 0));
  const summary =
    `${chosen.length} task${chosen.length > 1 ? 's' : ''} (about ${time}% of the work time) where AI exposure stays lowest; ` +
    `${common.map(([c, m]) => `${m} ${c.replace(/_/g, ' ')}`).join(', ')}.`;
  return { tasks: chosen, summary, method, removed_by_title: removedByTitle };
}

/** The one best next step: the first move, else the first route, else focus (two tasks or more), else staying or none. */
export function nextStep(moves: readonly TransitionOption[], routes: readonly RouteOption[], focus: Guidance['focus'], stay: string | null, note: string | null = null): Guidance['next_step'] {
  const m = moves[0];
  if (m) return { kind: 'move', soc_code: m.soc_code, text: `Move to ${m.title}: ${m.reason}` };
  const r = routes[0];
  if (r) return { kind: 'route', soc_code: r.soc_code, text: `Route to ${r.title}: ${r.reason}` };
  if (stay !== null) return { kind: 'stay', soc_code: null, text: stay };
  if (focus.tasks.length >= 2) return { kind: 'focus', soc_code: null, text: `Put weight on: ${focus.tasks.map((t) => t.description).join(' / ')}` };
  return { kind: 'none', soc_code: null, text: note ?? 'No move, route or focus passes the rules for this occupation; see the notes.' };
}

/** For an origin outside the high tier that BLS projects to grow: staying is the advice. */
export function stayNote(origin: ScoredRef): string | null {
  if (origin.risk_tier === 'high' || (origin.projected_change_pct ?? 0) <= 0) return null;
  return `Staying is the advice: this occupation is in the ${origin.risk_tier} exposure tier and BLS projects it to grow ${origin.projected_change_pct!.toFixed(1)}% in 2024-34; a move is shown only when it pays and grows more. Put weight on the focus tasks below.`;
}
