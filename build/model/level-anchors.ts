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
 * The anchor nearest `level` (the lower one on a tie), or null when none lies within
 * `maxDistance` level points: a level far below the first anchor (e.g. 0.3 against "2: read
 * step-by-step instructions") is not described by it. 1.5, as some elements space their anchors
 * three points apart (Mechanical: 2, 4, 7), so that every level from 0.5 up has its words.
 */
export function nearestAnchor(index: AnchorIndex, elementId: string, level: number, maxDistance = 1.5): string | null {
  let best: { value: number; description: string } | null = null;
  for (const a of index.get(elementId) ?? []) {
    if (best === null || Math.abs(a.value - level) < Math.abs(best.value - level)) best = a;
  }
  return best !== null && Math.abs(best.value - level) <= maxDistance ? best.description : null;
}
