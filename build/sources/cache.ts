// A content-addressed cache of parsed source files, an entry per file parsed. Parsing the raw files
// (xlsx above all) is most of a build; a file's rows depend only on its bytes, on how it is parsed
// (the parser, its argument, the sheet and columns asked for, its path, which messages quote) and
// on the parser code. So each parse is stored under a key made of those: the file's sha256 and
// the "parser version", the sha256 of the loaders' own source files, the model's input schemas,
// the entry format and the lockfile (edit a loader or a schema, or upgrade a parser library, and
// every entry is stale). A changed or added source file (a new OEWS year, a votes export) is
// parsed alone; the others come from their entries. Entries are JSON parts, each with its sha256,
// verified on read (build/cache/entry.ts); a damaged entry is reported, removed and its file parsed
// again. The thread that parses a file stores it (parse-jobs.ts). The directory is git-ignored;
// --no-cache bypasses it.
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { listSourceFiles } from './discover.ts';
import type { JobLog, ParseJob } from './parse-jobs.ts';
import { ENTRY, readCached, sha, type CacheOutcome, type Scratch } from '../cache/entry.ts';
import { fileHashes } from '../cache/file-hashes.ts';
import { hashCode } from '../cache/code-hash.ts';
import { importClosure } from '../cache/import-closure.ts';
import { writeJsonFile } from '../cache/json-file.ts';
import { stageLabel } from '../report-format.ts';
import { REPO_ROOT } from '../repo-root.ts';

export type { CacheOutcome };

const REPO = REPO_ROOT;

/**
 * The parser version: the loaders' import closure (the parsing threads' code, the model's input
 * schemas, the entry format) and the lockfile (parser libraries' versions).
 */
const parserVersion = async (): Promise<string> => (await hashCode(sha(), REPO, [...importClosure(REPO, ['build/sources/index.ts']), 'package-lock.json'])).digest('hex');

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

/** Where parsed files are cached (loadSources takes it), and the keys' ingredients. */
export interface ParsedCache extends Pick<SourceKeys, 'parser' | 'files'> {
  dir: string;
  log: (line: string) => void;
}

/** The entry of a parse job; null when its file was not hashed (it appeared after the keys were made). */
export function entryFor(cache: ParsedCache, job: ParseJob): string | null {
  const file = cache.files.get(job.rel);
  if (file === undefined) return null;
  const how = JSON.stringify([job.parser, job.arg ?? null, job.sheet ?? null, job.wanted, job.rel]);
  return path.join(cache.dir, `${sha().update(`${cache.parser}\0${how}\0${file}`).digest('hex')}${ENTRY}`);
}

/** A parsed file from its verified entry, or why there is none (a damaged entry is reported and removed). */
export async function readParsed(cache: ParsedCache, entry: string, rel: string, scratch: Scratch): Promise<{ outcome: Exclude<CacheOutcome, 'off'>; value?: unknown; log?: JobLog }> {
  const { parts, outcome } = await readCached(entry, `parsed ${rel}`, cache.log, scratch);
  if (!parts) return { outcome };
  return { outcome, value: parts.value, log: parts.log as JobLog };
}

/** The entries used by this many builds are kept (a build uses one per file parsed). */
const KEEP_BUILDS = 4;
/** Beside the entries: which entries each of the last builds used, newest first. */
const RECENT = 'recent.json';

/**
 * Records the entries this build used and removes every entry none of the last KEEP_BUILDS builds
 * used (entries of other source sets and of old parser versions). A failure is logged; the build goes on.
 */
export async function pruneParsed(cache: ParsedCache, used: readonly string[]): Promise<void> {
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
