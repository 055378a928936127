// The function-bundle cache: its key covers the files the function's entries import (an edit
// there is a new key, an edit elsewhere is not), what it stores comes back equal, and a bundle
// that read a file outside the key's inputs is not stored.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { functionKey, readFunctionCache, storeFunctionCache, uncoveredInputs } from '../../../build/cache/function-cache.ts';
import type { FunctionBundle } from '../../../build/function-bundle.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-fn-cache-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const put = (root: string, rel: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
};

const repo = path.join(tmp, 'repo');

describe('function cache', () => {
  it('is keyed by the files the function imports and the lockfile, not by templates, the emit or files nothing imports', async () => {
    put(repo, 'functions/api.ts', "import { r } from '../build/contract/routes.ts';\nimport type { T } from './types.ts';\nexport const a: T = r;");
    put(repo, 'functions/types.ts', 'export type T = number;');
    put(repo, 'build/contract/routes.ts', 'export const r = 1;');
    put(repo, 'build/contract/unused.ts', 'export const u = 1;');
    put(repo, 'build/emit/site.ts', 'export const s = 1;');
    put(repo, 'templates/site/home.eta', '<h1>home</h1>');
    put(repo, 'package-lock.json', '{}');
    const k0 = await functionKey(repo);
    put(repo, 'templates/site/home.eta', '<h1>Home</h1>');
    put(repo, 'build/emit/site.ts', 'export const s = 2;');
    put(repo, 'build/contract/unused.ts', 'export const u = 2;');
    put(repo, 'functions/types.ts', 'export type T = 1 | 2;'); // imported for its type only: runs nothing
    put(repo, 'functions/votes.ts', 'export const v = 1;');
    expect(await functionKey(repo)).toBe(k0);
    put(repo, 'build/contract/routes.ts', 'export const r = 2;');
    const k1 = await functionKey(repo);
    expect(k1).not.toBe(k0);
    put(repo, 'functions/api.ts', "import { r } from '../build/contract/routes.ts';\nexport const a = r;\nexport const load = () => import('./votes.ts');");
    const k2 = await functionKey(repo);
    expect(k2).not.toBe(k1);
    put(repo, 'functions/votes.ts', 'export const v = 2;');
    const k3 = await functionKey(repo);
    expect(k3).not.toBe(k2);
    // The entry's own format: a changed layout must not read an old entry.
    put(repo, 'build/cache/entry.ts', 'export const format = 2;');
    expect(await functionKey(repo)).not.toBe(k3);
  });

  it('names the inputs its key does not cover', () => {
    expect(uncoveredInputs(['functions/api.ts', 'build/contract/routes.ts', 'functions/votes.ts', 'node_modules/zod/v4/mini/index.js'], repo)).toEqual([]);
    expect(uncoveredInputs(['functions/api.ts', 'build/emit/files.ts', 'build/contract/unused.ts'], repo)).toEqual(['build/emit/files.ts', 'build/contract/unused.ts']);
    // A repository whose node_modules is a link (a copy of the repository beside its install): esbuild names packages by their real path.
    expect(uncoveredInputs(['functions/api.ts', '../../install/node_modules/zod/v4/mini/index.js', '../other/functions/api.ts'], repo)).toEqual(['../other/functions/api.ts']);
  });

  const bundle: FunctionBundle = {
    files: [{ path: '_functions/api.mjs', body: 'export default 1;' }, { path: '_worker.js', body: 'export default { fetch() {} };' }],
    metafile: { inputs: { 'functions/api.ts': { bytes: 17, imports: [] } }, outputs: {} },
    inputs: ['functions/api.ts'],
  };

  it('gives back what it stored', async () => {
    const dir = path.join(tmp, 'cache');
    expect(await readFunctionCache(dir, 'k', () => undefined)).toEqual({ value: null, outcome: 'miss' });
    await storeFunctionCache(dir, 'k', bundle, repo, () => undefined);
    expect(await readFunctionCache(dir, 'k', () => undefined)).toEqual({ value: bundle, outcome: 'hit' });
  });

  it('does not store a bundle that read a file outside its key, and says so', async () => {
    const dir = path.join(tmp, 'cache-outside');
    const lines: string[] = [];
    await storeFunctionCache(dir, 'k', { ...bundle, inputs: ['functions/api.ts', 'build/shared/x.ts'] }, repo, (l) => lines.push(l));
    expect(lines.join('\n')).toMatch(/function bundles not stored: they read build\/shared\/x\.ts/);
    expect(readdirSync(path.join(tmp)).includes('cache-outside') ? readdirSync(dir) : []).toEqual([]);
    expect((await readFunctionCache(dir, 'k', () => undefined)).outcome).toBe('miss');
  });
});
