// Every entry under a folder that is not a folder itself (files, and links, which a check should
// see too), as POSIX paths relative to it in code-unit order. Sync: one walk of thousands of
// entries is faster without a thread-pool round trip per folder.
import { readdirSync } from 'node:fs';
import path from 'node:path';

export function listTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)).split(path.sep).join('/'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
