// Source files cut short, through the build CLI (build/main.ts) on copies of the mini fixture: each
// fails, --strict or not, naming the file and the line where it ends (or the record it differs
// from), without a stack trace, and writes no out folder. The CLI runs in this process
// (runBuildCli, what the command runs); the first case also as the real command, spawned, for
// what only a process shows (its exit status and stderr). A cut file's rows would
// otherwise read as whole: a wage cut to its first digits served as "reported", the occupations
// whose tasks were lost published as "O*NET has not collected task data" (issue 42).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runBuildCli } from '../../build/main.ts';
import { loadSources } from '../../build/sources/index.ts';
import { cleanMini, repoRoot } from '../unit/build/sources/helpers/paths.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-cut-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const TASKS = 'downloads/db_29_3_text/Task Statements.txt';
const DWAS = 'downloads/db_29_3_text/Tasks to DWAs.txt';
const OEWS = 'bls/oesm24nat/national_M2024_dl.csv';

let mini: ReturnType<typeof cleanMini>;
afterEach(() => mini?.cleanup());

/** A fresh copy of the clean mini fixture; `cut` rewrites one of its files from its whole text. */
function fixture(rel: string, cut: (whole: string) => string): { source: string; whole: string } {
  mini = cleanMini();
  const file = path.join(mini.dir, rel);
  const whole = readFileSync(file, 'utf8');
  writeFileSync(file, cut(whole));
  return { source: mini.dir, whole };
}

let runs = 0;
type Run = { status: number | null; stderr: string; out: string };
/** The build CLI, into an out folder of its own, run here: status and stderr as the command would exit and print. */
async function build(source: string, ...flags: string[]): Promise<Run> {
  const out = path.join(tmp, `out-${++runs}`);
  const stderr: string[] = [];
  const status = await runBuildCli(['--source', source, '--out', out, '--no-cache', ...flags], { log: () => {}, error: (l) => stderr.push(`${l}\n`) });
  return { status, stderr: stderr.join(''), out };
}

/** The same as `npm run build` runs it, in a process of its own. */
function buildSpawned(source: string, ...flags: string[]): Run {
  const out = path.join(tmp, `out-${++runs}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'build/main.ts', '--source', source, '--out', out, '--no-cache', ...flags], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 240_000,
  });
  return { status: r.status, stderr: r.stderr, out };
}

/** The build failed with `message`, told without a stack trace, and wrote nothing. */
function expectRefused(r: Run, message: string): void {
  expect(r.stderr).toContain(message);
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('Build failed; the previous output folder is unchanged.');
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(existsSync(r.out)).toBe(false);
}

/** 1-based line of character `at` in `text`. */
const lineAt = (text: string, at: number) => text.slice(0, at).split('\n').length;

describe('a source file cut short fails the build, --strict or not, naming the file and line', () => {
  it('Task Statements cut at 60% of its bytes, inside a line', async () => {
    const { source, whole } = fixture(TASKS, (t) => t.slice(0, Math.floor(t.length * 0.6)));
    const at = Math.floor(whole.length * 0.6);
    expect(whole[at - 1]).not.toBe('\n'); // the cut is inside a line
    const message = `${TASKS}:${lineAt(whole, at)}: the file ends inside this line, without a line end: it was cut short`;
    expectRefused(buildSpawned(source), message);
    expectRefused(await build(source, '--strict'), message);
  });

  it('the OEWS national file cut inside the median wage of its last row (the issue: Software Developers served a median of $1,359 as "reported")', async () => {
    const row = '15-1252,Software Developers,';
    const { source, whole } = fixture(OEWS, (t) => {
      const start = t.indexOf(row);
      const cells = t.slice(start).split(',');
      // OCC_CODE is the 9th column, A_MEDIAN the 28th: keep up to the first 4 digits of A_MEDIAN.
      const before = cells.slice(0, 27 - 8).join(',').length + 1;
      return t.slice(0, start + before + 4);
    });
    const line = lineAt(whole, whole.indexOf(row));
    expect(whole.trimEnd().split('\n')).toHaveLength(line); // its last row
    expectRefused(await build(source), `${OEWS}:${line}: the file ends inside this line, without a line end: it was cut short`);
  });

  it('a last row with fewer fields than the header, though it ends with a line end', async () => {
    const row = '15-1252,Software Developers,';
    const { source, whole } = fixture(OEWS, (t) => `${t.slice(0, t.indexOf(row) + row.length + 'detailed,1654440'.length)}\n`);
    const line = lineAt(whole, whole.indexOf(row));
    const header = whole.split('\n')[0]!.split(',').length;
    expectRefused(await build(source, '--strict'), `${OEWS}:${line}: the last row has 12 of the header's ${header} fields: the file was cut short`);
  });

  it('Task Statements cut at a line end, losing tasks Tasks to DWAs refers to: the occupations are not published as "not collected"', async () => {
    // Header and the two Software Developers rows kept: the Customer Service task 5255 that Tasks to DWAs names is lost.
    const { source, whole } = fixture(TASKS, (t) => `${t.split('\n').slice(0, 3).join('\n')}\n`);
    expect(readFileSync(path.join(source, DWAS), 'utf8')).toMatch(/^43-4051\.00\t[^\t]+\t5255\t/m);
    expect(whole).toMatch(/^43-4051\.00\t[^\t]+\t5255\t/m);
    const message = `${TASKS}:3: 1 task(s) of 1 occupation(s) that ${DWAS} refers to have no row here (43-4051.00); the file ends at line 3: it was cut short or is not of the same release`;
    expectRefused(await build(source), message);
    expectRefused(await build(source, '--strict'), message);
  });

  it('Occupation Data cut at a line end, losing occupations Task Statements names', async () => {
    const rel = 'downloads/db_29_3_text/Occupation Data.txt';
    const { source, whole } = fixture(rel, (t) => `${t.split('\n').filter((l) => !l.startsWith('29-1141.00')).join('\n')}`);
    expect(whole).toMatch(/^29-1141\.00\t/m);
    const lines = readFileSync(path.join(source, rel), 'utf8').trimEnd().split('\n').length;
    expectRefused(await build(source), `${rel}:${lines}: 1 occupation(s) that ${TASKS} refers to have no row here (29-1141.00)`);
  });
});

describe('a file that differs from the size or sha256 its folder records', () => {
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  /** Task Statements without its last row (a cut at a line end that no other file's references show). */
  const cutLast = (t: string) => `${t.trimEnd().split('\n').slice(0, -1).join('\n')}\n`;

  it('a SOURCES.md note of the mirror: size, then sha256', async () => {
    let whole = '';
    const { source } = fixture(TASKS, (t) => ((whole = t), cutLast(t)));
    const note = (bytes: number) => `| File | Release | Rows | Size (bytes) | sha256 |\n|---|---|---|---|---|\n| db_29_3_text/Task Statements.txt | 29.3 | 4 | ${bytes} | ${sha(whole)} |\n`;
    writeFileSync(path.join(source, 'downloads', 'SOURCES.md'), note(Buffer.byteLength(whole)));
    const cut = Buffer.byteLength(cutLast(whole));
    expectRefused(
      await build(source),
      `${TASKS}: ${cut} bytes, but downloads/SOURCES.md records ${Buffer.byteLength(whole)} (sha256 ${sha(whole)}): the file was cut short; get it again`,
    );
    // The same size, other bytes: the sha256 tells.
    writeFileSync(path.join(source, 'downloads', 'SOURCES.md'), note(cut));
    expectRefused(await build(source, '--strict'), `${TASKS}: sha256 ${sha(cutLast(whole))}, but downloads/SOURCES.md records ${sha(whole)}: the file is not the one recorded`);
  });

  it('the record data:fetch writes (SOURCES.fetched.json)', async () => {
    let whole = '';
    const { source } = fixture(TASKS, (t) => ((whole = t), cutLast(t)));
    const descriptor = { id: 'onet', title: 'O*NET', publisher: 'USDOL/ETA', license: 'CC BY 4.0', attribution: 'O*NET' };
    const record = { about: 'test', sources: [{ ...descriptor, files: [{ path: TASKS, bytes: Buffer.byteLength(whole), sha256: sha(whole) }] }] };
    writeFileSync(path.join(source, 'SOURCES.fetched.json'), JSON.stringify(record));
    expectRefused(await build(source), `${TASKS}: ${Buffer.byteLength(cutLast(whole))} bytes, but SOURCES.fetched.json records ${Buffer.byteLength(whole)}`);
  });
});

it('a row with fewer fields than the header, not the last, is rejected and counted', async () => {
  const { source } = fixture(TASKS, (t) => t.replace(/^(15-1252\.00\tSoftware Developers\t16987\t[^\t]+)\t.*$/m, '$1'));
  const { report, bundle } = await loadSources(source, { threads: 0 });
  expect(report.files.find((f) => f.path === TASKS)).toMatchObject({ rows: 4, kept: 3, rejected: 1 });
  expect(report.problems).toEqual([{ file: TASKS, line: 3, reason: "4 of the header's 8 fields: the row is cut short", code: '15-1252.00', title: 'Software Developers' }]);
  expect(bundle.tasks.map((t) => t.task_id)).not.toContain(16987);
});
