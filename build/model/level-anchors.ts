// O*NET Level Scale Anchors: each Skills and Knowledge element's level scale (0-7) comes with a few
// anchors (at 2, 4 and 6 for most) saying what that level looks like in practice. The skill gaps
// quote the anchor nearest a level so a reader sees "what it takes" rather than a bare number.
import type { LevelAnchor } from './inputs.ts';

/** Anchors by element, ascending by value. */
export type AnchorIndex = ReadonlyMap<string, ReadonlyArray<{ value: number; description: string }>>;

export function anchorIndex(rows: readonly LevelAnchor[]): AnchorIndex {
  const out = new Map<string, Array<{ value: number; description: string }>>();
  for (const r of rows) {
    let list = out.get(r.element_id);
    if (!list) out.set(r.element_id, (list = []));
    list.push({ value: r.value, description: r.description });
  }
  for (const list of out.values()) list.sort((a, b) => a.value - b.value);
  return out;
}

/**
 * The anchor nearest `level` (the lower one on a tie). Null below the first anchor by more than
 * `below` level points: a level near 0 (e.g. 0.3 against "2: read step-by-step instructions") is
 * not described by it. Between anchors the nearest one always stands (some elements space theirs
 * four points apart: Medicine and Dentistry at 1, 5, 7), so every level from 0.5 up has its words.
 */
export function nearestAnchor(index: AnchorIndex, elementId: string, level: number, below = 1.5): string | null {
  const list = index.get(elementId) ?? [];
  if (list.length === 0 || level < list[0]!.value - below) return null;
  let best = list[0]!;
  for (const a of list) if (Math.abs(a.value - level) < Math.abs(best.value - level)) best = a;
  return best.description;
}
