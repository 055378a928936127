// The parsed-source cache on copies of the mini fixture tree, an entry per file parsed: a first load
// parses and stores every file; the next reads them all from their entries (the same bundle and
// report as parsing) and it is the entries that answer; a changed file is parsed alone; a damaged
// entry is reported, removed and its file parsed again; parsing threads store what they parse; and
// entries that none of the last four loads used are removed.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsedCache, sourceKeys } from '../../../../build/cache/sources-cache.ts';
import type { ParsedCache } from '../../../../build/sources/parsed-cache.ts';
import { readEntry, writeEntry } from '../../../../build/cache/entry.ts';
import { loadSources } from '../../../../build/sources/index.ts';
import { copyMini } from './helpers/paths.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-cache-test-'));
const copies: Array<() => void> = [];
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  for (const c of copies) c();
});

const entries = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.parts')).sort();

/** A copy of the mini tree and a cache for it (its keys made as the build makes them). */
async function setup(name: string) {
  const { dir, cleanup } = copyMini();
  copies.push(cleanup);
  const lines: string[] = [];
  const cacheDir = path.join(tmp, name);
  const cache = async (): Promise<ParsedCache> => parsedCache({ dir: cacheDir, ...(await sourceKeys(dir)), log: (l) => lines.push(l) });
  return { dir, cacheDir, lines, cache };
}

describe('parsed-source cache', () => {
  it('a first load parses and stores every file; the next reads every file from its entry, with the same result', async () => {
    const { dir, cacheDir, cache } = await setup('first');
    const uncached = await loadSources(dir);
    expect(uncached.cache).toEqual({ outcome: 'off', fromCache: 0, parsed: expect.any(Number) });
    const files = uncached.cache.parsed;
    expect(files).toBeGreaterThan(15);

    const first = await loadSources(dir, { cache: await cache() });
    expect(first.cache).toEqual({ outcome: 'miss', fromCache: 0, parsed: files });
    expect(entries(cacheDir)).toHaveLength(files);
    const second = await loadSources(dir, { cache: await cache() });
    expect(second.cache).toEqual({ outcome: 'hit', fromCache: files, parsed: 0 });
    expect(second.bundle).toEqual(uncached.bundle);
    expect(second.report).toEqual(uncached.report);
  });

  it('it is the entry that answers: an entry edited (and its checksums made again) shows through', async () => {
    const { dir, cacheDir, cache } = await setup('answers');
    const parsed = await loadSources(dir, { cache: await cache() });
    const title = parsed.bundle.occupations[0]!.title;
    let edited = 0;
    for (const name of entries(cacheDir)) {
      const file = path.join(cacheDir, name);
      const parts = (await readEntry(file)) as { value: unknown; log: unknown };
      const rows = parts.value as Array<Record<string, unknown>>;
      if (!Array.isArray(rows) || !rows.some((r) => r.title === title && 'description' in r)) continue;
      for (const r of rows) if (r.title === title) r.title = 'Read From The Cache';
      await writeEntry(file, [['value', rows], ['log', parts.log]]);
      edited++;
    }
    expect(edited).toBe(1);
    const again = await loadSources(dir, { cache: await cache() });
    expect(again.cache.outcome).toBe('hit');
    expect(again.bundle.occupations[0]!.title).toBe('Read From The Cache');
  });

  it('a changed file is parsed alone; its new rows are used', async () => {
    const { dir, cache } = await setup('changed');
    const before = await loadSources(dir, { cache: await cache() });
    const files = before.cache.parsed;
    expect(before.bundle.votes?.some((v) => v.soc_code === '29-1141.00')).toBe(false);
    appendFileSync(path.join(dir, 'votes.csv'), '29-1141.00,5,0,1\n');
    const after = await loadSources(dir, { cache: await cache() });
    expect(after.cache).toEqual({ outcome: 'miss', fromCache: files - 1, parsed: 1 });
    expect(after.bundle.votes?.find((v) => v.soc_code === '29-1141.00')).toMatchObject({ agree: 5, too_high: 0, too_low: 1 });
    expect({ ...after.bundle, votes: null }).toEqual({ ...before.bundle, votes: null });
  });

  it('a damaged entry fails verification, is removed and its file parsed again', async () => {
    const { dir, cacheDir, lines, cache } = await setup('damaged');
    const first = await loadSources(dir, { cache: await cache() });
    const files = first.cache.parsed;
    const entry = path.join(cacheDir, entries(cacheDir)[0]!);
    const bytes = readFileSync(entry);
    bytes.writeUInt8(bytes.readUInt8(1) ^ 0xff, 1); // inside the first part
    writeFileSync(entry, bytes);
    const again = await loadSources(dir, { cache: await cache() });
    expect(again.cache).toEqual({ outcome: 'damaged', fromCache: files - 1, parsed: 1 });
    expect(lines.filter((l) => l.includes('failed verification'))).toHaveLength(1);
    expect(again.bundle).toEqual(first.bundle);
    expect((await loadSources(dir, { cache: await cache() })).cache.outcome).toBe('hit');
  });

  it('parsing threads store the files they parse, read back the same', async () => {
    const { dir, cacheDir, cache } = await setup('threads');
    const threaded = await loadSources(dir, { threads: 1, cache: await cache() });
    expect(threaded.cache.outcome).toBe('miss');
    expect(entries(cacheDir)).toHaveLength(threaded.cache.parsed);
    const back = await loadSources(dir, { threads: 1, cache: await cache() });
    expect(back.cache).toEqual({ outcome: 'hit', fromCache: threaded.cache.parsed, parsed: 0 });
    expect(back.bundle).toEqual((await loadSources(dir, { threads: 0 })).bundle);
  });

  it('the key of the whole set changes with any file; entries no load of the last four used are removed', async () => {
    const { dir, cacheDir, cache } = await setup('prune');
    const k0 = (await sourceKeys(dir)).key;
    const files = (await loadSources(dir, { cache: await cache() })).cache.parsed;
    writeFileSync(path.join(cacheDir, `${'0'.repeat(64)}.parts`), 'from an old parser version');
    // Five versions of votes.csv, a load each: the entries of the last four loads stay.
    for (let n = 1; n <= 5; n++) {
      appendFileSync(path.join(dir, 'votes.csv'), `29-114${n}.00,${n},0,0\n`);
      expect((await sourceKeys(dir)).key).not.toBe(k0);
      await loadSources(dir, { cache: await cache() });
    }
    expect(entries(cacheDir)).toHaveLength(files - 1 + 4);
    const recent = JSON.parse(readFileSync(path.join(cacheDir, 'recent.json'), 'utf8')) as string[][];
    expect(recent).toHaveLength(4);
    expect(new Set(recent.flat())).toEqual(new Set(entries(cacheDir)));
  });
});
