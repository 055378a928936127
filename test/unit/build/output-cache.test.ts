// The output cache on the mini fixture (build/cache/output-stamp.ts through runBuild): an out
// folder that holds what the build would write is left alone, and one whose files were edited,
// added or removed by hand is noticed and written again, byte for byte. What it checks is the
// folder against its record, the same at any size; test/e2e/build-caches.test.ts builds the real
// sources through the other caches.
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runBuild } from '../../../build/pipeline.ts';
import { OutputTree } from '../../../build/emit/write.ts';
import { cleanMini, repoRoot } from './sources/helpers/paths.ts';
import { treeDigest } from '../../support/tree-digest.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-output-cache-'));
const mini = cleanMini();
afterAll(() => {
  mini.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

describe('the output cache (mini fixture)', () => {
  const out = path.join(tmp, 'percentile');
  const build = () => runBuild({ shape: 'percentile', out, source: mini.dir, repoRoot, cacheDir: path.join(tmp, 'cache') });
  let written: string;

  beforeAll(async () => {
    expect((await build()).caches!.output).toBe('miss');
    written = treeDigest(out);
  }, 60_000);

  it('a rebuild with nothing changed leaves the folder alone, with the summary recorded with it', async () => {
    const meta = path.join(out, 'api', 'v1', 'meta', 'index.json');
    const mtime = statSync(meta).mtimeMs;
    const again = await build();
    expect(again.caches).toEqual({ sources: 'skipped', model: 'skipped', function: 'skipped', output: 'hit' });
    expect(again.occupations).toBeGreaterThan(0);
    expect(statSync(meta).mtimeMs).toBe(mtime);
    expect(treeDigest(out)).toBe(written);
  });

  it('files edited, added or removed by hand are noticed and the folder written again', async () => {
    appendFileSync(path.join(out, 'api', 'v1', 'meta', 'index.json'), ' ');
    writeFileSync(path.join(out, 'stray.json'), '{}');
    rmSync(path.join(out, 'api', 'v1', 'openapi.json', 'index.json'));
    expect((await build()).caches!.output).toBe('damaged');
    expect(treeDigest(out)).toBe(written);
    expect((await build()).caches!.output).toBe('hit');
  });

  for (const [what, damage] of [
    ['an edited file', (dir: string) => appendFileSync(path.join(dir, 'api', 'v1', 'meta', 'index.json'), ' ')],
    ['an added file', (dir: string) => writeFileSync(path.join(dir, 'stray.json'), '{}')],
    ['a removed file', (dir: string) => rmSync(path.join(dir, 'api', 'v1', 'openapi.json', 'index.json'))],
  ] as const) {
    it(`${what} alone is noticed`, async () => {
      damage(out);
      expect((await build()).caches!.output).toBe('damaged');
      expect(treeDigest(out)).toBe(written);
    });
  }
});

// A build into a new folder from the same inputs links the files of a folder that holds that build
// (build/emit/write.ts OutputTree.linkedFrom) instead of emitting them again.
describe('the output cache across folders (mini fixture)', () => {
  const first = path.join(tmp, 'first');
  const build = (out: string) => runBuild({ shape: 'percentile', out, source: mini.dir, repoRoot, cacheDir: path.join(tmp, 'cache-folders') });
  const meta = (dir: string) => path.join(dir, 'api', 'v1', 'meta', 'index.json');
  let written: string;

  beforeAll(async () => {
    expect((await build(first)).caches!.output).toBe('miss');
    written = treeDigest(first);
  }, 60_000);

  it('a new folder gets the intact folder files, linked, byte for byte, with its own summary', async () => {
    const second = path.join(tmp, 'second');
    const s = await build(second);
    expect(s.caches).toEqual({ sources: 'skipped', model: 'skipped', function: 'skipped', output: 'hit' });
    expect(s.out).toBe(second);
    expect(treeDigest(second)).toBe(written);
    expect(statSync(meta(second)).ino).toBe(statSync(meta(first)).ino);
    // Recorded as its own: the next build leaves it alone.
    expect((await build(second)).caches!.output).toBe('hit');
    // Both folders' files stay known by their stat although linking changed it: no file is read to check either.
    const memos = readdirSync(path.join(tmp, 'cache-folders', 'outputs')).filter((f) => f.endsWith('.hashes.json'));
    const memo = (dir: string) => memos.map((f) => JSON.parse(readFileSync(path.join(tmp, 'cache-folders', 'outputs', f), 'utf8')) as { files: Record<string, number[]> }).find((m) => m.files[meta(dir)])!;
    for (const dir of [first, second]) expect(memo(dir).files[meta(dir)]!.slice(0, 4)).toEqual([statSync(meta(dir)).size, statSync(meta(dir)).mtimeMs, statSync(meta(dir)).ctimeMs, statSync(meta(dir)).ino]);
  });

  it('a folder that loses a file after its check, while it is linked from, is not served from: the new folder is emitted, and the log says why', async () => {
    const racing = path.join(tmp, 'racing');
    const second = path.join(tmp, 'second');
    const lines: string[] = [];
    const link = OutputTree.linkedFrom.bind(OutputTree);
    // As when another run removes the folder it checked a moment ago: the file goes between the check and the links.
    const spy = vi.spyOn(OutputTree, 'linkedFrom').mockImplementationOnce(async (out, from, rels, opts) => {
      expect(from).toBe(second); // the most recently built intact folder
      rmSync(meta(from));
      return link(out, from, rels, opts);
    });
    try {
      const s = await runBuild({ shape: 'percentile', out: racing, source: mini.dir, repoRoot, cacheDir: path.join(tmp, 'cache-folders'), log: (l) => lines.push(l) });
      expect(spy).toHaveBeenCalledTimes(1);
      expect(s.caches!.output).toBe('miss');
      expect(treeDigest(racing)).toBe(written);
      expect(lines.find((l) => l.includes(`linking ${second} into ${racing} failed`) && l.includes('emitting the files instead'))).toBeDefined();
    } finally {
      spy.mockRestore();
      rmSync(racing, { recursive: true, force: true });
    }
  });

  it('a folder edited by hand is not linked from: the new folder is emitted', async () => {
    const third = path.join(tmp, 'third');
    rmSync(path.join(tmp, 'second'), { recursive: true });
    appendFileSync(meta(first), ' ');
    expect((await build(third)).caches!.output).toBe('miss');
    expect(treeDigest(third)).toBe(written);
    expect(statSync(meta(third)).ino).not.toBe(statSync(meta(first)).ino);
  });

  it('a tree updated in place replaces the files it shares with another folder, never writes through them', async () => {
    const third = path.join(tmp, 'third');
    const fourth = path.join(tmp, 'fourth');
    expect((await build(fourth)).caches!.output).toBe('hit'); // linked from third (first is edited)
    appendFileSync(meta(fourth), ' '); // third's file too: they are one file
    const thirds = readFileSync(meta(third));
    // No intact folder to link from: emitted; the linked tree is kept as fourth's previous generation.
    expect((await build(fourth)).caches!.output).toBe('damaged');
    appendFileSync(meta(fourth), ' ');
    // Emitted into that previous generation, in place: its edited file (third's too) differs and is replaced.
    expect((await build(fourth)).caches!.output).toBe('damaged');
    expect(treeDigest(fourth)).toBe(written);
    expect(readFileSync(meta(third)).equals(thirds)).toBe(true);
    expect(statSync(meta(fourth)).ino).not.toBe(statSync(meta(third)).ino);
  });

  it('links only the files the manifest lists, and not from a folder that lost one', async () => {
    const fourth = path.join(tmp, 'fourth');
    const fifth = path.join(tmp, 'fifth');
    writeFileSync(path.join(fourth, 'stray.json'), '{}');
    expect((await build(fifth)).caches!.output).toBe('hit'); // fourth's files, not its stray one
    expect(treeDigest(fifth)).toBe(written);
    const openapi = (dir: string) => path.join(dir, 'api', 'v1', 'openapi.json', 'index.json');
    rmSync(openapi(fourth));
    rmSync(openapi(fifth));
    const sixth = path.join(tmp, 'sixth');
    expect((await build(sixth)).caches!.output).toBe('miss');
    expect(treeDigest(sixth)).toBe(written);
  });
});
