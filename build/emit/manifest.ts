// dist/manifest.json: every file's sha256, plus the one declared data version. The local server
// and the contract tests use the hashes as ETags; deploys can diff two manifests.
import { createHash } from 'node:crypto';

export const sha256 = (body: string | Uint8Array): string => createHash('sha256').update(body).digest('hex');

export function buildManifest(dataVersion: string, shape: string, files: Array<{ path: string; body: string | Uint8Array; urlPath?: string; routeId?: string }>): string {
  const entries = files.map((f) => [f.path, sha256(f.body)] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  // The bulk downloads again, with their URL and size, so a client can check a download.
  const downloads = files
    .filter((f) => f.routeId?.startsWith('download-') && f.urlPath)
    .map((f) => ({ url: f.urlPath!, path: f.path, bytes: typeof f.body === 'string' ? Buffer.byteLength(f.body) : f.body.byteLength, sha256: sha256(f.body) }))
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return JSON.stringify({ data_version: dataVersion, shape, downloads, files: Object.fromEntries(entries) }, null, 1) + '\n';
}

export const MANIFEST_PATH = 'manifest.json';
