// A small JSON record of the caches (remembered file hashes, an out folder's stamp, the entries
// recent builds used), written aside and renamed into place, so that a reader never sees half of one.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { asideName } from './aside.ts';

export async function writeJsonFile(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = asideName(file);
  await writeFile(tmp, JSON.stringify(value));
  await rename(tmp, file);
}
