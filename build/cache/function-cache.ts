// The function bundles (esbuild's output for the function and its adapters), cached under a key of
// everything esbuild reads for them (the import closure of the function's entries, the bundling
// code, the lockfile with esbuild's and zod's versions, tsconfig.json) and of the entry format. A
// rebuild after an edit to templates or the emit then does not bundle again (esbuild ran beside
// the build, and the build waited for it). A bundle that reads a file outside
// those inputs is not stored (its key would not cover that file), and says so. `--cache` without
// `function` (or --no-cache) bypasses it; entries are verified on read (build/cache/entry.ts).
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { FUNCTION_ENTRIES, type FunctionBundle } from '../function-bundle.ts';
import { importClosure } from './import-closure.ts';
import { stageLabel } from '../report-format.ts';
import { hashCode } from './code-hash.ts';
import { ENTRY, readCached, sha, storeCached } from './entry.ts';
import type { CacheOutcome } from '../build-types.ts';

/**
 * What the bundles are made from besides node_modules (whose versions the lockfile pins): the
 * import closure of the function's entries and of the bundling code, the lockfile and tsconfig.json.
 */
export const functionInputs = (repoRoot: string): string[] => [...importClosure(repoRoot, [...FUNCTION_ENTRIES, 'build/emit/bundle-function.ts']), 'package-lock.json', 'tsconfig.json'];

/** Entries kept (one per version of the function's code). */
const KEEP = 4;

/** Not read by esbuild, but what an entry holds and how it is laid out: an edit here is a new key too. */
const ENTRY_FORMAT = ['build/cache/function-cache.ts', 'build/cache/entry.ts'];

export async function functionKey(repoRoot: string): Promise<string> {
  return (await hashCode(sha().update('function\0'), repoRoot, [...functionInputs(repoRoot), ...ENTRY_FORMAT])).digest('hex');
}

/** A package's file: the lockfile keys it. esbuild names it by its real path, outside the repository when node_modules is a link. */
const isPackageFile = (rel: string): boolean => rel.split('/').includes('node_modules');

/** The inputs of a bundle its key does not cover (none: it may be stored). */
export function uncoveredInputs(inputs: readonly string[], repoRoot: string): string[] {
  const covered = new Set(functionInputs(repoRoot));
  return inputs.filter((rel) => !isPackageFile(rel) && !covered.has(rel));
}

const entryFile = (cacheDir: string, key: string) => path.join(cacheDir, `${key}${ENTRY}`);

export async function readFunctionCache(cacheDir: string, key: string, log: (line: string) => void): Promise<{ value: FunctionBundle | null; outcome: Exclude<CacheOutcome, 'off'> }> {
  const { parts, outcome } = await readCached(entryFile(cacheDir, key), 'function bundles', log);
  if (!parts) return { value: null, outcome };
  return { value: { files: parts.files as FunctionBundle['files'], metafile: parts.metafile as Metafile, inputs: parts.inputs as string[] }, outcome };
}

export async function storeFunctionCache(cacheDir: string, key: string, bundle: FunctionBundle, repoRoot: string, log: (line: string) => void): Promise<void> {
  const outside = uncoveredInputs(bundle.inputs, repoRoot);
  if (outside.length > 0) {
    log(`${stageLabel('cache')} function bundles not stored: they read ${outside.join(', ')}, which build/cache/function-cache.ts does not key them by`);
    return;
  }
  await storeCached(entryFile(cacheDir, key), 'function bundles', [['files', bundle.files], ['metafile', bundle.metafile], ['inputs', bundle.inputs]], KEEP, log);
}
