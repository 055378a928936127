// npm start -- [--dir DIR] [--port N] [--host H]   (also PORT / HOST); builds first if needed.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './server.ts';
import { runBuild } from '../pipeline.ts';
import { explainFailure, parseFlags } from '../cli.ts';

const USAGE = 'usage: npm start -- [--dir DIR] [--port N] [--host H]';

export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv): { dir: string; port: number; host: string } {
  const flags = parseFlags(argv, ['--dir', '--port', '--host'], USAGE);
  const portText = flags['--port'] ?? env.PORT ?? '8080';
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new Error(`${flags['--port'] !== undefined ? '--port' : 'PORT'} must be a whole number from 0 to 65535, got ${JSON.stringify(portText)}\n${USAGE}`);
  }
  return { dir: flags['--dir'] ?? 'dist', port, host: flags['--host'] ?? env.HOST ?? '127.0.0.1' };
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
  let server;
  try {
    if (!existsSync(path.join(dir, '_shards', 'meta.json'))) {
      console.log(`${dir} has no build; building (shape percentile) first...`);
      await runBuild({ shape: 'percentile', out: dir, repoRoot, log: (l) => console.log(l) });
    }
    server = await startServer({ dir, port: args.port, host: args.host });
  } catch (e) {
    console.error(explainFailure(e));
    process.exit(1);
  }
  console.log(`Serving ${dir} at ${server.url}  (try ${server.url}/api/v1/occupations?q=nurse)`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
