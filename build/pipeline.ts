// The build: sources -> model -> files -> validate -> atomic write. Every problem found is
// collected and reported at once; nothing is written unless all checks pass. This module decides
// what a build has to do (which caches answer, which out folders are already up to date) and runs
// each stage through its cache (build/cache/stage-cache.ts); the stages themselves (build/model-stage.ts,
// build/stages.ts, build/emit/bundle-function.ts) import no cache module, and are loaded only when
// there is work, so a build with nothing to do starts in a fraction of the time.
import path from 'node:path';
import type { Shape } from './model/record-schemas.ts';
import { CACHE_NAMES, cacheDirOf, type BuildOptions, type BuildSummary, type CacheKeys, type CacheOutcome, type CacheReport, type Timer } from './build-types.ts';
import type { ModelStage } from './model-stage.ts';
import { collectGarbage, peakRssMb, whileEmitting, withBuildHeap } from './heap.ts';
import { resolveSourceDir } from './sources/locate.ts';
import { parsedCache, sourceKeys } from './cache/sources-cache.ts';
import { modelKey, readModelCache, storeModelCache } from './cache/model-cache.ts';
import { throughCache, type StageCache } from './cache/stage-cache.ts';
import type { Loaded } from './stages.ts';
import type { ShapeFree } from './emit/files.ts';
import type { FunctionBundle } from './function-bundle.ts';
import type { SourceReport } from './sources/report.ts';
import { functionKey, readFunctionCache, storeFunctionCache } from './cache/function-cache.ts';
import { checkOutput, findTwin, forgetOutput, outputKeys, recordOutput, rememberFiles } from './cache/output-stamp.ts';
import { OutputTree } from './emit/write.ts';
import { MANIFEST_FILE } from './contract/dist-layout.ts';
import { BuildError, strictError } from './build-error.ts';
import { removeLeftAside } from './cache/aside.ts';
import { describeTidied, tidyOutput } from './emit/swap.ts';
import { stageLabel } from './report-format.ts';

export { BuildError };

/** Stages after which a full collection pays (build/heap.ts). */
const COLLECT_AFTER = new Set(['sources', 'model', 'store_model']);

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



export async function runBuild(opts: BuildOptions): Promise<BuildSummary> {
  const [summary] = await runBuilds(opts, [{ shape: opts.shape, out: opts.out }]);
  return summary!;
}

/**
 * Several shapes from one reading of the sources and one model (the test suite and a deployment
 * of both shapes): each shape is emitted, validated and written atomically on its own.
 */
export async function runBuilds(opts: Omit<BuildOptions, 'shape' | 'out'>, targets: Array<{ shape: Shape; out: string }>): Promise<BuildSummary[]> {
  return withBuildHeap(() => buildAll(opts, targets));
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
  // A build stopped during its swap left no out folder: the complete tree it left is put back first
  // (and may be up to date); trees that stopped builds were writing are removed.
  for (const { out } of outs) for (const line of describeTidied(out, await tidyOutput(out))) log(`${stageLabel('output')} ${line}`);
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
      const misses: number[] = [];
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
          misses.push(i);
        }
      }
      // The other folders, from intact folders built from the same key when there are any (at once: each links on a thread of its own).
      const linked = await Promise.all(misses.map((i) => linkTwin(stampDir, outs[i]!.out, keys.outputs[i]!, opts)));
      for (const [n, i] of misses.entries()) {
        const l = linked[n];
        if (!l) continue;
        log(`    (output: ${l.from} holds this build's ${l.summary.files} files, as its manifest lists them; linked into ${outs[i]!.out})`);
        upToDate.push(i);
        summaries[i] = { ...l.summary, timings: shared, stagePeakRssMb: sharedPeaks, caches: { sources: 'skipped', model: 'skipped', function: 'skipped', output: 'hit' }, peakRssMb: 0, cpuMs: 0 };
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
      // The bundles depend on the code alone: a build from given model inputs (no sources to key)
      // reads and fills the function cache too.
      const fnKey = keys ? keys.fn : opts.inputs && use.has('function') ? await functionKey(opts.repoRoot) : null;
      const dir = path.join(cacheDir, 'function');
      const cache: StageCache<FunctionBundle> | null = fnKey ? { read: () => readFunctionCache(dir, fnKey, log), store: (b) => storeFunctionCache(dir, fnKey, b, opts.repoRoot, log) } : null;
      const { value, outcome } = await throughCache(cache, () => bundleFunctions(opts.repoRoot));
      fnOutcome = outcome;
      return value;
    })();
    fnPending.catch(() => undefined); // awaited below; a failing source stage must not leave it unhandled
    const { emitShape } = await import('./stages.ts');
    const loaded: Loaded = opts.inputs ? { ...(await import('./model-stage.ts')).stageOf(opts.inputs), caches: null } : await loadModel(opts, sourceDir!, keys, time);
    const fn = await time('bundle', () => fnPending);
    // Files the same in every shape are made and checked by the first shape emitted; the others copy them.
    let madeBefore: ShapeFree = new Map();
    for (const t of todo) {
      if (targets.length > 1) log(`  shape ${t.shape}`);
      // What the shape before left (its pages' garbage, promoted as the heap filled) is collected
      // before the next shape's emit starts: without it, the second shape's emit held the peak.
      if (t !== todo[0]) collectGarbage();
      const own: Record<string, number> = { ...shared };
      const ownPeaks: Record<string, number> = { ...sharedPeaks };
      // The hashes of the files written are known from their bytes, since before any was written.
      const hashedAt = Date.now();
      const { summary, written, shapeFree } = await whileEmitting(() => emitShape({ ...opts, ...t }, loaded, fn, timer(log, own, ownPeaks, opts.onStageStart), own, ownPeaks, madeBefore));
      madeBefore = new Map([...madeBefore, ...shapeFree]);
      if (summary.caches) summary.caches = { ...summary.caches, function: fnOutcome, output: outputOutcome[t.i]! };
      summaries[t.i] = summary;
      // What the folder now holds is recorded when its key is known, and forgotten otherwise.
      if (keys) await recordOutput(stampDir, t.out, keys.outputs[t.i]!, stamped(summary), written, { hashedAt }).catch((e: Error) => log(`${stageLabel('cache')} could not record ${t.out} (${e.message})`));
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

/** The model stage through the model cache (build/cache/stage-cache.ts), the sources through theirs. */
async function loadModel(opts: Omit<BuildOptions, 'shape' | 'out'>, sourceDir: string, keys: CacheKeys | null, time: Timer): Promise<Loaded> {
  const log = opts.log ?? (() => undefined);
  const use = new Set(opts.caches ?? CACHE_NAMES);
  const cacheDir = cacheDirOf(opts);
  const { modelStage } = await import('./model-stage.ts');
  const parsed = use.has('sources') && keys ? parsedCache({ dir: path.join(cacheDir, 'sources'), parser: keys.parser, files: keys.files, log }) : null;
  const modelDir = path.join(cacheDir, 'model');
  // On a hit the sources are not read at all: the entry holds the report, the search index and the digest with the model.
  const cache: StageCache<ModelStage<SourceReport>> | null =
    use.has('model') && keys
      ? {
          read: () => time('cache', () => readModelCache<SourceReport>(modelDir, keys.model, log)),
          store: (stage) => time('store_model', () => storeModelCache(modelDir, keys.model, stage, log)),
        }
      : null;
  let sources: CacheReport['sources'] = 'skipped';
  const { value, outcome } = await throughCache(cache, async () => {
    const run = await modelStage({ sourceDir, repoRoot: opts.repoRoot, strict: opts.strict === true, parsed, log }, time);
    sources = run.sources.outcome;
    return run.stage;
  });
  // A cached model with rejected rows: --strict refuses it as it would the build.
  if (opts.strict && value.report.problems.length > 0) throw strictError(value.report.problems);
  return { ...value, caches: { sources, model: outcome, function: 'off', output: 'off' } };
}

/**
 * Fills `out` with the files of another out folder built from the same key and still intact
 * (hard links, swapped in atomically) and records it; null when there is no such folder.
 */
async function linkTwin(stampDir: string, out: string, key: string, opts: Pick<BuildOptions, 'strict' | 'reuse' | 'log'>): Promise<{ from: string; summary: StampedSummary } | null> {
  const twin = await findTwin<StampedSummary>(stampDir, out, key);
  if (!twin) return null;
  if (opts.strict && twin.check.summary.rejected.rows.length > 0) throw strictError(twin.check.summary.rejected.rows);
  let linked: Awaited<ReturnType<typeof OutputTree.linkedFrom>>;
  try {
    linked = await OutputTree.linkedFrom(out, twin.from, twin.check.present, { reuse: opts.reuse !== false });
  } catch (e) {
    // The folder checked a moment ago changed or went away since (another build replacing it, a
    // test run removing its builds): the cache cannot serve, so this folder is emitted instead.
    // The half-linked tree is removed by the emit's own start (OutputTree.open).
    opts.log?.(`    (output: linking ${twin.from} into ${out} failed (${(e as Error).message}); emitting the files instead)`);
    return null;
  }
  const { tree, stats } = linked;
  try {
    await tree.commit();
  } catch (e) {
    await tree.discard();
    throw e;
  }
  const summary = { ...twin.check.summary, out };
  // Its file hashes are remembered with the stat the links left (linking changed every ctime, in
  // both folders): the next build into it, or linking from it, reads none of them again.
  const files = twin.check.present.flatMap((rel, i) => (rel === MANIFEST_FILE ? [] : [{ file: { path: rel, sha256: twin.check.listed[rel]! }, stat: stats[i]! }]));
  const known = { hashedAt: twin.check.hashedAt, stats: files.map((f) => f.stat) };
  await recordOutput(stampDir, out, key, summary, files.map((f) => f.file), known);
  // The folder linked from shares those files, and their stats: it stays known too.
  await rememberFiles(stampDir, twin.from, files.map((f) => f.file), known);
  return { from: twin.from, summary };
}

/** The summary as recorded with an out folder (what a later build that leaves the folder alone prints). */
type StampedSummary = Omit<BuildSummary, 'timings' | 'stagePeakRssMb' | 'caches' | 'peakRssMb' | 'cpuMs'>;
const stamped = ({ timings: _t, stagePeakRssMb: _p, caches: _c, peakRssMb: _r, cpuMs: _u, ...rest }: BuildSummary): StampedSummary => rest;
