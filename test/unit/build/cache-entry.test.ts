// Cache entries (build/cache/entry.ts): values come back equal whatever their shape, arrays are
// stored in slices that stay near a megabyte even when their items change size abruptly, and a
// damaged byte anywhere in the parts is caught.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readEntry, writeEntry } from '../../../build/cache/entry.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-entry-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The part headers, read as the format says: the header's length on the last line, the header before it. */
function partHeaders(file: string): Array<{ name: string; bytes: number; slice?: true }> {
  const bytes = readFileSync(file);
  const length = Number(bytes.subarray(bytes.length - 13, bytes.length - 1).toString());
  const at = bytes.length - 14 - length;
  return (JSON.parse(bytes.subarray(at, at + length).toString()) as { parts: Array<{ name: string; bytes: number; slice?: true }> }).parts;
}

describe('cache entry', () => {
  // 20,000 items of ~20 characters, then 40 of 100,000: the run of items per slice has to shrink.
  const growing = [...Array.from({ length: 20_000 }, (_, i) => ({ i })), ...Array.from({ length: 40 }, (_, i) => 'é'.repeat(100_000) + i)];
  const values: Array<[string, unknown]> = [
    ['growing', growing],
    ['empty', []],
    ['holes', [1, undefined, null, 'x']],
    ['object', { a: [1, 2], b: 'ü', n: null }],
    ['number', 42],
  ];
  const file = path.join(tmp, 'a.parts');

  it('reads back every value as JSON would round-trip it', async () => {
    await writeEntry(file, values, { keep: 4 });
    const back = (await readEntry(file)) as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(values.map(([k]) => k));
    for (const [k, v] of values) expect(back[k]).toEqual(JSON.parse(JSON.stringify(v)));
  });

  it('keeps slices under about two megabytes of text, and an empty array as one empty slice', () => {
    const parts = partHeaders(file);
    const slices = parts.filter((p) => p.name === 'growing');
    expect(slices.length).toBeGreaterThan(4);
    expect(slices.every((p) => p.slice)).toBe(true);
    // 'é' is 2 bytes of UTF-8: 2 MiB characters of it at most, plus one item.
    expect(Math.max(...slices.map((p) => p.bytes))).toBeLessThanOrEqual(2 * (2 * 2 ** 20 + 100_010));
    expect(parts.filter((p) => p.name === 'empty')).toEqual([expect.objectContaining({ bytes: 2, slice: true })]);
  });

  it('a changed byte in any part fails verification', async () => {
    const bytes = readFileSync(file);
    const damaged = path.join(tmp, 'b.parts');
    bytes.writeUInt8(bytes.readUInt8(Math.floor(bytes.length / 2)) ^ 1, Math.floor(bytes.length / 2));
    writeFileSync(damaged, bytes);
    expect(await readEntry(damaged)).toBe('damaged');
    expect(await readEntry(path.join(tmp, 'missing.parts'))).toBeNull();
  });
});
