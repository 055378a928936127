// Shared contract-test setup: build dist/ of EACH shape once per vitest run (test files run in
// separate worker processes, so the first one builds under a lock and the rest wait), then each
// file starts the real local server (which mounts the esbuild bundle) on an ephemeral port.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { Shape } from '../../build/model/records.ts';
import { runBuild } from '../../build/pipeline.ts';
import { startServer } from '../../build/serve/server.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHAPES: Shape[] = ['percentile', 'timeline'];
/** True once the real model exists; until then the builds use the hand-made fixture model. */
export const REAL_MODEL = existsSync(path.join(REPO_ROOT, 'build', 'model', 'index.ts'));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// All worker processes of one vitest run share the runner as parent.
const RUN_DIR = path.join(tmpdir(), `odr-contract-${process.ppid}`);

function tryLock(shape: Shape): boolean {
  try {
    mkdirSync(path.join(RUN_DIR, `${shape}.lock`));
    return true;
  } catch {
    return false;
  }
}

async function build(shape: Shape): Promise<void> {
  const done = path.join(RUN_DIR, `${shape}.done`);
  try {
    const inputs = REAL_MODEL ? undefined : (await import('../fixtures/serving/model.ts')).fixtureModel();
    await runBuild({ shape, out: path.join(RUN_DIR, shape), repoRoot: REPO_ROOT, env: {}, ...(inputs ? { inputs } : {}) });
    writeFileSync(done, 'ok');
  } catch (e) {
    writeFileSync(done, String((e as Error).message).slice(0, 2000));
    throw e;
  }
}

/**
 * Each worker builds whichever shapes nobody has claimed yet (so two workers build the two shapes
 * in parallel), then waits until both are done.
 */
async function buildAllOnce(): Promise<Record<Shape, string>> {
  mkdirSync(RUN_DIR, { recursive: true });
  for (const shape of SHAPES) if (tryLock(shape)) await build(shape);
  const dirs = {} as Record<Shape, string>;
  for (const shape of SHAPES) {
    const done = path.join(RUN_DIR, `${shape}.done`);
    while (!existsSync(done)) await new Promise((r) => setTimeout(r, 250));
    const status = readFileSync(done, 'utf8');
    if (status !== 'ok') throw new Error(`build of ${shape} failed in another worker: ${status}`);
    dirs[shape] = path.join(RUN_DIR, shape);
  }
  return dirs;
}

function sweepOldRuns() {
  for (const name of readdirSync(tmpdir())) {
    const m = /^odr-contract-(\d+)$/.exec(name);
    if (m && Number(m[1]) !== process.ppid && !alive(Number(m[1]))) rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
  }
}

export interface Site {
  shape: Shape;
  dir: string;
  url: string;
  get(p: string, init?: RequestInit): Promise<Response>;
  json<T = any>(p: string): Promise<T>;
}

/** Call at the top of a test file: builds (once per run) and serves both shapes for this file. */
export function useSites(): Record<Shape, Site> {
  const sites = {} as Record<Shape, Site>;
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    sweepOldRuns();
    const dirs = await buildAllOnce();
    for (const shape of SHAPES) {
      const dir = dirs[shape];
      const server = await startServer({ dir, port: 0, host: '127.0.0.1' });
      closers.push(server.close);
      const get = (p: string, init?: RequestInit) => fetch(server.url + p, init);
      sites[shape] = {
        shape,
        dir,
        url: server.url,
        get,
        json: async (p) => {
          const r = await get(p);
          if (r.status !== 200) throw new Error(`${p}: HTTP ${r.status} ${await r.text()}`);
          return r.json();
        },
      };
    }
  });
  afterAll(async () => {
    await Promise.all(closers.map((c) => c()));
  });
  return sites;
}

export const postJson = (site: Site, body: unknown, headers: Record<string, string> = {}) =>
  site.get('/api/v1/displacement/assess', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

export function manifestOf(site: Site): { data_version: string; shape: string; files: Record<string, string> } {
  return JSON.parse(readFileSync(path.join(site.dir, 'manifest.json'), 'utf8'));
}

/** Exactly one decimal place as serialized: "62.4" -> 624 tenths; throws on more decimals. */
export function tenths(raw: string): number {
  if (!/^-?\d+(\.\d)?$/.test(raw)) throw new Error(`not a one-decimal number: ${raw}`);
  return Math.round(Number(raw) * 10);
}
