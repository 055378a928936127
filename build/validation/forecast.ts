// A forecast on the record (issue 34): what a model predicts for OEWS releases that do not exist
// yet, computed from its scores and the OEWS files of the day, registered once
// (releases/forecasts/, never rewritten) and checked when a newer national file arrives. Every
// year, window, sample rule and outcome rule is written into the forecast file itself, so that a
// newer file in the source directory changes neither the forecast nor its windows. Pure: the
// registering script and npm run validate do the I/O.
import { z } from 'zod';
import { matchToCurrent, type OewsYear } from './oews-history.ts';
import { ols, prng, quantile } from './stats.ts';

/** The declared bootstrap of the validation (declared-tests/v1.json): 1,000 resamples, this seed. */
const BOOT = { reps: 1000, seed: 20240601 };
/** A check needs at least this many code groups in each quintile, else it is inconclusive for want of data. */
export const MIN_PER_QUINTILE = 20;
/** Normal quantile of a two-sided 90% prediction interval. */
const Z90 = 1.6449;

export const FORECAST_RULES = {
  statistic:
    'Gap = OLS coefficient of the top score quintile (quintile 5, versus quintile 1) in annualized log employment growth (log points x 100 per year), with dummies for quintiles 2-4, major-group fixed effects (first two digits of the group\'s first code), the pre-trend (annualized log growth over the three years before the window start, or from the nearest earlier year published) and log median wage at the window start. Units: OEWS detailed code groups as registered below (codes, quintile, base-year employment, pre-trend, log wage, major group), each counted once (unweighted). Interval: 95% pairs-bootstrap percentile interval (1,000 resamples, seed 20240601); SE: the bootstrap standard deviation.',
  confirmed: "The observed gap is negative (the model's sign: higher score, slower growth) and its 95% interval lies below 0.",
  refuted: "The observed gap's 95% interval lies above 0, or the observed gap lies above the registered prediction interval.",
  inconclusive: `Everything else: the 95% interval includes 0 and the gap is not above the prediction interval; also when fewer than ${MIN_PER_QUINTILE} registered code groups of some quintile are found in both files (codes missing from the target file are dropped and counted, never remapped).`,
  interval_note: 'Whether the observed gap falls inside the registered 90% prediction interval is reported beside the outcome; by itself it does not confirm (a wide interval containing 0 is easy to fall into).',
} as const;

const Year = z.strictObject({ year: z.string().regex(/^\d{4}$/), file: z.string().regex(/^national_M\d{4}_dl$/) });

export const ForecastUnit = z.strictObject({
  codes: z.array(z.string()).min(1).describe('OEWS detailed codes of the base year, compared in total.'),
  quintile: z.number().int().min(1).max(5),
  score: z.number().describe('Mean final_score of the served O*NET occupations under the codes.'),
  group: z.string().regex(/^\d{2}$/),
  trend: z.number().describe('Pre-trend of the forecast windows, log points x 100 per year.'),
  log_wage: z.number(),
  base_employment: z.number().positive(),
});
export type ForecastUnit = z.infer<typeof ForecastUnit>;

const Calibration = z.strictObject({
  window: z.tuple([z.string(), z.string()]),
  pre_trend_from: z.string(),
  n: z.number().int(),
  gap: z.number(),
  se: z.number(),
});

export const Prediction = z.strictObject({
  id: z.string(),
  role: z.enum(['primary', 'secondary']),
  target: Year,
  years: z.number().int().positive(),
  predicted_sign: z.literal('negative'),
  point: z.number().describe('Predicted gap, log points x 100 per year.'),
  interval: z.strictObject({ level: z.literal(0.9), low: z.number(), high: z.number() }),
  calibration: z.array(Calibration),
  calibration_rule: z.string(),
});
export type Prediction = z.infer<typeof Prediction>;

export const Forecast = z.strictObject({
  forecast_version: z.literal(1),
  registered: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  model_version: z.string(),
  data_version: z.string(),
  oews: z.strictObject({ base: Year, pre_trend_start: Year, history: z.array(Year).describe('Every OEWS national file read to register, by year.') }),
  rules: z.strictObject({ statistic: z.string(), confirmed: z.string(), refuted: z.string(), inconclusive: z.string(), interval_note: z.string() }),
  predictions: z.array(Prediction).min(1),
  counts: z.strictObject({ units: z.number().int(), without_served_occupation: z.number().int(), without_wage: z.number().int(), per_quintile: z.array(z.number().int()).length(5) }),
  units: z.array(ForecastUnit),
});
export type Forecast = z.infer<typeof Forecast>;

/** One served occupation's score and the OEWS code its labor data come from. */
export interface ScoredOccupation {
  soc_code: string;
  final_score: number;
  oews_code: string | null;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sum = (m: ReadonlyMap<string, number>, codes: readonly string[]) => (codes.every((c) => m.has(c)) ? codes.reduce((a, c) => a + m.get(c)!, 0) : null);
const fileOf = (h: readonly OewsYear[], year: string) => {
  const y = h.find((x) => x.year === year);
  return y ? { year, file: y.file } : null;
};

/** Mean score of the occupations under the codes: by SOC prefix, else by the OEWS code of their labor data (as the declared test). */
function scoreOf(occ: readonly ScoredOccupation[], codes: readonly string[]): number | null {
  const set = new Set(codes);
  let under = occ.filter((o) => set.has(o.soc_code.slice(0, 7)));
  if (!under.length) under = occ.filter((o) => o.oews_code !== null && set.has(o.oews_code));
  return under.length ? mean(under.map((o) => o.final_score)) : null;
}

function logWageOf(wage: ReadonlyMap<string, number>, codes: readonly string[]): number | null {
  const ws = codes.flatMap((c) => (wage.has(c) ? [Math.log(wage.get(c)!)] : []));
  return ws.length ? mean(ws) : null;
}

/** Equal-count quintiles by score (ties by key, so the split is deterministic). */
export function quintiles<T extends { score: number; key: string }>(units: readonly T[]): Array<T & { quintile: number }> {
  const sorted = [...units].sort((a, b) => a.score - b.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return sorted.map((u, i) => ({ ...u, quintile: Math.floor((i * 5) / sorted.length) + 1 }));
}

/** The latest published year at or before `year` (the pre-trend start when `year` itself is missing). */
function yearAtOrBefore(h: readonly OewsYear[], year: number): string | null {
  const ys = h.map((x) => Number(x.year)).filter((y) => y <= year).sort((a, b) => b - a);
  return ys.length ? String(ys[0]) : null;
}

export interface GapRow {
  y: number;
  quintile: number;
  trend: number;
  logWage: number;
  group: string;
}

/** The gap (quintile 5 vs 1) with its 95% bootstrap interval and bootstrap SE. */
export function gapStatistic(rows: readonly GapRow[]): { value: number; low: number; high: number; se: number } | null {
  const fit = (rs: readonly GapRow[]) => {
    const X = rs.map((r) => [r.quintile === 5 ? 1 : 0, r.quintile === 4 ? 1 : 0, r.quintile === 3 ? 1 : 0, r.quintile === 2 ? 1 : 0, r.trend, r.logWage]);
    const b = ols(rs.map((r) => r.y), X, rs.map((r) => r.group));
    return b && Number.isFinite(b[0]!) ? b[0]! : null;
  };
  const value = fit(rows);
  if (value === null) return null;
  const rand = prng(BOOT.seed);
  const reps: number[] = [];
  for (let r = 0; r < BOOT.reps; r++) {
    const v = fit(Array.from({ length: rows.length }, () => rows[Math.floor(rand() * rows.length)]!));
    if (v !== null) reps.push(v);
  }
  if (reps.length < 2) return null;
  reps.sort((a, b) => a - b);
  const m = mean(reps);
  const se = Math.sqrt(reps.reduce((a, x) => a + (x - m) ** 2, 0) / (reps.length - 1));
  return { value, low: quantile(reps, 0.025), high: quantile(reps, 0.975), se };
}

/**
 * A past window (start -> end) computed the same way: code groups matched from the pre-trend
 * start to the window's end, quintiles of the same score over that sample.
 */
export function windowGap(h: readonly OewsYear[], occ: readonly ScoredOccupation[], start: string, end: string): z.infer<typeof Calibration> | null {
  const pre = yearAtOrBefore(h, Number(start) - 3);
  const [e0, e1, e2] = [pre, start, end].map((y) => (y ? h.find((x) => x.year === y)?.employment : undefined));
  const wage = h.find((x) => x.year === start)?.wage;
  if (!pre || !e0 || !e1 || !e2 || !wage) return null;
  const units = matchToCurrent(e0, e2).groups.flatMap((g) => {
    const [a, b, c] = [sum(e0, g.old), sum(e1, g.current), sum(e2, g.current)];
    const score = scoreOf(occ, g.current);
    const logWage = logWageOf(wage, g.current);
    if (a === null || b === null || c === null || a <= 0 || b <= 0 || c <= 0 || score === null || logWage === null) return [];
    const codes = [...g.current].sort();
    return [{ key: codes.join('+'), score, group: codes[0]!.slice(0, 2), logWage, trend: (100 * Math.log(b / a)) / (Number(start) - Number(pre)), y: (100 * Math.log(c / b)) / (Number(end) - Number(start)) }];
  });
  const g = gapStatistic(quintiles(units));
  return g ? { window: [start, end], pre_trend_from: pre, n: units.length, gap: round(g.value), se: round(g.se) } : null;
}

const round = (x: number, dp = 3) => Math.round(x * 10 ** dp) / 10 ** dp;

export interface RegisterInput {
  registered: string;
  model_version: string;
  data_version: string;
  occupations: readonly ScoredOccupation[];
  history: readonly OewsYear[];
  /** The base year of the forecast windows (the newest OEWS year the model reads), e.g. '2025'. */
  base: string;
}

/**
 * The forecast: the registered units (quintile membership at the base year), the one-year
 * prediction (base -> base+1) calibrated on every one-year window of the history, and the
 * three-year prediction (base -> base+3, non-overlapping panels) calibrated on the last
 * three-year window.
 */
export function registerForecast(inp: RegisterInput): Forecast {
  const h = inp.history;
  const baseYear = h.find((x) => x.year === inp.base);
  const preYear = yearAtOrBefore(h, Number(inp.base) - 3);
  if (!baseYear || !preYear) throw new Error(`forecast: needs OEWS May ${inp.base} and a year at or before May ${Number(inp.base) - 3}`);
  const pre = h.find((x) => x.year === preYear)!;
  let withoutServed = 0;
  let withoutWage = 0;
  const raw = matchToCurrent(pre.employment, baseYear.employment).groups.flatMap((g) => {
    const [a, b] = [sum(pre.employment, g.old), sum(baseYear.employment, g.current)];
    if (a === null || b === null || a <= 0 || b <= 0) return [];
    const codes = [...g.current].sort();
    const score = scoreOf(inp.occupations, codes);
    if (score === null) {
      withoutServed++;
      return [];
    }
    const logWage = logWageOf(baseYear.wage, codes);
    if (logWage === null) {
      withoutWage++;
      return [];
    }
    return [{ key: codes.join('+'), codes, score, group: codes[0]!.slice(0, 2), trend: (100 * Math.log(b / a)) / (Number(inp.base) - Number(preYear)), log_wage: logWage, base_employment: b }];
  });
  const units: ForecastUnit[] = quintiles(raw).map(({ key: _, ...u }) => ({ ...u, score: round(u.score, 4), trend: round(u.trend, 6), log_wage: round(u.log_wage, 6) }));

  const years = h.map((x) => Number(x.year));
  const oneYear = years.filter((y) => years.includes(y + 1) && y + 1 <= Number(inp.base)).map((y) => windowGap(h, inp.occupations, String(y), String(y + 1))).filter((c) => c !== null);
  const three = windowGap(h, inp.occupations, String(Number(inp.base) - 3), inp.base);
  if (oneYear.length < 2 || !three) throw new Error('forecast: needs at least two one-year windows and one three-year window of OEWS history to calibrate');

  // One year: centre on the mean past gap; spread from the gaps' own variation and their sampling error.
  const gs = oneYear.map((c) => c.gap);
  const centre = mean(gs);
  const between = gs.reduce((a, g) => a + (g - centre) ** 2, 0) / (gs.length - 1);
  const noise = mean(oneYear.map((c) => c.se ** 2));
  const s1 = Math.sqrt(between + noise);
  // Three years: one past window only; its estimate's error and the new window's, alike.
  const s3 = Math.SQRT2 * three.se;
  const target = (k: number) => ({ year: String(Number(inp.base) + k), file: `national_M${Number(inp.base) + k}_dl` });
  const predictions: Prediction[] = [
    {
      id: `OEWS-${inp.base}-${Number(inp.base) + 3}`,
      role: 'primary',
      target: target(3),
      years: 3,
      predicted_sign: 'negative',
      point: round(three.gap),
      interval: { level: 0.9, low: round(three.gap - Z90 * s3), high: round(three.gap + Z90 * s3) },
      calibration: [three],
      calibration_rule: `Centre: the gap of the last three-year window (May ${Number(inp.base) - 3} -> May ${inp.base}, the decision test's window), whose panels do not overlap; 90% interval: centre +- 1.645 x sqrt(2) x its SE (the past estimate's error and the new window's, taken alike). One past window cannot show year-to-year variation: read the interval as a floor on the uncertainty.`,
    },
    {
      id: `OEWS-${inp.base}-${Number(inp.base) + 1}`,
      role: 'secondary',
      target: target(1),
      years: 1,
      predicted_sign: 'negative',
      point: round(centre),
      interval: { level: 0.9, low: round(centre - Z90 * s1), high: round(centre + Z90 * s1) },
      calibration: oneYear,
      calibration_rule: `Centre: the mean gap of the one-year windows ${oneYear.map((c) => `${c.window[0]}-${c.window[1]}`).join(', ')}; 90% interval: centre +- 1.645 x sqrt(variance between those gaps + their mean squared SE). OEWS estimates pool six semiannual panels over three years, so estimates one year apart share four of their six panels: a one-year change is mostly noise and the windows are not independent.`,
    },
  ];
  const per = [1, 2, 3, 4, 5].map((q) => units.filter((u) => u.quintile === q).length);
  return Forecast.parse({
    forecast_version: 1,
    registered: inp.registered,
    model_version: inp.model_version,
    data_version: inp.data_version,
    oews: { base: { year: inp.base, file: baseYear.file }, pre_trend_start: { year: preYear, file: pre.file }, history: h.map((x) => ({ year: x.year, file: x.file })) },
    rules: { ...FORECAST_RULES },
    predictions,
    counts: { units: units.length, without_served_occupation: withoutServed, without_wage: withoutWage, per_quintile: per },
    units,
  });
}

export type Outcome = 'confirmed' | 'inconclusive' | 'refuted';

export type CheckResult =
  | { id: string; target: string; status: 'pending'; why: string }
  | {
      id: string;
      target: string;
      status: 'checked';
      outcome: Outcome;
      gap: { value: number; low: number; high: number; se: number } | null;
      in_interval: 'inside' | 'below' | 'above' | null;
      n: number;
      dropped: number;
      per_quintile: number[];
    };

/** The rules above, applied to an observed gap. */
export function outcomeOf(gap: { value: number; low: number; high: number } | null, interval: { low: number; high: number }, perQuintile: readonly number[]): Outcome {
  if (!gap || perQuintile.some((n) => n < MIN_PER_QUINTILE)) return 'inconclusive';
  if (gap.low > 0 || gap.value > interval.high) return 'refuted';
  if (gap.value < 0 && gap.high < 0) return 'confirmed';
  return 'inconclusive';
}

/**
 * Checks each prediction against the history: 'pending' until the target year's file (by its
 * registered name) is there; then the registered units' growth from the registered base
 * employment, the gap and the outcome by the registered rules.
 */
export function checkForecast(f: Forecast, history: readonly OewsYear[]): CheckResult[] {
  return f.predictions.map((p): CheckResult => {
    const t = history.find((x) => x.year === p.target.year);
    if (!t) return { id: p.id, target: p.target.file, status: 'pending', why: `OEWS May ${p.target.year} (${p.target.file}) not in the source directory` };
    if (t.file.toLowerCase() !== p.target.file.toLowerCase()) return { id: p.id, target: p.target.file, status: 'pending', why: `the May ${p.target.year} file is ${t.file}, not ${p.target.file}` };
    let dropped = 0;
    const rows: GapRow[] = f.units.flatMap((u) => {
      const e = sum(t.employment, u.codes);
      if (e === null || e <= 0) {
        dropped++;
        return [];
      }
      return [{ y: (100 * Math.log(e / u.base_employment)) / p.years, quintile: u.quintile, trend: u.trend, logWage: u.log_wage, group: u.group }];
    });
    const per = [1, 2, 3, 4, 5].map((q) => rows.filter((r) => r.quintile === q).length);
    const g = gapStatistic(rows);
    const gap = g ? { value: round(g.value), low: round(g.low), high: round(g.high), se: round(g.se) } : null;
    const inInterval = gap === null ? null : gap.value < p.interval.low ? 'below' : gap.value > p.interval.high ? 'above' : 'inside';
    return { id: p.id, target: p.target.file, status: 'checked', outcome: outcomeOf(gap, p.interval, per), gap, in_interval: inInterval, n: rows.length, dropped, per_quintile: per };
  });
}

/** One line per prediction for npm run validate. */
export function formatCheck(f: Forecast, results: readonly CheckResult[], file: string): string {
  return results
    .map((r) => {
      const p = f.predictions.find((x) => x.id === r.id)!;
      const head = `Forecast ${file} (model ${f.model_version}, registered ${f.registered}), ${p.role} ${r.id}: predicted gap ${p.point} [90% ${p.interval.low}, ${p.interval.high}] log points x 100 per year`;
      if (r.status === 'pending') return `${head}: pending (${r.why})`;
      const g = r.gap ? `${r.gap.value} [95% ${r.gap.low}, ${r.gap.high}], ${r.in_interval} the prediction interval` : 'no gap (regression undefined)';
      return `${head}: observed ${g}; N ${r.n} (quintiles ${r.per_quintile.join('/')}), ${r.dropped} registered groups not in ${r.target}: ${r.outcome.toUpperCase()}`;
    })
    .join('\n');
}
