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
    /** Set by the cloudflare project: each shape's build served by `wrangler pages dev`. */
    cloudflare?: Record<Shape, string>;
  }
}

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHAPES: Shape[] = ['percentile', 'timeline'];

type Built = { root: string; dists: Record<Shape, string> };
// Each vitest project loads its global setup in a module graph of its own, but all of them run in
// the one main process: a global is what lets the two setups share one set of builds.
const SHARED = Symbol.for('odr.test.dists');
const store = globalThis as unknown as { [SHARED]?: Promise<Built> };

/** Builds every shape once per vitest run under a temporary folder; returns it and each dist. */
export function buildDists(label: string): Promise<Built> {
  store[SHARED] ??= buildAll(label);
  return store[SHARED];
}

async function buildAll(label: string): Promise<Built> {
  const root = mkdtempSync(path.join(tmpdir(), 'odr-dists-'));
  const dists = {} as Record<Shape, string>;
  for (const shape of SHAPES) {
    const t0 = performance.now();
    const summary = await runBuild({ shape, out: path.join(root, shape), repoRoot: REPO_ROOT });
    dists[shape] = summary.out;
    console.log(`[${label} setup] built ${shape}: ${summary.files} files in ${Math.round(performance.now() - t0)} ms`);
  }
  return { root, dists };
}

export default async function setup(project: TestProject): Promise<() => void> {
  const { root, dists } = await buildDists('integration');
  project.provide('dists', dists);
  return () => rmSync(root, { recursive: true, force: true });
}
