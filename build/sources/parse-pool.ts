// Parse jobs spread over worker threads: reading and validating the source files is most of a
// cold build, and each file is independent. Results are handed back per job, so what the caller
// assembles (in its own fixed order) does not depend on which thread finished first.
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { runJob, type JobOutcome, type ParseJob, type StoreParsed } from './parse-jobs.ts';
import { joinSlices } from './sliced-message.ts';

/**
 * Threads at most: each adds its own heap, and the two largest workbooks alone take much of the
 * parsing time.
 */
const MAX_THREADS = 2;
/** A thread's young generation, MB: V8's larger default held more memory per thread, for no measurable speed. */
const YOUNG_GENERATION_MB = 12;
/** Below this much source (weighted bytes), starting threads (each loads the parsers) costs more than it saves. */
const MIN_WEIGHT_FOR_THREADS = 8e6;

/** Rough cost of a file: an xlsx is zip-compressed, its bytes stand for several times as much text. */
const weightOf = (abs: string) => (statSync(abs, { throwIfNoEntry: false })?.size ?? 0) * (abs.toLowerCase().endsWith('.xlsx') ? 4 : 1);

export interface ParsePool {
  run(job: ParseJob): Promise<JobOutcome>;
  close(): Promise<void>;
}

/** How jobs that name a cache entry are stored: here with `store`, on a thread with `module`'s storeParsed (bundled into its code). */
export interface PoolStore {
  store: StoreParsed;
  module: string;
}

/**
 * `threads` 0 runs the jobs here, one at a time; undefined picks by the total size of `files`
 * (a few MB of fixtures parse faster here than threads start).
 */
export function parsePool(files: string[], threads?: number, store?: PoolStore): ParsePool {
  const n = threads ?? (files.reduce((w, f) => w + weightOf(f), 0) < MIN_WEIGHT_FOR_THREADS ? 0 : Math.min(MAX_THREADS, availableParallelism()));
  return n === 0 ? localPool(store?.store) : threadPool(n, store?.module);
}

/** One job at a time: parsing is synchronous work on this thread anyway, and one at a time keeps one file's garbage alive, not all. */
function localPool(store?: StoreParsed): ParsePool {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run(job) {
      const r = queue.then(() => runJob(job, store));
      queue = r;
      return r;
    },
    close: async () => undefined,
  };
}

interface Pending {
  job: ParseJob;
  weight: number;
  resolve: (o: JobOutcome) => void;
  reject: (e: unknown) => void;
}

function threadPool(size: number, storeModule?: string): ParsePool {
  const waiting: Pending[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Pending>();
  const workers: Worker[] = [];
  let broken: Error | null = null;

  const dispatch = () => {
    while (idle.length > 0 && waiting.length > 0) {
      // Largest first: the longest file starts at once instead of finishing last on its own.
      let best = 0;
      for (let i = 1; i < waiting.length; i++) if (waiting[i]!.weight > waiting[best]!.weight) best = i;
      const p = waiting.splice(best, 1)[0]!;
      const w = idle.pop()!;
      busy.set(w, p);
      w.postMessage(p.job);
    }
  };
  const fail = (e: Error) => {
    broken ??= e;
    for (const p of [...busy.values(), ...waiting.splice(0)]) p.reject(broken);
    busy.clear();
  };
  const start = async () => {
    const code = await workerCode(storeModule);
    for (let i = 0; i < size; i++) {
      const w = new Worker(code, { eval: true, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
      const slices: unknown[][] = [];
      w.on('message', (m: JobOutcome | { slice: unknown[] }) => {
        if ('slice' in m) {
          slices.push(m.slice);
          return;
        }
        const o = m.ok ? { ...m, value: joinSlices(m.value, slices) } : m;
        slices.length = 0;
        busy.get(w)?.resolve(o);
        busy.delete(w);
        idle.push(w);
        dispatch();
      });
      w.on('error', (e) => fail(new Error(`a source parsing thread failed: ${e.message}`)));
      w.on('exit', (code) => {
        if (busy.has(w) || waiting.length > 0) fail(new Error(`a source parsing thread exited (code ${code}) with work left`));
      });
      workers.push(w);
      idle.push(w);
    }
    dispatch();
  };
  let started: Promise<void> | null = null;

  return {
    run(job) {
      if (broken) return Promise.reject(broken);
      // Dispatched once the workers exist, with every job queued by then: the largest goes first.
      started ??= start().catch((e: Error) => fail(new Error(`cannot start the source parsing threads: ${e.message}`)));
      return new Promise((resolve, reject) => waiting.push({ job, weight: weightOf(job.abs), resolve, reject }));
    },
    async close() {
      waiting.length = 0;
      await started;
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/**
 * The worker's code, bundled by esbuild into one CommonJS script: a worker does not
 * inherit its parent's TypeScript loader (tsx under `npm run build`, vite under vitest), and
 * loading tsx inside each thread costs another thread and its heap per worker. The code reaches
 * each thread as a message, kept small: whitespace out, ASCII only (one byte per character in V8,
 * not two as UTF-16) and without zod's locales (error messages in 40 languages; ours are English).
 * Names are kept, so stack traces stay readable. With `storeModule` (a cache's), its storeParsed is
 * bundled in and stores what the thread parses.
 */
async function workerCode(storeModule?: string): Promise<string> {
  const worker = JSON.stringify(fileURLToPath(new URL('./parse-worker.ts', import.meta.url)));
  const contents = storeModule
    ? `import { serveJobs } from ${worker};\nimport { storeParsed } from ${JSON.stringify(storeModule)};\nserveJobs(storeParsed);\n`
    : `import { serveJobs } from ${worker};\nserveJobs();\n`;
  const r = await build({
    stdin: { contents, loader: 'ts', resolveDir: fileURLToPath(new URL('.', import.meta.url)), sourcefile: 'parse-thread.ts' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    charset: 'ascii',
    plugins: [withoutZodLocales],
    write: false,
    logLevel: 'silent',
  });
  return r.outputFiles[0]!.text;
}

/** zod's `locales` namespace (z.locales, which nothing here uses) as an empty module; its English messages come from elsewhere. */
const withoutZodLocales: Plugin = {
  name: 'without-zod-locales',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (a) => (/[\\/]zod[\\/]/.test(a.importer) ? { path: a.path, namespace: 'empty' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {}', loader: 'js' }));
  },
};
