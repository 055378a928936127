// The model-output cache: what is stored comes back equal, fields in their order, and the model's
// long arrays are stored in slices rather than as one part (one part was a cache-miss build's peak).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readModelCache, storeModelCache, type ModelStage } from '../../../build/cache/model-cache.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-model-cache-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The part headers of an entry, read as its format says: the header's length in the last line, the header before it. */
function partHeaders(file: string): Array<{ name: string; bytes: number }> {
  const bytes = readFileSync(file);
  const length = Number(bytes.subarray(bytes.length - 13, bytes.length - 1).toString());
  const at = bytes.length - 14 - length;
  return (JSON.parse(bytes.subarray(at, at + length).toString()) as { parts: Array<{ name: string; bytes: number }> }).parts;
}

describe('model cache', () => {
  // 3,000 records of ~700 characters: about 2 MB of JSON, over the entry's 1 MB slice.
  const occupations = Array.from({ length: 3000 }, (_, i) => ({ soc_code: `11-${String(i).padStart(4, '0')}.00`, title: `Title ${i}`, note: 'x'.repeat(650), score: i / 7 }));
  const stage = {
    model: { meta: { data_version: 'test', n: 1 }, occupations, unscored: [], industries: [{ code: '62', occupations: ['29-1141.00'] }], factors: { a: 1 }, tiers: ['low', 'medium', 'high'], report: { joins: 2 } },
    search: { titles: ['registered nurses'], prior: [1], vocab: 'nurses registered', width: 1, alt_end: '-', name_len: '1', by_length: '-0', postings: ['01--'] },
    digest: 'a'.repeat(64),
    report: { files: [], problems: [] },
  } as unknown as ModelStage;

  it('reads back what it stored, with the model fields in their order', async () => {
    expect(await readModelCache(tmp, 'k1', () => undefined)).toEqual({ value: null, outcome: 'miss' });
    await storeModelCache(tmp, 'k1', stage, () => undefined);
    const back = await readModelCache(tmp, 'k1', () => undefined);
    expect(back.outcome).toBe('hit');
    expect(back.value).toEqual(stage);
    expect(Object.keys(back.value!.model)).toEqual(['meta', 'occupations', 'unscored', 'industries', 'factors', 'tiers', 'report']);
    expect(JSON.stringify(back.value)).toBe(JSON.stringify(stage));
  });

  it('stores the model a part per field, its long arrays in slices of about a megabyte', () => {
    const entry = readdirSync(tmp).find((f) => f.startsWith('k1'))!;
    const parts = partHeaders(path.join(tmp, entry));
    expect(parts.some((p) => p.name === 'model')).toBe(false);
    const slices = parts.filter((p) => p.name === 'model.occupations');
    expect(slices.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...parts.map((p) => p.bytes))).toBeLessThan(1.2 * 2 ** 20);
    expect(parts.filter((p) => p.name === 'model.unscored')).toHaveLength(1); // an empty array is still there
  });
});
