// WCAG 2.x relative luminance and contrast ratio, for colours as getComputedStyle reports them.

export function parseRgb(css: string): [number, number, number] {
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/.exec(css);
  if (!m) throw new Error(`unexpected colour: ${css}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(parseRgb(a)), luminance(parseRgb(b))].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

/** AA: 4.5:1 for text, 3:1 for large text (>= 24px, or >= 18.66px bold). */
export function aaMinimum(px: number, bold: boolean): number {
  return px >= 24 || (bold && px >= 18.66) ? 3 : 4.5;
}
