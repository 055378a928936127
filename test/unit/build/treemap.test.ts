// The squarified treemap on hand-written weights: areas proportional to the weights, every
// rectangle inside the bounds, none overlapping another, and the bounds filled.
import { describe, expect, it } from 'vitest';
import { squarify, type Rect } from '../../../build/emit/treemap.ts';

const EPS = 1e-6;
const area = (r: Rect) => r.w * r.h;
const overlap = (a: Rect, b: Rect) => Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

function check(weights: number[], bounds: Rect) {
  const rects = squarify(weights, bounds);
  expect(rects).toHaveLength(weights.length);
  const total = weights.reduce((a, b) => a + b, 0);
  rects.forEach((r, i) => {
    // Proportional within a relative 1e-6 of the bounds' area.
    expect(Math.abs(area(r) - (weights[i]! / total) * area(bounds))).toBeLessThan(EPS * area(bounds));
    expect(r.w).toBeGreaterThan(0);
    expect(r.h).toBeGreaterThan(0);
    expect(r.x).toBeGreaterThanOrEqual(bounds.x - EPS);
    expect(r.y).toBeGreaterThanOrEqual(bounds.y - EPS);
    expect(r.x + r.w).toBeLessThanOrEqual(bounds.x + bounds.w + EPS);
    expect(r.y + r.h).toBeLessThanOrEqual(bounds.y + bounds.h + EPS);
  });
  let most = 0;
  for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) most = Math.max(most, overlap(rects[i]!, rects[j]!));
  expect(most).toBeLessThan(EPS);
  return rects;
}

describe('squarify', () => {
  it('lays out the paper\'s example in its bounds, proportionally and without overlap', () => {
    const rects = check([6, 6, 4, 3, 2, 2, 1], { x: 0, y: 0, w: 6, h: 4 });
    // The two largest share the first column of the wider-than-tall bounds: 12 of 24 units -> width 3.
    expect(rects[0]).toEqual({ x: 0, y: 0, w: 3, h: 2 });
    expect(rects[1]).toEqual({ x: 0, y: 2, w: 3, h: 2 });
  });
  it('keeps input order and places heavier weights first whatever the order', () => {
    const a = squarify([1, 5, 2], { x: 0, y: 0, w: 10, h: 10 });
    const b = squarify([5, 2, 1], { x: 0, y: 0, w: 10, h: 10 });
    expect(a[1]).toEqual(b[0]);
    expect(a[2]).toEqual(b[1]);
    expect(a[0]).toEqual(b[2]);
  });
  it('handles many uneven weights in offset, tall bounds', () => {
    const weights = Array.from({ length: 300 }, (_, i) => 1 + ((i * 7919) % 1000) ** 2);
    check(weights, { x: 13, y: 7, w: 320, h: 1100 });
  });
  it('a single weight fills the bounds; no weight gives no rectangle', () => {
    expect(squarify([3], { x: 1, y: 2, w: 4, h: 5 })).toEqual([{ x: 1, y: 2, w: 4, h: 5 }]);
    expect(squarify([], { x: 0, y: 0, w: 1, h: 1 })).toEqual([]);
  });
  it('refuses a weight that is not positive', () => {
    expect(() => squarify([1, 0], { x: 0, y: 0, w: 1, h: 1 })).toThrow(/positive/);
    expect(() => squarify([1, Number.NaN], { x: 0, y: 0, w: 1, h: 1 })).toThrow(/positive/);
  });
});
