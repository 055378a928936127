// The build: sources -> model -> files -> validate -> atomic write. Every problem found is
// collected and reported at once; nothing is written unless all checks pass. This module decides
// what a build has to do (which caches answer, which out folders are already up to date); the
// stages that do it (build/stages.ts, with the model, the emitters and their libraries) are loaded
// only when there is work, so a build with nothing to do starts in a fraction of the time.
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { OccupationTitle } from './model/inputs.ts';
import type { ModelOutput, Shape, UnscoredOccupation } from './model/records.ts';
import { resolveSourceDir } from './sources/locate.ts';
import { sourceKeys } from './sources/cache.ts';
import type { CacheOutcome } from './cache/entry.ts';
import { modelKey } from './cache/model-cache.ts';
import { functionKey, readFunctionCache, storeFunctionCache } from './cache/function-cache.ts';
import { checkOutput, forgetOutput, outputKeys, recordOutput } from './cache/output-stamp.ts';
import { BuildError } from './build-error.ts';
import { removeLeftAside } from './cache/aside.ts';
import { stageLabel, type RejectedRows } from './report-format.ts';

export { BuildError };

export interface BuildOptions {
  shape: Shape;
  /** --source DIR; resolved like the sources helper does (flag, env, data/raw, ../shared/data). */
  source?: string;
  out: string;
  repoRoot: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** Called as each stage starts (a terminal shows it until the stage's timing line replaces it). */
  onStageStart?: (stage: string) => void;
  /** Tests: skip sources and model, present this model instead. */
  inputs?: { model: ModelOutput; titles: OccupationTitle[] };
  /**
   * The caches this build may use (default all; --no-cache none; --cache LIST some): parsed
   * sources, the model's output, the function bundles, and an out folder already holding exactly
   * this build's files.
   */
  caches?: readonly CacheName[];
  /** Where the caches live (default .cache under the repository, git-ignored): sources/, model/, function/, outputs/. */
  cacheDir?: string;
  /** Fail on any rejected source row (--strict): nothing is written. Without it the build goes on without those rows and names what they cost. */
  strict?: boolean;
  /**
   * Update the generation before the current out folder in place (default true; --no-cache and
   * --no-reuse set false): files whose bytes are already right are not written again. Without it
   * an out folder is always written afresh, even when it is up to date.
   */
  reuse?: boolean;
}

export const CACHE_NAMES = ['sources', 'model', 'function', 'output'] as const;
/** Where the caches live: `cacheDir`, by default .cache under the repository (git-ignored). */
export const cacheDirOf = (opts: Pick<BuildOptions, 'cacheDir' | 'repoRoot'>): string => opts.cacheDir ?? path.join(opts.repoRoot, '.cache');
export type CacheName = (typeof CACHE_NAMES)[number];
/** What each cache gave this build; 'skipped': not needed (a later cache answered). */
export type CacheReport = Record<CacheName, CacheOutcome | 'skipped'>;
/** Keys of the caches, computed once per build: the sources' bytes, then the model's code on top. */
export interface CacheKeys {
  source: string;
  model: string;
  /** What the parsed-source cache keys each file with (build/sources/cache.ts). */
  parser: string;
  files: ReadonlyMap<string, string>;
  /** The function bundles' key (build/cache/function-cache.ts), when that cache is used. */
  fn: string | null;
}

export interface BuildSummary {
  out: string;
  shape: Shape;
  dataVersion: string;
  files: number;
  bytes: number;
  occupations: number;
  unscored: number;
  /** Every occupation not served, with the reason (the build report names them). */
  unscoredList: UnscoredOccupation[];
  industriesByLevel: Record<string, number>;
  timings: Record<string, number>;
  /**
   * Each cache: hit, miss (computed and stored), damaged (failed verification), off; null with
   * test inputs. output 'hit': the out folder already held exactly these files and was left alone.
   */
  caches: CacheReport | null;
  /** Peak resident set size of the build process so far (worker threads included), MB. */
  peakRssMb: number;
  /** That peak as it stood at the end of each stage (the stage where it rises is where the peak is), MB. */
  stagePeakRssMb: Record<string, number>;
  /** CPU time (user + system) of the build process so far, ms: wall time on a shared machine says little. */
  cpuMs: number;
  sourceReport: string | null;
  /** Rejected source rows and what they cost: the occupations they name that have no page (the build's last lines). */
  rejected: RejectedRows;
  joinReport: Record<string, unknown>;
}

export type Timer = <T>(stage: string, f: () => Promise<T> | T) => Promise<T>;

/**
 * A full collection after the stages that leave most of what they allocated behind (parsed files
 * and the cached payload, an entry's JSON text after each store, the source rows once the model
 * exists): V8 would rather grow the heap than collect it. Collecting there keeps the peak near
 * what is live (a first build peaked at 315 MB without the stores' collections, 300 and 305 MB
 * with them). Not after 'bundle': esbuild works in its own process, and the model stage's
 * collection has already freed the source rows, so it found nothing. Not after 'emit' either: the
 * peak is reached during the emit, and what follows (docs, write, a second shape's emit) stayed
 * below it without the collection (both shapes: 261-265 MB), which took 45-60 ms.
 */
const COLLECT_AFTER = new Set(['sources', 'model', 'store_model']);
export const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  return typeof gc === 'function' ? gc : () => undefined;
})();

function timer(log: (line: string) => void, timings: Record<string, number>, peaks: Record<string, number>, onStageStart?: (stage: string) => void): Timer {
  return async (stage, f) => {
    onStageStart?.(stage);
    const t0 = performance.now();
    try {
      return await f();
    } finally {
      if (COLLECT_AFTER.has(stage)) collectGarbage();
      timings[stage] = Math.round(performance.now() - t0);
      peaks[stage] = peakRssMb();
      log(`${stageLabel(stage)} ${String(timings[stage]).padStart(6)} ms`);
    }
  };
}

export const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);


export async function runBuild(opts: BuildOptions): Promise<BuildSummary> {
  const [summary] = await runBuilds(opts, [{ shape: opts.shape, out: opts.out }]);
  return summary!;
}

/**
 * Several shapes from one reading of the sources and one model (the test suite and a deployment
 * of both shapes): each shape is emitted, validated and written atomically on its own.
 */
export async function runBuilds(opts: Omit<BuildOptions, 'shape' | 'out'>, targets: Array<{ shape: Shape; out: string }>): Promise<BuildSummary[]> {
  // V8 lets the heap grow to about twice what survived the last full collection before it collects
  // again: after the sources that let the model stage pile up 70 MB of garbage, the build's memory
  // peak. Growing by HEAP_GROWING_PERCENT instead costs a few more collections and keeps the peak
  // lower. Measured with the model cached (emit only): V8's default 351-353 MB and an emit of
  // 1.6-1.7 s; 20% 274-286 MB and 1.9-2.2 s; 35% 276-289 MB and 1.75-1.78 s; 50% about the same
  // time but a cold build at 296-300 MB (35%: 272-277 MB, 20%: 259-267 MB). Set for the build
  // only (a test process builds in-process).
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  try {
    return await buildAll(opts, targets);
  } finally {
    setFlagsFromString('--heap-growing-percent=0'); // 0: V8's own choice again
  }
}

const HEAP_GROWING_PERCENT = 35;
/**
 * While the sources are read. A first or cold build peaks there, with the parsing threads' heaps
 * beside this one's, and the peak varied with where collections fell: 274-310 MB over six first
 * builds at 35%, 272-281 MB over four at 10%, about 0.1 s slower (a warm build, reading the parsed
 * sources from the cache, neither slower nor higher: its peak is in the emit).
 */
const SOURCES_HEAP_GROWING_PERCENT = 10;

/** Runs the source stage with the heap kept closer to what is live (SOURCES_HEAP_GROWING_PERCENT). */
export async function whileReadingSources<T>(f: () => Promise<T>): Promise<T> {
  setFlagsFromString(`--heap-growing-percent=${SOURCES_HEAP_GROWING_PERCENT}`);
  try {
    return await f();
  } finally {
    setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  }
}

async function buildAll(opts: Omit<BuildOptions, 'shape' | 'out'>, targets: Array<{ shape: Shape; out: string }>): Promise<BuildSummary[]> {
  const log = opts.log ?? (() => undefined);
  const shared: Record<string, number> = {};
  const sharedPeaks: Record<string, number> = {};
  const time = timer(log, shared, sharedPeaks, opts.onStageStart);
  const outs = targets.map((t) => ({ ...t, out: path.resolve(opts.repoRoot, t.out) }));
  for (const { out } of outs) {
    if (out === path.resolve(opts.repoRoot) || out === path.parse(out).root) throw new BuildError([`refusing to use ${out} as the output folder`]);
  }
  const use = new Set(opts.caches ?? CACHE_NAMES);
  const cacheDir = cacheDirOf(opts);
  const stampDir = path.join(cacheDir, 'outputs');
  const sourceDir = opts.inputs ? null : resolveSourceDir({ cliSource: opts.source, env: opts.env ?? process.env, repoRoot: opts.repoRoot });
  if (sourceDir) log(`${stageLabel('source')} ${sourceDir}`);
  // Keys only when a cache is used: hashing the sources is wasted on a build that uses none.
  const keys: (CacheKeys & { outputs: string[] }) | null =
    sourceDir && use.size > 0
      ? await time('keys', async () => {
          const { key: source, parser, files } = await sourceKeys(sourceDir, path.join(cacheDir, 'file-hashes.json'));
          const model = await modelKey(source, opts.repoRoot);
          const fn = use.has('function') ? await functionKey(opts.repoRoot) : null;
          return { source, model, parser, files, fn, outputs: await outputKeys(model, outs.map((t) => t.shape), opts.repoRoot) };
        })
      : null;

  // An out folder that already holds exactly what this build would write is left as it is.
  const summaries: Array<BuildSummary | null> = outs.map(() => null);
  /** Folders left as they were: their summaries get this build's memory and CPU figures at the end. */
  const upToDate: number[] = [];
  const useOutput = keys !== null && use.has('output') && opts.reuse !== false;
  const outputOutcome: Array<CacheOutcome> = outs.map(() => (useOutput ? 'miss' : 'off'));
  if (keys && useOutput) {
    await time('check', async () => {
      for (const [i, t] of outs.entries()) {
        const check = await checkOutput<StampedSummary>(stampDir, t.out, keys.outputs[i]!);
        if (check.outcome === 'hit') {
          // The folder holds this build, rejected rows and all: --strict refuses it as it would the build.
          if (opts.strict && check.summary.rejected.rows.length > 0) throw strictError(check.summary.rejected.rows);
          log(`    (output: ${t.out} already holds this build's ${check.summary.files} files, as its manifest lists them (sha256; unchanged files known by their stat); left as it is)`);
          upToDate.push(i);
          summaries[i] = { ...check.summary, timings: shared, stagePeakRssMb: sharedPeaks, caches: { sources: 'skipped', model: 'skipped', function: 'skipped', output: 'hit' }, peakRssMb: 0, cpuMs: 0 };
        } else {
          outputOutcome[i] = check.outcome;
          if (check.outcome === 'damaged') log(`    (output: ${t.out}: ${check.why}; writing it again)`);
        }
      }
    });
  }
  const todo = outs.flatMap((t, i) => (summaries[i] ? [] : [{ ...t, i }]));
  if (todo.length > 0) {
    // esbuild bundles the function in its own process while this one reads sources and computes the
    // model (unless the function cache has the bundles); the 'bundle' timing is what is left to
    // wait for after the model.
    let fnOutcome: CacheOutcome = 'off';
    const fnPending = (async () => {
      const { bundleFunctions } = await import('./emit/bundle-function.ts');
      if (!keys?.fn) return bundleFunctions(opts.repoRoot);
      const dir = path.join(cacheDir, 'function');
      const cached = await readFunctionCache(dir, keys.fn, log);
      fnOutcome = cached.outcome;
      if (cached.value) return cached.value;
      const bundle = await bundleFunctions(opts.repoRoot);
      await storeFunctionCache(dir, keys.fn, bundle, log);
      return bundle;
    })();
    fnPending.catch(() => undefined); // awaited below; a failing source stage must not leave it unhandled
    const { emitShape, loadModel, stageOf } = await import('./stages.ts');
    const loaded = opts.inputs
      ? stageOf(opts.inputs)
      : await loadModel({ ...opts, shape: todo[0]!.shape, out: todo[0]!.out }, sourceDir!, keys, time);
    const fn = await time('bundle', () => fnPending);
    for (const t of todo) {
      if (targets.length > 1) log(`  shape ${t.shape}`);
      const own: Record<string, number> = { ...shared };
      const ownPeaks: Record<string, number> = { ...sharedPeaks };
      const { summary, written } = await emitShape({ ...opts, ...t }, loaded, fn, timer(log, own, ownPeaks, opts.onStageStart), own, ownPeaks);
      if (summary.caches) summary.caches = { ...summary.caches, function: fnOutcome, output: outputOutcome[t.i]! };
      summaries[t.i] = summary;
      // What the folder now holds is recorded when its key is known, and forgotten otherwise.
      if (keys) await recordOutput(stampDir, t.out, keys.outputs[t.i]!, stamped(summary), written).catch((e: Error) => log(`${stageLabel('cache')} could not record ${t.out} (${e.message})`));
      else await forgetOutput(stampDir, t.out);
    }
  }
  if (keys) {
    const left = await removeLeftAside(cacheDir).catch((e: Error) => (log(`${stageLabel('cache')} could not look for files left half-written in ${cacheDir} (${e.message})`), []));
    if (left.length > 0) log(`${stageLabel('cache')} removed ${left.length} file(s) a stopped build left half-written: ${left.map((f) => path.relative(cacheDir, f)).join(', ')}`);
  }
  const cpuMs = Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000);
  for (const i of upToDate) summaries[i] = { ...summaries[i]!, peakRssMb: peakRssMb(), cpuMs };
  return summaries.map((s) => s!);
}

/** The summary as recorded with an out folder (what a later build that leaves the folder alone prints). */
type StampedSummary = Omit<BuildSummary, 'timings' | 'stagePeakRssMb' | 'caches' | 'peakRssMb' | 'cpuMs'>;
const stamped = ({ timings: _t, stagePeakRssMb: _p, caches: _c, peakRssMb: _r, cpuMs: _u, ...rest }: BuildSummary): StampedSummary => rest;

/** The failure of a --strict build with rejected rows: each row by file:line and why. */
export function strictError(rows: ReadonlyArray<{ file: string; line: number; reason: string }>): BuildError {
  return new BuildError(
    rows.map((p) => `${p.file}:${p.line}: ${p.reason}`),
    `build failed (--strict): ${rows.length} source row(s) rejected; nothing was written`,
  );
}
