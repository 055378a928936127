// `wrangler pages dev` for the tests: a runtime over a build (startWrangler), a local D1 with the
// project's migrations (migrateLocalD1), and the cloudflare project's two runtimes, started by
// the first test file that asks for them (cloudflareSites; see cloudflare-sites.ts for why).
// Imports nothing of the build, so that every contract file can import it cheaply.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import type { Shape } from '../../build/model/record-schemas.ts';
import { waitForFile } from './wait-for-file.ts';

/** The repository (this file is test/support/wrangler.ts). */
const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The newest date the workerd of the pinned wrangler supports; a deployment sets its own. */
export const COMPATIBILITY_DATE = '2026-05-01';

const WRANGLER = path.join(REPO_ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
/**
 * wrangler's environment when run in `cwd`: its debug log goes to a file there, a folder the tests
 * remove, not to ~/.config/.wrangler/logs (it logs every message of workerd's inspector, response
 * bodies included: some 13,000 entries and 7 MB for one runtime over a run of the suite).
 */
const wranglerEnv = (cwd: string) => ({ ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', WRANGLER_LOG_PATH: path.join(cwd, 'wrangler-debug.log') });
/** The project's own wrangler.toml: its D1 binding, database and migrations folder are what we test. */
const PROJECT_CONFIG = path.join(REPO_ROOT, 'wrangler.toml');

/** The timeline build's local D1: the binding of wrangler.toml, persisted under the run's folder. */
export interface LocalD1 {
  binding: string;
  databaseId: string;
  persistTo: string;
}

/** Where the project's runtimes are, once the first test file has started them (cloudflareSites). */
export interface CloudflareSites {
  urls: Record<Shape, string>;
  /** The local D1 the timeline site is bound to (tests start more runtimes on it). */
  d1: LocalD1;
  /** That D1 as migrated, before any runtime opened it: what freshLocalD1 copies. */
  pristineD1: string;
}
/**
 * What the global setup provides: the builds, and a folder of the project's own (not the builds'
 * folder, which the other project's teardown may remove first) for the runtimes' state file,
 * their working folders and their local D1.
 */
export interface LazySites {
  dir: string;
  dists: Record<Shape, string>;
  state: string;
}

/** Applies migrations/*.sql to a local D1 the way `npm run db:migrate` does, into `persistTo`. */
export function migrateLocalD1(persistTo: string, cwd: string): LocalD1 {
  const toml = readFileSync(PROJECT_CONFIG, 'utf8');
  const field = (k: string) => new RegExp(`^${k}\\s*=\\s*"([^"]+)"`, 'm').exec(toml)?.[1];
  const [binding, databaseName, databaseId] = [field('binding'), field('database_name'), field('database_id')];
  if (!binding || !databaseName || !databaseId) throw new Error('wrangler.toml declares no D1 database');
  execFileSync(process.execPath, [WRANGLER, 'd1', 'migrations', 'apply', databaseName, '--local', '--persist-to', persistTo, '-c', PROJECT_CONFIG], { cwd, env: wranglerEnv(cwd), stdio: 'pipe' });
  return { binding, databaseId, persistTo };
}

/**
 * A local D1 of its own in `persistTo`, with the project's migrations applied and nothing else: a
 * copy of the project's D1 as migrateLocalD1 left it, before any runtime opened it (the same
 * files `wrangler d1 migrations apply` writes, without a wrangler start of some 5 CPU-seconds).
 */
export function freshLocalD1(sites: CloudflareSites, persistTo: string): LocalD1 {
  cpSync(sites.pristineD1, persistTo, { recursive: true });
  return { ...sites.d1, persistTo };
}

/**
 * The SQLite file that holds a local D1's tables (miniflare keeps each D1 in a file of its own
 * beside its metadata.sqlite). workerd opens it with SQLite's own file locking and WAL, as
 * `wrangler d1 execute --local` does from its own process: a test can read and change it with
 * better-sqlite3 while a runtime is bound to it, without a wrangler start (some 5 CPU-seconds).
 */
export function localD1File(d1: LocalD1): string {
  const dir = path.join(d1.persistTo, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const files = readdirSync(dir).filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  if (files.length !== 1) throw new Error(`expected one D1 database file in ${dir}, found ${JSON.stringify(files)}`);
  return path.join(dir, files[0]!);
}

export interface Wrangler {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** The VOTE_SECRET binding of the test runtimes with a D1 (a deployment sets a secret of its own). */
export const TEST_VOTE_SECRET = 'test-vote-secret-0123456789abcdef0123456789abcdef';

interface WranglerOptions {
  /** false: no VOTE_SECRET binding, as a deployment that forgot it. */
  secret?: boolean;
  /** Started in a process group of its own that outlives this process, its output to this file. */
  detachedLog?: string;
}

/**
 * `wrangler pages dev` over a build, optionally bound to a local D1 and, with it, to VOTE_SECRET
 * (`secret: false`: without it, as a deployment that forgot it); resolves once it serves.
 */
export async function startWrangler(dir: string, cwd: string, d1?: LocalD1, opts: WranglerOptions = {}): Promise<Wrangler> {
  return withStartLock(() => startWranglerOnFreePort(dir, cwd, d1, opts));
}

/** Held by the process starting a runtime: two wranglers started at once failed to start their runtimes. */
const START_LOCK = path.join(tmpdir(), 'odr-wrangler-start.lock');

/**
 * Runs `start` while no other process of this machine starts a runtime (the cloudflare project
 * runs two files at a time). The lock is a folder naming its holder's pid; one whose holder has
 * exited (a killed test process) is taken over.
 */
async function withStartLock<T>(start: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(START_LOCK);
      writeFileSync(path.join(START_LOCK, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(readFileOr(path.join(START_LOCK, 'pid')));
      if (holder > 0 && !alive(holder)) rmSync(START_LOCK, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`another process has held ${START_LOCK} for 300 s`);
      else await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await start();
  } finally {
    rmSync(START_LOCK, { recursive: true, force: true });
  }
}

function readFileOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function startWranglerOnFreePort(dir: string, cwd: string, d1: LocalD1 | undefined, opts: WranglerOptions): Promise<Wrangler> {
  // The port is free when chosen, but wrangler binds it seconds later: another process may take it
  // in between. Then wrangler stops saying so, and it is started again on another port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startWranglerOn(await freePort(), await freePort(), dir, cwd, d1, opts);
    } catch (e) {
      if (attempt === 3 || !/Address already in use/.test(String(e))) throw e;
      console.warn(`[cloudflare setup] wrangler's port was taken before it bound it: started again (${attempt})`);
    }
  }
}

async function startWranglerOn(port: number, inspectorPort: number, dir: string, cwd: string, d1: LocalD1 | undefined, opts: WranglerOptions): Promise<Wrangler> {
  const args = [WRANGLER, 'pages', 'dev', dir, '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspectorPort), '--compatibility-date', COMPATIBILITY_DATE, '--log-level', 'warn'];
  // Not --no-bundle (which keeps the MCP module a lazy import, as `pages deploy --no-bundle` does):
  // the pinned wrangler's pages dev then fails to start ("No such module wrangler:modules-watch",
  // cloudflare/workers-sdk#14845, fixed by #15032 in a later wrangler). So here wrangler bundles
  // _worker.js/ into one file: the tests check the answers on workerd, not the lazy loading.
  if (d1) args.push('--d1', `${d1.binding}=${d1.databaseId}`, '--persist-to', d1.persistTo);
  if (d1 && opts.secret !== false) args.push('--binding', `VOTE_SECRET=${TEST_VOTE_SECRET}`);
  // cwd: wrangler keeps its .wrangler/ state folder there, outside the repository.
  let proc: ChildProcess;
  let output: () => string;
  if (opts.detachedLog) {
    const log = opts.detachedLog;
    const fd = openSync(log, 'a');
    proc = spawn(process.execPath, args, { cwd, env: wranglerEnv(cwd), stdio: ['ignore', fd, fd], detached: true });
    closeSync(fd);
    proc.unref();
    output = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
  } else {
    let text = '';
    proc = spawn(process.execPath, args, { cwd, env: wranglerEnv(cwd), stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout!.on('data', (d) => (text += d));
    proc.stderr!.on('data', (d) => (text += d));
    output = () => text;
  }
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (opts.detachedLog) return stopGroup(proc.pid!);
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
    await waitUntilServing(url, proc, () => output().slice(-4000));
  } catch (e) {
    await stop();
    throw e;
  }
  quietInspector(inspectorPort);
  return { url, proc, stop };
}

const INSPECTOR_QUIET = path.join(REPO_ROOT, 'test', 'support', 'inspector-quiet.mjs');

/**
 * Turns off the runtime's DevTools Network events (inspector-quiet.mjs): wrangler relays each to
 * its Node process with the response body, and its CPU for the same 441 requests fell from 12.3
 * and 14.8 to 3.7 and 3.9 seconds without them. If that fails the runtime still serves, only
 * slower: said on stderr, not thrown.
 */
function quietInspector(inspectorPort: number): void {
  try {
    execFileSync(process.execPath, ['--experimental-websocket', '--no-warnings', INSPECTOR_QUIET, String(inspectorPort)], { stdio: 'pipe', timeout: 30_000 });
  } catch (e) {
    const err = e as { stderr?: Buffer; message: string };
    console.warn(`[cloudflare] wrangler's DevTools Network events left on (the runtime answers, with more CPU): ${err.stderr?.toString().trim() || err.message}`);
  }
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
    // Asked again soon: the runtimes start one after the other (withStartLock), so each step of
    // this wait past the moment it serves delays the next start and the files waiting for it
    // (a 500 ms step cost 250 ms a start on average). A refused connection costs next to nothing.
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`wrangler pages dev did not serve ${url} within 120 s:\n${log()}`);
}

/** Whether a process is running (signal 0 tests for it without sending anything). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to a detached runtime's process group (wrangler and its workerd), SIGKILL after 10 s. */
async function stopGroup(pid: number): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  for (const deadline = Date.now() + 10_000; running(pid) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 100));
  signal('SIGKILL');
}

type SitesState = (CloudflareSites & { pids: number[] }) | { error: string };

/** Stops the project's runtimes, if a test file started them (the global teardown). */
export async function stopCloudflareSites(lazy: LazySites): Promise<void> {
  if (!existsSync(lazy.state)) return;
  const state = JSON.parse(readFileSync(lazy.state, 'utf8')) as SitesState;
  if ('pids' in state) await Promise.all(state.pids.map(stopGroup));
}

/**
 * The project's runtimes, started by the first test file that asks (the others wait for it): a
 * runtime per shape, the timeline's bound to a local D1 with the project's migrations applied.
 */
export async function cloudflareSites(lazy: LazySites): Promise<CloudflareSites> {
  let first = true;
  try {
    mkdirSync(`${lazy.state}.lock`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    first = false;
  }
  if (first) {
    const write = (state: SitesState) => {
      writeFileSync(`${lazy.state}.tmp`, JSON.stringify(state));
      renameSync(`${lazy.state}.tmp`, lazy.state);
    };
    const started: Wrangler[] = [];
    try {
      const d1 = migrateLocalD1(path.join(lazy.dir, 'd1-state'), lazy.dir);
      const pristineD1 = path.join(lazy.dir, 'd1-pristine');
      cpSync(d1.persistTo, pristineD1, { recursive: true });
      const urls = {} as Record<Shape, string>;
      // One after the other: two started at once failed to start their runtimes.
      for (const shape of Object.keys(lazy.dists) as Shape[]) {
        // A folder of its own for each: wrangler keeps its state in the working folder.
        const cwd = path.join(lazy.dir, `wrangler-${shape}`);
        mkdirSync(cwd, { recursive: true });
        const w = await startWrangler(lazy.dists[shape], cwd, shape === 'timeline' ? d1 : undefined, { detachedLog: path.join(cwd, 'output.log') });
        started.push(w);
        urls[shape] = w.url;
        console.log(`[cloudflare] wrangler pages dev serves ${shape} at ${w.url}${shape === 'timeline' ? ` (D1 ${d1.binding}, VOTE_SECRET)` : ''}`);
      }
      write({ urls, d1, pristineD1, pids: started.map((w) => w.proc.pid!) });
    } catch (e) {
      await Promise.all(started.map((w) => w.stop()));
      write({ error: String((e as Error).stack ?? e) });
      throw e;
    }
  }
  await waitForFile(lazy.state, 240_000, 'the Cloudflare runtimes were not started');
  const state = JSON.parse(readFileSync(lazy.state, 'utf8')) as SitesState;
  if ('error' in state) throw new Error(`the Cloudflare runtimes failed to start (in an earlier test file): ${state.error}`);
  return { urls: state.urls, d1: state.d1, pristineD1: state.pristineD1 };
}

