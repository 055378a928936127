// The model's output, cached under a key made of everything it is computed from: the parsed
// sources' key (source bytes and parser version), the model's code, the seeds, the lockfile and
// Node's version. A rebuild after an edit to templates, the emit or the function then skips both
// the sources and the model. Entries are verified on read (build/cache/entry.ts); `--cache` without
// `model` (or --no-cache) bypasses it.
import path from 'node:path';
import type { ModelOutput } from '../model/record-schemas.ts';
import type { WholeSearchIndex } from '../contract/search-words.ts';
import type { ModelStage } from '../stage-types.ts';
import { hashCode } from './code-hash.ts';
import { importClosure } from './import-closure.ts';
import { ENTRY, readCached, sha, storeCached } from './entry.ts';
import type { CacheOutcome } from '../build-types.ts';

export type { ModelStage };

/**
 * What the model's output depends on besides the sources: the model stage's import closure (the
 * loaders, the model, the search index, the records' digest), the seeds it reads, the entry format
 * and the lockfile.
 */
const modelInputs = (repoRoot: string): string[] => [...importClosure(repoRoot, ['build/model-stage.ts', 'build/cache/model-cache.ts']), 'seeds', 'package-lock.json'];

/** Entries kept (one per source set and model version). */
const KEEP = 4;

export async function modelKey(sourceKey: string, repoRoot: string): Promise<string> {
  const h = sha().update(`model\0${sourceKey}\0${process.version}\0`);
  return (await hashCode(h, repoRoot, modelInputs(repoRoot))).digest('hex');
}

const entryFile = (cacheDir: string, key: string) => path.join(cacheDir, `${key}${ENTRY}`);

/** The model stage as cached under `key`, or why it is not there. */
export async function readModelCache<Report>(cacheDir: string, key: string, log: (line: string) => void): Promise<{ value: ModelStage<Report> | null; outcome: Exclude<CacheOutcome, 'off'> }> {
  const { parts, outcome } = await readCached(entryFile(cacheDir, key), 'model output', log);
  if (!parts) return { value: null, outcome };
  const model = Object.fromEntries(Object.entries(parts).flatMap(([name, v]) => (name.startsWith(MODEL_PART) ? [[name.slice(MODEL_PART.length), v]] : []))) as unknown as ModelOutput;
  return { value: { model, search: parts.search as WholeSearchIndex, digest: parts.digest as string, report: parts.report as Report }, outcome };
}

/**
 * The model is stored a part per field (in its order), so that its arrays are written and read in
 * slices: as one part, its JSON text and that text's bytes were a cache-miss build's peak.
 */
const MODEL_PART = 'model.';

export async function storeModelCache<Report>(cacheDir: string, key: string, m: ModelStage<Report>, log: (line: string) => void): Promise<void> {
  const parts = [
    ...Object.entries(m.model).map(([field, v]) => [`${MODEL_PART}${field}`, v] as const),
    ['search', m.search],
    ['digest', m.digest],
    ['report', m.report],
  ] as const;
  await storeCached(entryFile(cacheDir, key), 'model output', parts, KEEP, log);
}
