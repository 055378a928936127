// A registered forecast cannot change silently: each file of releases/forecasts/ is pinned here by
// its sha256 when it is committed (npm run forecast:register prints the reminder). A later model
// registers a new file with its own pin, beside the old one; an edit fails this test.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORECASTS_DIR, forecastFileName, loadForecasts } from '../../../build/releases/forecast.ts';

const DIR = path.join(import.meta.dirname, '../../..', FORECASTS_DIR);

/** file name -> sha256 of its bytes, pinned when it was registered. */
const PINNED: Readonly<Record<string, string>> = {
  '3.0.0-2026-11-25.json': '2e005d2321be82044d3e7c030500df0971b456e60fdedaabced2fab74cfaabce',
};

describe('registered forecasts', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

  it('pins every forecast file by its sha256, and every pin has its file', () => {
    expect(files).toEqual(Object.keys(PINNED).sort());
    for (const f of files) expect(createHash('sha256').update(readFileSync(path.join(DIR, f))).digest('hex'), f).toBe(PINNED[f]);
  });

  it('each file parses as a forecast and is named after its model version and date', () => {
    const loaded = loadForecasts(DIR);
    expect(loaded.length).toBe(files.length);
    for (const { file, forecast } of loaded) {
      expect(file).toBe(forecastFileName(forecast.model_version, forecast.registered));
      expect(forecast.predictions.filter((p) => p.role === 'primary')).toHaveLength(1);
    }
  });
});
