// The function-bundle cache: its key covers the function's code and the model code it imports (an
// edit there is a new key, an edit elsewhere is not), what it stores comes back equal, and a bundle
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

describe('function cache', () => {
  it('is keyed by the function, the model and the lockfile, not by templates or the emit', async () => {
    const repo = path.join(tmp, 'repo');
    put(repo, 'functions/api.ts', 'export const a = 1;');
    put(repo, 'build/contract/routes.ts', 'export const r = 1;');
    put(repo, 'build/emit/site.ts', 'export const s = 1;');
    put(repo, 'templates/site/home.eta', '<h1>home</h1>');
    put(repo, 'package-lock.json', '{}');
    const k0 = await functionKey(repo);
    put(repo, 'templates/site/home.eta', '<h1>Home</h1>');
    put(repo, 'build/emit/site.ts', 'export const s = 2;');
    expect(await functionKey(repo)).toBe(k0);
    put(repo, 'build/contract/routes.ts', 'export const r = 2;');
    const k1 = await functionKey(repo);
    expect(k1).not.toBe(k0);
    put(repo, 'functions/votes.ts', 'export const v = 1;');
    const k2 = await functionKey(repo);
    expect(k2).not.toBe(k1);
    // The entry's own format: a changed layout must not read an old entry.
    put(repo, 'build/cache/entry.ts', 'export const format = 2;');
    expect(await functionKey(repo)).not.toBe(k2);
  });

  it('names the inputs its key does not cover', () => {
    expect(uncoveredInputs(['functions/api.ts', 'build/model/search.ts', 'node_modules/zod/v4/mini/index.js'])).toEqual([]);
    expect(uncoveredInputs(['functions/api.ts', 'build/emit/files.ts', 'build/modelling.ts'])).toEqual(['build/emit/files.ts', 'build/modelling.ts']);
  });

  const bundle: FunctionBundle = {
    files: [{ path: '_functions/api.mjs', body: 'export default 1;' }, { path: '_worker.js', body: 'export default { fetch() {} };' }],
    metafile: { inputs: { 'functions/api.ts': { bytes: 17, imports: [] } }, outputs: {} },
    inputs: ['functions/api.ts'],
  };

  it('gives back what it stored', async () => {
    const dir = path.join(tmp, 'cache');
    expect(await readFunctionCache(dir, 'k', () => undefined)).toEqual({ value: null, outcome: 'miss' });
    await storeFunctionCache(dir, 'k', bundle, () => undefined);
    expect(await readFunctionCache(dir, 'k', () => undefined)).toEqual({ value: bundle, outcome: 'hit' });
  });

  it('does not store a bundle that read a file outside its key, and says so', async () => {
    const dir = path.join(tmp, 'cache-outside');
    const lines: string[] = [];
    await storeFunctionCache(dir, 'k', { ...bundle, inputs: ['functions/api.ts', 'build/shared/x.ts'] }, (l) => lines.push(l));
    expect(lines.join('\n')).toMatch(/function bundles not stored: they read build\/shared\/x\.ts/);
    expect(readdirSync(path.join(tmp)).includes('cache-outside') ? readdirSync(dir) : []).toEqual([]);
    expect((await readFunctionCache(dir, 'k', () => undefined)).outcome).toBe('miss');
  });
});
