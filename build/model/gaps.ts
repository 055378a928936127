// Skill gaps toward lower-risk related occupations. Targets = the most closely related
// occupations (O*NET Related Occupations order) whose score is clearly lower; a gap is an O*NET
// skill the targets need at a higher level than this occupation has, and that matters there.
import type { ElementRating, RelatedOccupation } from '../sources/bundle.ts';
import type { RiskTier, SkillGap, TransitionOption } from './records.ts';
import { round } from './num.ts';
import type { ModelParamsSeed } from './params.ts';
import { compareText } from './text.ts';

export interface ScoredRef {
  soc_code: string;
  title: string;
  slug: string;
  final_score: number;
  risk_tier: RiskTier;
}

/** Related occupations scoring at least min_score_margin lower, closest relation first. */
export function transitionOptions(
  score: number,
  related: readonly RelatedOccupation[],
  scored: ReadonlyMap<string, ScoredRef>,
  p: ModelParamsSeed,
): TransitionOption[] {
  const margin = p.skill_gaps.min_score_margin.value;
  return [...related]
    .sort((a, b) => a.index - b.index || compareText(a.related_soc_code, b.related_soc_code))
    .map((r) => scored.get(r.related_soc_code))
    .filter((r): r is ScoredRef => r !== undefined && r.final_score <= score - margin)
    .slice(0, p.skill_gaps.max_transitions.value)
    .map((r) => ({ soc_code: r.soc_code, title: r.title, slug: r.slug, final_score: r.final_score, risk_tier: r.risk_tier }));
}

const usable = (r: ElementRating | undefined): { level: number; importance: number } | null => {
  if (!r || r.recommend_suppress || r.level === null || r.importance === null) return null;
  return { level: r.not_relevant ? 0 : r.level, importance: r.importance };
};

export function skillGaps(
  own: ReadonlyMap<string, ElementRating> | undefined,
  targets: ReadonlyArray<ReadonlyMap<string, ElementRating> | undefined>,
  p: ModelParamsSeed,
): SkillGap[] {
  if (!own) return [];
  const g = p.skill_gaps;
  const ids = new Set<string>();
  for (const t of targets) for (const k of t?.keys() ?? []) ids.add(k);
  const out: Array<SkillGap & { rank: number }> = [];
  for (const id of [...ids].sort()) {
    const mine = usable(own.get(id));
    if (!mine) continue;
    // Only targets where the skill matters set the bar: averaging in targets that barely use a
    // skill would hide what the move actually requires.
    const ts = targets
      .map((t) => usable(t?.get(id)))
      .filter((x): x is { level: number; importance: number } => x !== null && x.importance >= g.min_target_importance.value);
    if (ts.length === 0) continue;
    const level = ts.reduce((a, x) => a + x.level, 0) / ts.length;
    const importance = ts.reduce((a, x) => a + x.importance, 0) / ts.length;
    const gap = level - mine.level;
    if (gap < g.min_gap.value) continue;
    out.push({
      element_id: id,
      name: (own.get(id) ?? targets.find((t) => t?.get(id))?.get(id))!.element_name,
      current_level: round(mine.level, 2),
      target_level: round(level, 2),
      gap: round(gap, 2),
      importance: round(importance, 2),
      // Importance-weighted gap: a large gap in a skill that barely matters ranks low.
      rank: gap * (importance / 5),
    });
  }
  return out
    .sort((a, b) => b.rank - a.rank || compareText(a.element_id, b.element_id))
    .slice(0, g.max_items.value)
    .map(({ rank: _rank, ...rest }) => rest);
}
