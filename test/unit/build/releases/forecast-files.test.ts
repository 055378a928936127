// A registered forecast cannot change silently: each file of releases/forecasts/ is pinned here by
// its sha256 when it is committed (npm run forecast:register prints the reminder). A later model
// registers a new file with its own pin, beside the old one; an edit fails this test.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORECASTS_DIR, forecastFileName, loadForecasts } from '../../../../build/releases/forecast.ts';
import { HEAD_TO_HEAD_DIR } from '../../../../build/releases/head-to-head.ts';

const DIR = path.join(import.meta.dirname, '../../../..', FORECASTS_DIR);

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

/** The registered head-to-heads (issue 44 item 6), pinned the same way. */
const PINNED_HEAD_TO_HEAD: Readonly<Record<string, string>> = {
  '3.1.0-2026-11-28.json': 'aa0feb375424711ae69904e838086713b427e29f2bdef4db012ce5bcf9394161',
};

describe('registered head-to-heads', () => {
  const dir = path.join(import.meta.dirname, '../../../..', HEAD_TO_HEAD_DIR);
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

  it('pins every head-to-head file by its sha256, and every pin has its file', () => {
    expect(files).toEqual(Object.keys(PINNED_HEAD_TO_HEAD).sort());
    for (const f of files) expect(createHash('sha256').update(readFileSync(path.join(dir, f))).digest('hex'), f).toBe(PINNED_HEAD_TO_HEAD[f]);
  });

  it('each file names its model version and date, the decision rule and the four candidates for every occupation', () => {
    for (const f of files) {
      const h = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { model_version: string; registered: string; decision_rule: string; scores: Array<Record<string, unknown>> };
      expect(f).toBe(`${h.model_version}-${h.registered}.json`);
      expect(h.decision_rule).toMatch(/gpt4_beta.*both weightings/);
      expect(h.scores.length).toBeGreaterThan(800);
      for (const s of h.scores) for (const k of ['final_score', 'exposure', 'complementarity', 'exposure_plus_complementarity']) expect(typeof s[k], `${String(s.soc_code)} ${k}`).toBe('number');
    }
  });
});
