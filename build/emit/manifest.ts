// dist/manifest.json: every file's sha256, plus the one declared data version. The local server
// and the contract tests use the hashes as ETags; deploys can diff two manifests.
import { createHash } from 'node:crypto';

export const sha256 = (body: string | Uint8Array): string => createHash('sha256').update(body).digest('hex');

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

export const MANIFEST_PATH = 'manifest.json';
