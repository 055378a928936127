// The part of a cache key that stands for code and data: the files a stage runs (its import
// closure, build/cache/import-closure.ts) and the files and folders it reads (path and bytes), so
// that an edit to any of them makes every key built on it new.
import type { Hash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { listTree } from './list-tree.ts';

/**
 * Adds each file under `roots` (folders or files, relative to repoRoot), in code-unit order, to `h`.
 * Read synchronously: a few hundred small files, nearly always in the page cache, where a
 * thread-pool round trip per file costs far more than the read, in every build.
 */
export async function hashCode(h: Hash, repoRoot: string, roots: readonly string[]): Promise<Hash> {
  for (const root of roots) {
    for (const rel of filesUnder(repoRoot, root)) {
      h.update(`\0${rel}\0`);
      h.update(readOrMissing(path.join(repoRoot, rel)));
    }
  }
  return h;
}

/** A file's bytes; a file removed since it was listed hashes as a marker (its key is new either way). */
function readOrMissing(abs: string): Buffer {
  try {
    return readFileSync(abs);
  } catch {
    return Buffer.from('\0missing\0');
  }
}

/** The files under `root` (relative to repoRoot): itself when it is a file, none when it does not exist. */
function filesUnder(repoRoot: string, root: string): string[] {
  const abs = path.join(repoRoot, root);
  const kind = statSync(abs, { throwIfNoEntry: false });
  if (!kind) return [];
  return kind.isDirectory() ? listTree(abs).map((rel) => `${root}/${rel}`) : [root];
}
