// Number formats the pages share, without locale data (toLocaleString depends on the runtime's ICU).

/** Thousands separators: 189100 -> "189,100". */
export function grouped(n: number): string {
  const [int, frac] = String(Math.abs(n)).split('.');
  const withCommas = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${n < 0 ? '-' : ''}${withCommas}${frac ? `.${frac}` : ''}`;
}

const round = (x: number, d: number) => Number(x.toFixed(d));

/** A share as a percent with at most one decimal: 0.775 -> "77.5%", 1 -> "100%". */
export const pct = (x: number): string => `${round(x * 100, 1)}%`;

/** The score as pages and cards show it: a whole number (the API keeps one decimal; the validation does not support more). */
export function scoreText(score: number): string {
  return Math.round(score).toFixed(0);
}
