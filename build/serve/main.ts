// npm start -- [--dir DIR] [--no-build] [--port N] [--host H] [--workers N]   (also PORT / HOST /
// WORKERS) [--max-connections N] [--request-timeout S] [--cache-mb N] (per process); brings dist/ up to date first (a build that finds it up to date leaves it alone in
// under a second). One server process per core by default (node:cluster, the workers share the
// listening socket): a single Node process tops out at one core, nginx does not.
// Vote options (timeline shape): [--db PATH] [--trust-proxy] [--vote-budget N], see vote-args.ts.
import cluster from 'node:cluster';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SERVER_DEFAULTS, type ServerLimits } from '../../functions/adapters/node/server.ts';
import { shardFile } from '../contract/dist-layout.ts';
import { describeTidied, tidyOutput } from '../emit/swap.ts';
import { MEMORY_DB, splitVoteArgs, type VoteArgs } from './vote-args.ts';
import { superviseWorkers } from './supervise.ts';
import { serveHere, stopOnSignalsAndOrphaning, WORKER_ENV, type WorkerStart } from './serve-here.ts';
import { explainFailure, parseFlags, stageProgress } from '../cli.ts';
import { isFetchable } from '../fetch/manifest.ts';
import type { Manifest } from '../sources/registry-schema.ts';
import { loadManifest } from '../fetch/manifest-file.ts';
import { formatBytes } from '../fetch/run.ts';
import { resolveSourceDir } from '../sources/locate.ts';
import { SourceError } from '../sources/errors.ts';
import { Shape } from '../model/record-schemas.ts';
import { REPO_ROOT } from '../repo-root.ts';

/**
 * A fresh machine: no --source/ODR_SOURCE_DIR choice, nothing in data/raw, no mirror beside the
 * repository. Then npm start fetches the data first (an explicit ODR_SOURCE_DIR that is missing
 * stays an error: fetching elsewhere would build from other data than asked).
 */
export function needsFetch(repoRoot: string, env: NodeJS.ProcessEnv): boolean {
  if (env.ODR_SOURCE_DIR?.trim()) return false;
  try {
    resolveSourceDir({ env, repoRoot });
    return false;
  } catch (e) {
    if (e instanceof SourceError) return true;
    throw e;
  }
}

/** What the fetch will download, from whom and how big (where the manifest pins a size). */
export function fetchPlan(manifest: Manifest): string {
  const lines = ['No source data found: fetching it from the publishers into data/raw/ first (see data/README.md):'];
  for (const s of manifest.filter(isFetchable)) {
    const known = s.files.every((f) => f.bytes !== undefined) ? formatBytes(s.files.reduce((n, f) => n + f.bytes!, 0)) : 'size as served';
    lines.push(`  - ${s.title} (${s.required ? 'required' : 'optional'}) from ${s.publisher}: ${s.files.length} file(s), ${known}`);
  }
  lines.push('  Set ODR_FETCH_USER_AGENT to your name and contact (BLS refuses anonymous requests).');
  return lines.join('\n');
}

const USAGE = 'usage: npm start -- [--dir DIR] [--no-build] [--port N] [--host H] [--workers N] [--max-connections N] [--request-timeout SECONDS] [--cache-mb N]';

export interface ServeArgs {
  dir: string;
  port: number;
  host: string;
  /** Server processes sharing the socket (default: one per core). */
  workers: number;
  /**
   * Build the default dist/ before serving (made when missing, brought up to date otherwise, in
   * the shape it holds). Off with --no-build, and for a --dir, which must already hold a build: how
   * it was built is not known here.
   */
  build: boolean;
  /** Per server process: the connection cap, the request and header timeouts, the file cache's size, as given (the rest: startServer's defaults). */
  limits: Partial<ServerLimits>;
}

/** An IP address, or a host name by RFC 1123 that is not all digits and dots (0.0.0.0.1 is neither). */
export function validHost(host: string): boolean {
  if (isIP(host) !== 0) return true;
  if (/^[\d.]+$/.test(host)) return false;
  return host.length <= 253 && host.split('.').every((l) => /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l));
}

export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv): ServeArgs {
  const noBuild = argv.includes('--no-build');
  const flags = parseFlags(argv.filter((a) => a !== '--no-build'), ['--dir', '--port', '--host', '--workers', '--max-connections', '--request-timeout', '--cache-mb'], USAGE);
  // An empty PORT, HOST or WORKERS (as `PORT= npm start` sets) counts as unset.
  const workersText = flags['--workers'] ?? (env.WORKERS || String(availableParallelism()));
  const workers = /^\d{1,3}$/.test(workersText) ? Number(workersText) : NaN;
  if (!(workers >= 1 && workers <= 256)) {
    throw new Error(`${flags['--workers'] !== undefined ? '--workers' : 'WORKERS'} must be a whole number from 1 to 256, got ${JSON.stringify(workersText)}\n${USAGE}`);
  }
  const portText = flags['--port'] ?? (env.PORT || '8080');
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new Error(`${flags['--port'] !== undefined ? '--port' : 'PORT'} must be a whole number from 0 to 65535, got ${JSON.stringify(portText)}\n${USAGE}`);
  }
  const host = flags['--host'] ?? (env.HOST || '127.0.0.1');
  if (!validHost(host)) throw new Error(`${flags['--host'] !== undefined ? '--host' : 'HOST'} must be an IP address or a host name, got ${JSON.stringify(host)}\n${USAGE}`);
  return { dir: flags['--dir'] ?? 'dist', port, host, workers, build: flags['--dir'] === undefined && !noBuild, limits: parseLimits(flags) };
}

/** --max-connections, --request-timeout (seconds; the headers get at most 10 s of it) and --cache-mb. */
function parseLimits(flags: Record<string, string>): Partial<ServerLimits> {
  const number = (flag: string, pattern: RegExp, min: number, max: number, what: string): number | undefined => {
    const text = flags[flag];
    if (text === undefined) return undefined;
    const n = pattern.test(text) ? Number(text) : NaN;
    if (!(n >= min && n <= max)) throw new Error(`${flag} must be ${what}, got ${JSON.stringify(text)}\n${USAGE}`);
    return n;
  };
  const limits: Partial<ServerLimits> = {};
  const maxConnections = number('--max-connections', /^\d{1,6}$/, 1, 1_000_000, 'a whole number from 1 to 1000000');
  if (maxConnections !== undefined) limits.maxConnections = maxConnections;
  const timeout = number('--request-timeout', /^\d{1,5}(\.\d{1,3})?$/, 0.1, 3600, 'a number of seconds from 0.1 to 3600');
  if (timeout !== undefined) {
    limits.requestTimeoutMs = Math.round(timeout * 1000);
    limits.headersTimeoutMs = Math.min(SERVER_DEFAULTS.headersTimeoutMs, limits.requestTimeoutMs);
  }
  const cacheMb = number('--cache-mb', /^\d{1,5}$/, 0, 65_536, 'a whole number of MB from 0 to 65536');
  if (cacheMb !== undefined) limits.cacheBytes = cacheMb * 1024 * 1024;
  return limits;
}

async function main() {
  let args: ServeArgs;
  let voteArgs: VoteArgs;
  try {
    const split = splitVoteArgs(process.argv.slice(2), process.env);
    voteArgs = split.votes;
    args = parseServeArgs(split.rest, process.env);
    if (voteArgs.db === MEMORY_DB && args.workers > 1) {
      throw new Error(`--db ${MEMORY_DB} keeps the votes in one process's memory, and each of the ${args.workers} workers would count its own: add --workers 1`);
    }
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const repoRoot = REPO_ROOT;
  const dir = path.resolve(repoRoot, args.dir);
  if (cluster.isWorker) return serveHere(dir, repoRoot, args, voteArgs, (url) => process.send!({ url }));
  try {
    await prepareDist(dir, args, repoRoot);
  } catch (e) {
    console.error(explainFailure(e));
    process.exit(1);
  }
  const announce = (url: string) => console.log(`Serving ${dir} at ${url} with ${args.workers} process${args.workers > 1 ? 'es' : ''}  (try ${url}/api/v1/occupations?q=nurse)`);
  if (args.workers === 1) return serveHere(dir, repoRoot, args, voteArgs, announce);

  // Workers share one socket (port 0 included: the primary binds it once). Serving is
  // announced once all of them listen; a worker that dies is replaced (supervise.ts).
  const start: WorkerStart = { dir, repoRoot, args: { port: args.port, host: args.host, limits: args.limits } };
  cluster.setupPrimary({ exec: await bundleWorker(repoRoot), execArgv: workerExecArgv(withoutTsx(process.execArgv)) });
  const workers = superviseWorkers({ workers: args.workers, env: { [WORKER_ENV]: JSON.stringify(start) }, announce });
  stopOnSignalsAndOrphaning(() => {
    workers.stop();
    process.exit(0);
  });
}

/**
 * worker.ts bundled (the server, the function's HTTP helpers and the vote store; better-sqlite3
 * stays a package) into .cache/serve/, named by its content, so a worker runs on plain node. The
 * vote store finds its migrations from its own file's URL, which the bundle is told.
 */
async function bundleWorker(repoRoot: string): Promise<string> {
  const { build } = await import('esbuild');
  const store = path.join(repoRoot, 'functions/adapters/node/vote-store-sqlite.ts');
  const out = await build({
    entryPoints: [path.join(repoRoot, 'build/serve/worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    write: false,
    logLevel: 'silent',
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(store).href) },
  });
  const body = out.outputFiles[0]!.contents;
  const dir = path.join(repoRoot, '.cache', 'serve');
  const file = path.join(dir, `worker-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // Another npm start may write the same file: each writes its own, then renames it in place.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, body);
    renameSync(tmp, file);
  }
  return file;
}

/** The primary's node flags without tsx's loader (`--import tsx`, `--import=tsx`): the workers run a bundle. */
export function withoutTsx(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    if (execArgv[i] === '--import' && execArgv[i + 1] === 'tsx') i++;
    else if (execArgv[i] !== '--import=tsx') out.push(execArgv[i]!);
  }
  return out;
}

/**
 * V8 lets the young generation of a busy process grow to 16 MB per semi-space (48 MB of RSS), and
 * under load most of a worker's memory is that short-lived request garbage. At 2 MB it is collected
 * more often, in smaller, cheaper scavenges, with the same throughput. A value given on the command
 * line is kept.
 */
export const WORKER_SEMI_SPACE_MB = 2;
export const workerExecArgv = (execArgv: readonly string[]): string[] =>
  execArgv.some((a) => a.startsWith('--max-semi-space-size')) ? [...execArgv] : [...execArgv, `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`];

/**
 * Makes `dir` ready to serve, or exits with the reason. Without `args.build` it must hold a build.
 * Otherwise a missing build is made (shape percentile; the sources fetched first when none are
 * found) and an existing one brought up to date in its own shape: the sources, the code or the
 * seeds may have changed since, and serving it as it is would answer with other numbers than the
 * code says. With nothing changed the build checks the folder against its record and leaves it alone.
 */
async function prepareDist(dir: string, args: ServeArgs, repoRoot: string): Promise<void> {
  // Before anything looks at it: a build stopped during its swap left no folder, but a complete tree beside it.
  for (const line of describeTidied(dir, await tidyOutput(dir))) console.log(line);
  const built = builtShape(dir);
  // The build and the fetch are loaded only when used: a start that serves a build as it is
  // (--no-build) does not compile the model and the emitters.
  const build = async (shape: Shape) => {
    const { runBuild } = await import('../pipeline.ts');
    return runBuild({ shape, out: dir, repoRoot, log: (l) => console.log(l), onStageStart: stageProgress(process.stdout) });
  };
  if (!args.build) {
    if (built) return;
    const named = args.dir === 'dist' ? dir : `--dir ${dir}`;
    console.error(`${named} ${existsSync(dir) ? 'holds no build' : 'does not exist'}; build one with: npm run build -- --out ${args.dir}`);
    process.exit(2);
  }
  const noSources = needsFetch(repoRoot, process.env);
  if (built) {
    if (noSources) {
      console.log(`No source data found (see data/README.md): serving ${dir} as it was built, shape ${built}, without checking that it is up to date.`);
      return;
    }
    console.log(`Bringing ${dir} (shape ${built}) up to date with the sources and the code first (npm start -- --no-build serves it as it is)...`);
    await build(built).catch((e: unknown) => {
      console.error(explainFailure(e));
      console.error(`The build failed (see above) and left ${dir} as it was; nothing is served. Fix the cause, or serve the previous build as it is with: npm start -- --no-build`);
      process.exit(1);
    });
    return;
  }
  if (noSources) {
    // The same list the fetch will use (ODR_FETCH_MANIFEST may replace the built-in one).
    console.log(fetchPlan(loadManifest(process.env.ODR_FETCH_MANIFEST?.trim() || undefined)));
    const { main: fetchMain } = await import('../fetch/cli.ts');
    const code = await fetchMain([], { env: process.env });
    if (code !== 0) {
      console.error('The data fetch failed (see above); nothing was built. Fix the cause and run npm start again: files already downloaded are kept.');
      process.exit(1);
    }
  }
  console.log(`${dir} has no build; building (shape percentile) first...`);
  await build('percentile');
}

/**
 * The shape of the build in `dir` (its meta shard's), or null when it holds none: no meta shard, or
 * one that is not a build's (a build replaces it; --no-build says the folder holds no build).
 */
function builtShape(dir: string): Shape | null {
  try {
    const shape = Shape.safeParse((JSON.parse(readFileSync(path.join(dir, shardFile('meta')), 'utf8')) as { shape?: unknown }).shape);
    return shape.success ? shape.data : null;
  } catch {
    return null;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
