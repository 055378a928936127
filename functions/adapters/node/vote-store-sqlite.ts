// The vote database of `npm start`: SQLite in one file (better-sqlite3). The schema comes from
// migrations/*.sql, the same files `npm run db:migrate` applies to Cloudflare D1; applied files
// are recorded in d1_migrations exactly as wrangler does, so one history serves both.
// The file (and SQLite's -wal and -shm beside it, which take its mode) is readable by its owner
// only, and salts older than yesterday are deleted at open and on a timer, not only when a vote
// arrives (a server with no votes for days would keep them otherwise).
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { VOTE_SQL, sqlVoteStore, utcDay, type SqlRunner, type SqlValue, type VoteStore } from '../../votes.ts';

/** The D1 migrations (the repository's migrations/ folder), applied to the SQLite file as wrangler applies them to D1. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations', import.meta.url));
/** Default database file of npm start (git-ignored). */
export const DEFAULT_DB = path.join('var', 'votes.sqlite');

/** Migration files in apply order (file-name order, which the 0001_ prefixes make numeric). */
export function migrationFiles(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Applies every migration not yet recorded, each in its own write transaction; returns the names
 * applied. Whether a file is applied is read inside that transaction (BEGIN IMMEDIATE): the
 * server's processes open a new database at the same moment, and a check made before taking the
 * write lock let two of them apply the same file (`table votes already exists`).
 */
export function migrate(db: Database.Database, dir = MIGRATIONS_DIR): string[] {
  const applied: string[] = [];
  for (const name of migrationFiles(dir)) {
    const done = db
      .transaction(() => {
        db.exec(
          'CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)',
        );
        if (db.prepare('SELECT 1 FROM d1_migrations WHERE name = ?').get(name)) return true;
        db.exec(readFileSync(path.join(dir, name), 'utf8'));
        db.prepare('INSERT INTO d1_migrations (name) VALUES (?)').run(name);
        return false;
      })
      .immediate();
    if (!done) applied.push(name);
  }
  return applied;
}

/**
 * Runs `fn` again while SQLite answers SQLITE_BUSY, up to about 10 s. Some lock waits on a new
 * file skip the busy handler (a switch to WAL, or the WAL index being set up by another process
 * opening it at the same moment) and fail at once with "database is locked"; everything `fn` does
 * is idempotent (the mode switch, and migrations checked inside their write transaction).
 */
function retryBusy<T>(fn: () => T): T {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (attempt >= 100 || typeof code !== 'string' || !code.startsWith('SQLITE_BUSY')) throw e;
      Atomics.wait(pause, 0, 0, 20 + 80 * Math.random());
    }
  }
}

export interface SqliteVotes {
  store: VoteStore;
  db: Database.Database;
  applied: string[];
  /** Deletes the salts of days before yesterday (UTC) as of `now`; returns how many. */
  pruneSalts(now?: number): number;
  close(): void;
}

/** How often an open database deletes old salts (besides at open and when a day's first vote comes). */
export const SALT_PRUNE_INTERVAL_MS = 10 * 60_000;

/** Owner read and write only: the database, its -wal and -shm, the secret file. */
export const PRIVATE_MODE = 0o600;

/**
 * Makes `file` (and an existing -wal/-shm) private before SQLite opens it: created empty with
 * mode 0600 when missing (SQLite then keeps the mode and gives it to the -wal and -shm files it
 * creates), tightened to 0600 when an earlier version left it readable by others.
 */
function makePrivate(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_MODE));
  if (process.platform === 'win32') return;
  chmodSync(file, PRIVATE_MODE);
  for (const f of [`${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(f, PRIVATE_MODE);
    } catch (e) {
      // Absent, or removed meanwhile by another process's last connection closing: nothing to tighten.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
}

/**
 * Opens (creating file, folder and schema if needed) the vote database at `file`. `pruneEveryMs`:
 * the salt timer (0: none); `now`: the clock it prunes by.
 */
export function openSqliteVotes(file: string, opts: { pruneEveryMs?: number; now?: () => number } = {}): SqliteVotes {
  if (file !== ':memory:') {
    // The folder too, when we make it: nobody else needs to list it.
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
    makePrivate(file);
  }
  const db = new Database(file);
  // busy_timeout first: another process holding the write lock (a second server process opening
  // the same new file, votes:export) makes us wait instead of failing, switching to WAL included.
  // WAL: readers never block the writer.
  db.pragma('busy_timeout = 5000');
  const applied = retryBusy(() => {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    return migrate(db);
  });
  const cache = new Map<string, Database.Statement>();
  const stmt = (sql: string) => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = db.prepare(sql)));
    return s;
  };
  // better-sqlite3 is synchronous: each statement runs to completion (in its own implicit
  // transaction) before the next request is looked at.
  // The shared SQL numbers its parameters (?1, ?2 ...); better-sqlite3 binds those by name.
  const numbered = (params: SqlValue[]) => Object.fromEntries(params.map((v, i) => [String(i + 1), v]));
  const runner: SqlRunner = {
    run: async (sql: string, params: SqlValue[]) => stmt(sql).run(numbered(params)).changes,
    all: async <T>(sql: string, params: SqlValue[]) => stmt(sql).all(numbered(params)) as T[],
  };
  const now = opts.now ?? Date.now;
  const pruneSalts = (at = now()) => stmt(VOTE_SQL.pruneSalts).run({ 1: utcDay(at - 86_400_000) }).changes;
  pruneSalts();
  const every = opts.pruneEveryMs ?? SALT_PRUNE_INTERVAL_MS;
  const timer =
    every > 0
      ? setInterval(() => {
          try {
            pruneSalts();
          } catch {
            // Busy past busy_timeout (another process writing): the next tick, or the next vote, prunes.
          }
        }, every)
      : null;
  timer?.unref();
  return {
    store: sqlVoteStore(runner),
    db,
    applied,
    pruneSalts,
    close: () => {
      if (timer) clearInterval(timer);
      db.close();
    },
  };
}
