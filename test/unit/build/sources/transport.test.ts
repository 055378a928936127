// How parsed rows travel and are held: large arrays cross from a parsing thread in slices and are
// joined back whole and in order; equal short strings end up as one string; whole files are read
// byte for byte into buffers of their own. (That equal strings become one string is not observable
// from JavaScript; its effect, on memory, is measured by npm run bench.)
import { mkdtempSync, rmSync, writeFileSync, readFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSources } from '../../../../build/sources/index.ts';
import { interner } from '../../../../build/sources/intern.ts';
import { joinSlices, SLICE_ROWS, splitSlices } from '../../../../build/sources/sliced-message.ts';
import { allocationFor, readInto, readWhole } from '../../../../build/whole-file.ts';
import { copyMini } from './helpers/paths.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

const rows = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ id: `${tag}${i}`, n: i }));

describe('sliced messages', () => {
  it('sends long arrays ahead in slices and joins them back, in order, after structured clone', () => {
    const value = { period: 'May 2024', rows: rows(2 * SLICE_ROWS + 3, 'a'), small: rows(3, 'b'), nested: { more: rows(SLICE_ROWS + 1, 'c') }, when: new Date(0) };
    const expected = structuredClone(value);
    const sent: unknown[][] = [];
    const marked = splitSlices(value, (r) => sent.push(structuredClone(r)));
    // 3 slices of rows, 2 of nested.more; the short array travels inside the value.
    expect(sent.map((s) => s.length)).toEqual([SLICE_ROWS, SLICE_ROWS, 3, SLICE_ROWS, 1]);
    expect(JSON.stringify(marked).length).toBeLessThan(JSON.stringify(value.small).length + 200);
    expect(joinSlices(structuredClone(marked), sent)).toEqual(expected);
    expect(sent).toEqual([]); // every slice taken
  });

  it('passes a top-level long array and values without arrays through', () => {
    const list = rows(SLICE_ROWS * 3, 'x');
    const sent: unknown[][] = [];
    expect(joinSlices(splitSlices(list, (r) => sent.push(r)), sent)).toEqual(rows(SLICE_ROWS * 3, 'x'));
    expect(joinSlices(splitSlices('text', () => undefined), [])).toBe('text');
    expect(joinSlices(splitSlices(null, () => undefined), [])).toBe(null);
  });

  it('refuses an outcome whose slices did not all arrive', () => {
    const sent: unknown[][] = [];
    const marked = splitSlices({ rows: rows(SLICE_ROWS * 2, 'y') }, (r) => sent.push(r));
    expect(() => joinSlices(marked, sent.slice(1))).toThrow(/1 of its 2 slices/);
  });

  it('a file of more rows than a slice parses the same on threads as here', async () => {
    const mini = copyMini();
    cleanups.push(mini.cleanup);
    const file = path.join(mini.dir, 'downloads/db_29_3_text/Alternate Titles.txt');
    const extra = Array.from({ length: 3 * SLICE_ROWS }, (_, i) => `15-1252.00\tSoftware Developers\tDeveloper variant ${i}\tn/a\t08`).join('\n');
    appendFileSync(file, `${readFileSync(file, 'utf8').endsWith('\n') ? '' : '\n'}${extra}\n`);
    const here = await loadSources(mini.dir, { threads: 0 });
    const threaded = await loadSources(mini.dir, { threads: 2 });
    expect(here.bundle.titles.length).toBeGreaterThan(3 * SLICE_ROWS);
    expect(threaded).toEqual(here);
  });
});

describe('interner', () => {
  it('keeps every value equal, in place, and leaves Dates as they are', () => {
    const a = { soc: ['15-1252', '00'].join('.'), name: 'Reading Comprehension', at: new Date(5), n: 1 };
    const b = { soc: ['15-1252', '00'].join('.'), name: 'Reading Comprehension', at: new Date(5), n: 1 };
    const intern = interner();
    const out = intern([a, { nested: [b] }]);
    expect(out).toEqual([{ soc: '15-1252.00', name: 'Reading Comprehension', at: new Date(5), n: 1 }, { nested: [{ soc: '15-1252.00', name: 'Reading Comprehension', at: new Date(5), n: 1 }] }]);
    expect(out[0]).toBe(a); // in place
    expect(b.at).toBeInstanceOf(Date);
  });
});

describe('readWhole', () => {
  it('reads small, empty and large files byte for byte', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'odr-whole-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const big = Buffer.alloc(3 * 1024 * 1024 + 7, 0);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
    for (const [name, bytes] of [['empty', Buffer.alloc(0)], ['small', Buffer.from('a\tb\nc\td\n')], ['big', big]] as const) {
      writeFileSync(path.join(dir, name), bytes);
      const read = await readWhole(path.join(dir, name));
      expect(read.equals(bytes)).toBe(true);
    }
    await expect(readWhole(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads file after file through one buffer while they fit, a larger one when not', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'odr-into-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const files = [Buffer.from('first file'), Buffer.alloc(2_000_000, 7), Buffer.from('short'), Buffer.alloc(0)];
    files.forEach((b, i) => writeFileSync(path.join(dir, String(i)), b));
    let buf: Buffer | null = null;
    const used: Buffer[] = [];
    for (const [i, expected] of files.entries()) {
      const r = await readInto(path.join(dir, String(i)), buf);
      expect(r.bytes.equals(expected)).toBe(true);
      used.push((buf = r.buf));
    }
    // A new buffer for the first file and for the 2 MB one (the first was too small), then the same again.
    expect(used[1]).not.toBe(used[0]);
    expect(used[2]).toBe(used[1]);
    expect(used[3]).toBe(used[1]);
    await expect(readInto(path.join(dir, 'missing'), buf)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('gives large buffers a mapping of their own, small ones their size', () => {
    expect(allocationFor(100)).toBe(100);
    expect(allocationFor(3_000_000)).toBeGreaterThanOrEqual(32 * 1024 * 1024);
    expect(allocationFor(40_000_000)).toBe(40_000_000);
  });
});
