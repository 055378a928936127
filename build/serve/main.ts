// npm start -- [--dir DIR] [--port N] [--host H]   (also PORT / HOST); builds first if needed.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './server.ts';
import { runBuild } from '../pipeline.ts';

const USAGE = 'usage: npm start -- [--dir DIR] [--port N] [--host H]';

export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv): { dir: string; port: number; host: string } {
  const o = { dir: 'dist', port: Number(env.PORT ?? 8080), host: env.HOST ?? '127.0.0.1' };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    if (flag === '--dir') o.dir = value;
    else if (flag === '--port') o.port = Number(value);
    else if (flag === '--host') o.host = value;
    else throw new Error(`unknown argument ${flag}\n${USAGE}`);
  }
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) throw new Error(`bad port\n${USAGE}`);
  return o;
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
  if (!existsSync(path.join(dir, '_shards', 'meta.json'))) {
    console.log(`${dir} has no build; building (shape percentile) first...`);
    await runBuild({ shape: 'percentile', out: dir, repoRoot, log: (l) => console.log(l) });
  }
  const server = await startServer({ dir, port: args.port, host: args.host });
  console.log(`Serving ${dir} at ${server.url}  (try ${server.url}/api/v1/occupations?q=nurse)`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
