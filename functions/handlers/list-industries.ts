// GET /api/v1/industries with a query: the industry list at one level.
import type { IndustryList } from '../../build/contract/response-schemas.ts';
import { INDUSTRY_LIST_QUERY, parseQuery, queryPairs } from '../../build/contract/paging.ts';
import { industryList } from '../../build/contract/present.ts';
import { json, problemResponse } from '../http.ts';
import type { RouteHandler } from '../route-handler.ts';
import type { ShardStore } from '../shard-store.ts';

export function listIndustries({ shards }: { shards: ShardStore }): RouteHandler {
  return async (req, query, { route }) => {
    const parsed = parseQuery(queryPairs(query), INDUSTRY_LIST_QUERY);
    if (!parsed.ok) return problemResponse(req, 400, 'Invalid query parameters.', parsed.errors);
    const level = parsed.values.level as number | undefined;
    const all = await shards.load<IndustryList>('industries');
    return json(req, industryList(all.data, level), route.cache);
  };
}
