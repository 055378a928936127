// The vote database of `npm start`: SQLite in one file (better-sqlite3). The schema comes from
// migrations/*.sql, the same files `npm run db:migrate` applies to Cloudflare D1; applied files
// are recorded in d1_migrations exactly as wrangler does, so one history serves both.
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { sqlVoteStore, type SqlRunner, type SqlValue, type VoteStore } from '../../votes.ts';

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

/** Applies every migration not yet recorded, each in its own transaction; returns the names applied. */
export function migrate(db: Database.Database, dir = MIGRATIONS_DIR): string[] {
  db.exec(
    'CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)',
  );
  const done = new Set(db.prepare('SELECT name FROM d1_migrations').all().map((r) => (r as { name: string }).name));
  const applied: string[] = [];
  for (const name of migrationFiles(dir)) {
    if (done.has(name)) continue;
    const sql = readFileSync(path.join(dir, name), 'utf8');
    db.transaction(() => {
      db.exec(sql);
      db.prepare('INSERT INTO d1_migrations (name) VALUES (?)').run(name);
    }).immediate();
    applied.push(name);
  }
  return applied;
}

export interface SqliteVotes {
  store: VoteStore;
  db: Database.Database;
  applied: string[];
  close(): void;
}

/** Opens (creating file, folder and schema if needed) the vote database at `file`. */
export function openSqliteVotes(file: string): SqliteVotes {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  // WAL: readers never block the writer; busy_timeout: another process holding the write lock
  // (a second server, votes:export) makes us wait instead of failing the vote.
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  const applied = migrate(db);
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
  return { store: sqlVoteStore(runner), db, applied, close: () => db.close() };
}
