// `npm start` with several workers when one dies (issue 42): the real npm -> sh -> node chain over a
// fixture build. A worker killed with SIGKILL is replaced while the others keep answering; workers
// that keep dying end the server with a non-zero exit status and a message saying so.
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../build/pipeline.ts';
import { CRASH_LOOP } from '../../build/serve/supervise.ts';
import { fixtureModel } from '../fixtures/serving/model.ts';
import { killStarted, servingUrl, startNpm, workerPids, type NpmStart } from '../support/npm-start.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'odr-workers-'));
const dist = path.join(tmp, 'dist');
const started: ChildProcess[] = [];

beforeAll(async () => {
  await runBuild({ shape: 'percentile', out: dist, repoRoot, inputs: fixtureModel() });
}, 60_000);

afterAll(() => {
  killStarted(started);
  rmSync(tmp, { recursive: true, force: true });
});

function npmStart(args: string[]): NpmStart {
  const { PORT: _p, HOST: _h, WORKERS: _w, ...env } = process.env;
  return startNpm(started, args, { cwd: repoRoot, env });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (at most 30 s) until the server runs `n` workers none of which is in `gone`; returns them. */
async function workersBesides(proc: ChildProcess, n: number, gone: number[]): Promise<number[]> {
  for (let i = 0; i < 300; i++) {
    const pids = workerPids(proc);
    if (pids.length === n && pids.every((p) => !gone.includes(p))) return pids;
    await sleep(100);
  }
  throw new Error(`no ${n} workers besides ${gone.join(', ')}: ${workerPids(proc).join(', ')}`);
}

/** One GET on a connection of its own (so a connection to a killed worker costs one probe only): null when answered 200, else why not. */
const probe = (url: string) =>
  new Promise<string | null>((resolve) => {
    const req = http.get(`${url}/api/v1/displacement/factors`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? null : `HTTP ${res.statusCode}`));
      res.on('error', (e) => resolve(`response ${(e as NodeJS.ErrnoException).code ?? e.message}`));
    });
    req.on('error', (e) => resolve((e as NodeJS.ErrnoException).code ?? e.message));
    // A connection the primary had handed to the worker as it was killed is never answered.
    req.setTimeout(5000, () => req.destroy(new Error('no answer in 5 s')));
  });

describe.skipIf(process.platform !== 'linux')('npm start --workers 2 when a worker dies', () => {
  it('a worker killed with SIGKILL is replaced, and of 200 requests during the replacement at most the few it held fail', async () => {
    const run = npmStart(['--dir', dist, '--no-build', '--port', '0', '--workers', '2']);
    const url = await servingUrl(run);
    const [victim, other] = await workersBesides(run.proc, 2, []);
    let probes = 0;
    const failures: string[] = [];
    let killedAt = 0;
    let probing = true;
    const loop = (async () => {
      while (probing) {
        probes++;
        const why = await probe(url);
        if (why) failures.push(`${why} at ${killedAt ? `${Date.now() - killedAt} ms after the kill` : 'before the kill'}`);
      }
    })();
    await sleep(200);
    killedAt = Date.now();
    process.kill(victim!, 'SIGKILL');
    const now = await workersBesides(run.proc, 2, [victim!]);
    // The survivor stays; the victim's place is taken by a new process.
    expect(now).toContain(other);
    while (probes < 200) await sleep(50);
    probing = false;
    await loop;
    // Only the requests the killed worker held at that moment fail (one probe at a time, but the
    // primary may have handed it a connection or two before it learned of the death); the 99%
    // figure over a longer run is npm run stress's worker-kill. Should more fail, why and when each
    // did, and what the server said, tell a dead primary from a slow hand-over.
    expect(failures.length, `${failures.length} of ${probes} probes failed:\n${[...new Set(failures)].slice(0, 20).join('\n')}\nserver output:\n${run.out()}`).toBeLessThanOrEqual(3);
    // Whether the victim had answered a request yet depends on which worker the primary handed them to.
    expect(run.out()).toMatch(new RegExp(`a server worker \\(pid ${victim}\\) was killed by SIGKILL( before it served)?; starting a new one`));
    // Still serving, and not exited.
    expect(await probe(url)).toBe(null);
    expect(run.proc.exitCode).toBe(null);
    process.kill(-run.proc.pid!, 'SIGTERM');
    await run.exited;
  }, 90_000);

  it(`workers that keep dying (${CRASH_LOOP.maxRestarts + 1} deaths in a minute) stop the server with exit status 1 and say why`, async () => {
    const run = npmStart(['--dir', dist, '--no-build', '--port', '0', '--workers', '2']);
    await servingUrl(run);
    const killed: number[] = [];
    let status: number | null | undefined;
    void run.exited.then((s) => (status = s));
    for (let i = 0; i <= CRASH_LOOP.maxRestarts && status === undefined; i++) {
      const [pid] = await workersBesides(run.proc, 2, killed);
      killed.push(pid!);
      process.kill(pid!, 'SIGKILL');
    }
    expect(await run.exited).toBe(1);
    expect(killed).toHaveLength(CRASH_LOOP.maxRestarts + 1);
    expect(run.out()).toMatch(/the workers keep dying, so the server stops \(exit status 1\)/);
    expect(workerPids(run.proc)).toEqual([]);
  }, 120_000);
});
