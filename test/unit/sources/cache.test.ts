// The parsed-source cache on the mini fixture tree: a miss parses and stores, a hit returns the
// same bundle and report without parsing, a changed source byte is a new key, and a damaged entry
// is reported, removed and parsed again.
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheKey, loadCached } from '../../../build/sources/cache.ts';
import { loadSources } from '../../../build/sources/index.ts';
import { miniFixture } from './helpers/paths.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-cache-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('parsed-source cache', () => {
  const cacheDir = path.join(tmp, 'cache');
  const lines: string[] = [];
  let parses = 0;
  const load = (dir: string) => () => {
    parses++;
    return loadSources(dir);
  };

  it('parses and stores on a miss, then answers from the entry', async () => {
    const first = await loadCached(miniFixture, cacheDir, load(miniFixture), (l) => lines.push(l));
    expect(first.cache).toBe('miss');
    expect(parses).toBe(1);
    // Stored when the caller runs the store it was handed (a stage of its own), not before.
    expect(existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.endsWith('.parts')) : []).toHaveLength(0);
    await first.store!();
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.parts'))).toHaveLength(1);
    const second = await loadCached(miniFixture, cacheDir, load(miniFixture), (l) => lines.push(l));
    expect(second.cache).toBe('hit');
    expect(second.store).toBeNull();
    expect(parses).toBe(1);
    expect(second.bundle).toEqual(first.bundle);
    expect(second.report).toEqual(first.report);
    expect(second.bundle).toEqual((await loadSources(miniFixture)).bundle);
  });

  it('keys on the content of every source file', async () => {
    const copy = path.join(tmp, 'mini');
    cpSync(miniFixture, copy, { recursive: true });
    expect(await cacheKey(copy)).toBe(await cacheKey(miniFixture));
    appendFileSync(path.join(copy, 'votes.csv'), '\n');
    expect(await cacheKey(copy)).not.toBe(await cacheKey(miniFixture));
  });

  it('a damaged entry fails verification, is removed and the sources are parsed again', async () => {
    const entry = path.join(cacheDir, readdirSync(cacheDir).find((f) => f.endsWith('.parts'))!);
    const bytes = readFileSync(entry);
    bytes.writeUInt8(bytes.readUInt8(10) ^ 0xff, 10); // inside the first part
    writeFileSync(entry, bytes);
    const before = parses;
    const again = await loadCached(miniFixture, cacheDir, load(miniFixture), (l) => lines.push(l));
    expect(again.cache).toBe('damaged');
    expect(parses).toBe(before + 1);
    expect(lines.some((l) => l.includes('failed verification'))).toBe(true);
    await again.store!();
    expect((await loadCached(miniFixture, cacheDir, load(miniFixture), () => undefined)).cache).toBe('hit');
  });
});
