// The part of a cache key that stands for code: every file under some folders of the repository
// (path and bytes), so that an edit anywhere there makes every key built on it new. Folders are
// taken whole rather than by import graph: a key that changes too often costs a rebuild, one that
// misses an input serves stale output.
import type { Hash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Adds each file under `roots` (folders or files, relative to repoRoot), in code-unit order, to `h`. */
export async function hashCode(h: Hash, repoRoot: string, roots: readonly string[]): Promise<Hash> {
  for (const root of roots) {
    for (const rel of await filesUnder(repoRoot, root)) {
      h.update(`\0${rel}\0`);
      h.update(await readFile(path.join(repoRoot, rel)).catch(() => Buffer.from('\0missing\0')));
    }
  }
  return h;
}

async function filesUnder(repoRoot: string, root: string): Promise<string[]> {
  const entries = await readdir(path.join(repoRoot, root), { recursive: true, withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOTDIR') return null; // a file: itself
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  if (entries === null) return [root];
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(repoRoot, path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)).split(path.sep).join('/'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
