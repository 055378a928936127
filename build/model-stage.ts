// The model stage: sources in, the model and what is made from it whatever the shape out. It knows
// nothing of the model cache: build/pipeline.ts runs it through build/cache/stage-cache.ts, keyed
// by this module's import closure (build/cache/model-cache.ts). The source loaders and the model's
// computation are loaded only when it runs.
import path from 'node:path';
import type { ModelInputs, OccupationTitle } from './model/inputs.ts';
import type { ModelOutput } from './model/record-schemas.ts';
import { checkRejectThreshold, type SourceReport } from './sources/report.ts';
import type { ParsedCache } from './sources/parsed-cache.ts';
import type { SourcesCacheUse } from './sources/index.ts';
import { buildSearchIndex } from './search-index.ts';
import { recordsDigest } from './records-digest.ts';
import { loadSeeds } from './seeds-load.ts';
import { BuildError, strictError } from './build-error.ts';
import type { Timer } from './build-types.ts';
import type { ModelStage } from './stage-types.ts';
import { whileReadingSources } from './heap.ts';

export type { ModelStage };

/**
 * What is made from the model whatever the shape, once per model and cached with it: the search
 * index (from the model and the sources' alternate and reported titles) and the records' digest.
 */
const derived = (model: ModelOutput, titles: OccupationTitle[]) => ({
  search: buildSearchIndex(model.occupations, titles, model.unscored),
  digest: recordsDigest(model),
});

/** Tests: the stage from a given model and titles (no sources). */
export const stageOf = (inputs: { model: ModelOutput; titles: OccupationTitle[] }): ModelStage<null> => ({ model: inputs.model, ...derived(inputs.model, inputs.titles), report: null });

export interface ModelStageInput {
  sourceDir: string;
  repoRoot: string;
  strict?: boolean;
  /** The parsed-source cache the loaders read and fill (null: every file parsed). */
  parsed: ParsedCache | null;
  log: (line: string) => void;
}

/**
 * The source tables reach the model stage's own frame only through these (not async) functions: an
 * async function keeps the registers it had when it last awaited, a temporary holding the tables
 * among them, and kept the tables alive through the index and the model's store.
 */
const titlesOf = (s: LoadedSources): OccupationTitle[] => s.bundle!.titles;
function takeBundle(s: LoadedSources): ModelInputs {
  const bundle = s.bundle!;
  s.bundle = null;
  return bundle;
}
type LoadedSources = { bundle: ModelInputs | null; report: SourceReport; cache: SourcesCacheUse };

export async function modelStage(input: ModelStageInput, time: Timer): Promise<{ stage: ModelStage<SourceReport>; sources: SourcesCacheUse }> {
  const { log } = input;
  const sources: LoadedSources = await time('sources', async () => {
    const { loadSources } = await import('./sources/index.ts');
    return whileReadingSources(() => loadSources(input.sourceDir, input.parsed ? { cache: input.parsed } : {}));
  });
  if (sources.cache.outcome !== 'off' && sources.cache.fromCache > 0 && sources.cache.parsed > 0) {
    log(`    (sources: ${sources.cache.parsed} of ${sources.cache.fromCache + sources.cache.parsed} files parsed, the others read from the cache)`);
  }
  const { report } = sources;
  const titles = titlesOf(sources);
  const over = checkRejectThreshold(report);
  if (over.length > 0) {
    throw new BuildError([
      ...over.map((f) => `${f.path}: ${f.rejected} of ${f.rows} rows rejected (over the threshold)`),
      ...report.problems.map((p) => `${p.file}:${p.line}: ${p.reason}`),
    ]);
  }
  // Before the model: a strict build with rejected rows has nothing to compute.
  if (input.strict && report.problems.length > 0) throw strictError(report.problems);
  const seeds = await time('seeds', () => loadSeeds(path.join(input.repoRoot, 'seeds')));
  // The source tables are dropped as the model is handed over (only the titles are needed later,
  // by the search index, made right after): nothing in this scope keeps them, so the collection
  // after the model stage frees them.
  const model = await time('model', async () => {
    const { computeModel } = await import('./model/index.ts');
    return computeModel(takeBundle(sources), seeds);
  });
  return { stage: { model, ...(await time('index', () => derived(model, titles))), report }, sources: sources.cache };
}
