// dist/manifest.json: every file's sha256, plus the one declared data version. The local server
// and the contract tests use the hashes as ETags; deploys can diff two manifests.
import { createHash } from 'node:crypto';

/**
 * sha256 of a body; text counts as its UTF-8 bytes. Long text is hashed in pieces (never splitting a
 * surrogate pair, which would hash as U+FFFD): for a string, node allocates 3 bytes per character,
 * and freeing a block as large as a long file's (tasks.csv) makes glibc keep freed memory from then
 * on (see build/whole-file.ts).
 */
export function sha256(body: string | Uint8Array): string {
  const h = createHash('sha256');
  if (typeof body !== 'string') return h.update(body).digest('hex');
  for (let i = 0; i < body.length; ) {
    let j = Math.min(i + TEXT_PIECE, body.length);
    if (j < body.length && isHighSurrogate(body.charCodeAt(j - 1))) j--;
    h.update(body.slice(i, j));
    i = j;
  }
  return h.digest('hex');
}

/** Characters hashed at a time: at 3 bytes each, under glibc's 128 KB mmap threshold. */
const TEXT_PIECE = 32 * 1024;
const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** One written file: where, its size and sha256, and for a static route's file its URL and route. */
export interface ManifestEntry {
  path: string;
  bytes: number;
  sha256: string;
  urlPath?: string;
  routeId?: string;
}

export function buildManifest(dataVersion: string, shape: string, files: readonly ManifestEntry[]): string {
  const entries = files.map((f) => [f.path, f.sha256] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  // The bulk downloads again, with their URL and size, so a client can check a download.
  const downloads = files
    .filter((f) => f.routeId?.startsWith('download-') && f.urlPath)
    .map((f) => ({ url: f.urlPath!, path: f.path, bytes: f.bytes, sha256: f.sha256 }))
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return JSON.stringify({ data_version: dataVersion, shape, downloads, files: Object.fromEntries(entries) }, null, 1) + '\n';
}
