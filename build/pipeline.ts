// The build: sources -> model -> files -> validate -> atomic write. Every problem found is
// collected and reported at once; nothing is written unless all checks pass.
import path from 'node:path';
import type { OccupationTitle, SourceReport } from './sources/bundle.ts';
import type { ModelOutput, Shape, UnscoredOccupation } from './model/records.ts';
import { loadSources, resolveSourceDir, checkRejectThreshold, formatSourceReport } from './sources/index.ts';
import { renderEmbed } from './emit/embed.ts';
import { renderSite } from './emit/site.ts';
import { renderDocs } from './emit/docs.ts';
import { computeModel } from './model/index.ts';
import { loadSeeds } from './seeds-load.ts';
import { emitFiles, checkPaths, validateFiles, refreshNetlifyToml, type EmittedFile } from './emit/files.ts';
import { bundleFunctions, forbiddenInputs } from './emit/bundle-function.ts';
import { buildManifest, MANIFEST_PATH } from './emit/manifest.ts';
import { writeAtomically } from './emit/write.ts';

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
  sourceReport: string | null;
  joinReport: Record<string, unknown>;
}

async function loadModel(opts: BuildOptions, time: <T>(stage: string, f: () => Promise<T> | T) => Promise<T>) {
  if (opts.inputs) return { ...opts.inputs, report: null as SourceReport | null, sourceDir: null as string | null };
  const sourceDir = resolveSourceDir({ cliSource: opts.source, env: opts.env ?? process.env, repoRoot: opts.repoRoot });
  const { bundle, report } = await time('sources', () => loadSources(sourceDir));
  const over = checkRejectThreshold(report);
  if (over.length > 0) {
    throw new BuildError([
      ...over.map((f) => `${f.path}: ${f.rejected} of ${f.rows} rows rejected (over the threshold)`),
      ...report.problems.map((p) => `${p.file}:${p.line}: ${p.reason}`),
    ]);
  }
  const seeds = await time('seeds', () => loadSeeds(path.join(opts.repoRoot, 'seeds')));
  const model = await time('model', () => computeModel(bundle, seeds));
  return { model, titles: bundle.titles, report, sourceDir };
}

export async function runBuild(opts: BuildOptions): Promise<BuildSummary> {
  const log = opts.log ?? (() => undefined);
  const timings: Record<string, number> = {};
  const time = async <T>(stage: string, f: () => Promise<T> | T): Promise<T> => {
    opts.onStageStart?.(stage);
    const t0 = performance.now();
    try {
      return await f();
    } finally {
      timings[stage] = Math.round(performance.now() - t0);
      log(`  ${stage.padEnd(10)} ${String(timings[stage]).padStart(6)} ms`);
    }
  };
  const out = path.resolve(opts.repoRoot, opts.out);
  if (out === path.resolve(opts.repoRoot) || out === path.parse(out).root) throw new BuildError([`refusing to use ${out} as the output folder`]);

  const { model, titles, report, sourceDir } = await loadModel(opts, time);
  if (sourceDir) log(`  source     ${sourceDir}`);
  const dataVersion = model.meta.data_version;

  const files: Array<EmittedFile | { path: string; body: string }> = await time('emit', () => {
    const embed = renderEmbed(model, opts.shape, { dataVersion });
    return emitFiles(model, opts.shape, titles, embed, renderSite(model, opts.shape));
  });
  // The docs show real answers of this build, so they are rendered from the files emitted so far.
  files.push(...(await time('docs', () => renderDocs(files as EmittedFile[], model, opts.shape, opts.repoRoot))));
  refreshNetlifyToml(files as EmittedFile[], opts.shape);
  const fn = await time('bundle', () => bundleFunctions(opts.repoRoot));
  files.push(...fn.files);

  const problems = await time('validate', () => [
    ...checkPaths(files),
    ...validateFiles(files as EmittedFile[]),
    ...forbiddenInputs(fn.metafile).map((i) => `function bundle must not include ${i}`),
  ]);
  if (problems.length > 0) throw new BuildError(problems);

  files.push({ path: MANIFEST_PATH, body: buildManifest(dataVersion, opts.shape, files) });
  await time('write', () => writeAtomically(out, files));

  const industriesByLevel: Record<string, number> = {};
  for (const i of model.industries) industriesByLevel[i.level] = (industriesByLevel[i.level] ?? 0) + 1;
  return {
    out,
    shape: opts.shape,
    dataVersion,
    files: files.length,
    bytes: files.reduce((n, f) => n + Buffer.byteLength(f.body), 0),
    occupations: model.occupations.length,
    unscored: model.unscored.length,
    unscoredList: model.unscored,
    industriesByLevel,
    timings,
    sourceReport: report ? formatSourceReport(report) : null,
    joinReport: model.report,
  };
}
