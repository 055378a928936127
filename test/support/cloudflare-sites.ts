// Global setup of the cloudflare project: the same contract suite, answered by Cloudflare's own
// runtime. Each shape's real build is served by `wrangler pages dev` (workerd, the _worker.js
// adapter, _routes.json, ASSETS), exactly as Cloudflare Pages would serve the uploaded dist/.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { Shape } from '../../build/model/records.ts';
import { REPO_ROOT, SHAPES, buildDists } from './build-dists.ts';

/** The newest date the workerd of the pinned wrangler supports; a deployment sets its own. */
export const COMPATIBILITY_DATE = '2026-05-01';

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

async function waitUntilServing(url: string, proc: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`wrangler exited with ${proc.exitCode}:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/v1/displacement/factors`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`wrangler pages dev did not serve ${url} within 120 s:\n${log()}`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { root, dists } = await buildDists('cloudflare');
  project.provide('dists', dists);
  const procs: ChildProcess[] = [];
  const urls = {} as Record<Shape, string>;
  const stop = async () => {
    for (const p of procs) p.kill('SIGTERM');
    await Promise.all(procs.map((p) => (p.exitCode !== null ? null : new Promise((r) => p.once('exit', r)))));
    rmSync(root, { recursive: true, force: true });
  };
  try {
    for (const shape of SHAPES) {
      const port = await freePort();
      const args = [path.join(REPO_ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js'), 'pages', 'dev', dists[shape], '--ip', '127.0.0.1', '--port', String(port), '--compatibility-date', COMPATIBILITY_DATE, '--log-level', 'warn'];
      // cwd: wrangler keeps its .wrangler/ state folder there, outside the repository.
      const proc = spawn(process.execPath, args, { cwd: root, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      proc.stdout!.on('data', (d) => (output += d));
      proc.stderr!.on('data', (d) => (output += d));
      procs.push(proc);
      urls[shape] = `http://127.0.0.1:${port}`;
      await waitUntilServing(urls[shape], proc, () => output.slice(-4000));
      console.log(`[cloudflare setup] wrangler pages dev serves ${shape} at ${urls[shape]}`);
    }
  } catch (e) {
    await stop();
    throw e;
  }
  project.provide('cloudflare', urls);
  return stop;
}
