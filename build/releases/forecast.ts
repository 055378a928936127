// CLI: npm run forecast:register -- --dist DIR [--source DIR] [--date YYYY-MM-DD] [--out-dir DIR]
// Registers what the model of a build predicts for OEWS releases that do not exist yet
// (build/validation/forecast.ts): releases/forecasts/<model version>-<date>.json, our own output,
// written once. An existing file is never overwritten: a later model registers a new file beside
// it, and test/unit/build/releases/forecast-files.test.ts pins each file's sha256.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../repo-root.ts';
import { fileFor } from '../contract/dist-layout.ts';
import { routeById, urlFor } from '../contract/routes.ts';
import { resolveSourceDir } from '../sources/index.ts';
import { loadOewsHistory } from '../validation/oews-history.ts';
import { Forecast, registerForecast, type CheckResult, type ScoredOccupation } from '../validation/forecast.ts';
import type { ForecastRef } from '../contract/site-schemas.ts';
import { readRecords, RELEASES_DIR } from './load.ts';

export const FORECASTS_DIR = `${RELEASES_DIR}/forecasts`;
const USAGE = 'usage: npm run forecast:register -- --dist DIR [--source DIR] [--date YYYY-MM-DD] [--out-dir DIR]';

export const forecastFileName = (modelVersion: string, date: string): string => `${modelVersion}-${date}.json`;

/** The scores of a build: each occupation's final_score and OEWS code, from its occupations.csv (header row first). */
export function distScores(dist: string): { occupations: ScoredOccupation[]; meta: { data_version: string; model_version: string; oews_period: string } } {
  const read = (id: string) => readFileSync(path.join(dist, fileFor(urlFor(id), routeById(id).body)), 'utf8');
  const meta = JSON.parse(read('meta')) as { data_version: string; model_version: string; data: { oews_period: string } };
  const rows = parse(read('download-occupations'), { columns: true }) as Array<Record<string, string>>;
  for (const c of ['soc_code', 'final_score', 'oews_code']) if (rows.length && !(c in rows[0]!)) throw new Error(`${dist}: occupations.csv has no ${c} column`);
  const occupations = rows.map((r) => ({ soc_code: r.soc_code!, final_score: Number(r.final_score), oews_code: r.oews_code || null }));
  const bad = occupations.filter((o) => !/^\d{2}-\d{4}\.\d{2}$/.test(o.soc_code) || !Number.isFinite(o.final_score));
  if (bad.length) throw new Error(`${dist}: occupations.csv: ${bad.length} rows without a code or score (first ${bad[0]!.soc_code})`);
  return { occupations, meta: { data_version: meta.data_version, model_version: meta.model_version, oews_period: meta.data.oews_period } };
}

/** Writes the forecast file; refuses when a file of that name exists (flag wx: never rewritten). */
export function writeForecast(forecast: Forecast, dir: string): string {
  const out = path.join(dir, forecastFileName(forecast.model_version, forecast.registered));
  const { units, ...head } = forecast;
  // One unit per line: the file stays readable and a reviewer's diff is per code group.
  const text = `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "units": [\n${units.map((u) => `    ${JSON.stringify(u)}`).join(',\n')}\n  ]\n}\n`;
  try {
    writeFileSync(out, text, { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`${out} exists: a registered forecast is never rewritten (a later model registers a new file)`);
    throw e;
  }
  return out;
}

/** Every registered forecast in the directory, by file name. */
export function loadForecasts(dir: string): Array<{ file: string; forecast: Forecast }> {
  return readRecords(dir, dir, 'a forecast', Forecast).map(({ file, value }) => ({ file, forecast: value }));
}

/** Where validate records the check of a forecast file: results/<the file's name>. */
export const resultFile = (dir: string, file: string): string => path.join(dir, 'results', file);

/** The registered forecasts for /api/v1/meta, each prediction with its recorded result (null while pending). */
export function forecastRefs(repoRoot: string): ForecastRef[] {
  const dir = path.join(repoRoot, FORECASTS_DIR);
  return loadForecasts(dir).map(({ file, forecast }) => {
    let results: CheckResult[] = [];
    try {
      results = JSON.parse(readFileSync(resultFile(dir, file), 'utf8')) as CheckResult[];
    } catch {
      // No check recorded yet: every prediction pending.
    }
    return {
      file: `${FORECASTS_DIR}/${file}`,
      url: urlFor('registered-file', { registered_file: `forecast-${file}` }),
      model_version: forecast.model_version,
      registered: forecast.registered,
      predictions: forecast.predictions.map((p) => {
        const r = results.find((x) => x.id === p.id);
        const result = r?.status === 'checked' ? { outcome: r.outcome, gap: r.gap?.value ?? null, low: r.gap?.low ?? null, high: r.gap?.high ?? null, n: r.n } : null;
        return { id: p.id, role: p.role, target: p.target.file, point: p.point, interval: p.interval, result };
      }),
    };
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const opt = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const distArg = opt('--dist');
  const date = opt('--date') ?? new Date().toISOString().slice(0, 10);
  if (!distArg || !/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    console.error(USAGE);
    process.exit(2);
  }
  const dist = path.resolve(distArg);
  const { occupations, meta } = distScores(dist);
  const base = /(\d{4})/.exec(meta.oews_period)?.[1];
  if (!base) throw new Error(`${dist}: no OEWS year in ${meta.oews_period}`);
  const history = await loadOewsHistory(resolveSourceDir({ cliSource: opt('--source'), env: process.env, repoRoot: REPO_ROOT }));
  for (const f of history.failed) console.error(`OEWS file skipped: ${f.path}: ${f.reason}`);
  // Only the years up to the build's own: a newer file must not leak into what is predicted.
  const years = history.years.filter((y) => Number(y.year) <= Number(base));
  const forecast = registerForecast({ registered: date, model_version: meta.model_version, data_version: meta.data_version, occupations, history: years, base });
  // --out-dir: a trial registration elsewhere (releases/forecasts/ holds only the published ones).
  const outDir = opt('--out-dir');
  const out = writeForecast(forecast, outDir ? path.resolve(outDir) : path.join(REPO_ROOT, FORECASTS_DIR));
  console.log(`Registered ${outDir ? out : path.relative(REPO_ROOT, out)} (model ${meta.model_version}, OEWS ${years.map((y) => y.year).join(', ')}; ${forecast.counts.units} code groups, quintiles ${forecast.counts.per_quintile.join('/')})`);
  for (const p of forecast.predictions) console.log(`  ${p.role} ${p.id}: gap ${p.point} [90% ${p.interval.low}, ${p.interval.high}] log points x 100 per year; calibration ${p.calibration.map((c) => `${c.window.join('-')}: ${c.gap} (SE ${c.se}, N ${c.n})`).join('; ')}`);
  console.log('Commit the file, then add its sha256 to test/unit/build/releases/forecast-files.test.ts.');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
