// `npm start` as a person runs it: the real npm -> sh -> node chain over a fixture build. SIGTERM
// or SIGINT to npm must free the port (no orphaned server); a --dir that does not exist and a
// malformed --host are one-line errors, and nothing is built or created.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../build/pipeline.ts';
import { fixtureModel } from '../fixtures/serving/model.ts';
import { killStarted, portFreed, servingUrl, startNpm, type NpmStart } from '../support/npm-start.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'odr-start-'));
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
  const { PORT: _p, HOST: _h, ...env } = process.env;
  return startNpm(started, args, { cwd: repoRoot, env });
}

describe('npm start', () => {
  // SIGTERM to npm alone (a process manager, `kill PID`): npm passes it to sh, which dies without
  // passing it on. SIGINT to the group (Ctrl-C in a terminal): every process gets it.
  const cases = [
    { signal: 'SIGTERM', to: 'npm', send: (p: ChildProcess) => p.kill('SIGTERM') },
    { signal: 'SIGINT', to: 'its process group (Ctrl-C)', send: (p: ChildProcess) => process.kill(-p.pid!, 'SIGINT') },
  ] as const;
  for (const { signal, to, send } of cases) {
    it(`${signal} to ${to} stops the server and frees the port`, async () => {
      const { proc, out, exited } = npmStart(['--dir', dist, '--port', '0']);
      const url = await servingUrl({ out, exited });
      const res = await fetch(`${url}/api/v1/displacement/factors`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      send(proc);
      await exited;
      expect(await portFreed(Number(new URL(url).port))).toBe(true);
    }, 60_000);
  }

  it('--dir that does not exist is a one-line error and creates nothing', async () => {
    const missing = path.join(tmp, 'no-such-dir');
    const { out, exited } = npmStart(['--dir', missing, '--port', '0']);
    expect(await exited).toBe(2);
    expect(out().trim()).toBe(`--dir ${missing} does not exist; build one with: npm run build -- --out ${missing}`);
    expect(existsSync(missing)).toBe(false);
  }, 60_000);

  it('a malformed --host is a one-line error, not a stack trace', async () => {
    const { out, exited } = npmStart(['--dir', dist, '--host', '0.0.0.0.1']);
    expect(await exited).toBe(2);
    expect(out().trim().split('\n')[0]).toBe('--host must be an IP address or a host name, got "0.0.0.0.1"');
    expect(out()).not.toMatch(/\n\s+at /);
  }, 60_000);
});
