// The contrast maths the browser test relies on, against published WCAG reference values.
import { describe, expect, it } from 'vitest';
import { aaMinimum, contrast } from '../../../e2e/contrast.ts';

describe('WCAG contrast ratio', () => {
  it('matches known pairs', () => {
    expect(contrast('rgb(0, 0, 0)', 'rgb(255, 255, 255)')).toBeCloseTo(21, 5);
    expect(contrast('rgb(255, 255, 255)', 'rgb(255, 255, 255)')).toBeCloseTo(1, 5);
    // #767676 on white is the classic lightest AA grey (4.54:1); #777777 just fails (4.48:1).
    expect(contrast('rgb(118, 118, 118)', 'rgb(255, 255, 255)')).toBeCloseTo(4.54, 2);
    expect(contrast('rgb(119, 119, 119)', 'rgba(255, 255, 255, 1)')).toBeCloseTo(4.48, 2);
  });

  it('asks 3:1 of large text only', () => {
    expect([aaMinimum(13, false), aaMinimum(19, true), aaMinimum(19, false), aaMinimum(24, false)]).toEqual([4.5, 3, 4.5, 3]);
  });
});
