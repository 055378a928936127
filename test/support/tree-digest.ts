// One sha256 over every file of a folder, paths included: equal digests, byte-identical trees.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

export function treeDigest(dir: string): string {
  const h = createHash('sha256');
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }).filter((x) => x.isFile()).map((x) => path.join(x.parentPath, x.name)).sort()) {
    h.update(`${path.relative(dir, e)}\0`).update(readFileSync(e));
  }
  return h.digest('hex');
}
