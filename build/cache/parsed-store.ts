// How a parsed source file is stored in its cache entry, on the thread that parsed it: a parsing
// thread's code is bundled with this module (build/sources/parse-pool.ts, handed its path by
// build/cache/sources-cache.ts), so the parsed rows are not sent back to be stored.
import type { JobLog } from '../sources/parse-jobs.ts';
import { writeEntry, type Scratch } from './entry.ts';

/** One buffer for every entry this thread stores (build/cache/entry.ts, Scratch). */
const STORE_SCRATCH: Scratch = { buf: null };

export async function storeParsed(entry: string, value: unknown, log: JobLog): Promise<void> {
  await writeEntry(entry, [['value', value], ['log', log]], { scratch: STORE_SCRATCH });
}
