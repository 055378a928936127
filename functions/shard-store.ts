// The prebuilt shards as the function reads them: each loaded once per instance and kept (they
// are immutable per build). No node:*, no fs: the adapter's ShardSource does the reading.
import { shardMetaProblem } from '../build/contract/request-schemas.ts';

export interface ShardSource {
  loadShard(name: string): Promise<unknown>;
  /** A JSON file of the build by its URL path (a static route's body, e.g. a risk response), null when the build has none: what /mcp's tools read. */
  loadFile?(urlPath: string): Promise<unknown>;
}

export interface ShardStore {
  /** The shard, loaded on first use; a failed load is not kept (the next request retries). */
  load<T>(name: string): Promise<T>;
  /** The shard when already loaded: a lookup without a promise once warm (the common case). */
  loaded<T>(name: string): T | undefined;
}

/**
 * The build validated every shard against its full schema before writing it beside this bundle,
 * so only the metadata (which says what kind of build this is) is checked again here; re-parsing
 * megabytes of search index on every cold start would buy nothing.
 */
export function shardStore(source: ShardSource): ShardStore {
  const cache = new Map<string, Promise<unknown>>();
  const loaded = new Map<string, unknown>();
  const load = <T>(name: string): Promise<T> => {
    let p = cache.get(name);
    if (!p) {
      p = source.loadShard(name).then((raw) => {
        const problem = name === 'meta' ? shardMetaProblem(raw) : null;
        if (problem) throw new Error(`shard meta: ${problem}`);
        loaded.set(name, raw);
        return raw;
      });
      p.catch(() => cache.delete(name));
      cache.set(name, p);
    }
    return p as Promise<T>;
  };
  return { load, loaded: <T>(name: string): T | undefined => loaded.get(name) as T | undefined };
}
