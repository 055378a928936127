// What a build is asked to do and what it reports: shared by the pipeline and its stages.
import path from 'node:path';
import type { OccupationTitle } from './model/inputs.ts';
import type { ModelOutput, Shape, UnscoredOccupation } from './model/record-schemas.ts';
import type { RejectedRows } from './report-format.ts';

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

/** What a cache gave: hit, miss (computed and stored), damaged (failed verification, computed again), off (not used). */
export type CacheOutcome = 'hit' | 'miss' | 'off' | 'damaged';

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
  /** What the parsed-source cache keys each file with (build/cache/sources-cache.ts). */
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

