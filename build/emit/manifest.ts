// dist/manifest.json: every file's sha256, plus the one declared data version. The local server
// and the contract tests use the hashes as ETags; deploys can diff two manifests.
import { createHash } from 'node:crypto';

export const sha256 = (body: string | Uint8Array): string => createHash('sha256').update(body).digest('hex');

export function buildManifest(dataVersion: string, shape: string, files: Array<{ path: string; body: string | Uint8Array }>): string {
  const entries = files.map((f) => [f.path, sha256(f.body)] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return JSON.stringify({ data_version: dataVersion, shape, files: Object.fromEntries(entries) }, null, 1) + '\n';
}

export const MANIFEST_PATH = 'manifest.json';
