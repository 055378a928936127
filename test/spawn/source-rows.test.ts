// Bad source rows through the build CLI (build/main.ts): a key repeated with other
// values fails naming both file:line and leaves the out folder byte-identical; an exact repeat is
// dropped and counted in the report; a malformed row lets the build go on but its last lines name
// the occupation that lost its page and why; --strict fails on that row (the parsed-source cache
// on, as the first build left it) and writes nothing. All on the mini fixture, its deliberately bad rows
// removed; for the malformed row its Job Zones file is padded to full size (one bad row stays
// under the 0.5% reject threshold only in a file of 200 rows or more; the real one has 923).
// The CLI runs in this process (runBuildCli, what the command runs), the --strict one as the real
// command, spawned. The builds share a cache folder of this file's own: the function is bundled
// once (none of these tests is about that cache).
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuildCli } from '../../build/main.ts';
import { runBuild } from '../../build/pipeline.ts';
import { cleanMini, repoRoot } from '../unit/build/sources/helpers/paths.ts';
import { treeDigest } from '../support/tree-digest.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-rows-'));
// Small out folders of the mini fixture (and their previous generations).
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cacheDir = path.join(tmp, 'cache');
type Run = { status: number | null; stdout: string; stderr: string };

/** The build CLI, run here: status, stdout and stderr (kept apart) as the command would exit and print. */
async function build(...args: string[]): Promise<Run> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const status = await runBuildCli(args, { log: (l) => stdout.push(`${l}\n`), error: (l) => stderr.push(`${l}\n`) });
  return { status, stdout: stdout.join(''), stderr: stderr.join('') };
}

/** The same as `npm run build` runs it, in a process of its own. */
function buildSpawned(...args: string[]): Run {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'build/main.ts', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 240_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('repeated keys through the build (mini fixture)', () => {
  const mini = cleanMini();
  afterAll(mini.cleanup);
  const jobZones = path.join(mini.dir, 'downloads/db_29_3_text/Job Zones.txt');
  const out = path.join(tmp, 'mini-out');
  let before: string;

  beforeAll(async () => {
    await runBuild({ shape: 'percentile', out, source: mini.dir, repoRoot, caches: ['function'], cacheDir });
    before = treeDigest(out);
  }, 120_000);

  it('a repeated key with another value fails naming both file:line, without a stack trace, and the out folder stays byte-identical', async () => {
    const original = readFileSync(jobZones, 'utf8');
    try {
      appendFileSync(jobZones, '15-1252.00\tSoftware Developers\t1\t08/2023\tAnalyst\n');
      const r = await build('--source', mini.dir, '--out', out, '--no-cache');
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(
        'conflicting repeated row: downloads/db_29_3_text/Job Zones.txt:2 and downloads/db_29_3_text/Job Zones.txt:5 have the same soc_code "15-1252.00" but different values: job_zone 4 (line 2) vs 1 (line 5)',
      );
      expect(r.stderr).toContain('Build failed; the previous output folder is unchanged.');
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(treeDigest(out)).toBe(before);
    } finally {
      writeFileSync(jobZones, original);
    }
  });

  it('an exact repeat is dropped and counted in the report; the build goes on', async () => {
    const original = readFileSync(jobZones, 'utf8');
    try {
      appendFileSync(jobZones, '15-1252.00\tSoftware Developers\t4\t08/2023\tAnalyst\n');
      const s = await runBuild({ shape: 'percentile', out: path.join(tmp, 'mini-repeat'), source: mini.dir, repoRoot, caches: ['function'], cacheDir });
      expect(s.sourceReport).toMatch(/downloads\/db_29_3_text\/Job Zones\.txt\s+4\s+3\s+0\n\s+1 exact repeat of an earlier row dropped \(same soc_code and values; line 5\)/);
      expect(s.sourceReport).toContain('0 rejected, 1 exact repeated row dropped');
      expect(s.occupations).toBe(2);
    } finally {
      writeFileSync(jobZones, original);
    }
  });
});

describe('a malformed row of a full-size file', () => {
  const mini = cleanMini();
  afterAll(mini.cleanup);
  const jobZones = 'downloads/db_29_3_text/Job Zones.txt';
  const out = path.join(tmp, 'malformed-out');
  // The file's cache folder, whose parsed sources the first build fills and the strict one reads.
  const caches = ['--cache', 'sources,function', '--cache-dir', cacheDir];

  beforeAll(() => {
    const file = path.join(mini.dir, jobZones);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('15-1252.00\tSoftware Developers\t4\t');
    // 300 rows for occupations no other file names (no page, no join): the file's rows, not its meaning, set the threshold.
    const padding = Array.from({ length: 300 }, (_, i) => `99-${9000 + i}.00\tPadding Occupation ${i}\t3\t08/2023\tAnalyst\n`).join('');
    writeFileSync(file, `${text.replace('15-1252.00\tSoftware Developers\t4\t', '15-1252.00\tSoftware Developers\tfour\t').trimEnd()}\n${padding}`);
  });

  it('the build goes on; its last lines name the occupation that lost its page, why, and the row', async () => {
    const r = await build('--source', mini.dir, '--out', out, ...caches);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Caches: sources miss,/);
    const last = r.stdout.trimEnd().split('\n').slice(-4);
    expect(last).toEqual([
      'Rejected source rows: 1 (the build went on without them; --strict fails on any)',
      'Occupations without a page because rows naming them were rejected (1):',
      '  15-1252.00 Software Developers: No O*NET Job Zone.',
      `    ${jobZones}:2: Job Zone: is not an integer (got "four")`,
    ]);
    expect(existsSync(path.join(out, 'api/v1/occupations/15-1252.00/index.json'))).toBe(false);
    expect(existsSync(path.join(out, 'api/v1/occupations/43-4051.00/index.json'))).toBe(true);
  });

  it('--strict fails on that row, with the cache the first build filled, names it, and leaves the out folder byte-identical', () => {
    expect(readdirSync(path.join(cacheDir, 'sources')).length).toBeGreaterThan(0);
    const before = treeDigest(out);
    const r = buildSpawned('--strict', '--source', mini.dir, '--out', out, ...caches);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`build failed (--strict): 1 source row(s) rejected; nothing was written:\n  - ${jobZones}:2: Job Zone: is not an integer (got "four")`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(treeDigest(out)).toBe(before);
  });
});
