// A squarified treemap (Bruls, Huizing and van Wijk, 2000): rectangles whose areas are
// proportional to their weights, filling the bounds, laid out row by row along the shorter side
// so that they stay close to squares. Pure: the same weights give the same rectangles.

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The worst aspect ratio of a row of areas laid along a side of length `side`. */
function worst(areas: readonly number[], side: number): number {
  let sum = 0;
  let max = 0;
  let min = Infinity;
  for (const a of areas) {
    sum += a;
    if (a > max) max = a;
    if (a < min) min = a;
  }
  const s2 = sum * sum;
  const side2 = side * side;
  return Math.max((side2 * max) / s2, s2 / (side2 * min));
}

/**
 * One rectangle per weight, in the order given. Heavier weights are placed first (ties in input
 * order), so the result does not depend on how the caller sorted. Weights must be positive.
 */
export function squarify(weights: readonly number[], bounds: Rect): Rect[] {
  for (const w of weights) if (!(w > 0) || !Number.isFinite(w)) throw new Error(`treemap weight must be positive and finite, got ${w}`);
  const out: Rect[] = new Array(weights.length);
  if (weights.length === 0) return out;
  const total = weights.reduce((a, b) => a + b, 0);
  const scale = (bounds.w * bounds.h) / total;
  const order = weights.map((_, i) => i).sort((a, b) => weights[b]! - weights[a]! || a - b);
  let rest: Rect = { ...bounds };
  let i = 0;
  while (i < order.length) {
    const side = Math.min(rest.w, rest.h);
    const row = [order[i]!];
    let areas = [weights[order[i]!]! * scale];
    i++;
    while (i < order.length) {
      const next = [...areas, weights[order[i]!]! * scale];
      if (worst(next, side) > worst(areas, side)) break;
      areas = next;
      row.push(order[i]!);
      i++;
    }
    const last = i === order.length;
    const rowArea = areas.reduce((a, b) => a + b, 0);
    if (rest.w >= rest.h) {
      // A column at the left of what is left.
      const w = last ? rest.w : rowArea / rest.h;
      let y = rest.y;
      row.forEach((idx, k) => {
        const h = k === row.length - 1 ? rest.y + rest.h - y : areas[k]! / w;
        out[idx] = { x: rest.x, y, w, h };
        y += h;
      });
      rest = { x: rest.x + w, y: rest.y, w: rest.w - w, h: rest.h };
    } else {
      // A row along the top of what is left.
      const h = last ? rest.h : rowArea / rest.w;
      let x = rest.x;
      row.forEach((idx, k) => {
        const w = k === row.length - 1 ? rest.x + rest.w - x : areas[k]! / h;
        out[idx] = { x, y: rest.y, w, h };
        x += w;
      });
      rest = { x: rest.x, y: rest.y + h, w: rest.w, h: rest.h - h };
    }
  }
  return out;
}
