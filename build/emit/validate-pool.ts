// Checks the emitted JSON files against their schemas (check-json.ts), on a thread of its own once
// the build is large: parsing 35 MB of bodies back and walking them with zod was ~400 ms of the
// emitter's one busy thread and most of its garbage; on another core it overlaps the rendering.
// A small build (the tests' fixtures) is checked here: it is done before a thread would have started.
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { checkJson, type SchemaRef } from './check-json.ts';

export type CheckMessage = { path: string; schema: SchemaRef; body: string | Uint8Array } | 'end';

/**
 * JSON checked on this thread before the thread is started: the real data passes it within the first
 * few dozen files (of 35 MB), the tests' fixture builds (~120 KB) never do.
 */
export const LOCAL_BYTES = 256 * 1024;
/** A thread's young generation, MB: it parses one file at a time, so a small one collects often and cheaply. */
const YOUNG_GENERATION_MB = 8;

export interface Validator {
  /** Queues a file's check (nothing for a file without schema). */
  check(f: { path: string; schema?: SchemaRef; body: string | Uint8Array }): void;
  /** Every failure, in the order the files came; the thread (if any) is ended. */
  done(): Promise<string[]>;
  /** The build failed elsewhere: ends the thread without waiting for its answer. */
  close(): Promise<void>;
  /** Whether the checks went to a thread. */
  readonly threaded: boolean;
}

export function validator(): Validator {
  const problems: string[] = [];
  let localBytes = 0;
  /** Files queued while the thread's code is bundled (the bodies exist already; they are posted once it starts). */
  let queued: CheckMessage[] | null = null;
  let thread: Promise<Worker> | null = null;
  let worker: Worker | null = null;
  /** Why the thread stopped, once it has. */
  let ended: string | null = null;

  const start = () => {
    queued = [];
    thread = workerCode().then((code) => {
      const w = new Worker(code, { eval: true, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
      // Listening from the start: a thread failing before done() must fail the build, not the process.
      w.on('error', (e) => (ended ??= `the validation thread failed: ${e.message}`));
      w.on('exit', (code) => (ended ??= `the validation thread exited (code ${code}) before it answered`));
      for (const m of queued!) w.postMessage(m);
      queued = null;
      worker = w;
      return w;
    });
    thread.catch(() => undefined); // awaited by done()
  };

  return {
    check(f) {
      if (!f.schema) return;
      if (worker) return worker.postMessage({ path: f.path, schema: f.schema, body: f.body } satisfies CheckMessage);
      if (queued) return void queued.push({ path: f.path, schema: f.schema, body: f.body });
      problems.push(...checkJson(f.path, f.schema, f.body));
      localBytes += typeof f.body === 'string' ? f.body.length : f.body.byteLength;
      if (localBytes >= LOCAL_BYTES) start();
    },
    async done() {
      if (!thread) return problems;
      let w: Worker;
      try {
        w = await thread;
      } catch (e) {
        throw new Error(`cannot start the validation thread: ${(e as Error).message}`);
      }
      try {
        const answer = new Promise<string[]>((resolve, reject) => {
          if (ended) return reject(new Error(ended));
          w.once('message', resolve);
          w.once('error', () => reject(new Error(ended!)));
          w.once('exit', () => reject(new Error(ended!)));
        });
        w.postMessage('end' satisfies CheckMessage);
        return [...problems, ...(await answer)];
      } finally {
        await w.terminate();
      }
    },
    async close() {
      await thread?.then((w) => w.terminate(), () => undefined);
    },
    get threaded() {
      return thread !== null;
    },
  };
}

/**
 * The thread's code, bundled by esbuild into one CommonJS script: a worker does not inherit its
 * parent's TypeScript loader (tsx, or vite under vitest). Bundled while the first files are checked here.
 */
async function workerCode(): Promise<string> {
  const r = await build({
    entryPoints: [fileURLToPath(new URL('./validate-worker.ts', import.meta.url))],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  return r.outputFiles[0]!.text;
}
