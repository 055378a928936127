// Global setup of the cloudflare project: the same contract suite, answered by Cloudflare's own
// runtime. Each shape's real build is served by `wrangler pages dev` (workerd, the _worker.js
// adapter, _routes.json, ASSETS), exactly as Cloudflare Pages would serve the uploaded dist/.
//
// The runtimes start when the first test file of the project asks for them (cloudflareSites), not
// in the global setup: vitest runs this project's files after the others, two at a time, and two
// idle runtimes started with the run burnt some 35 CPU-seconds (wrangler's file watching and its
// esbuild service) while the rest of the suite ran. The first file to ask starts them, detached
// so that they outlive its process, and writes where they serve to a state file that the files
// after it read; the global teardown stops them by the process groups that file names.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildDists } from './build-dists.ts';
import { stopCloudflareSites, type LazySites } from './wrangler.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { dists, status, stop } = buildDists();
  project.provide('dists', dists);
  project.provide('distsStatus', status);
  // A folder of this project's own: the integration project's teardown removes the builds' folder
  // (`root`), possibly before this one runs, and a state file kept there could be gone by then, leaving
  // the runtimes running after the suite.
  const dir = mkdtempSync(path.join(tmpdir(), 'odr-cloudflare-'));
  const lazy: LazySites = { dir, dists, state: path.join(dir, 'cloudflare-sites.json') };
  project.provide('cloudflare', lazy);
  return async () => {
    await stopCloudflareSites(lazy);
    rmSync(dir, { recursive: true, force: true });
    await stop();
  };
}
