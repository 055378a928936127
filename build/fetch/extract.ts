// Unpacking a downloaded zip with fflate, following a plan from zip-plan.ts.
import { resolve, sep } from 'node:path';
import { unzipSync } from 'fflate';
import { type Digest, digestBytes, writeFileAtomic } from './files.ts';
import type { ZipPlan } from './zip-plan.ts';

/** Entry names from the archive's central directory, without inflating anything. */
export function listZipEntries(zip: Uint8Array): string[] {
  const names: string[] = [];
  unzipSync(zip, {
    filter: (file) => {
      names.push(file.name);
      return false;
    },
  });
  return names;
}

/**
 * Writes each planned entry under `destDir`, one at a time (the O*NET text release inflates to
 * hundreds of MB; holding it all at once is needless). Returns path -> digest.
 */
export async function extractPlanned(
  zip: Uint8Array,
  plan: ZipPlan,
  destDir: string,
): Promise<Array<{ path: string } & Digest>> {
  const root = resolve(destDir);
  const written: Array<{ path: string } & Digest> = [];
  for (const { entry, path } of plan.files) {
    const target = resolve(root, path);
    // Second line of defence behind judgeEntry: never write outside the source's folder.
    if (!target.startsWith(root + sep)) throw new Error(`zip entry escapes ${destDir}: ${entry}`);
    const data = unzipSync(zip, { filter: (f) => f.name === entry })[entry];
    if (data === undefined) throw new Error(`zip entry vanished while extracting: ${entry}`);
    await writeFileAtomic(target, data);
    written.push({ path, ...digestBytes(data) });
  }
  return written;
}
