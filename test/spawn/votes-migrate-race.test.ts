// Four processes opening the same new vote database at the same instant, as npm start's workers
// do on a first start (issue 42): every one opens it, and each migration is applied exactly once.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { migrationFiles } from '../../functions/adapters/node/vote-store-sqlite.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'odr-migrate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const PROCESSES = 4;
const FILES = 25;

it(`${PROCESSES} processes opening ${FILES} new databases at the same instants: no failure, each migration applied once`, async () => {
  const files = Array.from({ length: FILES }, (_, i) => path.join(tmp, `votes-${i}.sqlite`));
  // Each process loads its modules, says so, and is then given the same start, a moment ahead.
  const procs = Array.from({ length: PROCESSES }, () =>
    spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test/fixtures/votes/open-at.ts'), ...files, '150'], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  const runs = procs.map((p) => {
    let stdout = '';
    p.stdout!.on('data', (d) => (stdout += d));
    const ready = new Promise<void>((resolve, reject) => {
      p.stdout!.on('data', () => stdout.startsWith('ready\n') && resolve());
      p.once('exit', (code) => reject(new Error(`open-at.ts exited (${code}) before it was ready`)));
    });
    const exited = new Promise<number | null>((resolve) => p.once('exit', resolve));
    return { ready, exited, stdout: () => stdout.slice('ready\n'.length) };
  });
  await Promise.all(runs.map((r) => r.ready));
  const start = Date.now() + 200;
  for (const p of procs) p.stdin!.end(`${start}\n`);
  expect(await Promise.all(runs.map((r) => r.exited))).toEqual(procs.map(() => 0));
  const results = runs.flatMap((r) => r.stdout().trim().split('\n').map((l) => JSON.parse(l) as { file: string; applied?: string[]; error?: string }));
  expect(results).toHaveLength(PROCESSES * FILES);
  expect(results.filter((r) => r.error)).toEqual([]);
  for (const file of files) {
    // Between them the processes applied every migration once.
    const applied = results.filter((r) => r.file === file).flatMap((r) => r.applied!);
    expect(applied.sort()).toEqual(migrationFiles());
    const db = new Database(file, { readonly: true });
    expect((db.prepare('SELECT name FROM d1_migrations ORDER BY name').all() as Array<{ name: string }>).map((r) => r.name)).toEqual(migrationFiles());
    db.close();
  }
}, 60_000);
