// Atomic output: write everything into a temporary sibling of the out folder, then swap it in
// with renames. A failure before the swap leaves the previous build untouched.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export function resolveInside(root: string, rel: string): string {
  const abs = path.resolve(root, rel);
  if (abs !== root && !abs.startsWith(root + path.sep)) throw new Error(`refusing to write outside ${root}: ${rel}`);
  return abs;
}

export async function writeTree(root: string, files: Array<{ path: string; body: string | Uint8Array }>): Promise<void> {
  const dirs = new Set(files.map((f) => path.dirname(resolveInside(root, f.path))));
  for (const d of [...dirs].sort()) await mkdir(d, { recursive: true });
  // Bounded parallelism: thousands of small files, without exhausting file descriptors.
  const queue = [...files];
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      for (let f = queue.shift(); f; f = queue.shift()) await writeFile(resolveInside(root, f.path), f.body);
    }),
  );
}

/** Writes to .<out>-tmp-<pid> (git-ignored), then renames: out -> .<out>-tmp-old-<pid>, tmp -> out, drop old. */
export async function writeAtomically(out: string, files: Array<{ path: string; body: string | Uint8Array }>): Promise<void> {
  const abs = path.resolve(out);
  const parent = path.dirname(abs);
  const tmp = path.join(parent, `.${path.basename(abs)}-tmp-${process.pid}`);
  const old = path.join(parent, `.${path.basename(abs)}-tmp-old-${process.pid}`);
  await rm(tmp, { recursive: true, force: true });
  try {
    await writeTree(tmp, files);
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
}
