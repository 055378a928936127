// Global setup of the cloudflare project: the same contract suite, answered by Cloudflare's own
// runtime. Each shape's real build is served by `wrangler pages dev` (workerd, the _worker.js
// adapter, _routes.json, ASSETS), exactly as Cloudflare Pages would serve the uploaded dist/.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { Shape } from '../../build/model/record-schemas.ts';
import { REPO_ROOT, SHAPES, buildDists } from './build-dists.ts';

/** The newest date the workerd of the pinned wrangler supports; a deployment sets its own. */
export const COMPATIBILITY_DATE = '2026-05-01';

const WRANGLER = path.join(REPO_ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
const WRANGLER_ENV = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' };
/** The project's own wrangler.toml: its D1 binding, database and migrations folder are what we test. */
const PROJECT_CONFIG = path.join(REPO_ROOT, 'wrangler.toml');

/** The timeline build's local D1: the binding of wrangler.toml, persisted under the run's folder. */
export interface LocalD1 {
  binding: string;
  databaseId: string;
  persistTo: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The local D1 the timeline site is bound to (tests start more runtimes on it). */
    cloudflareD1?: LocalD1;
  }
}

/** Applies migrations/*.sql to a local D1 the way `npm run db:migrate` does, into `persistTo`. */
export function migrateLocalD1(persistTo: string, cwd: string): LocalD1 {
  const toml = readFileSync(PROJECT_CONFIG, 'utf8');
  const field = (k: string) => new RegExp(`^${k}\\s*=\\s*"([^"]+)"`, 'm').exec(toml)?.[1];
  const [binding, databaseName, databaseId] = [field('binding'), field('database_name'), field('database_id')];
  if (!binding || !databaseName || !databaseId) throw new Error('wrangler.toml declares no D1 database');
  execFileSync(process.execPath, [WRANGLER, 'd1', 'migrations', 'apply', databaseName, '--local', '--persist-to', persistTo, '-c', PROJECT_CONFIG], { cwd, env: WRANGLER_ENV, stdio: 'pipe' });
  return { binding, databaseId, persistTo };
}

export interface Wrangler {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** The VOTE_SECRET binding of the test runtimes with a D1 (a deployment sets a secret of its own). */
export const TEST_VOTE_SECRET = 'test-vote-secret-0123456789abcdef0123456789abcdef';

/**
 * `wrangler pages dev` over a build, optionally bound to a local D1 and, with it, to VOTE_SECRET
 * (`secret: false`: without it, as a deployment that forgot it); resolves once it serves.
 */
export async function startWrangler(dir: string, cwd: string, d1?: LocalD1, opts: { secret?: boolean } = {}): Promise<Wrangler> {
  // The port is free when chosen, but wrangler binds it seconds later: another process may take it
  // in between. Then wrangler stops saying so, and it is started again on another port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startWranglerOn(await freePort(), dir, cwd, d1, opts);
    } catch (e) {
      if (attempt === 3 || !/Address already in use/.test(String(e))) throw e;
      console.warn(`[cloudflare setup] wrangler's port was taken before it bound it: started again (${attempt})`);
    }
  }
}

async function startWranglerOn(port: number, dir: string, cwd: string, d1: LocalD1 | undefined, opts: { secret?: boolean }): Promise<Wrangler> {
  const args = [WRANGLER, 'pages', 'dev', dir, '--ip', '127.0.0.1', '--port', String(port), '--compatibility-date', COMPATIBILITY_DATE, '--log-level', 'warn'];
  if (d1) args.push('--d1', `${d1.binding}=${d1.databaseId}`, '--persist-to', d1.persistTo);
  if (d1 && opts.secret !== false) args.push('--binding', `VOTE_SECRET=${TEST_VOTE_SECRET}`);
  // cwd: wrangler keeps its .wrangler/ state folder there, outside the repository.
  const proc = spawn(process.execPath, args, { cwd, env: WRANGLER_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stdout!.on('data', (d) => (output += d));
  proc.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    // wrangler exits at once on SIGTERM; one that has not after 10 s is killed, so that a stuck
    // runtime cannot hold the test run open past its teardown.
    const kill = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(kill);
  };
  try {
    await waitUntilServing(url, proc, () => output.slice(-4000));
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, proc, stop };
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

async function waitUntilServing(url: string, proc: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`wrangler exited with ${proc.exitCode}:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/v1/displacement/factors`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`wrangler pages dev did not serve ${url} within 120 s:\n${log()}`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { root, dists } = await buildDists('cloudflare');
  project.provide('dists', dists);
  const running: Wrangler[] = [];
  const urls = {} as Record<Shape, string>;
  const stop = async () => {
    await Promise.all(running.map((w) => w.stop()));
    rmSync(root, { recursive: true, force: true });
  };
  let d1: LocalD1;
  try {
    // The timeline shape collects votes: bound to a local D1 with the project's migrations applied.
    d1 = migrateLocalD1(path.join(root, 'd1-state'), root);
    for (const shape of SHAPES) {
      const w = await startWrangler(dists[shape], root, shape === 'timeline' ? d1 : undefined);
      running.push(w);
      urls[shape] = w.url;
      console.log(`[cloudflare setup] wrangler pages dev serves ${shape} at ${urls[shape]}${shape === 'timeline' ? ` (D1 ${d1.binding}, VOTE_SECRET)` : ''}`);
    }
  } catch (e) {
    await stop();
    throw e;
  }
  project.provide('cloudflare', urls);
  project.provide('cloudflareD1', d1);
  return stop;
}
