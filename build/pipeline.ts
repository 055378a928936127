// The build: sources -> model -> files -> validate -> atomic write. Every problem found is
// collected and reported at once; nothing is written unless all checks pass.
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ModelInputs, OccupationTitle } from './model/inputs.ts';
import type { SourceReport } from './sources/report.ts';
import type { ModelOutput, Shape, UnscoredOccupation } from './model/records.ts';
import { loadSources, resolveSourceDir, checkRejectThreshold, formatSourceReport } from './sources/index.ts';
import { embedPages } from './emit/embed.ts';
import { renderSite } from './emit/site.ts';
import { renderDocs } from './emit/docs.ts';
import { computeModel } from './model/index.ts';
import { loadSeeds } from './seeds-load.ts';
import { emitFiles, checkRouteFiles, deployConfigs, pathProblems, validateFile, type EmittedFile, type FileInfo } from './emit/files.ts';
import { bundleFunctions, forbiddenInputs } from './emit/bundle-function.ts';
import { buildManifest, MANIFEST_PATH } from './emit/manifest.ts';
import { OutputTree } from './emit/write.ts';
import { loadCached, type CacheOutcome } from './sources/cache.ts';
import type { FunctionBundle } from './emit/bundle-function.ts';

export class BuildError extends Error {
  constructor(readonly problems: string[]) {
    super(`build failed with ${problems.length} problem(s):\n  - ${problems.join('\n  - ')}`);
  }
}

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
  /** Use the cache of parsed sources (default true; --no-cache sets false). */
  cache?: boolean;
  /** Where parsed sources are cached (default .cache/sources under the repository, git-ignored). */
  cacheDir?: string;
  /**
   * Update the generation before the current out folder in place (default true; --no-cache and
   * --no-reuse set false): files whose bytes are already right are not written again.
   */
  reuse?: boolean;
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
  /** Parsed-source cache: hit, miss (parsed and stored), damaged (failed verification), off; null with test inputs. */
  cache: CacheOutcome | null;
  /** Peak resident set size of the build process so far (worker threads included), MB. */
  peakRssMb: number;
  /** That peak as it stood at the end of each stage (the stage where it rises is where the peak is), MB. */
  stagePeakRssMb: Record<string, number>;
  /** CPU time (user + system) of the build process so far, ms: wall time on a shared machine says little. */
  cpuMs: number;
  sourceReport: string | null;
  joinReport: Record<string, unknown>;
}

type Timer = <T>(stage: string, f: () => Promise<T> | T) => Promise<T>;

async function loadModel(opts: BuildOptions, time: Timer) {
  if (opts.inputs) return { ...opts.inputs, report: null as SourceReport | null, sourceDir: null as string | null, cache: null as CacheOutcome | null };
  const sourceDir = resolveSourceDir({ cliSource: opts.source, env: opts.env ?? process.env, repoRoot: opts.repoRoot });
  const log = opts.log ?? (() => undefined);
  const sources: { bundle: ModelInputs | null; report: SourceReport; cache: CacheOutcome } = await time('sources', () =>
    opts.cache === false
      ? loadSources(sourceDir).then((l) => ({ ...l, cache: 'off' as CacheOutcome }))
      : loadCached(sourceDir, opts.cacheDir ?? path.join(opts.repoRoot, '.cache', 'sources'), () => loadSources(sourceDir), log),
  );
  const { report, cache } = sources;
  const titles = sources.bundle!.titles;
  const over = checkRejectThreshold(report);
  if (over.length > 0) {
    throw new BuildError([
      ...over.map((f) => `${f.path}: ${f.rejected} of ${f.rows} rows rejected (over the threshold)`),
      ...report.problems.map((p) => `${p.file}:${p.line}: ${p.reason}`),
    ]);
  }
  const seeds = await time('seeds', () => loadSeeds(path.join(opts.repoRoot, 'seeds')));
  // The source tables are dropped as the model is handed over (only the titles are needed later,
  // by the search index): nothing in this scope keeps them, so the collection after the model
  // stage frees them.
  const model = await time('model', () => {
    const inputs = sources.bundle!;
    sources.bundle = null;
    return computeModel(inputs, seeds);
  });
  return { model, titles, report, sourceDir, cache };
}

/**
 * A full collection after the stages that leave most of what they allocated behind (parsed files
 * and the cached payload, the source rows once the model exists, the emitter's intermediates,
 * parsed-back JSON): V8 would rather grow the heap than collect it. Collecting there keeps the
 * peak near what is live. Not after 'bundle': esbuild works in its own process, and the model
 * stage's collection has already freed the source rows, so it found nothing.
 */
const COLLECT_AFTER = new Set(['sources', 'model', 'emit']);
const collectGarbage: () => void = (() => {
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
      log(`  ${stage.padEnd(10)} ${String(timings[stage]).padStart(6)} ms`);
    }
  };
}

const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);


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
  // again: after the sources (80 MB live) that let the model stage pile up 70 MB of garbage, the
  // build's memory peak. Growing by 30% instead costs a few more collections (under 100 ms) and
  // keeps the peak about 50 MB lower. Set for the build only (a test process builds in-process).
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  try {
    return await buildAll(opts, targets);
  } finally {
    setFlagsFromString('--heap-growing-percent=0'); // 0: V8's own choice again
  }
}

const HEAP_GROWING_PERCENT = 20;

async function buildAll(opts: Omit<BuildOptions, 'shape' | 'out'>, targets: Array<{ shape: Shape; out: string }>): Promise<BuildSummary[]> {
  const log = opts.log ?? (() => undefined);
  const shared: Record<string, number> = {};
  const sharedPeaks: Record<string, number> = {};
  const time = timer(log, shared, sharedPeaks, opts.onStageStart);
  for (const t of targets) {
    const out = path.resolve(opts.repoRoot, t.out);
    if (out === path.resolve(opts.repoRoot) || out === path.parse(out).root) throw new BuildError([`refusing to use ${out} as the output folder`]);
  }
  // esbuild bundles the function in its own process while this one reads sources and computes the
  // model; the 'bundle' timing is what is left to wait for after the model.
  const fnPending = bundleFunctions(opts.repoRoot);
  fnPending.catch(() => undefined); // awaited below; a failing source stage must not leave it unhandled
  const loaded = await loadModel({ ...opts, shape: targets[0]!.shape, out: targets[0]!.out }, time);
  if (loaded.sourceDir) log(`  source     ${loaded.sourceDir}`);
  const fn = await time('bundle', () => fnPending);
  const summaries: BuildSummary[] = [];
  for (const t of targets) {
    if (targets.length > 1) log(`  shape ${t.shape}`);
    const own: Record<string, number> = { ...shared };
    const ownPeaks: Record<string, number> = { ...sharedPeaks };
    summaries.push(await emitShape({ ...opts, ...t }, loaded, fn, timer(log, own, ownPeaks, opts.onStageStart), own, ownPeaks));
  }
  return summaries;
}

/** Files emitted between turns of the event loop (~10 ms of work). */
const YIELD_EVERY = 8;

async function emitShape(
  opts: BuildOptions,
  { model, titles, report, cache }: Awaited<ReturnType<typeof loadModel>>,
  fn: FunctionBundle,
  time: Timer,
  timings: Record<string, number>,
  stagePeakRssMb: Record<string, number>,
): Promise<BuildSummary> {
  const out = path.resolve(opts.repoRoot, opts.out);
  const dataVersion = model.meta.data_version;
  const log = opts.log ?? (() => undefined);

  // Each file is checked (path, schema) and written as soon as it is made, then dropped: the dist
  // is never in memory whole. Problems are collected; any problem discards the new tree before
  // the swap, so the previous out folder stays as it was.
  const tree = await OutputTree.open(out, { reuse: opts.reuse !== false });
  const problems: string[] = [];
  const infos: FileInfo[] = [];
  const seen = new Set<string>();
  const parts = { render: 0, validate: 0, write: 0 };
  const put = async (f: EmittedFile) => {
    const t0 = performance.now();
    const bad = pathProblems(f.path, seen);
    problems.push(...bad, ...validateFile(f));
    infos.push({ path: f.path, urlPath: f.urlPath, routeId: f.routeId });
    const t1 = performance.now();
    if (bad.length === 0) await tree.add(f.path, f.body);
    parts.validate += t1 - t0;
    parts.write += performance.now() - t1;
  };
  try {
    await time('emit', async () => {
      const files = emitFiles(model, opts.shape, titles, embedPages(model, opts.shape, { dataVersion }), renderSite(model, opts.shape));
      for (let n = 1; ; n++) {
        // The download archive is gzipped on the thread pool meanwhile, a chunk per turn of the event
        // loop. When files are unchanged nothing here waits for I/O, so without a turn now and then
        // the archive only progressed once the emitter waited for it (idle ~0.8 s of a warm build).
        if (n % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
        const t0 = performance.now();
        const next = await files.next();
        parts.render += performance.now() - t0;
        if (next.done) break;
        await put(next.value);
      }
    });
    log(`    (emit: render ${Math.round(parts.render)} ms, validate ${Math.round(parts.validate)} ms, hash and write ${Math.round(parts.write)} ms)`);
    // The docs show real answers of this build, read back from the files written so far.
    const read = (p: string) => tree.read(p).then((b) => b.toString('utf8'), () => null);
    for (const f of await time('docs', () => renderDocs(read, model, opts.shape, opts.repoRoot))) await put(f);
    await time('write', async () => {
      for (const f of fn.files) await put(f);
      for (const f of deployConfigs(infos, opts.shape)) await put(f);
      problems.push(...checkRouteFiles(infos, opts.shape), ...forbiddenInputs(fn.metafile).map((i) => `function bundle must not include ${i}`));
      if (problems.length > 0) throw new BuildError(problems);
      // The manifest lists every other file's sha256, taken from the bytes as they were written.
      const meta = new Map(infos.map((f) => [f.path, f]));
      await tree.add(MANIFEST_PATH, buildManifest(dataVersion, opts.shape, tree.written.map((x) => ({ ...x, urlPath: meta.get(x.path)?.urlPath, routeId: meta.get(x.path)?.routeId }))));
      await tree.commit();
    });
  } catch (e) {
    await tree.discard();
    throw e;
  }
  if (tree.reused) log(`    (write: updated the previous generation in place; ${tree.unchanged} of ${tree.written.length} files were already right)`);

  const industriesByLevel: Record<string, number> = {};
  for (const i of model.industries) industriesByLevel[i.level] = (industriesByLevel[i.level] ?? 0) + 1;
  return {
    out,
    shape: opts.shape,
    dataVersion,
    files: tree.written.length,
    bytes: tree.written.reduce((n, f) => n + f.bytes, 0),
    occupations: model.occupations.length,
    unscored: model.unscored.length,
    unscoredList: model.unscored,
    industriesByLevel,
    timings,
    stagePeakRssMb,
    cache,
    peakRssMb: peakRssMb(),
    cpuMs: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
    sourceReport: report ? formatSourceReport(report) : null,
    joinReport: model.report,
  };
}
