// Global setup of the integration project: one real build per interface shape (the real sources,
// resolved like `npm run build` does), shared by the contract and end-to-end suites through
// vitest's provide/inject, and removed afterwards. The builds run in a child process
// (build-dists-child.ts) that this setup starts and does not wait for: the unit files run while
// they build (vitest runs no test file before every global setup has returned), and the files
// that use them wait in their setup file (dists-ready.ts). In the main process the build's
// synchronous stages would also hold up vitest's own work for the unit files.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { Shape } from '../../build/model/record-schemas.ts';
import { REPO_ROOT, SHAPES, type DistsStatus } from './dists-status.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dists: Record<Shape, string>;
    /** The file the builds of `dists` write their outcome to (DistsStatus; distsBuilt waits for it). */
    distsStatus: string;
    /** Set by the cloudflare project: where its `wrangler pages dev` runtimes are named once started (cloudflare-sites.ts). */
    cloudflare?: import('./wrangler.ts').LazySites;
  }
}

type Started = { root: string; dists: Record<Shape, string>; status: string; stop(): Promise<void> };
// Each vitest project loads its global setup in a module graph of its own, but all of them run in
// the one main process: a global is what lets the two setups share one set of builds.
const SHARED = Symbol.for('odr.test.dists');
const store = globalThis as unknown as { [SHARED]?: Started };

/** Starts the builds of every shape once per vitest run under a temporary folder; returns it, each dist and the status file. */
export function buildDists(): Started {
  store[SHARED] ??= start();
  return store[SHARED];
}

function start(): Started {
  const root = mkdtempSync(path.join(tmpdir(), 'odr-dists-'));
  const status = path.join(root, 'status.json');
  const dists = Object.fromEntries(SHAPES.map((s) => [s, path.join(root, s)])) as Record<Shape, string>;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'test', 'support', 'build-dists-child.ts'), root, status], { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A child that could not start, or died without a word (killed), still gives the waiting files an answer.
  const failed = (why: string) => {
    if (!existsSync(status)) writeFileSync(status, JSON.stringify({ ok: false, error: why } satisfies DistsStatus));
  };
  child.once('error', (e) => failed(`the build process could not start: ${e.message}`));
  child.once('exit', (code, signal) => failed(`the build process ended (${signal ?? `exit code ${code}`}) without saying how the build went`));
  return {
    root,
    dists,
    status,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export default function setup(project: TestProject): () => Promise<void> {
  const { dists, status, stop } = buildDists();
  project.provide('dists', dists);
  project.provide('distsStatus', status);
  return stop;
}
