// The one way a stage is cached: its output is read from the entry under its key, or the stage
// runs and its output is stored there. The stage itself never sees the cache.
import type { CacheOutcome } from '../build-types.ts';

export interface StageCache<T> {
  read(): Promise<{ value: T | null; outcome: Exclude<CacheOutcome, 'off'> }>;
  store(value: T): Promise<void>;
}

/** The stage's output through `cache` (null: the stage runs, nothing is read or stored). */
export async function throughCache<T>(cache: StageCache<T> | null, run: () => Promise<T>): Promise<{ value: T; outcome: CacheOutcome }> {
  if (!cache) return { value: await run(), outcome: 'off' };
  const cached = await cache.read();
  if (cached.value !== null) return { value: cached.value, outcome: cached.outcome };
  const value = await run();
  await cache.store(value);
  return { value, outcome: cached.outcome };
}
