// `npm start` as a person runs it: the real npm -> sh -> node chain over a fixture build. SIGTERM
// or SIGINT to npm must free the port (no orphaned server); a --dir that does not exist and a
// malformed --host are one-line errors, and nothing is built or created.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../../build/pipeline.ts';
import { fixtureModel } from '../../fixtures/serving/model.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'odr-start-'));
const dist = path.join(tmp, 'dist');
const started: ChildProcess[] = [];

beforeAll(async () => {
  await runBuild({ shape: 'percentile', out: dist, repoRoot, inputs: fixtureModel() });
}, 60_000);

afterAll(() => {
  // Only the process groups this file started, by their id; normally all have exited already.
  for (const p of started) {
    try {
      process.kill(-p.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(tmp, { recursive: true, force: true });
});

function npmStart(args: string[]): { proc: ChildProcess; out: () => string; exited: Promise<number | null> } {
  const { PORT: _p, HOST: _h, ...env } = process.env;
  // Its own process group, as a shell job is: Ctrl-C signals the whole group.
  const proc = spawn('npm', ['start', '--silent', '--', ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  started.push(proc);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { proc, out: () => out, exited };
}

async function servingUrl(out: () => string, exited: Promise<unknown>): Promise<string> {
  let done = false;
  void exited.then(() => (done = true));
  for (;;) {
    const m = /Serving .* at (http:\/\/127\.0\.0\.1:\d+)/.exec(out());
    if (m) return m[1]!;
    if (done) throw new Error(`npm start exited before serving:\n${out()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

/** Waits (at most 20 s) for the port to refuse connections; returns whether it did. */
async function portFreed(port: number): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (!(await accepts(port))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
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
      const url = await servingUrl(out, exited);
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
