// The emit stage: the model stage's output (build/model-stage.ts) and the function bundles in, one
// shape's out folder written. Loaded by build/pipeline.ts only when some out folder needs writing;
// it knows nothing of the caches (the pipeline decides which folders need writing).
import path from 'node:path';
import { formatSourceReport, type SourceReport } from './sources/report.ts';
import { embedPages } from './emit/embed.ts';
import { renderSite } from './emit/site.ts';
import { loadRecordedReleases, releaseContext } from './releases/load.ts';
import { forecastRefs } from './releases/forecast.ts';
import { registeredFiles } from './releases/registered.ts';
import { renderDocs } from './emit/docs.ts';
import { metaDocument } from './emit/meta.ts';
import { emitFiles, checkRouteFiles, ISCO_UNIT_ROUTES, deployConfigs, pathProblems, validateFile, type EmittedFile, type FileInfo, type ShapeFree } from './emit/files.ts';
import { forbiddenInputs } from './emit/bundle-function.ts';
import type { FunctionBundle } from './function-bundle.ts';
import { buildManifest } from './emit/manifest.ts';
import { MANIFEST_FILE } from './contract/dist-layout.ts';
import { OutputTree, type Written } from './emit/write.ts';
import { openScratch } from './emit/scratch.ts';
import { BuildError } from './build-error.ts';
import type { BuildOptions, BuildSummary, CacheReport, Timer } from './build-types.ts';
import type { ModelStage } from './model-stage.ts';
import { peakRssMb } from './heap.ts';
import { rejectedRows } from './report-format.ts';

/** The model stage's output as the emit takes it, with what the caches gave (null: a model given by a test). */
export type Loaded = ModelStage<SourceReport | null> & { caches: CacheReport | null };

/** Files emitted between turns of the event loop: little enough work that the archive's gzip is fed often. */
const YIELD_EVERY = 8;

export async function emitShape(
  opts: BuildOptions,
  { model, search, digest, report, caches }: Loaded,
  fn: FunctionBundle,
  time: Timer,
  timings: Record<string, number>,
  stagePeakRssMb: Record<string, number>,
  /** Shape-free files an earlier shape of this build wrote (emitFiles copies them). */
  madeBefore: ShapeFree = new Map(),
): Promise<{ summary: BuildSummary; written: Written[]; shapeFree: ShapeFree }> {
  const out = path.resolve(opts.repoRoot, opts.out);
  const dataVersion = model.meta.data_version;
  const log = opts.log ?? (() => undefined);

  // Each file is checked (path, schema) and written as soon as it is made, then dropped: the dist
  // is never in memory whole. Problems are collected; any problem discards the new tree before
  // the swap, so the previous out folder stays as it was.
  const tree = await OutputTree.open(out, { reuse: opts.reuse !== false });
  // The downloads kept on disk until the tree has copied them (build/emit/file-body.ts).
  const { dir: scratch, remove: removeScratch } = openScratch();
  const problems: string[] = [];
  const infos: FileInfo[] = [];
  const seen = new Set<string>();
  /** The shape-free files this emit made, with the schema each was checked against (for a later shape). */
  const made = new Map<string, EmittedFile['schema']>();
  const parts = { render: 0, validate: 0, write: 0 };
  const put = async (f: EmittedFile) => {
    const t0 = performance.now();
    const bad = pathProblems(f.path, seen);
    problems.push(...bad, ...validateFile(f));
    infos.push({ path: f.path, urlPath: f.urlPath, routeId: f.routeId });
    if (f.shapeFree) made.set(f.path, f.schema);
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
      const files = emitFiles(model, opts.shape, { search, meta, releases, registered }, embedPages(model, opts.shape, { dataVersion }), renderSite(model, opts.shape, meta, releases, scratch), madeBefore);
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
  } finally {
    removeScratch();
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
  // The files as the out folder now holds them: a later shape copies them from there.
  const shapeFree = new Map(tree.written.flatMap((w) => (made.has(w.path) ? [[w.path, { body: { file: path.join(out, w.path), bytes: w.bytes, sha256: w.sha256 }, schema: made.get(w.path) }] as const] : [])));
  return { summary, written: tree.written, shapeFree };
}
