// A request path to its route: segment-wise matching against the route table, the trailing-slash
// redirects, and the kind of 404 a path gets.
import type { Shape } from '../model/record-schemas.ts';
import { PARAM_PATTERNS, releaseRoutes, ROUTES, type RouteDef } from './routes.ts';

const EMBED_PREFIX = '/embed/';

/**
 * Where a request for a path the table does not serve should be redirected, or null: to the same
 * path with the slash added or dropped when that one exists (/embed -> /embed/,
 * /embed/<slug>/ -> /embed/<slug>, /api/v1/ -> /api/v1). Answered with a permanent redirect.
 */
export function redirectFor(pathname: string, shape: Shape): string | null {
  if (pathname === '/' || matchRoute(pathname, shape)) return null;
  const other = pathname.endsWith('/') ? pathname.slice(0, -1) : `${pathname}/`;
  return matchRoute(other, shape) ? other : null;
}

/**
 * A six-digit SOC code names its O*NET occupation ".00" (29-1141 -> 29-1141.00), here and under
 * its subpaths (/risk, /tasks, /votes): people and BLS tables write SOC codes that way. Answered
 * with a 308 (method kept) by the function (functions/handlers/code-redirects.ts). This gives the
 * code a path under /api/v1/occupations names that way, and the subpath after it; null when none.
 */
export function sixDigitOf(pathname: string): { soc: string; rest: string } | null {
  const m = SIX_DIGIT_SOC.exec(pathname);
  return m ? { soc: m[1]!, rest: m[2] ?? '' } : null;
}

const SLUG_PATH = /^\/api\/v1\/occupations\/([a-z0-9]+(?:-[a-z0-9]+)*)(\/[a-z]+)?$/;

/** The slug a path under /api/v1/occupations names in place of a SOC code, and the subpath after it; null when none. */
export function slugOfPath(pathname: string): { slug: string; rest: string } | null {
  const m = SLUG_PATH.exec(pathname);
  return m ? { slug: m[1]!, rest: m[2] ?? '' } : null;
}

/** A slug's redirect: /api/v1/occupations/<slug>[/sub] -> the same with its SOC code, when that is a route. */
export function slugRedirectFor(pathname: string, shape: Shape, slugs: Readonly<Record<string, string>>): string | null {
  const named = slugOfPath(pathname);
  const soc = named && Object.hasOwn(slugs, named.slug) ? slugs[named.slug] : undefined;
  if (!soc) return null;
  const to = `/api/v1/occupations/${soc}${named!.rest}`;
  return matchRoute(to, shape) ? to : null;
}

const SIX_DIGIT_SOC = /^\/api\/v1\/occupations\/([0-9]{2}-[0-9]{4})(\/[a-z]+)?$/;

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string>;
}

/** A route's pattern cut into segments once: literals compared as strings, parameters by pattern. */
interface CompiledRoute {
  route: RouteDef;
  segs: string[];
  /** [segment index, parameter name, its pattern] for each parameter segment. */
  params: Array<[number, string, RegExp]>;
}

/**
 * Per shape and segment count, its routes (table order kept), built when a path of that many
 * segments is first matched: a cold instance's first request builds one count's, in plain loops
 * (each route cut into segments by a closure per segment was a good part of its routing).
 */
const compiled = new Map<Shape, Map<number, CompiledRoute[]>>();
function routesOfSize(shape: Shape, size: number): CompiledRoute[] {
  let bySize = compiled.get(shape);
  if (!bySize) compiled.set(shape, (bySize = new Map()));
  let list = bySize.get(size);
  if (!list) {
    list = [];
    // The table itself, each route's shapes asked in place (routesFor's filter is a closure per route).
    for (let r = 0; r < ROUTES.length; r++) {
      const route = ROUTES[r]!;
      if (!route.shapes.includes(shape) || segmentCount(route.pattern) !== size) continue;
      const segs = route.pattern.split('/');
      const params: CompiledRoute['params'] = [];
      for (let i = 0; i < segs.length; i++) if (segs[i]!.startsWith(':')) params.push([i, segs[i]!.slice(1), PARAM_PATTERNS[segs[i]!.slice(1)]!]);
      list.push({ route, segs, params });
    }
    // A count no route has is not kept: a client could name thousands of counts.
    if (list.length > 0) bySize.set(size, list);
  }
  return list;
}

/** How many segments split('/') would give (split is a runtime call, slow the first times: only the routes of the size are split). */
function segmentCount(pattern: string): number {
  let n = 1;
  for (let at = pattern.indexOf('/'); at >= 0; at = pattern.indexOf('/', at + 1)) n++;
  return n;
}

/** Segment-wise match; a parameter must match its pattern, so "../" or "%2F" never reach a file. */
export function matchRoute(pathname: string, shape: Shape): RouteMatch | null {
  const segs = pathname.split('/');
  for (const c of routesOfSize(shape, segs.length)) {
    let ok = true;
    for (let i = 0; i < segs.length && ok; i++) ok = c.segs[i]!.startsWith(':') ? true : c.segs[i] === segs[i];
    if (!ok) continue;
    const params: Record<string, string> = {};
    for (let k = 0; k < c.params.length && ok; k++) {
      const param = c.params[k]!;
      const seg = segs[param[0]]!;
      if (param[2].test(seg)) params[param[1]] = seg;
      else ok = false;
    }
    if (ok) return { route: c.route, params };
  }
  return null;
}

/** Per shape and data version, each release file's versioned path to its route (one data version per server). */
const releasePaths = new Map<string, Map<string, RouteDef>>();

/**
 * The release file a versioned path names (releaseUrlFor), for this build's data version only:
 * another release's name is a 404, never this release's bytes under that release's name.
 */
export function matchRelease(pathname: string, shape: Shape, dataVersion: string): RouteDef | null {
  const key = `${shape}\n${dataVersion}`;
  let paths = releasePaths.get(key);
  if (!paths) {
    paths = new Map(releaseRoutes(shape, dataVersion).map((r) => [r.path, r.route]));
    releasePaths.set(key, paths);
  }
  return paths.get(pathname) ?? null;
}

/** The kind of 404 body a path gets: problem+json under /api/, the card-sized HTML under /embed/, a page elsewhere. */
export const notFoundKind = (pathname: string): 'html' | 'page' | 'problem' =>
  pathname === '/api' || pathname.startsWith('/api/') ? 'problem' : pathname === '/embed' || pathname.startsWith(EMBED_PREFIX) ? 'html' : 'page';
