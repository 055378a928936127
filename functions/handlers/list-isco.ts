// GET /api/v1/isco with a query: the list filtered by major group and/or searched, then paged.
import type { IscoSearchShard, IscoShard } from '../../build/contract/response-schemas.ts';
import { ISCO_LIST_QUERY, pageWindow, parseQuery, queryPairs } from '../../build/contract/paging.ts';
import { iscoListPage } from '../../build/contract/present.ts';
import { searchOccupations } from '../search-query.ts';
import { json, problemResponse } from '../http.ts';
import { BoundedCache } from '../bounded-cache.ts';
import { SEARCH_CACHE_ENTRIES } from '../occupation-search.ts';
import type { RouteHandler } from '../route-handler.ts';
import type { ShardStore } from '../shard-store.ts';

/** ISCO-08 searches, kept per instance like the occupation searches (matches as list positions). */
export const iscoSearchCache = (): BoundedCache<string, number[]> => new BoundedCache<string, number[]>(SEARCH_CACHE_ENTRIES);

export function listIsco({ shards, searches }: { shards: ShardStore; searches: BoundedCache<string, number[]> }): RouteHandler {
  return async (req, query, { route }) => {
    const parsed = parseQuery(queryPairs(query), ISCO_LIST_QUERY);
    if (!parsed.ok) return problemResponse(req, 400, 'Invalid query parameters.', parsed.errors);
    const { limit, offset, q, major } = parsed.values as { limit: number; offset: number; q?: string; major?: number };
    const { items } = shards.loaded<IscoShard>('isco') ?? (await shards.load<IscoShard>('isco'));
    let positions: number[] | null = null;
    if (q !== undefined) {
      positions = searches.get(q) ?? null;
      if (!positions) {
        const index = shards.loaded<IscoSearchShard>('isco-search') ?? (await shards.load<IscoSearchShard>('isco-search'));
        positions = searchOccupations(index, q);
        searches.set(q, positions);
      }
    }
    const digit = major === undefined ? null : String(major);
    const all = positions ? positions.map((i) => items[i]!) : items;
    const matched = digit === null ? all : all.filter((i) => i.major_group === digit);
    const { start, end } = pageWindow(matched.length, limit, offset);
    return json(req, iscoListPage(matched.slice(start, end), matched.length, limit, offset), route.cache);
  };
}
