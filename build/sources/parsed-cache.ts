// What the loaders are handed to skip parsing a file parsed before: an entry per parse job, read
// here and stored by the thread that parses it. The cache itself (its keys, its entries on disk)
// is build/cache/sources-cache.ts; the loaders never import it, so a cache never runs inside the
// stage it wraps.
import type { CacheOutcome } from '../build-types.ts';
import type { JobLog, ParseJob, StoreParsed } from './parse-jobs.ts';

export interface ParsedCache {
  /** Each source file's sha256, by its path relative to the source directory (the keys were made from them). */
  files: ReadonlyMap<string, string>;
  log: (line: string) => void;
  /** Where the job's parse is kept; null when it is not (its file was not hashed). */
  entryFor(job: ParseJob): string | null;
  /** The parse kept under `entry`, or why there is none (a damaged entry is reported and removed). */
  read(entry: string, rel: string): Promise<{ outcome: Exclude<CacheOutcome, 'off'>; value?: unknown; log?: JobLog }>;
  /** Stores on this thread (jobs parsed here). */
  store: StoreParsed;
  /** The module whose `storeParsed` (a StoreParsed) a parsing thread stores with: its code is bundled into the threads. */
  storeModule: string;
  /** After a load: records the entries it used, removes those no recent load used. */
  prune(used: readonly string[]): Promise<void>;
}
