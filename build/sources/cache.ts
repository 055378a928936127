// A content-addressed cache of parsed sources. Parsing the raw files (xlsx above all) is most of a
// build; its result depends only on the bytes of the source files and on the parser code, so it is
// stored under a key made of both: the sha256 of every file under the source directory (path and
// content's sha256) and of the loaders' own source files, the model's input schemas and the lockfile (the
// "parser version": edit a loader or a schema, or upgrade a parser library, and every entry is
// stale). Entries are JSON parts, each with its sha256, verified on read (build/cache/entry.ts); a
// damaged entry is reported, removed and the sources parsed again. The directory is git-ignored;
// --no-cache bypasses it.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelInputs } from '../model/inputs.ts';
import type { SourceReport } from './report.ts';
import { listSourceFiles } from './discover.ts';
import { ENTRY, readCached, sha, storeCached, type CacheOutcome } from '../cache/entry.ts';
import { fileHashes } from '../cache/file-hashes.ts';

export type Loaded = { bundle: ModelInputs; report: SourceReport };
export type { CacheOutcome };

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
/** Entries kept; older ones are removed after a store (one per source set and parser version). */
const KEEP = 4;

/** The schemas the loaders produce (owned by the model, with the code pattern they use): a change to them changes what is parsed. */
const INPUT_SCHEMAS = ['inputs.ts', 'request-schemas.ts'];

/** The parser version: this folder's code, the model's input schemas and the lockfile (parser libraries' versions). */
async function parserVersion(): Promise<string> {
  const h = sha();
  const own = (await readdir(HERE)).filter((f) => /\.(ts|mjs)$/.test(f)).sort();
  for (const f of own) h.update(`${f}\0`).update(await readFile(path.join(HERE, f))).update('\0');
  for (const f of INPUT_SCHEMAS) h.update(`model/${f}\0`).update(await readFile(path.join(REPO, 'build', 'model', f))).update('\0');
  h.update(await readFile(path.join(REPO, 'build', 'cache', 'entry.ts'))); // the entry format
  h.update(await readFile(path.join(REPO, 'package-lock.json')).catch(() => Buffer.from('no lockfile')));
  return h.digest('hex');
}

/**
 * The key of a source directory: the parser version and every file's path and sha256. `memoFile`
 * remembers the hashes by file stat, so unchanged files are not read again (build/cache/file-hashes.ts).
 */
export async function cacheKey(sourceDir: string, memoFile?: string): Promise<string> {
  const h = sha().update(await parserVersion());
  const rels = await listSourceFiles(sourceDir);
  const hashes = await fileHashes(
    rels.map((rel) => path.join(sourceDir, rel)),
    memoFile,
  );
  rels.forEach((rel, i) => h.update(`\0${rel}\0${hashes[i]}`));
  return h.digest('hex');
}

/**
 * Loads through the cache: a verified entry for this key is returned as is; otherwise `load` runs,
 * and `store` (null on a hit) stores its result: the caller runs it as a stage of its own, so that
 * its time and memory are not counted as the parse's. `key` when the caller has it already (the
 * model cache builds on it).
 */
export async function loadCached(
  sourceDir: string,
  cacheDir: string,
  load: () => Promise<Loaded>,
  log: (line: string) => void,
  key?: string,
): Promise<Loaded & { cache: CacheOutcome; store: (() => Promise<void>) | null }> {
  const file = path.join(cacheDir, `${key ?? (await cacheKey(sourceDir))}${ENTRY}`);
  const { parts, outcome } = await readCached(file, 'parsed sources', log);
  if (parts) {
    const { report, ...bundle } = parts;
    return { report: report as SourceReport, bundle: bundle as ModelInputs, cache: outcome, store: null };
  }
  const value = await load();
  const entry = (): Array<readonly [string, unknown]> => [['report', value.report], ...Object.entries(value.bundle)];
  return { ...value, cache: outcome, store: () => storeCached(file, 'parsed sources', entry(), KEEP, log) };
}
