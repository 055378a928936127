// CLI: npm run release:record -- [--dist DIR]
// Keeps the release a build made: copies its summary (the file of /downloads/release-summary.json in
// DIR, default dist) to releases/<data version>.json, where later builds find it as their previous release.
// Run it on the build that is published, and commit the file.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../repo-root.ts';
import { ReleaseSummary, releaseSummaryJson } from '../contract/releases.ts';
import { RELEASES_DIR, releaseFileName } from './load.ts';
import { fileFor } from '../contract/dist-layout.ts';
import { routeById, urlFor } from '../contract/routes.ts';

const USAGE = 'usage: npm run release:record -- [--dist DIR]';

export function recordRelease(dist: string, repoRoot = REPO_ROOT): string {
  const file = path.join(dist, fileFor(urlFor('download-release-summary'), routeById('download-release-summary').body));
  const summary = ReleaseSummary.parse(JSON.parse(readFileSync(file, 'utf8')));
  const out = path.join(repoRoot, RELEASES_DIR, releaseFileName(summary.data_version));
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, releaseSummaryJson(summary));
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const i = argv.indexOf('--dist');
  if (argv.length !== 0 && !(i === 0 && argv.length === 2)) {
    console.error(USAGE);
    process.exit(2);
  }
  const dist = path.resolve(i === 0 ? argv[1]! : path.join(REPO_ROOT, 'dist'));
  const out = recordRelease(dist);
  console.log(`Recorded ${path.relative(REPO_ROOT, out)} from ${dist}`);
}
