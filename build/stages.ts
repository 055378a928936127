// The stages of a build that does work: the model (through the caches) and the emit of one
// shape into its out folder. Loaded by build/pipeline.ts only when some out folder needs writing;
// the source loaders and the model's computation are loaded only when the model is computed (a
// build that reads the model from its cache needs neither, and skips loading them).
import path from 'node:path';
import type { ModelInputs } from './model/inputs.ts';
import { checkRejectThreshold, formatSourceReport, type SourceReport } from './sources/report.ts';
import type { SourcesCacheUse } from './sources/index.ts';
import { embedPages } from './emit/embed.ts';
import { renderSite } from './emit/site.ts';
import { loadRecordedReleases, releaseContext } from './releases/load.ts';
import { forecastRefs } from './releases/forecast.ts';
import { registeredFiles } from './releases/registered.ts';
import { renderDocs } from './emit/docs.ts';
import type { OccupationTitle } from './model/inputs.ts';
import type { ModelOutput } from './model/record-schemas.ts';
import { buildSearchIndex } from './contract/search-index.ts';
import { recordsDigest } from './records-digest.ts';
import { metaDocument } from './emit/meta.ts';
import { loadSeeds } from './seeds-load.ts';
import { emitFiles, checkRouteFiles, ISCO_UNIT_ROUTES, deployConfigs, pathProblems, validateFile, type EmittedFile, type FileInfo } from './emit/files.ts';
import { forbiddenInputs } from './emit/bundle-function.ts';
import type { FunctionBundle } from './function-bundle.ts';
import { buildManifest } from './emit/manifest.ts';
import { MANIFEST_FILE } from './contract/dist-layout.ts';
import { OutputTree, type Written } from './emit/write.ts';
import { readModelCache, storeModelCache, type ModelStage } from './cache/model-cache.ts';
import { BuildError } from './build-error.ts';
import { CACHE_NAMES, cacheDirOf, type BuildOptions, type BuildSummary, type CacheKeys, type CacheReport, type Timer } from './build-types.ts';
import { peakRssMb, whileReadingSources } from './heap.ts';
import { rejectedRows } from './report-format.ts';
import { strictError } from './build-error.ts';

export type Loaded = Omit<ModelStage<SourceReport>, 'report'> & { report: SourceReport | null; caches: CacheReport | null };

/**
 * What is made from the model whatever the shape, once per model and cached with it: the search
 * index (from the model and the sources' alternate and reported titles) and the records' digest.
 */
const derived = (model: ModelOutput, titles: OccupationTitle[]) => ({
  search: buildSearchIndex(model.occupations, titles, model.unscored),
  digest: recordsDigest(model),
});

/** Tests: the stage from a given model and titles (no sources, no caches). */
export const stageOf = (inputs: { model: ModelOutput; titles: OccupationTitle[] }): Loaded => ({ model: inputs.model, ...derived(inputs.model, inputs.titles), report: null, caches: null });

export async function loadModel(opts: BuildOptions, sourceDir: string, keys: CacheKeys | null, time: Timer): Promise<Loaded> {
  const log = opts.log ?? (() => undefined);
  const use = new Set(opts.caches ?? CACHE_NAMES);
  const cacheDir = cacheDirOf(opts);
  const caches: CacheReport = { sources: 'off', model: 'off', function: 'off', output: 'off' };
  const compute = async (): Promise<ModelStage<SourceReport>> => {
    const sources: { bundle: ModelInputs | null; report: SourceReport; cache: SourcesCacheUse } = await time('sources', async () => {
      const { loadSources } = await import('./sources/index.ts');
      return whileReadingSources(() => loadSources(sourceDir, use.has('sources') && keys ? { cache: { dir: path.join(cacheDir, 'sources'), parser: keys.parser, files: keys.files, log } } : {}));
    });
    caches.sources = sources.cache.outcome;
    if (sources.cache.outcome !== 'off' && sources.cache.fromCache > 0 && sources.cache.parsed > 0) {
      log(`    (sources: ${sources.cache.parsed} of ${sources.cache.fromCache + sources.cache.parsed} files parsed, the others read from the cache)`);
    }
    const { report } = sources;
    const titles = sources.bundle!.titles;
    const over = checkRejectThreshold(report);
    if (over.length > 0) {
      throw new BuildError([
        ...over.map((f) => `${f.path}: ${f.rejected} of ${f.rows} rows rejected (over the threshold)`),
        ...report.problems.map((p) => `${p.file}:${p.line}: ${p.reason}`),
      ]);
    }
    // Before the model: a strict build with rejected rows has nothing to compute.
    if (opts.strict && report.problems.length > 0) throw strictError(report.problems);
    const seeds = await time('seeds', () => loadSeeds(path.join(opts.repoRoot, 'seeds')));
    // The source tables are dropped as the model is handed over (only the titles are needed later,
    // by the search index, made right after): nothing in this scope keeps them, so the collection
    // after the model stage frees them.
    const model = await time('model', async () => {
      const { computeModel } = await import('./model/index.ts');
      const inputs = sources.bundle!;
      sources.bundle = null;
      return computeModel(inputs, seeds);
    });
    return { model, ...(await time('index', () => derived(model, titles))), report };
  };
  if (!use.has('model') || !keys) return { ...(await compute()), caches };
  // On a hit the sources are not read at all: the entry holds the report, the search index and the digest with the model.
  const modelDir = path.join(cacheDir, 'model');
  const cached = await time('cache', () => readModelCache<SourceReport>(modelDir, keys.model, log));
  caches.model = cached.outcome;
  if (cached.value) {
    if (opts.strict && cached.value.report.problems.length > 0) throw strictError(cached.value.report.problems);
    return { ...cached.value, caches: { ...caches, sources: 'skipped' } };
  }
  const stage = await compute();
  await time('store_model', () => storeModelCache(modelDir, keys.model, stage, log));
  return { ...stage, caches };
}

/** Files emitted between turns of the event loop: little enough work that the archive's gzip is fed often. */
const YIELD_EVERY = 8;

export async function emitShape(
  opts: BuildOptions,
  { model, search, digest, report, caches }: Loaded,
  fn: FunctionBundle,
  time: Timer,
  timings: Record<string, number>,
  stagePeakRssMb: Record<string, number>,
): Promise<{ summary: BuildSummary; written: Written[] }> {
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
      const registered = registeredFiles(opts.repoRoot);
      const meta = metaDocument(model, opts.shape, digest, forecastRefs(opts.repoRoot), registered.map(({ body: _, ...ref }) => ref));
      const releases = releaseContext(model, loadRecordedReleases(opts.repoRoot));
      const files = emitFiles(model, opts.shape, { search, meta, releases, registered }, embedPages(model, opts.shape, { dataVersion }), renderSite(model, opts.shape, meta, releases));
      for (let n = 1; ; n++) {
        // The download archive is gzipped on the thread pool meanwhile, a chunk per turn of the event
        // loop. When files are unchanged nothing here waits for I/O, so without a turn now and then
        // the archive only progressed once the emitter waited for it, and a warm build sat idle at
        // its end.
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
      for (const f of deployConfigs(infos, opts.shape, dataVersion)) await put(f);
      problems.push(...checkRouteFiles(infos, opts.shape, model.isco.units.length === 0 ? ISCO_UNIT_ROUTES : undefined), ...forbiddenInputs(fn.metafile).map((i) => `function bundle must not include ${i}`));
      if (problems.length > 0) throw new BuildError(problems);
      // The manifest lists every other file's sha256, taken from the bytes as they were written.
      const meta = new Map(infos.map((f) => [f.path, f]));
      const written = await tree.flush();
      await tree.add(MANIFEST_FILE, buildManifest(dataVersion, opts.shape, written.map((x) => ({ ...x, urlPath: meta.get(x.path)?.urlPath, routeId: meta.get(x.path)?.routeId }))));
      await tree.commit();
    });
  } catch (e) {
    await tree.discard();
    throw e;
  }
  if (tree.reused) log(`    (write: updated the previous generation in place; ${tree.unchanged} of ${tree.written.length} files were already right)`);

  const industriesByLevel: Record<string, number> = {};
  for (const i of model.industries) industriesByLevel[i.level] = (industriesByLevel[i.level] ?? 0) + 1;
  const summary: BuildSummary = {
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
    caches,
    peakRssMb: peakRssMb(),
    cpuMs: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
    sourceReport: report ? formatSourceReport(report) : null,
    rejected: rejectedRows(report?.problems ?? [], model.occupations, model.unscored, (model.report.oews_broad_group ?? {}) as Record<string, string>),
    joinReport: model.report,
  };
  return { summary, written: tree.written };
}
