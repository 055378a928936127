// Atomic output: write everything into a temporary sibling of the out folder, then swap it in
// with renames. A failure before the swap leaves the previous build untouched.
import { mkdirSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from './manifest.ts';

export function resolveInside(root: string, rel: string): string {
  const abs = path.resolve(root, rel);
  if (abs !== root && !abs.startsWith(root + path.sep)) throw new Error(`refusing to write outside ${root}: ${rel}`);
  return abs;
}

/** A file as written: its size and sha256 (the manifest and the build summary need no body). */
export interface Written {
  path: string;
  bytes: number;
  sha256: string;
}

/**
 * Writes every file; each body is encoded to bytes once, just before its write, and hashed from
 * those bytes, so only the files in flight exist twice (as text and as bytes) at any time. With
 * `release`, a written file's body is replaced by an empty one, so the dist never has to fit in
 * memory twice over (the build needs only the sizes and hashes afterwards).
 */
export async function writeTree(root: string, files: ReadonlyArray<{ path: string; body: string | Uint8Array }>, release = false): Promise<Written[]> {
  // One folder per clean URL (about as many folders as files): mkdir is a metadata operation the
  // file system serializes, so a thread-pool round trip per folder only adds latency.
  const dirs = new Set(files.map((f) => path.dirname(resolveInside(root, f.path))));
  for (const d of [...dirs].sort()) mkdirSync(d, { recursive: true });
  // Bounded parallelism: thousands of small files, without exhausting file descriptors.
  const written: Written[] = new Array(files.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      for (let i = next++; i < files.length; i = next++) {
        const f = files[i]!;
        const bytes = typeof f.body === 'string' ? Buffer.from(f.body) : f.body;
        written[i] = { path: f.path, bytes: bytes.byteLength, sha256: sha256(bytes) };
        await writeFile(resolveInside(root, f.path), bytes);
        if (release) (f as { body: string | Uint8Array }).body = '';
      }
    }),
  );
  return written;
}

/**
 * Writes to .<out>-tmp-<pid> (git-ignored), then renames: out -> .<out>-tmp-old-<pid>, tmp -> out,
 * drop old. `last` makes the files that describe the others (the manifest) from what was written;
 * they are written before the swap. `release`: see writeTree.
 */
export async function writeAtomically(
  out: string,
  files: ReadonlyArray<{ path: string; body: string | Uint8Array }>,
  last: (written: Written[]) => Array<{ path: string; body: string | Uint8Array }> = () => [],
  release = false,
): Promise<Written[]> {
  const abs = path.resolve(out);
  const parent = path.dirname(abs);
  const tmp = path.join(parent, `.${path.basename(abs)}-tmp-${process.pid}`);
  const old = path.join(parent, `.${path.basename(abs)}-tmp-old-${process.pid}`);
  await rm(tmp, { recursive: true, force: true });
  let written: Written[];
  try {
    written = await writeTree(tmp, files, release);
    written.push(...(await writeTree(tmp, last(written))));
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
  let hadOld = false;
  try {
    await rename(abs, old);
    hadOld = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  try {
    await rename(tmp, abs);
  } catch (e) {
    if (hadOld) await rename(old, abs);
    throw e;
  }
  if (hadOld) await rm(old, { recursive: true, force: true });
  return written;
}
