// wrk as the load generator (threads and connections as in issue 9: -t2 -c32). POST bodies and
// URLs in rotation go through a generated Lua script. Non-2xx/3xx answers are counted and
// reported, never hidden.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface WrkResult {
  rps: number;
  /** Requests completed in the run. */
  requests: number;
  p50ms: number;
  errors: number;
}

export const hasWrk = (): boolean => spawnSync('wrk', ['--version']).error === undefined;

const toMs = (v: string, unit: string) => Number(v) * ({ us: 0.001, ms: 1, s: 1000, m: 60000 }[unit] ?? NaN);

let scriptDir: string | null = null;
function postScript(body: string): string {
  scriptDir ??= mkdtempSync(path.join(tmpdir(), 'odr-bench-wrk-'));
  const file = path.join(scriptDir, `post-${Buffer.from(body).length}-${Math.random().toString(36).slice(2)}.lua`);
  writeFileSync(file, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(body)}\nwrk.headers["Content-Type"] = "application/json"\n`);
  return file;
}

/** Each request takes the next of `paths` (each wrk thread runs its own copy, from its own start). */
function rotateScript(paths: string[]): string {
  scriptDir ??= mkdtempSync(path.join(tmpdir(), 'odr-bench-wrk-'));
  const file = path.join(scriptDir, `rotate-${paths.length}-${Math.random().toString(36).slice(2)}.lua`);
  writeFileSync(
    file,
    `local paths = {${paths.map((p) => JSON.stringify(p)).join(', ')}}\nlocal i = math.random(#paths)\n` +
      `request = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n`,
  );
  return file;
}

/** Async on purpose: a blocked event loop would keep stale keep-alive sockets in fetch's pool. */
export async function runWrk(url: string, opts: { seconds: number; post?: string; rotate?: string[]; threads?: number; connections?: number }): Promise<WrkResult> {
  const args = [`-t${opts.threads ?? 2}`, `-c${opts.connections ?? 32}`, `-d${opts.seconds}s`, '--latency'];
  if (opts.post !== undefined && opts.rotate) throw new Error('runWrk: a POST body and rotating URLs do not go together');
  if (opts.post !== undefined) args.push('-s', postScript(opts.post));
  if (opts.rotate) args.push('-s', rotateScript(opts.rotate));
  const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('wrk', [...args, url]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
  if (r.status !== 0) throw new Error(`wrk failed on ${url}: ${r.stderr || r.stdout}`);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout);
  const total = /(\d+) requests in/.exec(r.stdout);
  const p50 = /50%\s+([\d.]+)(us|ms|s|m)\b/.exec(r.stdout);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(r.stdout);
  const sockErr = /Socket errors:.*?(\d+).*?(\d+).*?(\d+).*?(\d+)/.exec(r.stdout);
  if (!rps || !p50 || !total) throw new Error(`cannot read wrk output:\n${r.stdout}`);
  const errors = (non2xx ? Number(non2xx[1]) : 0) + (sockErr ? sockErr.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
  return { rps: Number(rps[1]), requests: Number(total[1]), p50ms: toMs(p50[1]!, p50[2]!), errors };
}
