// Transitions and skill gaps (model 3.0). An option must be a move a career counsellor would sign:
//  - in the field: listed by O*NET Related Occupations for this occupation (any tier), or an
//    occupation of the same SOC major group with a viable similarity (>= 0.3, Nesta's Mapping
//    Career Causeways); an O*NET specialty (code not .00) only when O*NET lists it as related,
//    since OEWS and BLS publish its SOC occupation's employment and projection, not its own;
//  - safer: it scores at least min(margin, relative * score) lower in the base model, and lower
//    under at least 95% of the score interval's alternatives, compared alternative by alternative
//    (safer_by: the paired differences' 5th and 95th percentiles);
//  - reachable: job zone within 1; BLS typical entry education at most one level up; no licensed
//    profession (physicians, dentists, law, ...) from outside its family;
//  - in demand: BLS projects no decline, and at least min_employment jobs;
//  - paid: at least min_wage_ratio (60%) of the current median wage (a larger cut costs more than
//    displacement typically does).
// Model 3.1 adds (seeds/advice.json, given as a MoveGuide): a move leaves the origin's tier or is
// lower by >= same_tier_min_points at safer_by.low; an O*NET-related occupation needs similarity
// >= related_min_similarity; no destination BLS Table 1.12 names as cut by technology or AI; an
// origin outside the high tier that BLS projects to grow gets only moves that pay and grow more;
// one row per job pool (OEWS or projections code); capacity (allocateMoves).
// Ranked: lower tier and desirable pay (>= 75% of the current median wage) first, then desirable,
// then the rest; within a group O*NET's tiers and similarity. Skill gaps come from the chosen
// options: O*NET skills they need at a higher level than this occupation has, on O*NET's scales
// (level 0-7, importance 1-5).
import type { ElementRating } from './inputs.ts';
import { nearestAnchor, type AnchorIndex } from './level-anchors.ts';
import type { RiskTier, SkillGap, TransitionOption } from './record-schemas.ts';
import { quantileSorted, round } from './num.ts';
import type { ModelParamsSeed } from './params.ts';
import { compareText } from './text.ts';
import type { AdviceSeed } from './advice-params.ts';

/** What the 3.1 rules need beyond the scores: the advice seed, Table 1.12's cut rule and job pools. */
export interface MoveGuide {
  advice: AdviceSeed;
  /** Whether Table 1.12 names the occupation as cut by technology or AI (ep-factors.ts). */
  cut: (soc: string) => boolean;
  /** The occupation's job pool: occupations sharing an OEWS or a projections code share one. */
  pool: (soc: string) => string;
}

export interface ScoredRef {
  soc_code: string;
  title: string;
  slug: string;
  final_score: number;
  risk_tier: RiskTier;
  job_zone: number;
  median_annual_wage: number | null;
  /** Scores under the interval's alternatives (base first), in the same order for every occupation. */
  alternatives?: readonly number[];
  /** BLS Table 1.2 (null when the occupation has no projection). */
  entry_education?: string | null;
  related_experience?: string | null;
  on_the_job_training?: string | null;
  employment?: number | null;
  projected_change_pct?: number | null;
  projected_openings_annual?: number | null;
}

export type RelatedTier = NonNullable<TransitionOption['related_tier']>;

const TIER_ORDER: Record<RiskTier, number> = { low: 0, medium: 1, high: 2 };
export const SKILL_SCALE = 'O*NET level 0-7 (LV), importance 1-5 (IM)';

/** A candidate is safer when it scores at least min(margin, relative * score) lower. */
export function isSafer(origin: number, candidate: number, p: ModelParamsSeed): boolean {
  const g = p.skill_gaps;
  const margin = Math.min(g.min_score_margin.value, g.relative_margin.value * origin);
  return candidate <= origin - margin && candidate < origin;
}

/**
 * Points by which b scores lower than a, paired (alternative i of a with alternative i of b; one
 * modelling choice moves both scores), to one decimal. With q = 0: the least and the largest
 * difference. With q > 0 (the model's, p.interval.safer_quantile): the q and 1 - q quantiles of
 * the construction alternatives' differences (entries after the first), widened to hold the base
 * model's (the first): low > 0 says b is lower under at least 1 - q of the alternatives. Without
 * alternatives, the base.
 */
export function saferBy(a: Pick<ScoredRef, 'final_score' | 'alternatives'>, b: Pick<ScoredRef, 'final_score' | 'alternatives'>, q = 0): { low: number; high: number } {
  const xs = a.alternatives ?? [a.final_score];
  const ys = b.alternatives ?? [b.final_score];
  const n = xs.length;
  if (q === 0 || n < 2) {
    // Rounding is monotone, so the rounded least and largest differences are those of the raw ones.
    let low = Infinity;
    let high = -Infinity;
    for (let i = 0; i < n; i++) {
      const d = xs[i]! - ys[i]!;
      if (d < low) low = d;
      if (d > high) high = d;
      // Not lower under one alternative: out whatever the rest say (low is that difference).
      if (Math.round(low * 10) <= 0) break;
    }
    return { low: round(low, 1), high: round(high, 1) };
  }
  // This runs for every safer-looking pair: count the alternatives under which b is not lower and
  // stop once more of them than the q quantile allows (the pair is out), before any sort.
  const m = n - 1;
  const allowed = Math.ceil((m - 1) * q);
  const diffs = new Float64Array(m);
  let notLower = 0;
  for (let i = 1; i < n; i++) {
    const d = xs[i]! - ys[i]!;
    diffs[i - 1] = d;
    if (Math.round(d * 10) <= 0 && ++notLower > allowed) return { low: round(Math.min(d, 0), 1), high: round(xs[0]! - ys[0]!, 1) };
  }
  diffs.sort();
  const base = xs[0]! - ys[0]!;
  return { low: round(Math.min(base, quantileSorted(diffs, q)), 1), high: round(Math.max(base, quantileSorted(diffs, 1 - q)), 1) };
}

/**
 * Whether saferBy(a, b, q).low > 0, decided by counting the alternatives under which b is not
 * lower (no sort): with at most floor(h) of them (h = (m - 1) q over m construction alternatives)
 * both order statistics around the q quantile are lower, with more than ceil(h) neither is; only
 * in between is the quantile computed. This runs for every safer-looking pair of occupations.
 */
export function lowerOverRange(a: Pick<ScoredRef, 'final_score' | 'alternatives'>, b: Pick<ScoredRef, 'final_score' | 'alternatives'>, q: number): boolean {
  const xs = a.alternatives ?? [a.final_score];
  const ys = b.alternatives ?? [b.final_score];
  if (q === 0 || xs.length < 2) return saferBy(a, b, q).low > 0;
  if (Math.round((xs[0]! - ys[0]!) * 10) <= 0) return false;
  const h = (xs.length - 2) * q;
  const above = Math.ceil(h);
  let notLower = 0;
  for (let i = 1; i < xs.length; i++) if (Math.round((xs[i]! - ys[i]!) * 10) <= 0 && ++notLower > above) return false;
  return notLower <= Math.floor(h) || saferBy(a, b, q).low > 0;
}

/** The licensed family an occupation belongs to (by SOC prefix), or null. */
export function familyOf(soc: string, p: ModelParamsSeed): string | null {
  for (const [name, f] of Object.entries(p.skill_gaps.licensed_families.value)) if (f.members.some((m) => soc.startsWith(m))) return name;
  return null;
}

/** Whether `origin` may be offered `target` under the licence rule: same family, or on its entry route. */
export function licenceAllows(origin: string, target: string, p: ModelParamsSeed): boolean {
  const fam = familyOf(target, p);
  if (fam === null) return true;
  const f = p.skill_gaps.licensed_families.value[fam]!;
  return f.members.some((m) => origin.startsWith(m)) || f.entry_from.some((m) => origin.startsWith(m));
}

/** A destination asking advice.moves.ladder_experience of related work experience, from outside its SOC major group. */
export function skipsLadder(origin: Pick<ScoredRef, 'soc_code'>, target: Pick<ScoredRef, 'soc_code' | 'related_experience'>, advice: AdviceSeed): boolean {
  const ladder = advice.moves.ladder_experience.value;
  const needs = ladder === 'Less than 5 years' ? target.related_experience === 'Less than 5 years' || target.related_experience === '5 years or more' : target.related_experience === ladder;
  return needs && target.soc_code.slice(0, 2) !== origin.soc_code.slice(0, 2);
}

/** A lower job zone or a lower entry education (a step down in skill), at no more pay (wage ratio <= 1 or unknown). */
export function stepsDown(origin: ScoredRef, target: ScoredRef, ratio: number | null, p: ModelParamsSeed): boolean {
  const o = educationLevel(origin.entry_education, p);
  const t = educationLevel(target.entry_education, p);
  const lower = target.job_zone < origin.job_zone || (o !== null && t !== null && t < o);
  return lower && !(ratio !== null && ratio > 1);
}

/** BLS education level of an entry category (null when unknown). */
export const educationLevel = (education: string | null | undefined, p: ModelParamsSeed): number | null =>
  education == null ? null : (p.skill_gaps.education_levels.value[education] ?? null);

const DOCTORAL = 'Doctoral or professional degree';

/** Whether the target's entry education is within reach: at most max_education_step up, and a doctoral or professional degree only from one. */
export function educationAllows(origin: string | null | undefined, target: string | null | undefined, p: ModelParamsSeed): boolean {
  if (target === DOCTORAL && origin !== DOCTORAL) return false;
  const t = educationLevel(target, p);
  const o = educationLevel(origin, p);
  return t === null || o === null || t - o <= p.skill_gaps.max_education_step.value;
}

/**
 * An O*NET specialty: an O*NET-SOC code below its SOC occupation (not .00). OEWS and BLS count the
 * SOC occupation only, so its employment and projection are its SOC occupation's, shared.
 */
export const isSpecialty = (soc: string): boolean => !soc.endsWith('.00');

const pct = (x: number) => `${x > 0 ? '+' : ''}${x.toFixed(1)}%`;
const count = (x: number) => Math.round(x).toLocaleString('en-US');

/** One line that says why an option is listed, in numbers. */
export function reasonFor(o: TransitionOption, origin: ScoredRef, p: ModelParamsSeed): string {
  const g = p.skill_gaps;
  const shared =
    (o.related_tier ? `O*NET related occupation (${o.related_tier}); ` : '') +
    (o.similarity >= g.highly_viable_similarity.value ? 'highly similar' : o.similarity >= g.viable_similarity.value ? 'similar' : 'partly similar') +
    ` skills, knowledge and activities (${o.similarity.toFixed(2)})`;
  const step = o.education_step;
  const training =
    o.entry_education === null
      ? 'entry education not published'
      : `entry: ${o.entry_education}` +
        (step === null ? '' : step > 0 ? ` (${step} level up from ${origin.entry_education})` : step === 0 ? ' (same level)' : ' (lower level)') +
        (o.related_experience && o.related_experience !== 'None' ? `, related work experience ${o.related_experience.toLowerCase()}` : '') +
        (o.on_the_job_training && o.on_the_job_training !== 'None' ? `, ${o.on_the_job_training.toLowerCase()}` : '');
  const demand =
    `BLS 2024-34 ${o.projected_employment_change_pct === null ? 'change n/a' : pct(o.projected_employment_change_pct)}` +
    (o.projected_openings_annual === null ? '' : `, ${count(o.projected_openings_annual)} openings a year`) +
    (o.employment === null ? '' : isSpecialty(o.soc_code) ? `, ${count(o.employment)} jobs in its SOC occupation (not counted separately)` : `, ${count(o.employment)} jobs`);
  const tier = TIER_ORDER[o.risk_tier] < TIER_ORDER[origin.risk_tier] ? `lower exposure tier (${o.risk_tier} vs ${origin.risk_tier})` : `lower exposure (${o.final_score} vs ${origin.final_score})`;
  const safer = `${tier}, ${o.safer_by.low}-${o.safer_by.high} points lower under 95% of model alternatives`;
  return `${shared}; ${training}; ${payWords(o.wage_ratio, g.desirable_wage_ratio.value)}; ${demand}; ${safer}.`.replace(/^./, (c) => c.toUpperCase());
}

/**
 * A move's pay against the current median, in words: more (by how much), else the share kept, and
 * under the desirable share what it pays. The one pay wording: the served reasons and the page's
 * verdict (emit/verdict.ts) both say it this way, so a page never states a ratio two ways.
 */
export function payWords(ratio: number | null, desirable: number): string {
  if (ratio === null) return 'pay not published';
  const more = Math.round(100 * (ratio - 1));
  if (more >= 1) return `pays ${more}% more`;
  return ratio >= desirable ? `keeps ${Math.round(100 * ratio)}% of pay` : `pays ${Math.round(100 * ratio)}% of current pay`;
}

/** Group, then fit, then by similarity; the SOC code makes the order total. */
const byRank = (a: EligibleMove, b: EligibleMove): number => a.group - b.group || a.fit - b.fit || b.s - a.s || compareText(a.c.soc_code, b.c.soc_code);

/**
 * The first k of xs in a total order, as xs.sort(order).slice(0, k) gives them, keeping k in one
 * pass (an origin has some 90 options and lists at most max_transitions).
 */
export function firstK<T>(xs: readonly T[], k: number, order: (a: T, b: T) => number): T[] {
  const top: T[] = [];
  if (k <= 0) return top;
  for (const x of xs) {
    if (top.length === k) {
      if (order(x, top[k - 1]!) >= 0) continue;
      top[k - 1] = x;
    } else top.push(x);
    for (let j = top.length - 1; j > 0 && order(top[j]!, top[j - 1]!) < 0; j--) [top[j - 1], top[j]] = [top[j]!, top[j - 1]!];
  }
  return top;
}

/**
 * The occupations in the field, and what each rule removed of them, in the order the rules apply
 * (the note of an occupation with few options).
 */
export interface TransitionFilterCounts {
  /** Other scored occupations. */
  others: number;
  /** Of them in the field: O*NET related occupations, and similar occupations of the major group. */
  related: number;
  similar: number;
  not_safer: number;
  job_zone: number;
  education_or_licence: number;
  demand: number;
  pay: number;
  /** 3.1: O*NET related occupations below related_min_similarity (not in the field). */
  low_similarity: number;
  same_tier: number;
  cut_by_technology: number;
  growing_origin: number;
  /** 3.1: a destination asking advice.moves.ladder_experience from outside its SOC major group (a ladder skipped). */
  ladder: number;
  /** 3.1: a lower job zone or entry education at no more pay (a step down in skill). */
  step_down: number;
  /** Options left out as the second row of a job pool already listed (among the first max_transitions). */
  same_pool: number;
}

type RuleKey = 'not_safer' | 'same_tier' | 'job_zone' | 'education_or_licence' | 'ladder' | 'demand' | 'pay' | 'step_down' | 'cut_by_technology' | 'growing_origin';
/** What each rule says of the occupations it removed: [one, several]. */
export function noteWords(p: ModelParamsSeed): Record<RuleKey, readonly [string, string]> {
  const floor = `${Math.round(100 * p.skill_gaps.min_wage_ratio.value)}% of this occupation's pay`;
  return {
    not_safer: ['does not score lower under 95% of model alternatives', 'do not score lower under 95% of model alternatives'],
    same_tier: ['stays in its exposure tier and is lower by less than 5 points', 'stay in its exposure tier and are lower by less than 5 points'],
    cut_by_technology: ['is named by BLS (Table 1.12) as cut by technology or AI', 'are named by BLS (Table 1.12) as cut by technology or AI'],
    growing_origin: ['does not pay and grow more than this growing occupation', 'do not pay and grow more than this growing occupation'],
    job_zone: ['is more than one job zone away', 'are more than one job zone away'],
    education_or_licence: ['needs more than one education level up or a licence of another profession', 'need more than one education level up or a licence of another profession'],
    ladder: ['asks years of experience in another field (the top of a ladder)', 'ask years of experience in another field (the top of a ladder)'],
    step_down: ['is a step down in skill (lower job zone or entry education) at no more pay', 'are a step down in skill (lower job zone or entry education) at no more pay'],
    demand: ['is projected to decline or has too few jobs', 'are projected to decline or have too few jobs'],
    pay: [`pays less than ${floor}`, `pay less than ${floor}`],
  };
}

/** Why an occupation has fewer than min_options options: its field, and what each rule removed of it. */
export function transitionNote(listed: number, removed: TransitionFilterCounts, p: ModelParamsSeed): string | null {
  if (listed >= p.skill_gaps.min_options.value) return null;
  const head = listed === 0 ? 'No transition option' : `Only ${listed} transition option`;
  const inField = removed.related + removed.similar;
  const viable = p.skill_gaps.viable_similarity.value;
  if (inField === 0)
    return `${head}: none of the ${removed.others} other scored occupations is in its field (no O*NET related occupation is scored, and none of its major group has similarity >= ${viable}).`;
  const words = noteWords(p);
  const parts = (Object.keys(words) as RuleKey[]).filter((k) => removed[k] > 0).map((k) => `${removed[k]} ${words[k][removed[k] === 1 ? 0 : 1]}`);
  const field = `${inField} of the ${removed.others} other scored occupations are in its field (${removed.related} O*NET related, ${removed.similar} of its major group with similarity >= ${viable})`;
  return `${head}: ${field}; of ${listed === 0 ? 'these' : `the other ${inField - listed}`}, ${parts.join('; ')}.`;
}

/**
 * Up to max_transitions options (the rules above), in groups: (1) lower tier and desirable,
 * (2) desirable, (3) the rest; within a group O*NET's tiers and highly viable first, then by
 * similarity.
 */
export function transitionOptions(...args: Parameters<typeof transitionChoice>): TransitionOption[] {
  return transitionChoice(...args).options;
}

/** An option that passed every rule of one origin, before the job pool and capacity rules. */
export interface EligibleMove {
  c: ScoredRef;
  s: number;
  ratio: number | null;
  group: number;
  fit: number;
  related: RelatedTier | null;
  safer: { low: number; high: number };
}

/** transitionOptions, with the field, what each rule removed of it, and every eligible option ranked. */
export function transitionChoice(
  origin: ScoredRef,
  candidates: readonly ScoredRef[],
  /** Similarity to each candidates[i] asked for; may be null where it is certainly below `atLeast` (or unknown). */
  sims: (candidateIndexes: readonly number[], atLeast: number) => ReadonlyArray<number | null>,
  p: ModelParamsSeed,
  /** O*NET Related Occupations of the origin: related SOC code -> tier. */
  related: ReadonlyMap<string, string> = new Map(),
  /** The 3.1 rules; without it only the 3.0 rules apply (unit tests of those). */
  guide?: MoveGuide,
): { options: TransitionOption[]; removed: TransitionFilterCounts; eligible: EligibleMove[] } {
  const g = p.skill_gaps;
  // Plain loops with the origin's constants hoisted: this runs for every pair of occupations.
  const margin = Math.min(g.min_score_margin.value, g.relative_margin.value * origin.final_score);
  const saferBelow = origin.final_score - margin;
  const maxZone = g.max_job_zone_difference.value;
  const viable = g.viable_similarity.value;
  const relatedMin = guide ? guide.advice.moves.related_min_similarity.value : -Infinity;
  const sameTierMin = guide ? guide.advice.moves.same_tier_min_points.value : -Infinity;
  const q = p.interval.safer_quantile.value;
  const major = origin.soc_code.slice(0, 2);
  const growing = guide !== undefined && origin.risk_tier !== 'high' && (origin.projected_change_pct ?? 0) > 0;
  // The field first, so that the note counts what the rules removed of it: O*NET's related
  // occupations (at related_min_similarity or more), and the occupations of the major group (not
  // specialties, whose size is not their own) with a viable similarity.
  const relatedIdx: number[] = [];
  const groupIdx: number[] = [];
  let others = 0;
  candidates.forEach((c, i) => {
    if (c.soc_code === origin.soc_code) return;
    others++;
    if (related.has(c.soc_code)) relatedIdx.push(i);
    else if (c.soc_code.slice(0, 2) === major && !isSpecialty(c.soc_code)) groupIdx.push(i);
  });
  const removed: TransitionFilterCounts = {
    others, related: 0, similar: 0, not_safer: 0, job_zone: 0, education_or_licence: 0, demand: 0, pay: 0,
    low_similarity: 0, same_tier: 0, cut_by_technology: 0, growing_origin: 0, ladder: 0, step_down: 0, same_pool: 0,
  };
  const field: Array<{ ci: number; s: number; rel: RelatedTier | null }> = [];
  const relSims = relatedIdx.length > 0 ? sims(relatedIdx, -Infinity) : [];
  relatedIdx.forEach((ci, k) => {
    const s = relSims[k];
    if (s == null) return;
    if (s < relatedMin) removed.low_similarity++;
    else field.push({ ci, s, rel: related.get(candidates[ci]!.soc_code) as RelatedTier });
  });
  const groupSims = groupIdx.length > 0 ? sims(groupIdx, viable) : [];
  groupIdx.forEach((ci, k) => {
    const s = groupSims[k];
    if (s != null && s >= viable) field.push({ ci, s, rel: null });
  });
  const list: EligibleMove[] = [];
  const ownPool = guide?.pool(origin.soc_code);
  for (const { ci, s, rel } of field) {
    const c = candidates[ci]!;
    if (rel === null) removed.similar++;
    else removed.related++;
    // The origin's own job pool (its O*NET specialties, or the SOC occupation of a specialty) is no move.
    if (guide && guide.pool(c.soc_code) === ownPool) {
      removed.same_pool++;
      continue;
    }
    // isSafer, inlined; then lower under 1 - q of the paired alternatives.
    if (!(c.final_score <= saferBelow && c.final_score < origin.final_score && lowerOverRange(origin, c, q))) {
      removed.not_safer++;
      continue;
    }
    const lowerTier = TIER_ORDER[c.risk_tier] < TIER_ORDER[origin.risk_tier];
    const safer = saferBy(origin, c, q);
    if (!lowerTier && safer.low < sameTierMin) {
      removed.same_tier++;
      continue;
    }
    if (Math.abs(c.job_zone - origin.job_zone) > maxZone) {
      removed.job_zone++;
      continue;
    }
    if (!educationAllows(origin.entry_education, c.entry_education, p) || !licenceAllows(origin.soc_code, c.soc_code, p)) {
      removed.education_or_licence++;
      continue;
    }
    if (guide && skipsLadder(origin, c, guide.advice)) {
      removed.ladder++;
      continue;
    }
    if (c.projected_change_pct == null || c.projected_change_pct < g.min_projected_change_pct.value || c.employment == null || c.employment < g.min_employment.value) {
      removed.demand++;
      continue;
    }
    const ratio = origin.median_annual_wage && c.median_annual_wage ? c.median_annual_wage / origin.median_annual_wage : null;
    if (ratio !== null && ratio < g.min_wage_ratio.value) {
      removed.pay++;
      continue;
    }
    if (guide && guide.advice.moves.no_step_down.value && stepsDown(origin, c, ratio, p)) {
      removed.step_down++;
      continue;
    }
    if (guide?.cut(c.soc_code)) {
      removed.cut_by_technology++;
      continue;
    }
    if (growing && !(ratio !== null && ratio > 1 && (c.projected_change_pct ?? -Infinity) > (origin.projected_change_pct ?? Infinity))) {
      removed.growing_origin++;
      continue;
    }
    const desirable = ratio !== null && ratio >= g.desirable_wage_ratio.value;
    const group = lowerTier && desirable ? 0 : desirable ? 1 : 2;
    const fit = rel === 'Primary-Short' ? 0 : rel === 'Primary-Long' || s >= g.highly_viable_similarity.value ? 1 : 2;
    list.push({ c, s, ratio, group, fit, related: rel, safer });
  }
  const eligible = list.sort(byRank);
  const { chosen, samePool } = pickMoves(eligible, g.max_transitions.value, guide?.pool ?? ((soc) => soc), new Set());
  removed.same_pool = samePool;
  return { options: chosen.map((m) => moveOption(origin, m, p)), removed, eligible };
}

/**
 * The first k of a ranked eligible list, one per job pool (the first of a pool in rank order),
 * leaving out the destinations in `blocked` (capacity).
 */
export function pickMoves(eligible: readonly EligibleMove[], k: number, pool: (soc: string) => string, blocked: ReadonlySet<string>): { chosen: EligibleMove[]; samePool: number } {
  const chosen: EligibleMove[] = [];
  const pools = new Set<string>();
  let samePool = 0;
  for (const m of eligible) {
    if (chosen.length >= k) break;
    if (blocked.has(m.c.soc_code)) continue;
    const key = pool(m.c.soc_code);
    if (pools.has(key)) {
      samePool++;
      continue;
    }
    pools.add(key);
    chosen.push(m);
  }
  return { chosen, samePool };
}

/** The published option of an eligible move. */
export function moveOption(origin: ScoredRef, m: EligibleMove, p: ModelParamsSeed): TransitionOption {
  const { c, s, ratio, related: rel, safer } = m;
  const originLevel = educationLevel(origin.entry_education, p);
  const targetLevel = educationLevel(c.entry_education, p);
  const o: TransitionOption = {
    soc_code: c.soc_code,
    title: c.title,
    slug: c.slug,
    final_score: c.final_score,
    risk_tier: c.risk_tier,
    similarity: round(s, 3),
    wage_ratio: ratio === null ? null : round(ratio, 3),
    job_zone: c.job_zone,
    safer_by: safer,
    related_tier: rel,
    entry_education: c.entry_education ?? null,
    education_step: originLevel === null || targetLevel === null ? null : targetLevel - originLevel,
    related_experience: c.related_experience ?? null,
    on_the_job_training: c.on_the_job_training ?? null,
    employment: c.employment ?? null,
    projected_employment_change_pct: c.projected_change_pct ?? null,
    projected_openings_annual: c.projected_openings_annual ?? null,
    reason: '',
  };
  o.reason = reasonFor(o, origin, p);
  return o;
}

/**
 * Capacity over every origin's moves: a destination pool's offered origins may hold at most
 * K workers per annual opening; over it, the most similar origins keep it (others are blocked
 * and take their next eligible move). Repeats until no pool is over (blocks only grow, so it
 * ends). Returns each origin's chosen moves and the pairs capacity removed.
 */
export function allocateMoves(
  origins: ReadonlyArray<{ soc: string; workers: number; eligible: readonly EligibleMove[] }>,
  k: number,
  pool: (soc: string) => string,
  openings: (poolKey: string) => number | null,
  max: number,
): { chosen: Map<string, EligibleMove[]>; blocked: number } {
  const blocked = new Map<string, Set<string>>(origins.map((o) => [o.soc, new Set<string>()]));
  let nBlocked = 0;
  for (;;) {
    const chosen = new Map(origins.map((o) => [o.soc, pickMoves(o.eligible, max, pool, blocked.get(o.soc)!).chosen]));
    const byPool = new Map<string, Array<{ origin: string; dest: string; s: number; workers: number }>>();
    origins.forEach((o) => {
      for (const m of chosen.get(o.soc)!) {
        const key = pool(m.c.soc_code);
        const xs = byPool.get(key) ?? [];
        xs.push({ origin: o.soc, dest: m.c.soc_code, s: m.s, workers: o.workers });
        byPool.set(key, xs);
      }
    });
    let added = 0;
    for (const [key, xs] of [...byPool].sort((a, b) => compareText(a[0], b[0]))) {
      if (k === Infinity) continue;
      const cap = k * (openings(key) ?? 0);
      if (xs.reduce((a, x) => a + x.workers, 0) <= cap) continue;
      let used = 0;
      for (const x of [...xs].sort((a, b) => b.s - a.s || compareText(a.origin, b.origin))) {
        if (used + x.workers <= cap) used += x.workers;
        else {
          blocked.get(x.origin)!.add(x.dest);
          added++;
        }
      }
    }
    nBlocked += added;
    if (added === 0) return { chosen, blocked: nBlocked };
  }
}

/** An element rating a gap can use: not suppressed, with level and importance. */
const usable = (r: ElementRating | undefined): r is ElementRating & { level: number; importance: number } =>
  r !== undefined && !r.recommend_suppress && r.level !== null && r.importance !== null;
const levelOf = (r: ElementRating & { level: number }): number => (r.not_relevant ? 0 : r.level);

/**
 * Elements the chosen options need at a higher level: for each element, the targets that rate it
 * at least min_target_importance set target_level = their mean level and importance = their mean
 * importance; a gap >= min_gap is listed, largest gap x importance / 5 first.
 */
export function elementGaps(
  own: ReadonlyMap<string, ElementRating> | undefined,
  targets: ReadonlyArray<ReadonlyMap<string, ElementRating> | undefined>,
  p: ModelParamsSeed,
  release: string,
  kind: 'skill' | 'knowledge',
  /** The targets' SOC codes and titles, in their order (each gap names the options that set it). */
  named: ReadonlyArray<{ soc_code: string; title: string }> = [],
  anchors: AnchorIndex = new Map(),
): Array<SkillGap & { rank: number }> {
  if (!own) return [];
  const g = p.skill_gaps;
  const minImportance = g.min_target_importance.value;
  const ids = new Set<string>();
  for (const t of targets) if (t) for (const k of t.keys()) ids.add(k);
  const out: Array<SkillGap & { rank: number }> = [];
  for (const id of [...ids].sort()) {
    const mine = own.get(id);
    if (!usable(mine)) continue;
    // Sums in target order from 0, as the mean of a list of the usable ratings was taken.
    let count = 0;
    let levels = 0;
    let importances = 0;
    const toward: string[] = [];
    const neededBy: string[] = [];
    for (const [ti, t] of targets.entries()) {
      const r = t?.get(id);
      if (!usable(r) || r.importance < minImportance) continue;
      count++;
      if (named[ti] !== undefined) {
        toward.push(named[ti]!.soc_code);
        neededBy.push(named[ti]!.title);
      }
      levels += levelOf(r);
      importances += r.importance;
    }
    if (count === 0) continue;
    const level = levels / count;
    const importance = importances / count;
    const current = levelOf(mine);
    const gap = level - current;
    if (gap < g.min_gap.value) continue;
    out.push({
      element_id: id,
      name: mine.element_name,
      current_level: round(current, 2),
      target_level: round(level, 2),
      gap: round(gap, 2),
      importance: round(importance, 2),
      scale: SKILL_SCALE,
      kind,
      targets: count,
      toward,
      needed_by: neededBy,
      current_anchor: nearestAnchor(anchors, id, current),
      target_anchor: nearestAnchor(anchors, id, level),
      onet_release: release,
      rank: gap * (importance / 5),
    });
  }
  return out.sort((a, b) => b.rank - a.rank || compareText(a.element_id, b.element_id));
}

/**
 * Skill gaps (O*NET Skills) toward the moves and routes shown, filled up with Knowledge gaps when
 * skills give fewer than min_skill_items; both only where a target rates the element important
 * (min_target_importance). Each names the options needing it and quotes O*NET's level anchors.
 */
export function skillGaps(
  own: { skills: ReadonlyMap<string, ElementRating> | undefined; knowledge: ReadonlyMap<string, ElementRating> | undefined },
  targets: ReadonlyArray<{ soc_code: string; title: string; skills: ReadonlyMap<string, ElementRating> | undefined; knowledge: ReadonlyMap<string, ElementRating> | undefined }>,
  p: ModelParamsSeed,
  releases: { skills: string; knowledge: string },
  anchors: AnchorIndex,
): SkillGap[] {
  const g = p.skill_gaps;
  const skills = elementGaps(own.skills, targets.map((t) => t.skills), p, releases.skills, 'skill', targets, anchors).slice(0, g.max_items.value);
  const fill =
    skills.length < g.min_skill_items.value
      ? elementGaps(own.knowledge, targets.map((t) => t.knowledge), p, releases.knowledge, 'knowledge', targets, anchors).slice(0, g.min_skill_items.value - skills.length)
      : [];
  return [...skills, ...fill].map(({ rank: _rank, ...rest }) => rest);
}
