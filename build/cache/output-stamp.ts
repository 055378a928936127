// Whether an out folder already holds exactly what this build would write. After each successful
// write the build records, outside the folder, the key the folder was built from (the model's key,
// the shape, every file of code, templates, docs and seeds the emit reads, the lockfile, Node's
// version), the sha256 of the folder's manifest and the summary it printed. The next build with the
// same key checks the folder itself against that manifest: the same set of files, every file's
// sha256 as listed (a file whose stat is unchanged since its hash was taken is not read again, as
// git's index does: build/cache/file-hashes.ts). Only when every file is as recorded is the folder
// left as it is; a file edited, added or removed by hand, or any change to the key, means a full emit.
import { readdirSync, statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { listTree } from './list-tree.ts';
import { hashCode } from './code-hash.ts';
import { importClosure } from './import-closure.ts';
import { FUNCTION_ENTRIES } from '../function-bundle.ts';
import { sha } from './entry.ts';
import type { CacheOutcome } from '../build-types.ts';
import { fileHashes, rememberHashes, type Stat } from './file-hashes.ts';
import { writeJsonFile } from './json-file.ts';
import { MANIFEST_FILE } from '../contract/dist-layout.ts';

/**
 * What may change what is emitted besides the model (in the model key): the code the build runs
 * (the pipeline's import closure, with the emit stage), the function's, and the files the emit
 * reads (templates, docs, seeds, recorded releases, migrations, the package files).
 */
const emitInputs = (repoRoot: string): string[] => [
  ...importClosure(repoRoot, ['build/pipeline.ts', ...FUNCTION_ENTRIES]),
  ...['templates', 'docs', 'seeds', 'releases', 'migrations', 'package.json', 'package-lock.json', 'tsconfig.json'],
];

/** The key of each shape's out folder: the emit's inputs are hashed once for all of them. */
export async function outputKeys(modelKey: string, shapes: readonly string[], repoRoot: string): Promise<string[]> {
  const code = (await hashCode(sha(), repoRoot, emitInputs(repoRoot))).digest('hex');
  return shapes.map((shape) => sha().update(`output\0${modelKey}\0${shape}\0${process.version}\0${code}`).digest('hex'));
}

interface Stamp<S> {
  out: string;
  key: string;
  manifestSha256: string;
  summary: S;
}

const outId = (out: string) => sha().update(path.resolve(out)).digest('hex');
const stampFile = (stampDir: string, out: string) => path.join(stampDir, `${outId(out)}.json`);
/** The folder's file hashes by stat (build/cache/file-hashes.ts). */
const memoFile = (stampDir: string, out: string) => path.join(stampDir, `${outId(out)}.hashes.json`);

/**
 * A hit names every file the folder holds (manifest included), each listed file's sha256, and a
 * time no later than when those hashes were known to match the files (file-hashes.ts, hashedAt).
 */
export type OutputCheck<S> = { outcome: 'hit'; summary: S; present: string[]; listed: Record<string, string>; hashedAt: number } | { outcome: Exclude<CacheOutcome, 'hit' | 'off'>; why: string };

/**
 * The recorded summary when `out` was built from `key` and is, byte for byte, what that build
 * wrote. With `whole: false` only the files the manifest lists are checked (a file added beside
 * them is not looked for): enough to take those files from it, and no walk of the whole folder.
 */
export async function checkOutput<S>(stampDir: string, out: string, key: string, { whole = true }: { whole?: boolean } = {}): Promise<OutputCheck<S>> {
  const stamp = await readFile(stampFile(stampDir, out), 'utf8').then((t) => JSON.parse(t) as Stamp<S>, () => null);
  if (!stamp || stamp.key !== key || stamp.out !== path.resolve(out)) return { outcome: 'miss', why: 'not built from these inputs' };
  const manifestBytes = await readFile(path.join(out, MANIFEST_FILE)).catch(() => null);
  if (!manifestBytes || sha().update(manifestBytes).digest('hex') !== stamp.manifestSha256) return { outcome: 'damaged', why: `${MANIFEST_FILE} changed since the build` };
  const listed = (JSON.parse(manifestBytes.toString('utf8')) as { files: Record<string, string> }).files;
  let present: string[];
  try {
    present = whole ? listTree(out) : [...Object.keys(listed), MANIFEST_FILE];
  } catch {
    return { outcome: 'damaged', why: 'the folder cannot be listed' };
  }
  const expected = Object.keys(listed).length + 1; // the manifest does not list itself
  if (present.length !== expected) return { outcome: 'damaged', why: `${present.length} files where the build wrote ${expected}` };
  for (const rel of present) if (rel !== MANIFEST_FILE && listed[rel] === undefined) return { outcome: 'damaged', why: `${rel} was not written by the build` };
  const files = present.filter((rel) => rel !== MANIFEST_FILE);
  const hashedAt = Date.now();
  let sums: string[];
  try {
    sums = await fileHashes(
      files.map((rel) => path.join(out, rel)),
      memoFile(stampDir, out),
    );
  } catch {
    return { outcome: 'damaged', why: 'a file the build wrote is missing' };
  }
  const bad = files.find((rel, i) => sums[i] !== listed[rel]);
  if (bad) return { outcome: 'damaged', why: `${bad} changed since the build` };
  return { outcome: 'hit', summary: stamp.summary, present, listed, hashedAt };
}

/**
 * Another out folder recorded under `key` that still holds, byte for byte, what that build wrote
 * (checkOutput), the most recently built first; null when there is none. A build into a new folder
 * links that folder's files instead of emitting them again.
 */
export async function findTwin<S>(stampDir: string, out: string, key: string): Promise<{ from: string; check: Extract<OutputCheck<S>, { outcome: 'hit' }> } | null> {
  let names: string[];
  try {
    names = readdirSync(stampDir).filter((f) => /^[0-9a-f]{64}\.json$/.test(f));
  } catch {
    return null;
  }
  const stamps = names
    .map((f) => ({ f, t: statSync(path.join(stampDir, f)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { f } of stamps) {
    const stamp = await readFile(path.join(stampDir, f), 'utf8').then((t) => JSON.parse(t) as Stamp<S>, () => null);
    if (!stamp || stamp.key !== key || stamp.out === path.resolve(out)) continue;
    const check = await checkOutput<S>(stampDir, stamp.out, key, { whole: false });
    if (check.outcome === 'hit') return { from: stamp.out, check };
  }
  return null;
}

/**
 * Records what `out` now holds (after its swap): the key, its manifest's sha256, the summary, and
 * the hashes of its files as written, known since `hashedAt` (before the files were written, or
 * before the folder they were linked from was checked): a file whose mtime is not clearly before
 * that is read by the next check, any other is not.
 */
export async function recordOutput<S>(stampDir: string, out: string, key: string, summary: S, written: ReadonlyArray<{ path: string; sha256: string }>, known: { hashedAt: number; stats?: readonly Stat[] }): Promise<void> {
  const manifestSha256 = sha().update(await readFile(path.join(out, MANIFEST_FILE))).digest('hex');
  await rememberHashes(
    memoFile(stampDir, out),
    written.map((w) => path.join(out, w.path)),
    written.map((w) => w.sha256),
    known,
  );
  const file = stampFile(stampDir, out);
  const stamp: Stamp<S> = { out: path.resolve(out), key, manifestSha256, summary };
  await writeJsonFile(file, stamp);
  await prune(stampDir);
}

/**
 * Remembers the hashes of `out`'s files with stats taken since their last change: a folder whose
 * files were just linked elsewhere (which changed their ctime) stays known without reading them.
 */
export async function rememberFiles(stampDir: string, out: string, files: ReadonlyArray<{ path: string; sha256: string }>, known: { hashedAt: number; stats: readonly Stat[] }): Promise<void> {
  await rememberHashes(
    memoFile(stampDir, out),
    files.map((w) => path.join(out, w.path)),
    files.map((w) => w.sha256),
    known,
  );
}

/** Out folders remembered; the least recently built beyond these are forgotten (test runs build into new temporary folders). */
const KEEP = 16;

async function prune(stampDir: string): Promise<void> {
  const stamps = readdirSync(stampDir).filter((f) => /^[0-9a-f]{64}\.json$/.test(f));
  if (stamps.length <= KEEP) return;
  const byAge = stamps.map((f) => ({ f, t: statSync(path.join(stampDir, f)).mtimeMs })).sort((a, b) => b.t - a.t);
  for (const { f } of byAge.slice(KEEP)) {
    await rm(path.join(stampDir, f), { force: true });
    await rm(path.join(stampDir, f.replace(/\.json$/, '.hashes.json')), { force: true });
  }
}

/** Forgets what `out` held (a build that replaces it without recording, or a failed one). */
export async function forgetOutput(stampDir: string, out: string): Promise<void> {
  await rm(stampFile(stampDir, out), { force: true });
  await rm(memoFile(stampDir, out), { force: true });
}
