// npm start -- [--dir DIR] [--port N] [--host H] [--workers N]   (also PORT / HOST / WORKERS);
// builds first if needed. One server process per core by default (node:cluster, the workers
// share the listening socket): a single Node process tops out at one core, nginx does not.
import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './server.ts';
import { runBuild } from '../pipeline.ts';
import { explainFailure, parseFlags } from '../cli.ts';

const USAGE = 'usage: npm start -- [--dir DIR] [--port N] [--host H] [--workers N]';

export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv): { dir: string; port: number; host: string; workers: number } {
  const flags = parseFlags(argv, ['--dir', '--port', '--host', '--workers'], USAGE);
  const workersText = flags['--workers'] ?? env.WORKERS ?? String(availableParallelism());
  const workers = /^\d{1,3}$/.test(workersText) ? Number(workersText) : NaN;
  if (!(workers >= 1 && workers <= 256)) {
    throw new Error(`${flags['--workers'] !== undefined ? '--workers' : 'WORKERS'} must be a whole number from 1 to 256, got ${JSON.stringify(workersText)}\n${USAGE}`);
  }
  const portText = flags['--port'] ?? env.PORT ?? '8080';
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new Error(`${flags['--port'] !== undefined ? '--port' : 'PORT'} must be a whole number from 0 to 65535, got ${JSON.stringify(portText)}\n${USAGE}`);
  }
  return { dir: flags['--dir'] ?? 'dist', port, host: flags['--host'] ?? env.HOST ?? '127.0.0.1', workers };
}

async function main() {
  let args;
  try {
    args = parseServeArgs(process.argv.slice(2), process.env);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const dir = path.resolve(repoRoot, args.dir);
  if (cluster.isWorker) return serveHere(dir, args, (url) => process.send!({ url }));
  try {
    if (!existsSync(path.join(dir, '_shards', 'meta.json'))) {
      console.log(`${dir} has no build; building (shape percentile) first...`);
      await runBuild({ shape: 'percentile', out: dir, repoRoot, log: (l) => console.log(l) });
    }
  } catch (e) {
    console.error(explainFailure(e));
    process.exit(1);
  }
  const announce = (url: string) => console.log(`Serving ${dir} at ${url} with ${args.workers} process${args.workers > 1 ? 'es' : ''}  (try ${url}/api/v1/occupations?q=nurse)`);
  if (args.workers === 1) return serveHere(dir, args, announce);

  // Workers share one socket (port 0 included: the primary binds it once). The first to listen
  // announces; a worker that fails to start stops the whole server with its reason.
  let announced = false;
  let stopping = false;
  for (let i = 0; i < args.workers; i++) {
    const w = cluster.fork();
    w.on('message', (m: { url?: string }) => {
      if (m.url && !announced) {
        announced = true;
        announce(m.url);
      }
    });
  }
  cluster.on('exit', (_w, code) => {
    if (stopping) return;
    stopping = true;
    // A worker stopped by Ctrl-C (the whole process group gets it) exits 0: stop quietly.
    if (code !== 0) console.error(`a server worker exited (code ${code}); stopping`);
    for (const w of Object.values(cluster.workers ?? {})) w?.kill();
    process.exit(code);
  });
  const stop = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.kill();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function serveHere(dir: string, args: { port: number; host: string }, announce: (url: string) => void) {
  let server;
  try {
    server = await startServer({ dir, port: args.port, host: args.host });
  } catch (e) {
    console.error(explainFailure(e));
    process.exit(1);
  }
  announce(server.url);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
