// Cloudflare D1 as the vote store: the same SQL as SQLite (functions/votes.ts), the same schema
// (migrations/*.sql, applied with `npm run db:migrate`). Each statement is atomic on D1, and the
// vote insert carries its own repeat and budget checks, so no multi-statement transaction is needed.
import { sqlVoteStore, type SqlRunner, type VoteStore } from '../votes.ts';

/** The part of the D1 binding we use (typed here so the bundle needs no Cloudflare types). */
export interface D1Like {
  prepare(sql: string): {
    bind(...values: unknown[]): {
      run(): Promise<{ meta: { changes: number } }>;
      all<T>(): Promise<{ results: T[] }>;
    };
  };
}

export function d1VoteStore(db: D1Like): VoteStore {
  const runner: SqlRunner = {
    run: async (sql, params) => (await db.prepare(sql).bind(...params).run()).meta.changes,
    all: async <T>(sql: string, params: unknown[]) => (await db.prepare(sql).bind(...params).all<T>()).results,
  };
  return sqlVoteStore(runner);
}
