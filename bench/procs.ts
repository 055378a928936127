// Child processes for the bench: a server we wait for (its first stdout line naming a URL) and a
// command whose wall time and peak RSS we record. Peak RSS is the kernel's high-water mark
// (VmHWM in /proc/<pid>/status), sampled until the child exits; worker threads count, as they
// share the process.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface Running {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `cmd args` and resolves with the first http:// URL it prints. */
export function startChild(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/[0-9.:[\]a-z]+:\d+/.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve({ url: m[0], child, stop: () => stopChild(child) });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => reject(new Error(`${cmd} ${args.join(' ')} exited with ${code} before listening:\n${out}${err}`)));
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const hwmKb = (pid: number): number => {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
};

/** Runs a command to completion; wall ms, peak RSS in MB (0 where /proc is missing), output. */
export function timeChild(cmd: string, args: string[], opts: { cwd?: string } = {}): Promise<{ ms: number; peakMb: number; code: number; out: string }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, hwmKb(child.pid!))), 25);
    child.once('exit', (code) => {
      clearInterval(timer);
      resolve({ ms: performance.now() - t0, peakMb: peak / 1024, code: code ?? 1, out });
    });
  });
}

const TICKS_PER_SECOND = 100; // USER_HZ: what /proc/<pid>/stat counts in on Linux

/** Child pids of every thread of `pid` (empty where /proc is missing). */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * CPU time (user + system, ms) used so far by `pid` and every live descendant (a cluster's
 * workers), or null where /proc cannot say. Per request it tells what a server costs, whatever
 * else the machine is doing at the time; requests per second depend on that too.
 */
export function treeCpuMs(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    let ticks = Number(f[11]) + Number(f[12]);
    for (const c of childrenOf(pid)) ticks += ((treeCpuMs(c) ?? 0) * TICKS_PER_SECOND) / 1000;
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Resident memory (MB) of `pid` and of every live descendant, each on its own (empty where /proc is missing). */
export function treeRssMb(pid: number): number[] {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return [m ? Number(m[1]) / 1024 : 0, ...childrenOf(pid).flatMap(treeRssMb)];
  } catch {
    return [];
  }
}
