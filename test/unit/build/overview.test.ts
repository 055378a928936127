// The overview's pure parts on hand-written inputs: tile colours readable, phone tiles large
// enough to touch, summaries that weight by workers, tile labels of whole words that fit.
import { describe, expect, it } from 'vitest';
import { LABEL, SCORE_COLOURS, TOUCH_MIN, colourBin, labelLines, phoneTiles, summarize } from '../../../build/emit/overview.ts';

/** WCAG 2 relative luminance of #rgb or #rrggbb. */
function luminance(hex: string): number {
  const h = hex.length === 4 ? hex.slice(1).split('').map((c) => c + c).join('') : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
};

describe('overview', () => {
  it('gives every score bin a text colour with at least 4.5:1 contrast, and bins scores by tens', () => {
    expect(SCORE_COLOURS).toHaveLength(10);
    for (const c of SCORE_COLOURS) expect(contrast(c.bg, c.fg)).toBeGreaterThanOrEqual(4.5);
    expect([0, 9.9, 10, 55, 99.9, 100].map(colourBin)).toEqual([0, 0, 1, 5, 9, 9]);
    // Darker with the score: luminance falls bin by bin.
    const l = SCORE_COLOURS.map((c) => luminance(c.bg));
    for (let i = 1; i < l.length; i++) expect(l[i]!).toBeLessThan(l[i - 1]!);
  });

  it('keeps phone tiles at least TOUCH_MIN square, merging the rest into one tile that counts them', () => {
    const weights = [500, 300, 120, 40, 10, 5, 3, 2, 1, 1, 1];
    const t = phoneTiles(weights, 328, 120);
    for (const o of t.own) {
      expect(o.rect.w).toBeGreaterThanOrEqual(TOUCH_MIN);
      expect(o.rect.h).toBeGreaterThanOrEqual(TOUCH_MIN);
    }
    expect(t.more).not.toBeNull();
    expect(t.more!.rect.w).toBeGreaterThanOrEqual(TOUCH_MIN);
    expect(t.more!.rect.h).toBeGreaterThanOrEqual(TOUCH_MIN);
    // Every occupation is either on its own or counted in the merged tile, once.
    expect([...t.own.map((o) => o.index), ...t.more!.indices].sort((a, b) => a - b)).toEqual(weights.map((_, i) => i));
    // The merged tile's area is the merged weights' share of the strip.
    const total = weights.reduce((a, b) => a + b, 0);
    const merged = t.more!.indices.reduce((a, i) => a + weights[i]!, 0);
    expect(t.more!.rect.w * t.more!.rect.h).toBeCloseTo((merged / total) * 328 * 120, 6);
  });

  it('makes a strip too small for any tile of its own one tile for the whole group', () => {
    const t = phoneTiles([1, 1, 1], 328, 20);
    expect(t.own).toEqual([]);
    expect(t.more).toEqual({ indices: [0, 1, 2], rect: { x: 0, y: 0, w: 328, h: 20 } });
  });

  it('summarizes by workers: each counted once, occupations without workers left out', () => {
    const s = summarize([
      { workers: 300, score: 10, tier: 'low' },
      { workers: 100, score: 50, tier: 'high' },
      { workers: null, score: 90, tier: 'high' },
    ]);
    expect(s.workers).toBe(400);
    expect(s.score).toBe(20);
    expect(s.tierShares).toEqual({ low: 0.75, medium: 0, high: 0.25 });
    expect(summarize([{ workers: null, score: 1, tier: 'low' }])).toEqual({ workers: 0, score: null, tierShares: null });
  });

  it('fits a tile label in whole words, within the tile, an ellipsis ending a title cut short', () => {
    // Room for 15 characters a line; for the score line and 2 title lines (3 lines of text).
    const w = LABEL.padX + 15 * LABEL.charPx;
    const h = LABEL.padY + 3 * LABEL.line;
    expect(labelLines('Registered Nurses', w, h)).toEqual(['Registered', 'Nurses']);
    expect(labelLines('Customer Service Representatives', w, h)).toEqual(['Customer', 'Service…']);
    expect(labelLines('Sales Representatives of Services, Except Advertising', w, h)).toEqual(['Sales', 'Representatives']);
    // One line: as much as fits, then the ellipsis.
    expect(labelLines('Stockers and Order Fillers', w, LABEL.padY + 2 * LABEL.line)).toEqual(['Stockers and…']);
    // A comma gives way to the ellipsis.
    expect(labelLines('Shipping, Receiving, and Inventory Clerks', LABEL.padX + 9 * LABEL.charPx, LABEL.padY + 2 * LABEL.line)).toEqual(['Shipping…']);
    // Under the group's name, a line less.
    expect(labelLines('Registered Nurses', w, h + LABEL.topPad, true)).toEqual(['Registered', 'Nurses']);
    expect(labelLines('Registered Nurses', w, h, true)).toEqual([]);
    // No word that fits: no title, only the score.
    expect(labelLines('Representatives', LABEL.padX + 10 * LABEL.charPx, h)).toEqual([]);
    for (const title of ['Heavy and Tractor-Trailer Truck Drivers', 'Secretaries and Administrative Assistants, Except Legal, Medical, and Executive']) {
      for (const lines of [labelLines(title, w, h), labelLines(title, w, 10 * LABEL.line)]) {
        for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(15);
        expect(lines.join(' ').replace(/…$/, '').split(' ').every((word) => title.split(' ').includes(word))).toBe(true);
      }
    }
  });
});
