// THE route table. Everything that knows about URLs derives from it: the files the build
// writes, the local server's routing and headers, the CDN configs (_headers, netlify.toml,
// _routes.json), the function's router, the OpenAPI document and the contract
// tests' enumeration. Pure and bundle-safe (the function imports it).
import type { Shape } from './records.ts';
import type { ResponseSchemaKey } from './api-schemas.ts';
import { INDUSTRY_LIST_QUERY, OCCUPATION_LIST_QUERY, type QuerySpec } from './paging.ts';
import { PROBLEM_CONTENT_TYPE, type ProblemStatus } from './problem.ts';
import { ASSESS_MAX_BODY_BYTES } from './limits.ts';
import { VOTE_MEDIA_TYPES, VOTE_POLICY } from './votes.ts';
import { AssessRequest, VoteRequest } from './request-schemas.ts';
import type { ZodMiniType } from 'zod/mini';

export type Method = 'GET' | 'POST';
export type CachePolicy = 'static' | 'function-get' | 'votes' | 'no-store' | 'error';

export const CACHE_CONTROL: Record<CachePolicy, string> = {
  // Data changes only with a new build; an hour keeps CDN edges warm without stale days.
  static: 'public, max-age=3600',
  // Query-string lists: computed per request from the same build, cheaper to recompute.
  'function-get': 'public, max-age=300',
  // Live vote counts: browsers revalidate every time (ETag), a CDN may keep them 60 s at most.
  votes: 'public, max-age=0, s-maxage=60',
  'no-store': 'no-store',
  // Errors must never outlive a fix (PokeAPI cached failures for days).
  error: 'no-store',
};

export const CONTENT_TYPE = {
  json: 'application/json; charset=utf-8',
  /** The embeddable card: framed by any site, no script. */
  html: 'text/html; charset=utf-8',
  /** The site's own pages (home, docs, occupation pages, gallery): same-origin script only. */
  page: 'text/html; charset=utf-8',
  problem: PROBLEM_CONTENT_TYPE,
  js: 'text/javascript; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  gzip: 'application/gzip',
} as const;
export type BodyKind = keyof typeof CONTENT_TYPE;
export type RouteBody = Exclude<BodyKind, 'problem'>;

// form-action: the timeline card's vote form may post to its own origin only.
export const EMBED_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors *";
/** Pages load one same-origin script and call the API on their own origin; nothing from elsewhere. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'";

/** Body kinds served as a file named by the URL itself (downloads, the script); the rest as <path>/index.<ext>. */
const NAMED_FILE_KINDS: ReadonlySet<RouteBody> = new Set(['js', 'csv', 'gzip']);
const INDEX_EXT: Record<RouteBody, string> = { json: 'json', html: 'html', page: 'html', js: 'js', csv: 'csv', gzip: 'gz' };

/** What the function runs for one method of a function route; functions/api.ts maps every id to its code. */
export type HandlerId = 'list-occupations' | 'list-industries' | 'assess' | 'votes-get' | 'votes-post';

/** A request body an operation accepts: its schema (zod/mini, the function's own) and media types. */
export interface RequestBody {
  /** Component name in the OpenAPI document. */
  name: string;
  schema: ZodMiniType;
  media: readonly string[];
  description: string;
}

/** One method of a route. Every route answers 404 (unknown parameter value) and 405 besides these. */
export interface Operation {
  /** The function code that answers; absent on a static route, where a file answers. */
  handler?: HandlerId;
  request?: RequestBody;
  /** Success status when not 200 (with what it means), and its cache policy when not the route's. */
  status?: 201;
  okDescription?: string;
  cache?: CachePolicy;
  /** Defaults to the route's id and summary. */
  operationId?: string;
  summary?: string;
  description?: string;
  /** Further error statuses (problem+json) with when each happens. */
  errors?: Partial<Record<ProblemStatus, string>>;
  /** A form post is answered with 303 to this place (described). */
  formRedirect?: string;
}

interface RouteSpec {
  id: string;
  /** Path pattern with :params, exactly as published. */
  pattern: string;
  ops: Partial<Record<Method, Operation>>;
  /** The function route's no-query answer is also written as a file (for static previews). */
  defaultFile?: boolean;
  shapes: Shape[];
  body: RouteBody;
  schema?: ResponseSchemaKey;
  cache: CachePolicy;
  query?: QuerySpec;
  summary: string;
}

export interface RouteDef extends RouteSpec {
  /** The methods of `ops`, in table order. */
  readonly methods: Method[];
  /** static: a file per concrete path; function: every method has a handler in functions/api.ts. */
  readonly serve: 'static' | 'function';
}

function route(spec: RouteSpec): RouteDef {
  const methods = Object.keys(spec.ops) as Method[];
  const handled = methods.filter((m) => spec.ops[m]!.handler);
  if (handled.length !== 0 && handled.length !== methods.length) throw new Error(`route ${spec.id}: every method or none has a handler`);
  return { ...spec, methods, serve: handled.length ? 'function' : 'static' };
}

export const PARAM_PATTERNS: Record<string, RegExp> = {
  soc_code: /^[0-9]{2}-[0-9]{4}\.[0-9]{2}$/,
  naics_code: /^[0-9]{2,6}(?:-[0-9]{2})?$/,
  slug: /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
  problem: /^[a-z]+(?:-[a-z]+)*$/,
};

const BOTH: Shape[] = ['percentile', 'timeline'];
/** A static route: GET answered by its file. */
const FILE: RouteSpec['ops'] = { GET: {} };
const BAD_QUERY = { 400: 'Invalid query parameter; errors name each parameter' } as const;

const ASSESS_BODY: RequestBody = {
  name: 'AssessRequest',
  schema: AssessRequest,
  media: ['application/json'],
  description: 'The occupation and the personal factors to apply (names and option values from GET /api/v1/displacement/factors).',
};
const VOTE_BODY: RequestBody = {
  name: 'VoteRequest',
  schema: VoteRequest,
  media: VOTE_MEDIA_TYPES,
  description: "One vote on the occupation's score, as JSON or as the card's form (vote=<choice>). Other fields are ignored.",
};

export const ROUTES: readonly RouteDef[] = [
  route({ id: 'occupation-list', pattern: '/api/v1/occupations', ops: { GET: { handler: 'list-occupations', errors: BAD_QUERY } }, defaultFile: true, shapes: BOTH, body: 'json', schema: 'occupationList', cache: 'function-get', query: OCCUPATION_LIST_QUERY, summary: 'List occupations, optionally searched by title, paginated.' }),
  route({ id: 'occupation-detail', pattern: '/api/v1/occupations/:soc_code', ops: FILE, shapes: BOTH, body: 'json', schema: 'occupationDetail', cache: 'static', summary: 'One occupation: labor data, risk score, protective factors.' }),
  route({ id: 'occupation-tasks', pattern: '/api/v1/occupations/:soc_code/tasks', ops: FILE, shapes: BOTH, body: 'json', schema: 'occupationTasks', cache: 'static', summary: 'Task breakdown of one occupation.' }),
  route({ id: 'occupation-risk', pattern: '/api/v1/occupations/:soc_code/risk', ops: FILE, shapes: BOTH, body: 'json', schema: 'occupationRisk', cache: 'static', summary: 'Risk score, protective factors and skill gaps of one occupation.' }),
  // Votes are answered by the function (live counts from the vote database, or the build's
  // snapshot where there is none); the snapshot is also written as files for static previews.
  route({
    id: 'occupation-votes',
    pattern: '/api/v1/occupations/:soc_code/votes',
    ops: {
      GET: { handler: 'votes-get' },
      POST: {
        handler: 'votes-post',
        operationId: 'occupation-vote',
        request: VOTE_BODY,
        status: 201,
        okDescription: 'Recorded; the updated vote statistics',
        cache: 'no-store',
        summary: "Record one community vote on the occupation's score (timeline shape).",
        description:
          `One vote per client (IP address; IPv6 by /64) per occupation per 24 hours; at most ${VOTE_POLICY.defaultBudget} votes per client per hour ` +
          'across occupations (configurable per deployment). Only a keyed hash of the address is stored, under a salt rotated daily. ' +
          'Votes are shown beside the score, never blended into it. A form post (application/x-www-form-urlencoded, as the embed card sends) ' +
          'is answered with 303 back to the card, whose fragment names the outcome (#voted, #vote-repeat, #vote-limit, #vote-off). ' +
          'Browser requests from another site are refused (403): a foreign Origin, or Sec-Fetch-Site cross-site.',
        formRedirect: 'Form post: back to the card (Location /embed/{slug}#state)',
        errors: {
          400: 'Invalid JSON or UTF-8, or no usable client address',
          403: 'A browser request from another site (a foreign Origin, or Sec-Fetch-Site: cross-site); nothing recorded',
          409: 'This client already voted on this occupation in the last 24 hours; nothing changed',
          413: `Body larger than ${VOTE_POLICY.maxBodyBytes} bytes`,
          415: 'Content-Type is neither application/json nor application/x-www-form-urlencoded',
          422: 'Missing or unknown vote; errors name the allowed values',
          429: 'Vote budget of this client used up',
          503: 'Voting is not enabled on this deployment: no vote database, or (type vote-secret-missing) no VOTE_SECRET',
        },
      },
    },
    defaultFile: true,
    shapes: ['timeline'],
    body: 'json',
    schema: 'occupationVotes',
    cache: 'votes',
    summary: 'Community vote statistics of one occupation (GET); record one vote (POST).',
  }),
  route({ id: 'industry-list', pattern: '/api/v1/industries', ops: { GET: { handler: 'list-industries', errors: BAD_QUERY } }, defaultFile: true, shapes: BOTH, body: 'json', schema: 'industryList', cache: 'function-get', query: INDUSTRY_LIST_QUERY, summary: 'List industries, optionally filtered by NAICS level.' }),
  route({ id: 'industry-detail', pattern: '/api/v1/industries/:naics_code', ops: FILE, shapes: BOTH, body: 'json', schema: 'industryDetail', cache: 'static', summary: 'One industry with its occupations.' }),
  route({ id: 'factors', pattern: '/api/v1/displacement/factors', ops: FILE, shapes: BOTH, body: 'json', schema: 'factors', cache: 'static', summary: 'Personal factor options and their adjustments.' }),
  route({
    id: 'assess',
    pattern: '/api/v1/displacement/assess',
    ops: {
      POST: {
        handler: 'assess',
        request: ASSESS_BODY,
        errors: {
          400: 'Invalid JSON or request fields',
          413: `Body larger than ${ASSESS_MAX_BODY_BYTES} bytes`,
          415: 'Content-Type is not application/json',
          422: 'Unknown personal factor or option; errors name the allowed values',
        },
      },
    },
    shapes: BOTH,
    body: 'json',
    schema: 'assessResult',
    cache: 'no-store',
    summary: 'Personalized displacement risk score.',
  }),
  route({ id: 'problem-type', pattern: '/api/v1/problems/:problem', ops: FILE, shapes: BOTH, body: 'json', schema: 'problemType', cache: 'static', summary: 'Documentation of one problem type: the page that the type URI of an error response names.' }),
  route({ id: 'openapi', pattern: '/api/v1/openapi.json', ops: FILE, shapes: BOTH, body: 'json', schema: 'openapi', cache: 'static', summary: 'This OpenAPI document.' }),
  route({ id: 'api-index', pattern: '/api/v1', ops: FILE, shapes: BOTH, body: 'json', schema: 'apiIndex', cache: 'static', summary: 'Index of the API: every resource with its URL.' }),
  route({ id: 'meta', pattern: '/api/v1/meta', ops: FILE, shapes: BOTH, body: 'json', schema: 'meta', cache: 'static', summary: 'Data and model versions, build id, sources with licenses and attribution, counts.' }),
  route({ id: 'embed-index', pattern: '/embed/', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'Gallery of embeddable risk cards, searchable, grouped by major occupation group.' }),
  route({ id: 'embed-card', pattern: '/embed/:slug', ops: FILE, shapes: BOTH, body: 'html', cache: 'static', summary: 'Embeddable risk card (iframe, 320x280).' }),
  route({ id: 'home', pattern: '/', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'Home page.' }),
  route({ id: 'occupation-page', pattern: '/occupations/:slug', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'One occupation for people: score, tasks, factors, transitions, labor data, assessment.' }),
  route({ id: 'docs', pattern: '/docs/', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'API reference generated from this document, with real examples.' }),
  route({ id: 'docs-embed', pattern: '/docs/embed', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'How to embed a risk card.' }),
  route({ id: 'docs-methodology', pattern: '/docs/methodology', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'How the score works: the methodology.' }),
  route({ id: 'downloads', pattern: '/downloads/', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'Bulk downloads: what each file holds, its size and sha256.' }),
  route({ id: 'download-occupations', pattern: '/downloads/occupations.csv', ops: FILE, shapes: BOTH, body: 'csv', cache: 'static', summary: 'Every occupation, one row each (CSV).' }),
  route({ id: 'download-tasks', pattern: '/downloads/tasks.csv', ops: FILE, shapes: BOTH, body: 'csv', cache: 'static', summary: 'Every task of every occupation, one row each (CSV).' }),
  route({ id: 'download-industries', pattern: '/downloads/industries.csv', ops: FILE, shapes: BOTH, body: 'csv', cache: 'static', summary: 'Every industry, one row each (CSV).' }),
  route({ id: 'download-archive', pattern: '/downloads/odr-data.jsonl.gz', ops: FILE, shapes: BOTH, body: 'gzip', cache: 'static', summary: 'Everything the API serves, as gzip-compressed JSON Lines.' }),
  route({ id: 'site-script', pattern: '/assets/site.js', ops: FILE, shapes: BOTH, body: 'js', cache: 'static', summary: "The pages' one script (search, gallery filter, assessment form)." }),
];

const BY_ID = new Map(ROUTES.map((r) => [r.id, r]));

/** The route with this id; a typo is a programming error, so it throws. */
export function routeById(id: string): RouteDef {
  const r = BY_ID.get(id);
  if (!r) throw new Error(`no route ${id}`);
  return r;
}

/**
 * THE URL builder: the path of route `id` with its parameters filled in and checked against their
 * patterns. Build, pages, function and tests all make URLs with it.
 */
export const urlFor = (id: string, params: Record<string, string> = {}): string => fillPattern(routeById(id).pattern, params);

/** The pattern of route `id` (with :params), for code that fills it in later (the pages' script). */
export const patternOf = (id: string): string => routeById(id).pattern;

export const routesFor = (shape: Shape): RouteDef[] => ROUTES.filter((r) => r.shapes.includes(shape));

const EMBED_PREFIX = '/embed/';

/** Not-found bodies as files, for hosts that serve a static 404 (and the local server). The root
 * 404.html also stops Cloudflare Pages from answering unknown paths with the home page. */
export const NOT_FOUND_FILES = { api: 'api/v1/404.json', embed: 'embed/404.html', page: '404.html' } as const;

/** The function's prebuilt data: plain files of the deployment, never under a route prefix. */
export const SHARD_DIR = '_shards';
/** Where shard `name` lives in dist/ (and, with a leading slash, its URL on the site). */
export const shardFile = (name: string): string => `${SHARD_DIR}/${name}.json`;

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

/** Per shape, the routes by segment count (table order kept within each), built on first use. */
const compiled = new Map<Shape, Map<number, CompiledRoute[]>>();
function compiledRoutes(shape: Shape): Map<number, CompiledRoute[]> {
  let bySize = compiled.get(shape);
  if (!bySize) {
    bySize = new Map();
    for (const route of routesFor(shape)) {
      const segs = route.pattern.split('/');
      const params: CompiledRoute['params'] = [];
      segs.forEach((p, i) => {
        if (p.startsWith(':')) params.push([i, p.slice(1), PARAM_PATTERNS[p.slice(1)]!]);
      });
      const list = bySize.get(segs.length) ?? [];
      list.push({ route, segs, params });
      bySize.set(segs.length, list);
    }
    compiled.set(shape, bySize);
  }
  return bySize;
}

/** Segment-wise match; a parameter must match its pattern, so "../" or "%2F" never reach a file. */
export function matchRoute(pathname: string, shape: Shape): RouteMatch | null {
  const segs = pathname.split('/');
  const candidates = compiledRoutes(shape).get(segs.length);
  if (!candidates) return null;
  for (const c of candidates) {
    let ok = true;
    for (let i = 0; i < segs.length && ok; i++) ok = c.segs[i]!.startsWith(':') ? true : c.segs[i] === segs[i];
    if (!ok) continue;
    const params: Record<string, string> = {};
    for (const [i, name, re] of c.params) {
      if (!re.test(segs[i]!)) {
        ok = false;
        break;
      }
      params[name] = segs[i]!;
    }
    if (ok) return { route: c.route, params };
  }
  return null;
}

export function fillPattern(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:([a-z_]+)/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || !PARAM_PATTERNS[name]!.test(v)) throw new Error(`bad value for :${name} in ${pattern}: ${v}`);
    return v;
  });
}

/**
 * Where the file for a concrete path lives in dist/: always <path>/index.json (or index.html).
 * A name ending in ".00" must not decide the content type, so no file is named after a SOC code.
 */
export function fileFor(urlPath: string, body: RouteBody): string {
  const trimmed = urlPath.replace(/^\/+|\/+$/g, '');
  if (NAMED_FILE_KINDS.has(body)) return trimmed;
  return trimmed ? `${trimmed}/index.${INDEX_EXT[body]}` : `index.${INDEX_EXT[body]}`;
}

export function corsHeaders(): Record<string, string> {
  return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'ETag, Allow, Retry-After' };
}

/** Headers of a response body of `kind` under `cache`; ETag and Vary are added by whoever serves it. */
export function responseHeaders(kind: BodyKind, cache: CachePolicy): Record<string, string> {
  const h: Record<string, string> = {
    'Content-Type': CONTENT_TYPE[kind],
    'Cache-Control': CACHE_CONTROL[cache],
    'X-Content-Type-Options': 'nosniff',
    ...corsHeaders(),
  };
  // Cards are framed by other sites: CSP frame-ancestors allows it; no X-Frame-Options on purpose.
  if (kind === 'html') h['Content-Security-Policy'] = EMBED_CSP;
  if (kind === 'page') h['Content-Security-Policy'] = PAGE_CSP;
  return h;
}

export function routeHeaders(route: RouteDef): Record<string, string> {
  return responseHeaders(route.body, route.cache);
}

export function allowedMethods(route: RouteDef | null): string {
  const m = route ? [...route.methods] : ['GET', 'POST'];
  if (m.includes('GET')) m.push('HEAD');
  return [...m, 'OPTIONS'].join(', ');
}

/** CORS preflight answer: any origin, the route's methods, Content-Type, cached for a day. */
export function preflightHeaders(route: RouteDef | null): Record<string, string> {
  return {
    ...corsHeaders(),
    'Access-Control-Allow-Methods': allowedMethods(route),
    'Access-Control-Allow-Headers': 'Content-Type, If-None-Match',
    'Access-Control-Max-Age': '86400',
    'Cache-Control': CACHE_CONTROL.static,
    'X-Content-Type-Options': 'nosniff',
    Allow: allowedMethods(route),
  };
}

/** The kind of 404 body a path gets: problem+json under /api/, the card-sized HTML under /embed/, a page elsewhere. */
export const notFoundKind = (pathname: string): 'html' | 'page' | 'problem' =>
  pathname === '/api' || pathname.startsWith('/api/') ? 'problem' : pathname === '/embed' || pathname.startsWith(EMBED_PREFIX) ? 'html' : 'page';

/** First path segments the route table serves (for CDN configs that route by prefix). */
export const routePrefixes = (shape: Shape): string[] =>
  [...new Set(routesFor(shape).map((r) => r.pattern.split('/')[1]!).filter((s) => s !== ''))].sort();
