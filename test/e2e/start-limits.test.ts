// `npm start` under a small open-file limit and with its connection cap and timeouts (issues 26
// and 33): the real npm -> sh -> node chain over a real build (the run's shared build, linked into
// a folder of this file's own so that dot-files can be added to it), started by
// `sh -c 'ulimit -n 256 && exec npm start ...'` as a macOS user's default limit would have it.
import type { ChildProcess } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { killStarted, serverPids, servingUrl, startNpm, type NpmStart } from '../support/npm-start.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'odr-limits-'));
const dist = path.join(tmp, 'dist');
const started: ChildProcess[] = [];
/** What the dot-files hold: never in an answer. */
const LEAK = 'dot-file-content-3f9a';

/** `npm start -- args` under `ulimit -n 256`, in its own process group (see test/support/npm-start.ts). */
function npmStartLimited(args: string[]): NpmStart {
  const { PORT: _p, HOST: _h, WORKERS: _w, ...env } = process.env;
  return startNpm(started, args, { cwd: repoRoot, env, openFiles: 256 });
}

/** A copy of `src` made of hard links (instant, no space), so that files can be added to it. */
function linkTree(src: string, dst: string): void {
  mkdirSync(dst, { recursive: true });
  for (const e of readdirSync(src, { withFileTypes: true })) {
    if (e.isDirectory()) linkTree(path.join(src, e.name), path.join(dst, e.name));
    else linkSync(path.join(src, e.name), path.join(dst, e.name));
  }
}

beforeAll(() => {
  linkTree(inject('dists').percentile, dist);
  // Dot-files a deployment might leave in the folder: never served.
  writeFileSync(path.join(dist, '.secret.json'), LEAK);
  mkdirSync(path.join(dist, '.hidden'));
  writeFileSync(path.join(dist, '.hidden', 'index.json'), LEAK);
  writeFileSync(path.join(dist, 'api', 'v1', '.secret.json'), LEAK);
  mkdirSync(path.join(dist, 'embed', '.hidden'));
  writeFileSync(path.join(dist, 'embed', '.hidden', 'index.html'), LEAK);
});

afterAll(() => {
  killStarted(started);
  rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('npm start under ulimit -n 256', () => {
  it('serves pages, API files and the function; never a dot-file; open files and memory stay bounded', async () => {
    const { proc, out, exited } = npmStartLimited(['--dir', dist, '--no-build', '--port', '0', '--workers', '2']);
    const url = await servingUrl({ out, exited });
    const manifest = JSON.parse(readFileSync(path.join(dist, 'manifest.json'), 'utf8')) as { files: Record<string, string> };
    // Every fifth page and API file: more files than the 256 descriptors a process may hold, 16 at a time.
    const paths = Object.keys(manifest.files)
      .filter((f) => /^(api\/v1|embed|occupations)\/.+\/index\.(json|html)$/.test(f))
      .filter((_, i) => i % 5 === 0)
      .map((f) => ({ file: f, url: '/' + f.replace(/\/index\.(json|html)$/, '') }));
    expect(paths.length).toBeGreaterThan(600);
    const failures: string[] = [];
    for (let i = 0; i < paths.length; i += 16) {
      await Promise.all(
        paths.slice(i, i + 16).map(async ({ file, url: p }) => {
          const r = await fetch(url + p);
          const body = Buffer.from(await r.arrayBuffer());
          if (r.status !== 200 || !body.equals(readFileSync(path.join(dist, file)))) failures.push(`${p}: ${r.status}`);
        }),
      );
    }
    expect(failures).toEqual([]);
    // The function: a search, a list page, a 404.
    const search = await fetch(`${url}/api/v1/occupations?q=nurse&limit=2`);
    expect(search.status).toBe(200);
    expect((await search.json()).data).toHaveLength(2);
    expect((await fetch(`${url}/api/v1/occupations?offset=20`)).status).toBe(200);
    expect((await fetch(`${url}/api/v1/nope`)).status).toBe(404);
    // Dot-files, wherever they are and however they are asked for.
    for (const p of ['/.secret.json', '/.hidden/index.json', '/.hidden', '/api/v1/.secret.json', '/embed/.hidden', '/embed/.hidden/', '/%2esecret.json', '/./.secret.json', '/x/../.secret.json']) {
      const r = await fetch(url + p, { redirect: 'manual' });
      const text = await r.text();
      expect(r.status, p).toBe(404);
      expect(text, p).not.toContain(LEAK);
    }
    // Each server process: a few descriptors (sockets, stdio), far under the limit; memory is not the site's size.
    const pids = serverPids(proc);
    expect(pids.length).toBe(3); // the primary and two workers
    for (const pid of pids) {
      expect(readFileSync(`/proc/${pid}/limits`, 'utf8')).toMatch(/Max open files\s+256\s/);
      expect(readdirSync(`/proc/${pid}/fd`).length, `pid ${pid}`).toBeLessThan(64);
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
      expect(rssKb / 1024, `pid ${pid} RSS MB`).toBeLessThan(200);
    }
    // More connections than descriptors: the cap (192 per process under this limit) closes the
    // excess; no process dies of EMFILE, and once they are gone requests are answered again.
    const flood = await Promise.all(Array.from({ length: 450 }, () => connect(url).catch(() => null)));
    await new Promise((r) => setTimeout(r, 500));
    for (const c of flood) c?.socket.destroy();
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      status = await fetch(`${url}/api/v1/meta`).then((r) => (r.body?.cancel(), r.status), () => 0);
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    expect(serverPids(proc)).toEqual(pids);
    proc.kill('SIGTERM');
    await exited;
  }, 120_000);
});

/** A raw connection and what it has received; `closed` resolves when the server ends it. */
function connect(url: string): Promise<{ socket: net.Socket; data: () => string; closed: Promise<void> }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let data = '';
    socket.on('data', (d) => (data += d));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.once('error', () => undefined);
    socket.once('connect', () => resolve({ socket, data: () => data, closed }));
    socket.once('error', reject);
  });
}

/** Writes `text` on `c` and waits (at most 20 s) for the whole answer after it (small, with a length): its status line. */
async function answerTo(c: { socket: net.Socket; data: () => string }, text: string, what: string): Promise<string> {
  const before = c.data().length;
  c.socket.write(text);
  for (let i = 0; i < 800; i++) {
    const got = c.data().slice(before);
    const head = got.indexOf('\r\n\r\n');
    const len = /content-length: (\d+)/i.exec(got);
    if (head >= 0 && len && got.length >= head + 4 + Number(len[1])) return got.split('\r\n')[0]!;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no answer to ${what}: ${JSON.stringify(c.data().slice(before))}`);
}

/** Sends a keep-alive GET on `c` and waits for its whole answer. */
const getOn = (c: { socket: net.Socket; data: () => string }, p: string): Promise<string> => answerTo(c, `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`, p);

/** Waits (at most 20 s) for the server to close `c`; whether it did. */
const closedWithin = (c: { closed: Promise<void> }): Promise<boolean> =>
  Promise.race([c.closed.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 20_000))]);

/** Waits (at most `ms`) for `c` to receive `text`; whether it did. */
async function received(c: { data: () => string }, text: string, ms = 20_000): Promise<boolean> {
  for (let waited = 0; !c.data().includes(text); waited += 25) {
    if (waited >= ms) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

const ASSESS_BODY = JSON.stringify({ soc_code: '15-1252.00' });

/**
 * A connection holding a request in flight: a POST whose body the server asked for ("100
 * Continue", sent only once the function reads it) and has not had yet. `finish` sends the body
 * and returns the answer's status line.
 */
async function requestInFlight(url: string): Promise<{ socket: net.Socket; data: () => string; closed: Promise<void>; finish(): Promise<string> }> {
  const c = await connect(url);
  c.socket.write(`POST /api/v1/displacement/assess HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${ASSESS_BODY.length}\r\n\r\n`);
  if (!(await received(c, 'HTTP/1.1 100 Continue\r\n\r\n'))) throw new Error(`no 100 Continue: ${JSON.stringify(c.data())}`);
  const finish = () => answerTo(c, ASSESS_BODY, 'the body');
  return { ...c, finish };
}

/** A GET on a connection of its own (Connection: close): its status line, '' when closed unanswered. */
async function getOnce(url: string, p: string): Promise<string> {
  const c = await connect(url);
  c.socket.write(`GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  await c.closed;
  return c.data().split('\r\n')[0]!;
}

// Issue 42, item 5: past the cap a new connection takes the place of the longest-idle one (an
// idle keep-alive connection or one that never sent a request), so held idle sockets cannot keep
// a client out; only when every connection has a request in flight is it refused.
describe('npm start: --max-connections', () => {
  let url: string;
  beforeAll(async () => {
    const { out, exited } = npmStartLimited(['--dir', dist, '--no-build', '--port', '0', '--workers', '1', '--max-connections', '3']);
    url = await servingUrl({ out, exited });
    // A new worker's first answers took seconds on a loaded machine: past the 5 s an idle
    // keep-alive connection is kept, which the tests below must not reach.
    for (const p of ['/api/v1/meta', '/api/v1/displacement/factors', '/api/v1/occupations?q=nurse&limit=1']) expect(await getOnce(url, p)).toBe('HTTP/1.1 200 OK');
  }, 60_000);

  it('past the cap a new connection is served in place of the longest-idle one; the others keep working', async () => {
    const open = await Promise.all([connect(url), connect(url), connect(url)]);
    // open[0] never sends a request; open[1] then open[2] are answered and kept alive.
    for (const c of open.slice(1)) expect(await getOn(c, '/api/v1/displacement/factors')).toBe('HTTP/1.1 200 OK');
    // The first client over the cap takes open[0]'s place, the next open[1]'s (idle the longest).
    expect(await getOnce(url, '/api/v1/meta')).toBe('HTTP/1.1 200 OK');
    expect(await closedWithin(open[0]!)).toBe(true);
    expect(open[0]!.data()).toBe('');
    // open[2] answers again, so open[1] is now the one idle the longest.
    expect(await getOn(open[2]!, '/api/v1/meta')).toBe('HTTP/1.1 200 OK');
    expect(await getOnce(url, '/api/v1/meta')).toBe('HTTP/1.1 200 OK');
    expect(await closedWithin(open[1]!)).toBe(true);
    expect(await getOn(open[2]!, '/api/v1/occupations?q=nurse&limit=1')).toBe('HTTP/1.1 200 OK');
    for (const c of open) c.socket.destroy();
  }, 30_000);

  it('with a request in flight on every connection a new one is closed unanswered; once one is answered, a new one is served', async () => {
    const busy = [];
    for (let i = 0; i < 3; i++) busy.push(await requestInFlight(url));
    expect(await getOnce(url, '/api/v1/meta')).toBe('');
    // None of the requests in flight was cut for it.
    expect(await busy[0]!.finish()).toBe('HTTP/1.1 200 OK');
    // busy[0] is now idle (kept alive): the next connection takes its place.
    expect(await getOnce(url, '/api/v1/meta')).toBe('HTTP/1.1 200 OK');
    expect(await closedWithin(busy[0]!)).toBe(true);
    for (const b of busy.slice(1)) expect(await b.finish()).toBe('HTTP/1.1 200 OK');
    for (const b of busy) b.socket.destroy();
  }, 60_000);
});

describe('npm start: --request-timeout', () => {
  let url: string;
  beforeAll(async () => {
    const { out, exited } = npmStartLimited(['--dir', dist, '--no-build', '--port', '0', '--workers', '1', '--request-timeout', '1']);
    url = await servingUrl({ out, exited });
  }, 60_000);

  it('a body that stalls, and headers that stall, are cut after the request timeout (1 s here), not held', async () => {
    const slowBody = await connect(url);
    slowBody.socket.write('POST /api/v1/displacement/assess HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"soc_code"');
    const slowHeaders = await connect(url);
    slowHeaders.socket.write('GET /api/v1/meta HTTP/1.1\r\nHost: x\r\n');
    const t0 = Date.now();
    await Promise.all([slowBody.closed, slowHeaders.closed]);
    // Generous: Node checks the timeouts on an interval; the point is seconds, not Node's 300 s.
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(slowBody.data().split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(slowHeaders.data().split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
  }, 30_000);
});

// Issue 42, item 5: with several workers, a connection over the cap hung: each full worker
// refused it and the primary passed it on to the next, for as long as all were full. Whichever
// worker the primary hands a connection to (its order is not ours to rely on), each holds at most
// 2 here, at most one of them with a request in flight: a new client always finds an idle
// connection to replace, or room.
describe('npm start with two workers: past the connection cap', () => {
  it('idle connections over every worker\'s cap are closed for new clients, who are answered; a request in flight is kept', async () => {
    const { proc, out, exited } = npmStartLimited(['--dir', dist, '--no-build', '--port', '0', '--workers', '2', '--max-connections', '2']);
    const url = await servingUrl({ out, exited });
    const busy = await requestInFlight(url);
    // Ten keep-alive connections, each answered (so accepted by a worker) before the next opens,
    // then left idle: 11 in all against room for 4, one of them the request in flight.
    const idle: Array<Awaited<ReturnType<typeof connect>>> = [];
    for (let i = 0; i < 10; i++) {
      const c = await connect(url);
      expect(await getOn(c, '/api/v1/meta'), `idle connection ${i}`).toBe('HTTP/1.1 200 OK');
      idle.push(c);
    }
    const closedIdle = () => idle.filter((c) => c.socket.destroyed || c.socket.readableEnded).length;
    for (let i = 0; i < 400 && closedIdle() < 7; i++) await new Promise((r) => setTimeout(r, 25));
    expect(closedIdle()).toBeGreaterThanOrEqual(7);
    // New clients: each answered, none refused or left waiting (a generous bound on a loaded
    // machine: the 1 s figure, with 2,000 idle connections, is npm run stress's idle-conns).
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      expect(await getOnce(url, '/api/v1/meta'), `client ${i}`).toBe('HTTP/1.1 200 OK');
      expect(Date.now() - t0).toBeLessThan(5_000);
    }
    // The request in flight was never cut: its body is still read and answered.
    expect(await busy.finish()).toBe('HTTP/1.1 200 OK');
    for (const c of [busy, ...idle]) c.socket.destroy();
    proc.kill('SIGTERM');
    await exited;
  }, 60_000);
});
