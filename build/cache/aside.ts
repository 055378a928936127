// Cache files are written aside (FILE.PID-THREAD.tmp) and renamed into place, so that a reader never
// sees half of one. A build killed between the two leaves the aside file behind (as large as a
// model entry): each build that uses the caches removes those whose writing process is gone (a
// build running beside it keeps its own).
import type { Dirent } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { processGone } from '../process-id.ts';

/** Where this thread writes `file` before renaming it into place. */
export const asideName = (file: string): string => `${file}.${process.pid}-${threadId}.tmp`;

const ASIDE = /\.(\d+)-\d+\.tmp$/;

/** Removes the aside files of gone processes in `dir` and its direct subfolders; returns their paths. */
export async function removeLeftAside(dir: string): Promise<string[]> {
  const removed: string[] = [];
  const list = (d: string): Promise<Dirent[]> => readdir(d, { withFileTypes: true }).catch(() => []);
  const top = await list(dir);
  const folders = [dir, ...top.filter((e) => e.isDirectory()).map((e) => path.join(dir, e.name))];
  for (const folder of folders) {
    for (const e of folder === dir ? top : await list(folder)) {
      const m = e.isFile() ? ASIDE.exec(e.name) : null;
      if (!m || !processGone(m[1]!)) continue;
      await rm(path.join(folder, e.name), { force: true });
      removed.push(path.join(folder, e.name));
    }
  }
  return removed;
}
