// Transitions and skill gaps (model 2). Candidates are every scored occupation; the rules follow
// Nesta's Mapping Career Causeways: viable if similarity >= 0.3 (highly viable >= 0.4) and the
// job zone differs by at most 1; "safer" = clearly lower score; "desirable" = keeps >= 75% of
// the current median wage. Skill gaps come from the chosen options: O*NET skills they need at a
// higher level than this occupation has, on O*NET's scales (level 0-7, importance 1-5).
import type { ElementRating } from './inputs.ts';
import type { RiskTier, SkillGap, TransitionOption } from './record-schemas.ts';
import { round } from './num.ts';
import type { ModelParamsSeed } from './params.ts';
import { compareText } from './text.ts';

export interface ScoredRef {
  soc_code: string;
  title: string;
  slug: string;
  final_score: number;
  risk_tier: RiskTier;
  job_zone: number;
  median_annual_wage: number | null;
}

const TIER_ORDER: Record<RiskTier, number> = { low: 0, medium: 1, high: 2 };
export const SKILL_SCALE = 'O*NET level 0-7 (LV), importance 1-5 (IM)';

/** A candidate is safer when it scores at least min(margin, relative * score) lower. */
export function isSafer(origin: number, candidate: number, p: ModelParamsSeed): boolean {
  const g = p.skill_gaps;
  const margin = Math.min(g.min_score_margin.value, g.relative_margin.value * origin);
  return candidate <= origin - margin && candidate < origin;
}

/** One line that says why an option is listed. */
export function reasonFor(o: { similarity: number; wage_ratio: number | null; risk_tier: RiskTier; final_score: number }, origin: ScoredRef, p: ModelParamsSeed): string {
  const g = p.skill_gaps;
  const fit =
    o.similarity >= g.highly_viable_similarity.value ? 'Highly similar' : o.similarity >= g.viable_similarity.value ? 'Similar' : 'Stretch move: partly similar';
  const tier = TIER_ORDER[o.risk_tier] < TIER_ORDER[origin.risk_tier] ? `lower risk tier (${o.risk_tier} vs ${origin.risk_tier})` : `lower risk (${o.final_score} vs ${origin.final_score})`;
  const pay = o.wage_ratio === null ? 'pay not published' : o.wage_ratio >= g.desirable_wage_ratio.value ? `keeps ${Math.round(100 * o.wage_ratio)}% of pay` : `pays ${Math.round(100 * o.wage_ratio)}% of current pay`;
  return `${fit} skills, knowledge and activities (${o.similarity.toFixed(2)}), ${tier}, ${pay}.`;
}

interface Option {
  c: ScoredRef;
  s: number;
  ratio: number | null;
  group: number;
  highly: number;
  viable: boolean;
}

/** Group, then highly viable first, then by similarity; the SOC code makes the order total. */
const byRank = (a: Option, b: Option): number => a.group - b.group || a.highly - b.highly || b.s - a.s || compareText(a.c.soc_code, b.c.soc_code);

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
 * Up to max_transitions safer, viable candidates, in groups: (1) lower tier and desirable,
 * (2) desirable, (3) the rest; within a group highly viable first, then by similarity.
 */
export function transitionOptions(
  origin: ScoredRef,
  candidates: readonly ScoredRef[],
  /** Similarity to each candidates[i] asked for; may be null where it is certainly below `atLeast` (or unknown). */
  sims: (candidateIndexes: readonly number[], atLeast: number) => ReadonlyArray<number | null>,
  p: ModelParamsSeed,
): TransitionOption[] {
  const g = p.skill_gaps;
  // Plain loops with the origin's constants hoisted: this runs for every pair of occupations.
  const margin = Math.min(g.min_score_margin.value, g.relative_margin.value * origin.final_score);
  const saferBelow = origin.final_score - margin;
  const maxZone = g.max_job_zone_difference.value;
  const stretchMin = g.stretch_similarity.value;
  const pool: number[] = [];
  candidates.forEach((c, i) => {
    // isSafer, inlined.
    if (c.soc_code === origin.soc_code || !(c.final_score <= saferBelow && c.final_score < origin.final_score)) return;
    if (Math.abs(c.job_zone - origin.job_zone) > maxZone) return;
    pool.push(i);
  });
  // Similarities of the whole pool at once (computed several pairs at a time).
  const similarities = sims(pool, stretchMin);
  const list: Option[] = [];
  pool.forEach((ci, i) => {
    const c = candidates[ci]!;
    const s = similarities[i];
    if (s === null || s === undefined || s < stretchMin) return;
    const ratio = origin.median_annual_wage && c.median_annual_wage ? c.median_annual_wage / origin.median_annual_wage : null;
    const desirable = ratio !== null && ratio >= g.desirable_wage_ratio.value;
    const lowerTier = TIER_ORDER[c.risk_tier] < TIER_ORDER[origin.risk_tier];
    const group = lowerTier && desirable ? 0 : desirable ? 1 : 2;
    const highly = s >= g.highly_viable_similarity.value ? 0 : 1;
    list.push({ c, s, ratio, group, highly, viable: s >= g.viable_similarity.value });
  });
  // Viable options first; stretch options only to reach min_options (and, for a high-tier
  // origin, two lower-tier desirable options). Only the first few viable options are needed in
  // order, and the stretch options only when there are fewer viable ones than max_transitions.
  const chosen = firstK(
    list.filter((x) => x.viable),
    g.max_transitions.value,
    byRank,
  );
  const stretch = chosen.length < g.max_transitions.value ? list.filter((x) => !x.viable).sort(byRank) : [];
  const goodLowerTier = (xs: Option[]) => xs.filter((x) => x.group === 0).length;
  for (const x of stretch) {
    if (chosen.length >= g.max_transitions.value) break;
    const needMore = chosen.length < g.min_options.value;
    const needLower = origin.risk_tier === 'high' && goodLowerTier(chosen) < g.min_options.value && x.group === 0;
    if (needMore || needLower) chosen.push(x);
  }
  return chosen.map(({ c, s, ratio }) => {
    const similarity = round(s, 3);
    const wage_ratio = ratio === null ? null : round(ratio, 3);
    return {
      soc_code: c.soc_code,
      title: c.title,
      slug: c.slug,
      final_score: c.final_score,
      risk_tier: c.risk_tier,
      similarity,
      wage_ratio,
      job_zone: c.job_zone,
      reason: reasonFor({ similarity, wage_ratio, risk_tier: c.risk_tier, final_score: c.final_score }, origin, p),
    };
  });
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
    for (const t of targets) {
      const r = t?.get(id);
      if (!usable(r) || r.importance < minImportance) continue;
      count++;
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
      onet_release: release,
      rank: gap * (importance / 5),
    });
  }
  return out.sort((a, b) => b.rank - a.rank || compareText(a.element_id, b.element_id));
}

/** Skill gaps (O*NET Skills), filled up with Knowledge gaps when skills give fewer than min_skill_items. */
export function skillGaps(
  own: { skills: ReadonlyMap<string, ElementRating> | undefined; knowledge: ReadonlyMap<string, ElementRating> | undefined },
  targets: ReadonlyArray<{ skills: ReadonlyMap<string, ElementRating> | undefined; knowledge: ReadonlyMap<string, ElementRating> | undefined }>,
  p: ModelParamsSeed,
  releases: { skills: string; knowledge: string },
): SkillGap[] {
  const g = p.skill_gaps;
  const skills = elementGaps(own.skills, targets.map((t) => t.skills), p, releases.skills, 'skill').slice(0, g.max_items.value);
  const fill =
    skills.length < g.min_skill_items.value
      ? elementGaps(own.knowledge, targets.map((t) => t.knowledge), p, releases.knowledge, 'knowledge').slice(0, g.min_skill_items.value - skills.length)
      : [];
  return [...skills, ...fill].map(({ rank: _rank, ...rest }) => rest);
}
