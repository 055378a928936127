// Global setup of the integration project: one real build per interface shape (the real sources,
// resolved like `npm run build` does), shared by the contract and end-to-end suites through
// vitest's provide/inject, and removed afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { Shape } from '../../build/model/records.ts';
import { runBuild } from '../../build/pipeline.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dists: Record<Shape, string>;
  }
}

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHAPES: Shape[] = ['percentile', 'timeline'];

export default async function setup(project: TestProject): Promise<() => void> {
  const root = mkdtempSync(path.join(tmpdir(), 'odr-dists-'));
  const dists = {} as Record<Shape, string>;
  for (const shape of SHAPES) {
    const t0 = performance.now();
    const summary = await runBuild({ shape, out: path.join(root, shape), repoRoot: REPO_ROOT });
    dists[shape] = summary.out;
    console.log(`[integration setup] built ${shape}: ${summary.files} files in ${Math.round(performance.now() - t0)} ms`);
  }
  project.provide('dists', dists);
  return () => rmSync(root, { recursive: true, force: true });
}
