// Answers for paths no handler serves: 404 (problem+json, or the HTML 404 page under the site and
// the embeds), an unscored occupation or ISCO-08 unit group named as such, a malformed ISCO-08
// code (400) and a method the route does not accept (405).
import type { IscoShard, UnscoredSearchShard } from '../../build/contract/response-schemas.ts';
import { UNSCORED_SHARD } from '../../build/contract/dist-layout.ts';
import { iscoNotScored } from '../../build/contract/present.ts';
import { allowedMethods, methodNotAllowedProblem, PARAM_PATTERNS, urlFor, type RouteDef } from '../../build/contract/routes.ts';
import { notFoundKind } from '../../build/contract/route-match.ts';
import { noIscoUnit, noResourceAt } from '../../build/contract/problem.ts';
import { problemResponse, respond, type Reply, type RequestLike } from '../http.ts';
import type { ShardStore } from '../shard-store.ts';

/**
 * Why an O*NET occupation the model does not score has no resources, in words (null for any
 * other code): GET /occupations/55-3016.00 says what Infantry is missing, not only "no resource".
 */
export async function notScored(shards: ShardStore, soc: string): Promise<string | null> {
  const { occupations } = shards.loaded<UnscoredSearchShard>(UNSCORED_SHARD) ?? (await shards.load<UnscoredSearchShard>(UNSCORED_SHARD));
  const u = occupations.find((o) => o.soc_code === soc);
  return u ? `${u.soc_code} (${u.title}) is an O*NET occupation that the model does not score: ${u.reason} It is in no list.` : null;
}

/** `soc`: the SOC code in the path, when the route has one (an unscored occupation's is named as such). */
export async function notFound(shards: ShardStore, req: RequestLike, pathname: string, soc?: string, detail?: string): Promise<Reply> {
  const kind = notFoundKind(pathname);
  if (kind !== 'problem') {
    const page = (await shards.load<{ html: string }>(kind === 'html' ? 'embed-404' : 'page-404')).html;
    return respond(req, 404, page, kind, 'error');
  }
  return problemResponse(req, 404, detail ?? ((soc !== undefined && (await notScored(shards, soc))) || noResourceAt(pathname)));
}

/** 404 for a well-formed ISCO-08 code with no file: a unit group of the crosswalk without a score (its own type), or no unit group at all. */
export async function iscoNotFound(shards: ShardStore, req: RequestLike, code: string): Promise<Reply> {
  const { unscored } = shards.loaded<IscoShard>('isco') ?? (await shards.load<IscoShard>('isco'));
  const u = unscored.find((x) => x.isco_code === code);
  return u
    ? problemResponse(req, 'isco-not-scored', iscoNotScored(u), [{ location: 'path.isco_code', message: 'ISCO-08 unit group not scored' }])
    : problemResponse(req, 404, noIscoUnit(code), [{ location: 'path.isco_code', message: 'unknown ISCO-08 unit group' }]);
}

/**
 * A path under /api/v1/isco/ with a code that is not 4 digits: the client's mistake (400), not a
 * missing resource. A major, sub-major or minor group's code (1 to 3 digits) is told the scored
 * unit groups under it.
 */
export async function malformedIsco(shards: ShardStore, req: RequestLike, pathname: string): Promise<Reply | null> {
  const prefix = `${urlFor('isco-list')}/`;
  if (!pathname.startsWith(prefix)) return null;
  const code = pathname.slice(prefix.length);
  if (code === '' || code.includes('/') || PARAM_PATTERNS.isco_code!.test(code)) return null;
  const give = `give its 4 digits, for example ${urlFor('isco-detail', { isco_code: '2512' })}`;
  let detail = `"${code.length > 40 ? `${code.slice(0, 40)}…` : code}" is not an ISCO-08 unit group code: ${give}.`;
  if (/^[0-9]{1,3}$/.test(code)) {
    const { items } = shards.loaded<IscoShard>('isco') ?? (await shards.load<IscoShard>('isco'));
    const under = items.filter((u) => u.isco_code.startsWith(code));
    const shown = under.slice(0, 12).map((u) => `${u.isco_code} (${u.title})`);
    detail = under.length
      ? `${code} is an ISCO-08 group, not a unit group: ${give}. The scored unit groups under it: ${shown.join(', ')}${under.length > shown.length ? ` and ${under.length - shown.length} more (${urlFor('isco-list')}?major=${code[0]})` : ''}.`
      : `${code} is no ISCO-08 group with a scored unit group: ${give}.`;
  }
  return problemResponse(req, 400, detail, [{ location: 'path.isco_code', message: 'must be 4 digits (an ISCO-08 unit group)' }]);
}

/** 405: the path as requested (not the route pattern), and the methods it does accept. */
export function methodNotAllowed(req: RequestLike, pathname: string, route: RouteDef): Reply {
  const p = methodNotAllowedProblem(req.method, pathname, allowedMethods(route));
  return problemResponse(req, 405, p.detail, p.errors, p.headers);
}
