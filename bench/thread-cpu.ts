// The calling thread's own CPU time beside the process's, so that the bench can say what is the
// request's own thread and what V8's helper threads (concurrent compiles, parallel scavenges,
// concurrent marking and sweeping) add: process.cpuUsage counts them all. Linux only
// (/proc/thread-self/schedstat); elsewhere the figures say they were not measured.
import { readFileSync } from 'node:fs';

const SCHEDSTAT = '/proc/thread-self/schedstat';

const readSchedstat = (): number | null => {
  try {
    return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
};
/** Whether this system gives a thread's CPU time (schedstat present). */
export const threadCpuAvailable = readSchedstat() !== null;

/**
 * CPU the calling thread has run, in ms (schedstat's first field: ns on the CPU), or null where
 * unavailable. The kernel brings that field up to date only at scheduler events; getrusage of the
 * process (process.cpuUsage) first brings the calling thread's up to date, so the reading is the
 * thread's time up to now: read alone, it can lag by a scheduler tick, milliseconds on a request
 * that takes a few.
 */
export function threadCpuMs(): number | null {
  if (!threadCpuAvailable) return null;
  process.cpuUsage();
  return readSchedstat();
}

/** The whole process's CPU (every thread) in ms. */
export const processCpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** How long to pause between readings, how little the helpers may add in one, and the longest wait. */
const POLL_MS = 2;
const IDLE_MS = 0.05;
const MAX_WAIT_MS = 250;

/**
 * Waits until V8's helper threads are idle: the process's CPU beyond this thread's grows by less
 * than IDLE_MS over a POLL_MS pause. Resolves to the ms waited, Infinity when they were still busy
 * after MAX_WAIT_MS, or null where a thread's CPU is not available (no wait: the caller says so).
 */
export async function helpersIdle(): Promise<number | null> {
  if (!threadCpuAvailable) return null;
  const start = performance.now();
  let others = processCpuMs() - threadCpuMs()!;
  for (;;) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const now = processCpuMs() - threadCpuMs()!;
    if (now - others < IDLE_MS) return performance.now() - start;
    if (performance.now() - start > MAX_WAIT_MS) return Infinity;
    others = now;
  }
}
