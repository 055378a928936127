// npm start's primary with several workers: forks them, replaces one that dies while the server is
// serving (a kill, the OOM killer, a native crash), and gives up, exiting non-zero, when workers
// keep dying (a crash loop) or when none could start at all. A worker's death never ends the
// server with exit status 0: a supervisor told to restart on failure must see one.
import cluster, { type Worker } from 'node:cluster';

export interface SuperviseOptions {
  workers: number;
  /** The environment each worker is forked with. */
  env: NodeJS.ProcessEnv;
  /** Called once, with the URL, when every first worker listens. */
  announce(url: string): void;
  log?: (line: string) => void;
  /** Replacements allowed within `windowMs` before the primary gives up. */
  maxRestarts?: number;
  windowMs?: number;
  /** Ends the primary (process.exit outside tests). */
  exit?: (code: number) => void;
}

/** Replacements within a minute before a crash loop is declared: enough for a kill or an OOM, not for a worker that dies at every start. */
export const CRASH_LOOP = { maxRestarts: 5, windowMs: 60_000 } as const;

/** How a worker ended, in words. */
const howEnded = (code: number | null, signal: string | null) => (signal ? `was killed by ${signal}` : `exited with code ${code}`);

export function superviseWorkers(opts: SuperviseOptions): { stop(): void } {
  const log = opts.log ?? ((l: string) => console.error(l));
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const maxRestarts = opts.maxRestarts ?? CRASH_LOOP.maxRestarts;
  const windowMs = opts.windowMs ?? CRASH_LOOP.windowMs;
  let announced = false;
  let stopping = false;
  /** When each replacement was forked, the last `windowMs` of them. */
  const restarts: number[] = [];
  const listening = new WeakSet<Worker>();
  /** Workers that have listened, replacements included. */
  let listeners = 0;

  const fork = () => {
    const w = cluster.fork(opts.env);
    // A worker re-emits its process's 'error' (for one, EPIPE when the primary hands a connection to
    // a worker that has just died): without a listener that would throw here and end the primary,
    // and with it every worker. The worker's exit, which follows, is what replaces it.
    w.on('error', (e: Error) => log(`a server worker (pid ${w.process.pid}): ${e.message}`));
    w.on('message', (m: { url?: string }) => {
      if (!m.url || listening.has(w)) return;
      listening.add(w);
      listeners++;
      // Serving is announced once all the first workers listen: with round-robin the primary drops
      // the port while no worker listens, so a worker killed while it was the only one listening
      // left the port refusing connections until another had started.
      if (!announced && listeners >= opts.workers) {
        announced = true;
        opts.announce(m.url);
      }
    });
  };

  const giveUp = (why: string) => {
    stopping = true;
    log(why);
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
    exit(1);
  };

  cluster.on('exit', (w, code, signal) => {
    if (stopping) return;
    const ended = `a server worker (pid ${w.process.pid}) ${howEnded(code, signal)}`;
    // Before any worker served: a start that cannot succeed (its reason printed by the worker).
    if (!announced) return giveUp(`${ended} before the server could start; stopping (exit status 1)`);
    const now = Date.now();
    while (restarts.length && restarts[0]! <= now - windowMs) restarts.shift();
    if (restarts.length >= maxRestarts) {
      return giveUp(`${ended}; ${restarts.length} workers were already replaced in the last ${Math.round(windowMs / 1000)} s: the workers keep dying, so the server stops (exit status 1). See the messages above for the cause.`);
    }
    restarts.push(now);
    log(`${ended}${listening.has(w) ? '' : ' before it served'}; starting a new one (replacement ${restarts.length} of at most ${maxRestarts} per ${Math.round(windowMs / 1000)} s)`);
    fork();
  });

  for (let i = 0; i < opts.workers; i++) fork();
  return {
    stop() {
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.kill();
    },
  };
}
