// CITATION.cff names the model version and the data version this build publishes (read as text:
// the fields a CFF 1.2.0 file needs, without a YAML parser).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_VERSION } from '../../../../build/model/version.ts';
import { loadRecordedReleases } from '../../../../build/releases/load.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..', '..');
const cff = readFileSync(path.join(root, 'CITATION.cff'), 'utf8');

describe('CITATION.cff', () => {
  it('has the fields CFF 1.2.0 requires', () => {
    for (const key of ['cff-version: 1.2.0', 'message:', 'title:', 'authors:', 'type: software']) expect(cff).toContain(key);
  });

  it("names this model's version and the data version of its recorded release", () => {
    expect(cff).toMatch(new RegExp(`^version: "${MODEL_VERSION.replace(/\./g, '\\.')}"$`, 'm'));
    const mine = loadRecordedReleases(root).filter((r) => r.model_version === MODEL_VERSION);
    for (const r of mine) expect(cff).toContain(`version: "${r.data_version}"`);
  });
});
