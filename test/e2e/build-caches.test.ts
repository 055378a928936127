// The build's caches on the real sources, after the global setup built both shapes through them
// (so the parsed sources and the model's output are cached under this checkout's .cache): a build
// from the cached model writes exactly the bytes of a build that computes it; a rebuild with
// nothing changed leaves the out folder alone (and removes what a killed build left half-written
// in the caches); a build into a new folder links the files of one that holds the same build. Files edited, added or removed by hand in an out folder are noticed by the
// output cache whatever the folder's size: test/unit/build/output-cache.test.ts, on the mini fixture.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { runBuild } from '../../build/pipeline.ts';
import type { CacheName } from '../../build/build-types.ts';
import { distsBuilt, REPO_ROOT } from '../support/dists-status.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-caches-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function files(root: string): string[] {
  const all = readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return all.map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort();
}

/** A file's identity on disk: hard links of one file share it. */
const inode = (file: string) => {
  const s = statSync(file, { bigint: true });
  return `${s.dev}:${s.ino}`;
};

/**
 * The same files with the same bytes (read a file at a time: two trees of ~76 MB, some 4
 * CPU-seconds). A file that is a hard link of the expected one, or of the same file in a tree
 * already compared (`compared`), is that file: its bytes are not read again.
 */
function expectSameTree(actual: string, expected: string, compared: string[] = []) {
  const list = files(expected);
  expect(files(actual)).toEqual(list);
  const differing = list.filter((rel) => {
    const file = path.join(actual, rel);
    const id = inode(file);
    if ([expected, ...compared].some((tree) => inode(path.join(tree, rel)) === id)) return false;
    return !readFileSync(file).equals(readFileSync(path.join(expected, rel)));
  });
  expect(differing).toEqual([]);
}

describe('build caches on the real sources', () => {
  const computed = path.join(tmp, 'computed');
  let reference = computed;
  const out = path.join(tmp, 'percentile');
  const build = (dir: string, caches?: CacheName[]) => runBuild({ shape: 'percentile', out: dir, repoRoot: REPO_ROOT, strict: true, ...(caches ? { caches } : {}) });

  it('the cached model gives the same bytes as the computed one; nothing changed leaves the folder alone', async () => {
    // A build that computed the model: the global setup's, when it did (a fresh checkout, as in
    // CI: one real build fewer), else one here (parsed sources from the cache, the model computed).
    const setupComputed = (await distsBuilt()).caches.model === 'miss';
    // The parsed sources may have been pruned since (a checkout's cache keeps the entries of its
    // last few builds, and the other build tests parse altered copies of the sources): hit or miss.
    if (!setupComputed) expect((await build(computed, ['sources'])).caches).toEqual({ sources: expect.stringMatching(/^(hit|miss)$/), model: 'off', function: 'off', output: 'off' });
    reference = setupComputed ? inject('dists').percentile : computed;
    // Without the output cache: a new folder with this build's key would take the files of the setup's.
    const first = await build(out, ['sources', 'model', 'function']);
    expect(first.caches).toEqual({ sources: 'skipped', model: 'hit', function: 'hit', output: 'off' });
    expectSameTree(out, reference);
    // With it, another new folder gets those files, linked, nothing rendered.
    const linked = path.join(tmp, 'linked');
    expect((await build(linked)).caches).toEqual({ sources: 'skipped', model: 'skipped', function: 'skipped', output: 'hit' });
    expectSameTree(linked, reference, [out]);

    const meta = path.join(out, 'api', 'v1', 'meta', 'index.json');
    const mtime = statSync(meta).mtimeMs;
    // A model entry a killed build was writing (its process is gone): the next build removes it.
    const left = path.join(REPO_ROOT, '.cache', 'model', `0.parts.${spawnSync(process.execPath, ['-e', '0']).pid}-0.tmp`);
    writeFileSync(left, 'half');
    const again = await build(out);
    expect(existsSync(left)).toBe(false);
    expect(again.caches).toEqual({ sources: 'skipped', model: 'skipped', function: 'skipped', output: 'hit' });
    // The summary is the one recorded with the folder: the same counts and reports.
    for (const k of ['files', 'bytes', 'dataVersion', 'occupations', 'unscored', 'sourceReport', 'joinReport'] as const) expect(again[k]).toEqual(first[k]);
    expect(statSync(meta).mtimeMs).toBe(mtime);
  });
});
