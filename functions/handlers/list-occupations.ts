// GET /api/v1/occupations with a query: a page of the list, or of a search's ranked matches.
import type { SearchShard } from '../../build/contract/response-schemas.ts';
import type { ShardMeta } from '../../build/contract/request-schemas.ts';
import type { SearchIndex } from '../../build/contract/search-words.ts';
import { OCCUPATION_LIST_QUERY, pageWindow, parseQuery, queryPairs } from '../../build/contract/paging.ts';
import { LIST_PAGE_HEAD, listPageJson, listPageTail } from '../../build/contract/present.ts';
import { MODEL_VERSION } from '../../build/model/version.ts';
import { LIST_ORDERS_SHARD, selectPositions, type ListOrders, type ListSelection } from '../../build/contract/list-orders.ts';
import { etagOf, problemResponse, respond, type AnyReply, type RequestLike } from '../http.ts';
import type { CachePolicy } from '../../build/contract/http-policy.ts';
import { BoundedCache } from '../bounded-cache.ts';
import { searched, type Searched } from '../occupation-search.ts';
import type { PageItems } from '../page-items.ts';
import type { RouteHandler } from '../route-handler.ts';
import type { ShardStore } from '../shard-store.ts';

/** A search page whole: its body as UTF-8 and its ETag. */
export type SearchPage = { body: Uint8Array<ArrayBuffer>; etag: string };

/**
 * Search pages whole: the same query, limit and offset always give the same bytes on an instance
 * (its shards never change), and building a page of ranked items scattered over the shards was
 * much of a request's cost. A body is kept as its UTF-8 bytes (encoded once, as a Response would
 * encode the text): an ArrayBuffer's contents lie outside the JS heap, so a young-generation
 * collection does not copy and promote the kilobytes each first-seen query adds.
 */
export const searchPageCache = (): BoundedCache<string, SearchPage> => new BoundedCache<string, SearchPage>(1000, 4_000_000);

export interface ListOccupationsDeps {
  shards: ShardStore;
  pages: PageItems;
  /** Ranked matches per query (occupation-search.ts). */
  searches: BoundedCache<string, Searched>;
  /** Whole search pages, keyed by the parsed limit, offset and query (equivalent queries share). */
  searchPages: BoundedCache<string, SearchPage>;
}

const utf8Encoder = new TextEncoder();

/**
 * A page of the list in its own order, cut from the shards' joined items. Apart from the handler:
 * a cold instance compiles a function whole on its first call, and a cold search compiles none
 * of this.
 */
async function listPage(req: RequestLike, pages: PageItems, meta: ShardMeta, limit: number, offset: number, cache: CachePolicy): Promise<AnyReply> {
  const count = meta.occupation_count;
  const { start, end } = pageWindow(count, limit, offset);
  const items = await pages.range(start, end, meta.page_shard_size);
  const etag = etagOf(`${MODEL_VERSION}:${count},${limit},${offset}:${items.tag}`);
  return respond(req, 200, [LIST_PAGE_HEAD, ...items.parts, listPageTail(count, limit, offset)], 'json', cache, undefined, etag);
}

export function listOccupations({ shards, pages, searches, searchPages }: ListOccupationsDeps): RouteHandler {
  return async (req, query, { route }): Promise<AnyReply> => {
    const parsed = parseQuery(queryPairs(query), OCCUPATION_LIST_QUERY);
    if (!parsed.ok) return problemResponse(req, 400, 'Invalid query parameters.', parsed.errors);
    const limit = parsed.values.limit as number;
    const offset = parsed.values.offset as number;
    const q = parsed.values.q as string | undefined;
    const { sort, tier, major_group } = parsed.values;
    const selection: ListSelection | undefined =
      sort === undefined && tier === undefined && major_group === undefined ? undefined : { sort: sort as ListSelection['sort'], tier: tier as string | undefined, major_group: major_group === undefined ? undefined : String(major_group) };
    const meta = shards.loaded<ShardMeta>('meta') ?? (await shards.load<ShardMeta>('meta'));
    // Each body is a function of its items, the envelope numbers and the model version, so is its
    // tag: hashing the shard or item hashes with those is as strong as hashing the body, and cheaper.
    if (q === undefined && selection === undefined) return listPage(req, pages, meta, limit, offset, route.cache);
    const pageKey = `${limit} ${offset} ${sort ?? ''} ${tier ?? ''} ${major_group ?? ''} ${q ?? ''}`;
    const kept = searchPages.get(pageKey);
    if (kept) return respond(req, 200, [kept.body], 'json', route.cache, undefined, kept.etag);
    let found: Partial<Searched> = {};
    if (q !== undefined) {
      const index: SearchIndex = shards.loaded<SearchShard>('search') ?? (await shards.load<SearchShard>('search'));
      found = await searched(shards, searches, index, q);
    }
    // A sort or filter picks positions from the build's orders (list-orders.ts); the suggestions
    // beside a search that found nothing stay as they are (they are not matches).
    const lists = selection && (shards.loaded<ListOrders>(LIST_ORDERS_SHARD) ?? (await shards.load<ListOrders>(LIST_ORDERS_SHARD)));
    const matches: ArrayLike<number> & { slice(a: number, b: number): ArrayLike<number> } = lists ? selectPositions(lists, selection!, found.matches) : found.matches!;
    const { suggested, notScored } = found;
    const count = matches.length;
    const { start, end } = pageWindow(count, limit, offset);
    const items = await pages.items(matches.slice(start, end), meta.page_shard_size);
    const suggestions = suggested && (await pages.items(suggested, meta.page_shard_size));
    const etag = etagOf(`${MODEL_VERSION}:${count},${limit},${offset}:${items.hashes.join('')}${suggestions ? `:s${suggestions.hashes.join('')}` : ''}${notScored ? `:u${notScored.join('')}` : ''}`);
    // Ranked items lie scattered over the shards: one string (a part per item, or their bytes
    // copied into one array, cost more to write).
    const body = utf8Encoder.encode(listPageJson(items.json, count, limit, offset, { ...(suggestions ? { suggestions: suggestions.json } : {}), ...(notScored ? { not_scored: notScored } : {}) }));
    searchPages.set(pageKey, { body, etag }, body.byteLength);
    return respond(req, 200, [body], 'json', route.cache, undefined, etag);
  };
}
