// The output cache on the mini fixture (build/cache/output-stamp.ts through runBuild): an out
// folder that holds what the build would write is left alone, and one whose files were edited,
// added or removed by hand is noticed and written again, byte for byte. What it checks is the
// folder against its record, the same at any size; test/e2e/build-caches.test.ts builds the real
// sources through the other caches.
import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../../build/pipeline.ts';
import { cleanMini, repoRoot } from '../sources/helpers/paths.ts';
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
