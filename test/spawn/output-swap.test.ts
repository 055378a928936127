// The output swap when a build stops (build/emit/swap.ts): a build killed between the two renames
// of its swap (ODR_TEST_CRASH_AT, a real SIGKILL of a real build process) leaves no out folder;
// the next npm start (--no-build) puts the complete new tree back and serves it, and the next
// build does the same and completes. A tree still being written is never put in place. Folders
// that stopped builds left are removed by the next build, which names them; a running build's
// are kept, also when the build runs beside a later process that reuses a stopped one's pid.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../build/pipeline.ts';
import { processStart } from '../../build/process-id.ts';
import { describeTidied, tidyOutput } from '../../build/emit/swap.ts';
import { fixtureModel } from '../fixtures/serving/model.ts';
import { killStarted, servingUrl, startNpm } from '../support/npm-start.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'odr-swap-'));
const started: ChildProcess[] = [];
afterAll(() => {
  killStarted(started);
  rmSync(tmp, { recursive: true, force: true });
});

let n = 0;
/** A fresh folder to build `dist` in. */
const base = () => {
  const d = path.join(tmp, `case-${++n}`);
  mkdirSync(d);
  return d;
};

/** A small tree with a manifest listing its one other file. */
function smallTree(dir: string, label: string): void {
  mkdirSync(path.join(dir, 'api'), { recursive: true });
  writeFileSync(path.join(dir, 'api', 'label.txt'), label);
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ files: { 'api/label.txt': sha(label) } }));
}
const sha = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');
const label = (dir: string) => readFileSync(path.join(dir, 'api', 'label.txt'), 'utf8');
const siblings = (dir: string) => readdirSync(dir).sort();

/** The id of a process that has ended (its pid names no running process), as a build's folder names it. */
const goneId = () => `${spawnSync(process.execPath, ['-e', '0']).pid!}-1`;

/** A running process standing for a build beside the one under test; its id as that build's folders name it. */
function runningBuild(): { id: string; proc: ChildProcess } {
  const proc = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore', detached: true });
  started.push(proc);
  const start = processStart(proc.pid!);
  return { id: start === null ? String(proc.pid) : `${proc.pid}-${start}`, proc };
}

/** A real build of the fixture model in a process of its own, killed (SIGKILL) at `crashAt`. */
function crashedBuild(out: string, shape: string, crashAt: string): { signal: string | null; output: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test', 'support', 'fixture-build.ts'), out, shape], {
    cwd: repoRoot,
    env: { ...process.env, ODR_TEST_CRASH_AT: crashAt },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { signal: r.signal, output: r.stdout + r.stderr };
}

/** Every file the manifest lists has its bytes, and nothing else is there: a whole tree. */
function expectWhole(dir: string): void {
  const files = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).files as Record<string, string>;
  for (const [rel, want] of Object.entries(files)) expect(sha(readFileSync(path.join(dir, rel))), rel).toBe(want);
  const onDisk = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  expect(onDisk).toBe(Object.keys(files).length + 1);
}

// One out folder through the builds killed on purpose (each test leaves it whole, as the next needs it).
const shared = base();
const out = path.join(shared, 'dist');
/** What the build killed between its renames left beside `out` (a copy, for the second test). */
const afterCrash = path.join(tmp, 'after-crash');

describe('a build killed between the two renames of its swap', () => {
  it('leaves no out folder; the next npm start --no-build puts the complete new tree back and serves it; the next build completes', async () => {
    await runBuild({ shape: 'timeline', out, repoRoot, inputs: fixtureModel() });

    const crash = crashedBuild(out, 'percentile', 'between-renames');
    expect(crash.signal, crash.output).toBe('SIGKILL');
    // The moment the issue describes: out renamed aside, the new tree not yet in.
    expect(existsSync(out)).toBe(false);
    const left = siblings(shared);
    expect(left).toHaveLength(2);
    expect(left[0]).toMatch(/^\.dist-tmp-done-\d+(-\d+)?$/);
    expect(left[1]).toMatch(/^\.dist-tmp-old-\d+(-\d+)?$/);
    // The same state for the next test, whose build puts it right itself (no second build killed for it).
    cpSync(shared, afterCrash, { recursive: true });

    const { PORT: _p, HOST: _h, ...env } = process.env;
    // npm's start script without npm (see startNpm): the test is about what the server does first.
    const run = startNpm(started, ['--no-build', '--dir', out, '--port', '0', '--workers', '1'], { cwd: repoRoot, env, direct: true });
    const url = await servingUrl(run);
    expect(run.out()).toContain(`${out} was missing (a build stopped between the two renames of its swap): put back the complete new tree, ${left[0]}`);
    expect(run.out()).toContain(`kept ${left[1]}, a complete tree a stopped build left, as .dist-previous`);
    const meta = await fetch(`${url}/api/v1/meta`);
    expect(meta.status).toBe(200);
    expect(((await meta.json()) as { shape: string }).shape).toBe('percentile'); // the new tree, not the timeline one it replaced
    expect((await fetch(`${url}/api/v1/displacement/factors`)).status).toBe(200);
    run.proc.kill('SIGTERM');
    await run.exited;
    expectWhole(out);
    expect(siblings(shared)).toEqual(['.dist-previous', 'dist']);

    const lines: string[] = [];
    const summary = await runBuild({ shape: 'percentile', out, repoRoot, inputs: fixtureModel(), log: (l) => lines.push(l) });
    expect(summary.files).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain('was missing');
    expectWhole(out);
    expect(siblings(shared)).toEqual(['.dist-previous', 'dist']);
  }, 90_000);

  it('the next build puts the tree back itself, says so, and completes', async () => {
    // What the killed build of the test before left, copied before npm start put it right.
    const out = path.join(afterCrash, 'dist');
    expect(siblings(afterCrash)).toHaveLength(2);
    expect(existsSync(out)).toBe(false);

    const lines: string[] = [];
    await runBuild({ shape: 'timeline', out, repoRoot, inputs: fixtureModel(), log: (l) => lines.push(l) });
    expect(lines.join('\n')).toMatch(/ was missing \(a build stopped between the two renames of its swap\): put back the complete new tree, \.dist-tmp-done-/);
    expectWhole(out);
    expect(JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')).shape).toBe('timeline');
    expect(siblings(afterCrash)).toEqual(['.dist-previous', 'dist']);
  }, 90_000);
});

describe('what stopped builds leave beside the out folder', () => {
  it('a build killed while writing leaves the out folder as it was; the next build removes its tree and names it', async () => {
    const before = readFileSync(path.join(out, 'manifest.json'), 'utf8');
    expect(crashedBuild(out, 'timeline', 'before-done').signal).toBe('SIGKILL');
    expect(readFileSync(path.join(out, 'manifest.json'), 'utf8')).toBe(before);
    // It had claimed the previous generation to update in place.
    const [writing] = siblings(shared).filter((s) => s !== 'dist');
    expect(writing).toMatch(/^\.dist-tmp-\d+(-\d+)?$/);

    // Beside it: one of a build still running, and one of a stopped build whose pid a running
    // process has since taken (the same pid, another start time).
    const running = runningBuild();
    const reused = running.id.includes('-') ? `.dist-tmp-${running.id.split('-')[0]}-${Number(running.id.split('-')[1]) + 1}` : null;
    const legacy = `.dist-tmp-${goneId().split('-')[0]}`; // named by an earlier version: pid alone
    for (const name of [`.dist-tmp-${running.id}`, `.dist-tmp-done-${running.id}`, legacy, ...(reused ? [reused] : [])]) smallTree(path.join(shared, name), name);

    const lines: string[] = [];
    await runBuild({ shape: 'timeline', out, repoRoot, inputs: fixtureModel(), log: (l) => lines.push(l) });
    const removed = [writing!, legacy, ...(reused ? [reused] : [])].sort();
    const line = lines.find((l) => l.includes('folder(s) that stopped builds left'));
    expect(line).toContain(`removed ${removed.length} folder(s) that stopped builds left beside ${out}: `);
    for (const name of removed) expect(line).toContain(name);
    expectWhole(out);
    expect(siblings(shared)).toEqual([`.dist-tmp-${running.id}`, `.dist-tmp-done-${running.id}`, '.dist-previous', 'dist'].sort());
    running.proc.kill('SIGKILL');
  }, 90_000);

  it('a tree still being written is never put in place: the replaced tree is, and the other is removed', async () => {
    const dir = base();
    const out = path.join(dir, 'dist');
    // An earlier version's swap stopped between its renames: tmp-old-PID (was out) and tmp-PID, not named complete.
    const pid = goneId().split('-')[0];
    smallTree(path.join(dir, `.dist-tmp-old-${pid}`), 'old');
    smallTree(path.join(dir, `.dist-tmp-${pid}`), 'new');
    const t = await tidyOutput(out);
    expect(label(out)).toBe('old');
    expect(t).toEqual({ restored: path.join(dir, `.dist-tmp-old-${pid}`), removed: [path.join(dir, `.dist-tmp-${pid}`)], keptAsPrevious: null });
    expect(describeTidied(out, t)[0]).toContain('put back the tree it was replacing');
    expect(siblings(dir)).toEqual(['dist']);

    // Only a tree being written: nothing is put in place.
    rmSync(out, { recursive: true });
    const id = goneId();
    smallTree(path.join(dir, `.dist-tmp-${id}`), 'half');
    expect(await tidyOutput(out)).toEqual({ restored: null, removed: [path.join(dir, `.dist-tmp-${id}`)], keptAsPrevious: null });
    expect(siblings(dir)).toEqual([]);
  });

  it('a build beside this one that is between its two renames is waited for, not raced', async () => {
    const dir = base();
    const out = path.join(dir, 'dist');
    const running = runningBuild();
    const done = path.join(dir, `.dist-tmp-done-${running.id}`);
    const old = path.join(dir, `.dist-tmp-old-${running.id}`);
    smallTree(done, 'new');
    smallTree(old, 'old');
    // Its second rename comes while this one waits: nothing to put back, its folders untouched.
    setTimeout(() => renameSync(done, out), 150);
    expect(await tidyOutput(out, { waitMs: 5_000 })).toEqual({ restored: null, removed: [], keptAsPrevious: null });
    expect(label(out)).toBe('new');
    expect(existsSync(old)).toBe(true);
    // A running build that never finishes its swap (stopped, say): its trees are left to it.
    rmSync(out, { recursive: true });
    smallTree(done, 'new');
    expect(await tidyOutput(out, { waitMs: 200 })).toEqual({ restored: null, removed: [], keptAsPrevious: null });
    expect(siblings(dir)).toEqual([path.basename(done), path.basename(old)].sort());
    running.proc.kill('SIGKILL');
  });
});
