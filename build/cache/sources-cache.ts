// A content-addressed cache of parsed source files, an entry per file parsed. Parsing the raw files
// (xlsx above all) is most of a build; a file's rows depend only on its bytes, on how it is parsed
// (the parser, its argument, the sheet and columns asked for, its path, which messages quote) and
// on the parser code. So each parse is stored under a key made of those: the file's sha256 and
// the "parser version", the sha256 of the loaders' own source files, the model's input schemas,
// the entry format and the lockfile (edit a loader or a schema, or upgrade a parser library, and
// every entry is stale). A changed or added source file (a new OEWS year, a votes export) is
// parsed alone; the others come from their entries. Entries are JSON parts, each with its sha256,
// verified on read (build/cache/entry.ts); a damaged entry is reported, removed and its file parsed
// again. The thread that parses a file stores it (parsed-store.ts, bundled into the parsing threads).
// The directory is git-ignored; --no-cache bypasses it. The loaders know it only as the
// ParsedCache they are handed (build/sources/parsed-cache.ts): they never import a cache module.
import { readFile, readdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { listSourceFiles } from '../sources/discover.ts';
import type { JobLog, ParseJob } from '../sources/parse-jobs.ts';
import type { ParsedCache } from '../sources/parsed-cache.ts';
import { ENTRY, readCached, sha, type Scratch } from './entry.ts';
import { storeParsed } from './parsed-store.ts';
import { fileHashes } from './file-hashes.ts';
import { hashCode } from './code-hash.ts';
import { importClosure } from './import-closure.ts';
import { writeJsonFile } from './json-file.ts';
import { stageLabel } from '../report-format.ts';
import { REPO_ROOT } from '../repo-root.ts';

const REPO = REPO_ROOT;

/**
 * The parser version: the loaders' import closure (the parsing threads' code, the model's input
 * schemas), this module's (the entry format) and the lockfile (parser libraries' versions).
 */
const parserVersion = async (): Promise<string> =>
  (await hashCode(sha(), REPO, [...importClosure(REPO, ['build/sources/index.ts', 'build/cache/sources-cache.ts']), 'package-lock.json'])).digest('hex');

/** What the keys of a source directory are made of. */
export interface SourceKeys {
  /** The whole set (parser version, every file's path and sha256): the model's cache builds on it. */
  key: string;
  parser: string;
  /** Each file's sha256, by its path relative to the source directory. */
  files: ReadonlyMap<string, string>;
}

/** `memoFile` remembers the hashes by file stat, so unchanged files are not read again (build/cache/file-hashes.ts). */
export async function sourceKeys(sourceDir: string, memoFile?: string): Promise<SourceKeys> {
  const parser = await parserVersion();
  const h = sha().update(parser);
  const rels = await listSourceFiles(sourceDir);
  const hashes = await fileHashes(
    rels.map((rel) => path.join(sourceDir, rel)),
    memoFile,
  );
  rels.forEach((rel, i) => h.update(`\0${rel}\0${hashes[i]}`));
  return { key: h.digest('hex'), parser, files: new Map(rels.map((rel, i) => [rel, hashes[i]!])) };
}

/** Where parsed files are cached, and the keys' ingredients. */
export interface ParsedCacheDir extends Pick<SourceKeys, 'parser' | 'files'> {
  dir: string;
  log: (line: string) => void;
}

/** The cache the loaders are handed (loadSources' `cache`), over the entries in `dir`. */
export function parsedCache(at: ParsedCacheDir): ParsedCache {
  // One buffer for every entry one load reads (build/cache/entry.ts, Scratch).
  const scratch: Scratch = { buf: null };
  return {
    files: at.files,
    log: at.log,
    entryFor: (job) => entryFor(at, job),
    async read(entry, rel) {
      const { parts, outcome } = await readCached(entry, `parsed ${rel}`, at.log, scratch);
      if (!parts) return { outcome };
      return { outcome, value: parts.value, log: parts.log as JobLog };
    },
    store: storeParsed,
    storeModule: fileURLToPath(new URL('./parsed-store.ts', import.meta.url)),
    prune: (used) => pruneParsed(at, used),
  };
}

/** The entry of a parse job; null when its file was not hashed (it appeared after the keys were made). */
function entryFor(cache: ParsedCacheDir, job: ParseJob): string | null {
  const file = cache.files.get(job.rel);
  if (file === undefined) return null;
  const how = JSON.stringify([job.parser, job.arg ?? null, job.sheet ?? null, job.wanted, job.rel]);
  return path.join(cache.dir, `${sha().update(`${cache.parser}\0${how}\0${file}`).digest('hex')}${ENTRY}`);
}


/** The entries used by this many builds are kept (a build uses one per file parsed). */
const KEEP_BUILDS = 4;
/** Beside the entries: which entries each of the last builds used, newest first. */
const RECENT = 'recent.json';

/**
 * Records the entries this build used and removes every entry none of the last KEEP_BUILDS builds
 * used (entries of other source sets and of old parser versions). A failure is logged; the build goes on.
 */
async function pruneParsed(cache: ParsedCacheDir, used: readonly string[]): Promise<void> {
  try {
    const file = path.join(cache.dir, RECENT);
    const old = await readFile(file, 'utf8').then((t) => JSON.parse(t) as unknown, () => []);
    const earlier = Array.isArray(old) ? old.filter((b): b is string[] => Array.isArray(b) && b.every((n) => typeof n === 'string')) : [];
    const recent = [used.map((e) => path.basename(e)).sort(), ...earlier].slice(0, KEEP_BUILDS);
    await writeJsonFile(file, recent);
    const keep = new Set(recent.flat());
    for (const name of await readdir(cache.dir)) {
      if (name.endsWith(ENTRY) && !keep.has(name)) await rm(path.join(cache.dir, name), { force: true });
    }
  } catch (e) {
    cache.log(`${stageLabel('cache')} could not prune ${cache.dir} (${(e as Error).message}); the build goes on`);
  }
}
