// A process named for good by its pid and start time, and whether it has ended: the names of files
// and folders a build writes aside carry it (build/cache/aside.ts, build/emit/swap.ts), so that
// what a stopped build left is told from what a running one is writing.
import { readFileSync } from 'node:fs';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' && !processEnded(pid); // exists, owned by someone else
  }
  return !processEnded(pid);
}

/**
 * A process that has ended but is not yet reaped (a zombie, state Z, or X while being reaped)
 * still answers signal 0: its parent has not waited for it, as under a container's PID 1 that
 * never does. It runs no code, so what it left is no longer its own.
 */
function processEnded(pid: number): boolean {
  const state = procStatFields(pid)?.[0];
  return state === 'Z' || state === 'X' || state === 'x';
}

/** The fields of /proc/PID/stat from field 3 (state) on, or null where it cannot be read. */
function procStatFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses; the fields after its last ")" start at field 3.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * When a process started, in clock ticks since boot (Linux's /proc/PID/stat, field 22), or null
 * where that cannot be read (another system, or no such process). With its pid it names one
 * process for good: a pid is reused, a pid and a start time are not.
 */
export function processStart(pid: number): string | null {
  const start = procStatFields(pid)?.[19];
  return start && /^\d+$/.test(start) ? start : null;
}

let ownId: string | undefined;
/** This process as a name part: PID-START where the start time can be read, PID elsewhere. */
export function processId(): string {
  if (ownId === undefined) {
    const start = processStart(process.pid);
    ownId = start === null ? String(process.pid) : `${process.pid}-${start}`;
  }
  return ownId;
}

/**
 * Whether the process a name part (processId()) names has ended. A running process with that pid
 * but another start time is a later one that reuses the pid: the named one has ended. Where the
 * start time is not known (an id of pid alone, or a system without /proc), a running pid counts as
 * the named process (kept: a leftover is never removed under a build still running).
 */
export function processGone(id: string): boolean {
  const [pid, start] = id.split('-');
  if (!processAlive(Number(pid))) return true;
  if (start === undefined) return false;
  const now = processStart(Number(pid));
  return now !== null && now !== start;
}
