// Global setup of the integration project: one real build per interface shape (the real sources,
// resolved like `npm run build` does), shared by the contract and end-to-end suites through
// vitest's provide/inject, and removed afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { Shape } from '../../build/model/record-schemas.ts';
import { runBuilds } from '../../build/pipeline.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dists: Record<Shape, string>;
    /** How the builds of `dists` used the caches (model 'miss': the model was computed, not read back). */
    distCaches: Record<string, string>;
    /** Set by the cloudflare project: where its `wrangler pages dev` runtimes are named once started (cloudflare-sites.ts). */
    cloudflare?: import('./wrangler.ts').LazySites;
  }
}

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHAPES: Shape[] = ['percentile', 'timeline'];

type Built = { root: string; dists: Record<Shape, string>; caches: Record<string, string> };
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
  // One reading of the sources (through the parsed-source cache) and one model for every shape.
  const t0 = performance.now();
  // Strict: the real sources build with no rejected row (a rejected row fails CI instead of unpublishing an occupation).
  const summaries = await runBuilds({ repoRoot: REPO_ROOT, strict: true }, SHAPES.map((shape) => ({ shape, out: path.join(root, shape) })));
  for (const s of summaries) dists[s.shape] = s.out;
  console.log(`[${label} setup] built ${summaries.map((s) => `${s.shape} (${s.files} files)`).join(', ')} in ${Math.round(performance.now() - t0)} ms; caches ${JSON.stringify(summaries[0]!.caches)}`);
  return { root, dists, caches: { ...summaries[0]!.caches } };
}

export default async function setup(project: TestProject): Promise<() => void> {
  const { root, dists, caches } = await buildDists('integration');
  project.provide('dists', dists);
  project.provide('distCaches', caches);
  return () => rmSync(root, { recursive: true, force: true });
}
