// The vote options of `npm start`: --db PATH (ODR_DB), --trust-proxy, --vote-budget N
// (ODR_VOTE_BUDGET) and the secret: ODR_VOTE_SECRET (environment only: a flag would show in the
// process list) wins; without it the secret file --vote-secret-file PATH (ODR_VOTE_SECRET_FILE,
// default var/vote-secret in the repository, git-ignored, wherever the database is: beside a
// --db in the working tree it showed in git status), generated once (vote-secret.ts). `--db
// :memory:` keeps the votes in the server process's memory. Taken out of argv before the server's
// own flags are parsed.
import path from 'node:path';
import { VOTE_POLICY } from '../contract/votes.ts';
import { DEFAULT_DB } from '../../functions/adapters/node/vote-store-sqlite.ts';

export interface VoteArgs {
  /** The SQLite file, relative paths resolved by the caller. */
  db: string;
  trustProxy: boolean;
  budget: number;
  /** From ODR_VOTE_SECRET; when absent the secret comes from `secretFile`. */
  secret?: string;
  /** The secret file (relative paths resolved by the caller): DEFAULT_SECRET_FILE unless named. */
  secretFile: string;
  /** Whether the secret file was named (flag or environment), not the default. */
  secretFileNamed: boolean;
}

/** SQLite's name for a database in memory (never a file). */
export const MEMORY_DB = ':memory:';
/** The secret file unless one is named: in the repository's git-ignored var/, beside the default database. */
export const DEFAULT_SECRET_FILE = path.join('var', 'vote-secret');

export const VOTE_USAGE = '[--db PATH] [--trust-proxy] [--vote-budget N] [--vote-secret-file PATH]';

export function splitVoteArgs(argv: string[], env: NodeJS.ProcessEnv): { votes: VoteArgs; rest: string[] } {
  const rest: string[] = [];
  const flags: Record<string, string> = {};
  let trustProxy = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--trust-proxy') {
      trustProxy = true;
      continue;
    }
    const m = arg.match(/^(--db|--vote-budget|--vote-secret-file)(?:=(.*))?$/);
    if (!m) {
      rest.push(arg);
      continue;
    }
    const value = m[2] ?? argv[++i];
    if (value === undefined || value === '' || value.startsWith('--')) throw new Error(`${m[1]} needs a value\nusage: npm start -- ${VOTE_USAGE}`);
    flags[m[1]!] = value;
  }
  const budgetText = flags['--vote-budget'] ?? env.ODR_VOTE_BUDGET ?? String(VOTE_POLICY.defaultBudget);
  if (!/^[1-9]\d{0,5}$/.test(budgetText)) {
    throw new Error(`${flags['--vote-budget'] !== undefined ? '--vote-budget' : 'ODR_VOTE_BUDGET'} must be a whole number from 1 to 999999, got ${JSON.stringify(budgetText)}`);
  }
  const secret = env.ODR_VOTE_SECRET || undefined;
  const db = flags['--db'] ?? (env.ODR_DB || DEFAULT_DB);
  const named = flags['--vote-secret-file'] ?? (env.ODR_VOTE_SECRET_FILE || undefined);
  return {
    votes: { db, trustProxy, budget: Number(budgetText), secretFile: named ?? DEFAULT_SECRET_FILE, secretFileNamed: named !== undefined, ...(secret ? { secret } : {}) },
    rest,
  };
}
