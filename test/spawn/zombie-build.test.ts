// A killed build that nobody reaped (a zombie, as under a container's PID 1 that never waits for
// its children) has ended: the next build removes the tree it left and names it. The stopped build
// is a real one (ODR_TEST_CRASH_AT, a real SIGKILL); its parent is a shell that then becomes
// `sleep`, which never waits for it, so its pid stays taken, in state Z, while the next build runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../build/pipeline.ts';
import { fixtureModel } from '../fixtures/serving/model.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'odr-zombie-'));
let parent: ChildProcess | undefined;
afterAll(() => {
  parent?.kill('SIGKILL'); // the zombie goes with it (init reaps it)
  rmSync(tmp, { recursive: true, force: true });
});

const state = (pid: number): string | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
};

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(existsSync('/proc/self/stat'))('a killed build left as a zombie', () => {
  it('counts as gone: the next build removes its tree and names it', async () => {
    const out = path.join(tmp, 'dist');
    const build = `"${process.execPath}" --import tsx "${path.join(repoRoot, 'test', 'support', 'fixture-build.ts')}" "${out}" timeline`;
    parent = spawn('sh', ['-c', `${build} >/dev/null 2>&1 & echo $!; exec sleep 300`], {
      cwd: repoRoot,
      env: { ...process.env, ODR_TEST_CRASH_AT: 'before-done' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let said = '';
    parent.stdout!.on('data', (b: Buffer) => (said += b.toString()));
    await until(() => /^\d+\n/.test(said), 10_000, 'the stopped build to start');
    const pid = Number(said.trim());
    await until(() => state(pid) === 'Z', 60_000, `build ${pid} to be killed (it stays unreaped)`);

    const [left, ...more] = readdirSync(tmp);
    expect(more).toEqual([]);
    expect(left).toMatch(new RegExp(`^\\.dist-tmp-${pid}(-\\d+)?$`));

    const lines: string[] = [];
    await runBuild({ shape: 'timeline', out, repoRoot, inputs: fixtureModel(), log: (l) => lines.push(l) });
    expect(state(pid)).toBe('Z'); // still there, still unreaped
    expect(lines.join('\n')).toContain(`removed 1 folder(s) that stopped builds left beside ${out}: ${left}`);
    expect(readdirSync(tmp)).toEqual(['dist']);
  }, 90_000);
});
