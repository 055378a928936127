// `npm start`'s vote database and secret settings (issue 42), the real npm -> sh -> node chain over
// a fixture build of the timeline shape: `--db :memory:` keeps the votes in memory (no file of
// that name, no secret file), and a weak or unusable secret stops the start with one line (the
// secret cases run npm's start script without npm: the --db ones show the chain adds no line).
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../build/pipeline.ts';
import { fixtureModel } from '../fixtures/serving/model.ts';
import { killStarted, servingUrl, startNpm, type NpmStart } from '../support/npm-start.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'odr-start-votes-'));
const dist = path.join(tmp, 'dist');
const started: ChildProcess[] = [];

beforeAll(async () => {
  await runBuild({ shape: 'timeline', out: dist, repoRoot, inputs: fixtureModel() });
}, 60_000);

afterAll(() => {
  killStarted(started);
  rmSync(tmp, { recursive: true, force: true });
});

/** `direct`: npm's start script without npm (see startNpm), for the secret checks; the --db ones go through npm. */
function npmStart(args: string[], extraEnv: Record<string, string> = {}, direct = false): NpmStart {
  const { PORT: _p, HOST: _h, WORKERS: _w, ODR_DB: _d, ODR_VOTE_SECRET: _s, ODR_VOTE_SECRET_FILE: _f, ...env } = process.env;
  return startNpm(started, ['--dir', dist, '--no-build', '--port', '0', ...args], { cwd: repoRoot, env: { ...env, ...extraEnv }, direct });
}

/** The one line a refused start prints: no stack trace. */
async function refused(run: NpmStart): Promise<string> {
  expect(await run.exited).not.toBe(0);
  const out = run.out().trim();
  expect(out).not.toMatch(/\n\s+at /);
  return out.split('\n').filter((l) => !/^Votes: /.test(l)).join('\n');
}

describe('npm start --db :memory:', () => {
  it('keeps the votes in memory: no file named :memory:, no secret file, votes counted', async () => {
    const run = npmStart(['--db', ':memory:', '--workers', '1']);
    const url = await servingUrl(run);
    try {
      expect(run.out()).toMatch(/Votes: SQLite :memory: .*secret generated for this process only \(the database is in memory\)/);
      const soc = ((await (await fetch(`${url}/api/v1/occupations?limit=1`)).json()) as { data: Array<{ soc_code: string }> }).data[0]!.soc_code;
      const res = await fetch(`${url}/api/v1/occupations/${soc}/votes`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"vote":"agree"}' });
      expect(res.status).toBe(201);
      expect(((await (await fetch(`${url}/api/v1/occupations/${soc}/votes`)).json()) as { agree: number }).agree).toBeGreaterThanOrEqual(1);
      expect(existsSync(path.join(repoRoot, ':memory:'))).toBe(false);
      expect(readdirSync(repoRoot).filter((f) => f.includes('memory') || f === 'vote-secret')).toEqual([]);
    } finally {
      process.kill(-run.proc.pid!, 'SIGTERM');
      await run.exited;
    }
  }, 60_000);

  it('with several workers is a one-line error (each would count its own votes)', async () => {
    const out = await refused(npmStart(['--db', ':memory:', '--workers', '2']));
    expect(out).toBe("--db :memory: keeps the votes in one process's memory, and each of the 2 workers would count its own: add --workers 1");
  }, 60_000);
});

describe.skipIf(process.platform === 'win32')('npm start with a weak or unusable vote secret', () => {
  const db = () => path.join(mkdtempSync(path.join(tmp, 'db-')), 'votes.sqlite');

  // Which secrets are weak is weakSecret's unit test (votes-collect.test.ts); here, that the start stops.
  for (const secret of [' ']) {
    it(`ODR_VOTE_SECRET=${JSON.stringify(secret)} stops the start with one line`, async () => {
      const out = await refused(npmStart(['--db', db(), '--workers', '1'], { ODR_VOTE_SECRET: secret }, true));
      expect(out).toMatch(/^The vote secret in ODR_VOTE_SECRET is too weak: it (has \d+ characters|uses only 1 different characters)/);
    }, 60_000);
  }

  it('a 1-byte secret file, a link to nothing and a folder stop the start with one line each', async () => {
    const dir = mkdtempSync(path.join(tmp, 'secrets-'));
    writeFileSync(path.join(dir, 'short'), 'a');
    symlinkSync(path.join(dir, 'nothing-here'), path.join(dir, 'dangling'));
    const cases = [
      { file: path.join(dir, 'short'), says: /is too weak: it has 1 characters/ },
      { file: path.join(dir, 'dangling'), says: /is a link to nothing/ },
      { file: dir, says: /is a folder/ },
    ];
    for (const { file, says } of cases) {
      const out = await refused(npmStart(['--db', db(), '--workers', '1', '--vote-secret-file', file], {}, true));
      expect(out).toMatch(says);
      expect(out).toContain(file);
    }
  }, 90_000);
});
