// 308s from the codes people have to the resource they name, each with a JSON body that says where
// it goes and what else the code covers: a six-digit SOC code to its ".00" O*NET occupation
// (29-1141 -> 29-1141.00, listing the specialties O*NET details under it), an occupation's slug
// to its code, an ISCO-08 unit group's slug to its code. Titles come from the assess shard (every
// scored occupation's title), the ISCO-08 slugs from the isco shard: both within a cold request's
// budget (limits.ts).
import type { AssessShard, CodeRedirect, IscoShard } from '../../build/contract/response-schemas.ts';
import type { Shape } from '../../build/model/record-schemas.ts';
import { SLUGS_SHARD } from '../../build/contract/dist-layout.ts';
import { PARAM_PATTERNS, urlFor } from '../../build/contract/routes.ts';
import { matchRoute, sixDigitOf, slugOfPath, slugRedirectFor } from '../../build/contract/route-match.ts';
import { appendVersion } from '../../build/model/version.ts';
import { problemResponse, respond, type Reply, type RequestLike } from '../http.ts';
import type { ShardStore } from '../shard-store.ts';
import type { z } from 'zod';

type Titles = z.infer<typeof AssessShard>['occupations'];

const load = async <T>(shards: ShardStore, name: string): Promise<T> => shards.loaded<T>(name) ?? (await shards.load<T>(name));
const titles = async (shards: ShardStore): Promise<Titles> => (await load<{ occupations: Titles }>(shards, 'assess')).occupations;

/** A 308 to `location` (the query kept) with its body; cached as the static files are. */
function codeRedirect(req: RequestLike, body: CodeRedirect): Reply {
  const location = body.location + new URL(req.url).search;
  return respond(req, 308, appendVersion(JSON.stringify({ ...body, location })), 'json', 'static', { Location: location });
}

/**
 * /api/v1/occupations/<six-digit SOC>[/sub]: a 308 to its ".00" occupation listing every scored
 * occupation under the code; a 404 naming them when O*NET has no ".00" one (15-1299 has only
 * specialties); null when the path is no such code.
 */
export async function sixDigitRedirect(shards: ShardStore, req: RequestLike, pathname: string, shape: Shape): Promise<Reply | null> {
  const six = sixDigitOf(pathname);
  const location = six && `${urlFor('occupation-detail', { soc_code: `${six.soc}.00` })}${six.rest}`;
  if (!six || !location || !matchRoute(location, shape)) return null;
  const all = await titles(shards);
  const under = Object.keys(all)
    .filter((c) => c.startsWith(`${six.soc}.`))
    .sort();
  const named = (c: string) => `${c} (${all[c]![0]})`;
  const main = `${six.soc}.00`;
  if (under.length > 0 && !under.includes(main)) {
    return problemResponse(req, 404, `${six.soc} is a SOC code with no O*NET occupation ${main}; the model scores ${under.length === 1 ? 'this one' : `these ${under.length}`} under it: ${under.map(named).join(', ')}.`, [
      { location: 'path.soc_code', message: 'a six-digit SOC code without a ".00" O*NET occupation: give one of the codes under it' },
    ]);
  }
  const others = under.length - 1;
  const detail =
    under.length === 0
      ? `${six.soc} is a six-digit SOC code; its O*NET occupation would be ${main}, which the model does not score.`
      : `${six.soc} is a six-digit SOC code; its O*NET occupation is ${named(main)}.` +
        (others > 0 ? ` O*NET details ${others === 1 ? '1 more occupation' : `${others} more occupations`} under it, each scored on its own: ${under.slice(1).map(named).join(', ')} (listed in occupations).` : '');
  return codeRedirect(req, {
    requested: six.soc,
    location,
    detail,
    ...(under.length ? { occupations: under.map((c) => ({ soc_code: c, title: all[c]![0], href: `${urlFor('occupation-detail', { soc_code: c })}${six.rest}` })) } : {}),
  });
}

/** /api/v1/occupations/<slug>[/sub]: a 308 to the same with its SOC code; null when the slug is none. */
export async function slugRedirect(shards: ShardStore, req: RequestLike, pathname: string, shape: Shape): Promise<Reply | null> {
  const named = slugOfPath(pathname);
  if (!named) return null;
  const { slugs } = await load<{ slugs: Record<string, string> }>(shards, SLUGS_SHARD);
  const location = slugRedirectFor(pathname, shape, slugs);
  if (!location) return null;
  const soc = slugs[named.slug]!;
  const title = (await titles(shards))[soc]?.[0];
  return codeRedirect(req, { requested: named.slug, location, detail: `"${named.slug}" is the slug of ${soc}${title ? ` (${title})` : ''}; the API names occupations by their O*NET-SOC code.` });
}

/** /api/v1/isco/<slug>: a 308 to the unit group's code; null when it is no unit group's slug. */
export async function iscoSlugRedirect(shards: ShardStore, req: RequestLike, pathname: string): Promise<Reply | null> {
  const prefix = `${urlFor('isco-list')}/`;
  const slug = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : '';
  if (!PARAM_PATTERNS.isco_slug!.test(slug) || PARAM_PATTERNS.isco_code!.test(slug)) return null;
  const unit = (await load<IscoShard>(shards, 'isco')).items.find((u) => u.slug === slug);
  if (!unit) return null;
  const location = urlFor('isco-detail', { isco_code: unit.isco_code });
  return codeRedirect(req, { requested: slug, location, detail: `"${slug}" is the slug of ISCO-08 unit group ${unit.isco_code} (${unit.title}); the API names unit groups by their 4-digit code.` });
}
