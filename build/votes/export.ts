// npm run votes:export -- [--db PATH] [--out FILE]
// Writes the vote counts of the SQLite database (npm start's; ODR_DB, default var/votes.sqlite)
// as votes.csv, the format the build reads from the source directory (build/sources/votes.ts),
// so a rebuild bakes the counts into the static votes files and the snapshot. Sorted by SOC code
// (code-unit order): the same database gives the same bytes. Written atomically.
import { existsSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFlags } from '../cli.ts';
import { VOTE_SQL, countsFrom } from '../../functions/votes.ts';
import { DEFAULT_DB, openSqliteVotes } from '../../functions/adapters/node/vote-store-sqlite.ts';
import type { VoteCounts } from '../contract/votes.ts';
import { REPO_ROOT } from '../repo-root.ts';

const USAGE = 'usage: npm run votes:export -- [--db PATH] [--out FILE]   (default out var/votes.csv)';

export function votesCsv(rows: Array<{ soc_code: string; vote: string; n: number }>): { csv: string; occupations: number; votes: number } {
  const by = new Map<string, Array<{ vote: string; n: number }>>();
  for (const r of rows) by.set(r.soc_code, [...(by.get(r.soc_code) ?? []), r]);
  const socs = [...by.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let votes = 0;
  const lines = ['soc_code,agree,too_high,too_low'];
  for (const soc of socs) {
    const c: VoteCounts = countsFrom(by.get(soc)!);
    votes += c.agree + c.too_high + c.too_low;
    lines.push(`${soc},${c.agree},${c.too_high},${c.too_low}`);
  }
  return { csv: lines.join('\n') + '\n', occupations: socs.length, votes };
}

function main() {
  let flags;
  try {
    flags = parseFlags(process.argv.slice(2), ['--db', '--out'], USAGE);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const repoRoot = REPO_ROOT;
  const db = path.resolve(repoRoot, flags['--db'] ?? (process.env.ODR_DB || DEFAULT_DB));
  const out = path.resolve(flags['--out'] ?? path.join(repoRoot, 'var', 'votes.csv'));
  if (!existsSync(db)) {
    console.error(`No vote database at ${db} (npm start creates it; --db or ODR_DB names another).`);
    process.exit(1);
  }
  const votes = openSqliteVotes(db);
  try {
    const { csv, occupations, votes: n } = votesCsv(votes.db.prepare(VOTE_SQL.allCounts).all() as Array<{ soc_code: string; vote: string; n: number }>);
    mkdirSync(path.dirname(out), { recursive: true });
    const tmp = `${out}.tmp-${process.pid}`;
    writeFileSync(tmp, csv);
    renameSync(tmp, out);
    console.log(`Wrote ${out}: ${n} votes on ${occupations} occupations from ${db}.`);
    console.log('Rebuild with this file in the source directory (--source DIR) to publish the counts as static files.');
  } finally {
    votes.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
