// The forecast on the record (build/validation/forecast.ts) on synthetic OEWS files read by the
// real loader (test/fixtures/forecast/, made by its generate.ts; not BLS data): registered from the
// history May 2019-2025, then checked against three made-up May 2026 files, one per outcome, while
// the three-year prediction (May 2028) stays pending.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOewsHistory } from '../../../../build/validation/oews-history.ts';
import { checkForecast, Forecast, FORECAST_RULES, formatCheck, outcomeOf, registerForecast } from '../../../../build/validation/forecast.ts';
import { loadForecasts, writeForecast } from '../../../../build/releases/forecast.ts';
import { SYNTHETIC_OCCUPATIONS } from '../../../fixtures/forecast/synthetic.ts';

const FIXTURES = path.resolve(__dirname, '../../../fixtures/forecast');
const scratch = mkdtempSync(path.join(tmpdir(), 'odr-forecast-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A source directory with the history and, optionally, one variant's "next year" file (links, no copies). */
function sourceDir(name: string, variant: string | null): string {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  for (const from of ['history', ...(variant ? [variant] : [])]) {
    for (const f of readdirSync(path.join(FIXTURES, from))) if (f.endsWith('.csv')) symlinkSync(path.join(FIXTURES, from, f), path.join(dir, f));
  }
  return dir;
}

let once: Promise<Forecast> | null = null;
/** Registered once for the file (the registration is deterministic: same files, same forecast). */
const registered = (): Promise<Forecast> => (once ??= register());
async function register(): Promise<Forecast> {
  const h = await loadOewsHistory(sourceDir('registered', null));
  expect(h.failed).toEqual([]);
  expect(h.years.map((y) => y.year)).toEqual(['2019', '2021', '2022', '2023', '2024', '2025']);
  return registerForecast({ registered: '2026-01-15', model_version: 'test-0.0.1', data_version: 'synthetic', occupations: SYNTHETIC_OCCUPATIONS, history: h.years, base: '2025' });
}

describe('a registered forecast', () => {
  it('names its years, units and quintiles, with rules written before any outcome', async () => {
    const f = await registered();
    expect(f.oews.base).toEqual({ year: '2025', file: 'national_M2025_dl' });
    expect(f.oews.pre_trend_start).toEqual({ year: '2022', file: 'national_M2022_dl' });
    expect(f.counts.units).toBe(150);
    expect(f.counts.per_quintile).toEqual([30, 30, 30, 30, 30]);
    // Quintile 5 holds the 30 highest scores.
    const top = f.units.filter((u) => u.quintile === 5).map((u) => u.score);
    const rest = f.units.filter((u) => u.quintile < 5).map((u) => u.score);
    expect(Math.min(...top)).toBeGreaterThanOrEqual(Math.max(...rest));
    const [three, one] = f.predictions;
    expect([three!.id, three!.role, three!.target.file, three!.years]).toEqual(['OEWS-2025-2028', 'primary', 'national_M2028_dl', 3]);
    expect([one!.id, one!.role, one!.target.file, one!.years]).toEqual(['OEWS-2025-2026', 'secondary', 'national_M2026_dl', 1]);
    // One-year calibration: every one-year window with a pre-trend start three years back or earlier (2021-22 has none: no May 2018).
    expect(one!.calibration.map((c) => c.window.join('-'))).toEqual(['2022-2023', '2023-2024', '2024-2025']);
    expect(one!.calibration.map((c) => c.pre_trend_from)).toEqual(['2019', '2019', '2021']);
    for (const p of f.predictions) expect(p.interval.low).toBeLessThan(p.point), expect(p.interval.high).toBeGreaterThan(p.point);
    expect(f.rules).toEqual(FORECAST_RULES);
  });

  it('is written once: a second registration under the same name is refused, the first file unchanged', async () => {
    const f = await registered();
    const dir = path.join(scratch, 'forecasts');
    mkdirSync(dir, { recursive: true });
    const file = writeForecast(f, dir);
    const before = readFileSync(file, 'utf8');
    expect(() => writeForecast({ ...f, predictions: [{ ...f.predictions[0]!, point: 99 }, f.predictions[1]!] }, dir)).toThrow(/never rewritten/);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const loaded = loadForecasts(dir);
    expect(loaded.map((x) => x.file)).toEqual(['test-0.0.1-2026-01-15.json']);
    expect(loaded[0]!.forecast).toEqual(f);
  });
});

describe('checking a forecast when a newer OEWS file arrives', () => {
  it('without the file: pending', async () => {
    const f = await registered();
    const h = await loadOewsHistory(sourceDir('none', null));
    const r = checkForecast(f, h.years);
    expect(r.map((x) => x.status)).toEqual(['pending', 'pending']);
    expect(formatCheck(f, r, 'x.json')).toMatch(/pending \(OEWS May 2028 \(national_M2028_dl\) not in the source directory\)/);
  });

  it.each([
    ['confirmed', 'confirmed'],
    ['refuted', 'refuted'],
    ['inconclusive', 'inconclusive'],
  ] as const)('May 2026 file "%s": the one-year prediction is %s, the three-year one still pending', async (variant, want) => {
    const f = await registered();
    const h = await loadOewsHistory(sourceDir(variant, variant));
    expect(h.years.map((y) => y.year)).toContain('2026');
    const [three, one] = checkForecast(f, h.years);
    expect(three!.status).toBe('pending');
    expect(one!.status).toBe('checked');
    if (one!.status !== 'checked') return;
    expect(one!.n).toBe(150);
    expect(one!.dropped).toBe(0);
    expect(one!.outcome).toBe(want);
    const g = one!.gap!;
    if (want === 'confirmed') expect(g.high).toBeLessThan(0);
    if (want === 'refuted') expect(g.low).toBeGreaterThan(0);
    if (want === 'inconclusive') expect(g.low).toBeLessThan(0), expect(g.high).toBeGreaterThan(0);
    expect(formatCheck(f, [three!, one!], 'x.json')).toContain(want.toUpperCase());
  });
});

describe('the outcome rules', () => {
  const pi = { low: -6, high: 3 };
  const full = [30, 30, 30, 30, 30];
  it('apply as written', () => {
    expect(outcomeOf({ value: -2, low: -3, high: -1 }, pi, full)).toBe('confirmed');
    expect(outcomeOf({ value: -9, low: -10, high: -8 }, pi, full)).toBe('confirmed'); // below the interval still has the sign
    expect(outcomeOf({ value: -1, low: -3, high: 1 }, pi, full)).toBe('inconclusive');
    expect(outcomeOf({ value: 2, low: 1, high: 3 }, pi, full)).toBe('refuted');
    expect(outcomeOf({ value: 4, low: -1, high: 9 }, pi, full)).toBe('refuted'); // above the prediction interval
    expect(outcomeOf({ value: -2, low: -3, high: -1 }, pi, [30, 30, 19, 30, 30])).toBe('inconclusive'); // too few groups
    expect(outcomeOf(null, pi, full)).toBe('inconclusive');
  });
});
