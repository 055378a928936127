// `npm start` run as a person runs it (the real npm -> sh -> node chain, in its own process
// group as a shell job is), for the CLI tests: spawn it, read what it prints, wait until it
// serves, and check that the port is freed after it stops.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface NpmStart {
  proc: ChildProcess;
  /** Everything it printed so far, stdout and stderr interleaved. */
  out: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts `npm start -- ...args` and remembers it for killStarted; with `openFiles`, under that
 * open-file limit (`ulimit -n` in a shell that then becomes npm). With `direct`, npm's start script
 * itself (package.json's `scripts.start` in `cwd`, node being this one) without npm and its shell:
 * for tests about what the server does rather than about the npm chain, which saves npm's start-up.
 */
export function startNpm(started: ChildProcess[], args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; openFiles?: number; direct?: boolean }): NpmStart {
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const [cmd, argv] = opts.direct
    ? startScript(opts.cwd, args)
    : opts.openFiles === undefined
      ? ['npm', ['start', '--silent', '--', ...args]]
      : ['sh', ['-c', `ulimit -n ${opts.openFiles} && exec npm start --silent -- ${quoted}`]];
  const proc = spawn(cmd, argv, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  started.push(proc);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { proc, out: () => out, exited };
}

/** The start script's command line (`node --import tsx build/serve/main.ts`) with `args` after it. */
function startScript(cwd: string, args: string[]): [string, string[]] {
  const script = (JSON.parse(readFileSync(path.join(cwd, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const [node, ...rest] = script.split(' ');
  if (node !== 'node' || rest.some((a) => /['"$\\]/.test(a))) throw new Error(`npm start's script is no longer a plain node command line: ${script}`);
  return [process.execPath, [...rest, ...args]];
}

/** Kills the process groups in `started` (only those, by their id); normally all have exited already. */
export function killStarted(started: ChildProcess[]): void {
  for (const p of started) {
    try {
      process.kill(-p.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** The URL it prints once serving; throws with its output when it exits before. */
export async function servingUrl({ out, exited }: Pick<NpmStart, 'out' | 'exited'>): Promise<string> {
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
export async function portFreed(port: number): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (!(await accepts(port))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** Pids of the server processes (npm's node and its cluster workers) under the process group of `proc`. */
export function serverPids(proc: ChildProcess): number[] {
  const pids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
      // Node itself, not the shell npm runs the script with.
      // The primary runs build/serve/main.ts; its workers, the bundle of build/serve/worker.ts (.cache/serve/worker-*.mjs).
      if (pgid === proc.pid && path.basename(cmd.split('\0')[0]!) === 'node' && (cmd.includes('build/serve/main.ts') || /\.cache\/serve\/worker-[0-9a-f]+\.mjs/.test(cmd))) pids.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** The cluster workers among serverPids (the bundle of build/serve/worker.ts). */
export function workerPids(proc: ChildProcess): number[] {
  return serverPids(proc).filter((pid) => {
    try {
      return /\.cache\/serve\/worker-/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    } catch {
      return false;
    }
  });
}
