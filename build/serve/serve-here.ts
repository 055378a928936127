// One server process of npm start: the vote database (timeline builds) and the listener. Kept
// apart from the CLI (main.ts) and its build, so that a cluster worker, which only serves, loads
// this and the server alone: the primary bundles it with worker.ts and runs the workers on plain
// node, without tsx (whose module-hook thread would be much of a worker's memory).
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, type ServerLimits } from '../../functions/adapters/node/server.ts';
import { openSqliteVotes, type SqliteVotes } from '../../functions/adapters/node/vote-store-sqlite.ts';
import { shardFile } from '../contract/dist-layout.ts';
import { MEMORY_DB, type VoteArgs } from './vote-args.ts';
import { checkVoteSecret, loadVoteSecret, VoteSecretError } from './vote-secret.ts';
import { explainServeFailure } from '../serve-failure.ts';

/** What a server process needs of npm start's arguments. */
export interface WorkerArgs {
  port: number;
  host: string;
  limits: Partial<ServerLimits>;
}

/** What the primary hands a worker (JSON in ODR_SERVE_WORKER). */
export interface WorkerStart {
  dir: string;
  repoRoot: string;
  args: WorkerArgs;
}

export const WORKER_ENV = 'ODR_SERVE_WORKER';

/**
 * Stop when told to, and also when the process that started us goes away: npm runs scripts
 * through sh, and dash neither execs the command nor passes SIGTERM on, so when npm is stopped
 * the shell dies and we would be orphaned, still holding the port (a cluster worker likewise
 * when its primary dies).
 */
export function stopOnSignalsAndOrphaning(stop: () => void): void {
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop();
  }, 500).unref();
}

/** One server process: the vote database (timeline builds; SQLite's WAL lets workers share it) and the listener. */
export async function serveHere(dir: string, repoRoot: string, args: WorkerArgs, voteArgs: VoteArgs, announce: (url: string) => void) {
  let server;
  let votes: SqliteVotes | null = null;
  let secret = voteArgs.secret;
  try {
    // Only the timeline shape has votes; the percentile shape opens no database.
    const shape = (JSON.parse(readFileSync(path.join(dir, shardFile('meta')), 'utf8')) as { shape: string }).shape;
    if (shape === 'timeline') {
      // ':memory:' is SQLite's name for a database in this process's memory, not a file name.
      const file = voteArgs.db === MEMORY_DB ? MEMORY_DB : path.resolve(repoRoot, voteArgs.db);
      votes = openSqliteVotes(file);
      // ODR_VOTE_SECRET wins; otherwise the secret file, generated on the first start. A database
      // in memory ends with the process, and so may its keys' secret: one of its own, kept nowhere.
      let secretFrom = 'from ODR_VOTE_SECRET';
      if (secret) checkVoteSecret(secret, 'in ODR_VOTE_SECRET');
      else if (file === MEMORY_DB && !voteArgs.secretFileNamed) {
        secret = randomBytes(32).toString('hex');
        secretFrom = 'generated for this process only (the database is in memory)';
      } else {
        const secretFile = path.resolve(repoRoot, voteArgs.secretFile);
        const loaded = loadVoteSecret(secretFile);
        secret = loaded.secret;
        secretFrom = `${secretFile}${loaded.created ? ' (generated now)' : ''}${loaded.tightened ? ' (made 0600: it was readable by others)' : ''}`;
      }
      if (!cluster.isWorker || cluster.worker?.id === 1) {
        console.log(
          `Votes: SQLite ${file}${votes.applied.length ? ` (applied ${votes.applied.join(', ')})` : ''}; budget ${voteArgs.budget}/hour; ` +
            `client = ${voteArgs.trustProxy ? 'last X-Forwarded-For hop' : 'socket address'}; secret ${secretFrom}`,
        );
      }
    }
    server = await startServer({
      dir,
      port: args.port,
      host: args.host,
      trustProxy: voteArgs.trustProxy,
      ...args.limits,
      votes: votes ? { store: votes.store, budget: voteArgs.budget, secret, requireSecret: true, trustProxy: voteArgs.trustProxy } : undefined,
    });
  } catch (e) {
    console.error(e instanceof VoteSecretError ? e.message : explainServeFailure(e));
    process.exit(1);
  }
  announce(server.url);
  let stopping = false;
  stopOnSignalsAndOrphaning(() => {
    if (stopping) return;
    stopping = true;
    void server.close().then(() => {
      votes?.close();
      process.exit(0);
    });
  });
}

