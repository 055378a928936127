// npm start -- [--dir DIR] [--port N] [--host H]   (also PORT / HOST); builds first if needed.
// Vote options (timeline shape): [--db PATH] [--trust-proxy] [--vote-budget N], see vote-args.ts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './server.ts';
import { runBuild } from '../pipeline.ts';
import { explainFailure, parseFlags } from '../cli.ts';
import { splitVoteArgs, type VoteArgs } from './vote-args.ts';
import { openSqliteVotes, type SqliteVotes } from './vote-store-sqlite.ts';

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
  let voteArgs: VoteArgs;
  try {
    const split = splitVoteArgs(process.argv.slice(2), process.env);
    voteArgs = split.votes;
    args = parseServeArgs(split.rest, process.env);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const dir = path.resolve(repoRoot, args.dir);
  let server;
  let votes: SqliteVotes | null = null;
  try {
    if (!existsSync(path.join(dir, '_shards', 'meta.json'))) {
      console.log(`${dir} has no build; building (shape percentile) first...`);
      await runBuild({ shape: 'percentile', out: dir, repoRoot, log: (l) => console.log(l) });
    }
    // Only the timeline shape has votes; the percentile shape opens no database.
    const shape = (JSON.parse(readFileSync(path.join(dir, '_shards', 'meta.json'), 'utf8')) as { shape: string }).shape;
    if (shape === 'timeline') {
      const file = path.resolve(repoRoot, voteArgs.db);
      votes = openSqliteVotes(file);
      console.log(
        `Votes: SQLite ${file}${votes.applied.length ? ` (applied ${votes.applied.join(', ')})` : ''}; budget ${voteArgs.budget}/hour; ` +
          `client = ${voteArgs.trustProxy ? 'last X-Forwarded-For hop' : 'socket address'}; secret ${voteArgs.secret ? 'from ODR_VOTE_SECRET' : 'none (daily salts only)'}`,
      );
    }
    server = await startServer({
      dir,
      port: args.port,
      host: args.host,
      trustProxy: voteArgs.trustProxy,
      votes: votes ? { store: votes.store, budget: voteArgs.budget, secret: voteArgs.secret } : undefined,
    });
  } catch (e) {
    console.error(explainFailure(e));
    process.exit(1);
  }
  console.log(`Serving ${dir} at ${server.url}  (try ${server.url}/api/v1/occupations?q=nurse)`);
  const stop = () =>
    void server.close().then(() => {
      votes?.close();
      process.exit(0);
    });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
