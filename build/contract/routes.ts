// THE route table and URL builder. Everything that knows about URLs derives from it: the files the
// build writes, the local server's routing and headers, the CDN configs (_headers, netlify.toml,
// _routes.json), the function's router, the OpenAPI document and the contract tests'
// enumeration. Pure and bundle-safe (the function imports it). Beside it: http-policy.ts (cache,
// content types, CSP, CORS), route-match.ts (a path to its route), dist-layout.ts (where files go).
import type { Shape } from '../model/record-schemas.ts';
import type { ResponseSchemaKey } from './response-schemas.ts';
import { INDUSTRY_LIST_QUERY, ISCO_LIST_QUERY, OCCUPATION_LIST_QUERY, type QuerySpec } from './paging.ts';
import { PROBLEM_VARIANTS, type ProblemStatus } from './problem.ts';
import { CACHE_CONTROL, corsHeaders, responseHeaders, type CachePolicy, type RouteBody } from './http-policy.ts';
import { ASSESS_MAX_BODY_BYTES, MCP_MAX_BATCH, MCP_MAX_BODY_BYTES } from './limits.ts';
import { VOTE_MEDIA_TYPES, VOTE_POLICY } from './votes.ts';
import { AssessRequest, McpMessage, VoteRequest } from './request-schemas.ts';
import type { ZodMiniType } from 'zod/mini';

export type Method = 'GET' | 'POST';

/** What the function runs for one method of a function route; functions/api.ts maps every id to its code. */
export type HandlerId = 'list-occupations' | 'list-industries' | 'list-isco' | 'assess' | 'votes-get' | 'votes-post' | 'mcp';

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
  /** A release file: also served under its versioned name (releaseUrlFor), which names the data and model versions. */
  release?: true;
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
  isco_code: /^[0-9]{4}$/,
  isco_slug: /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
  slug: /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
  problem: /^[a-z]+(?:-[a-z]+)*$/,
  registered_file: /^[a-z]+(?:-[a-z]+)*-[0-9]+\.[0-9]+\.[0-9]+-[0-9]{4}-[0-9]{2}-[0-9]{2}\.json$/,
};

/**
 * Each path parameter's example (what the docs show when the build has it) and a well-formed
 * value that names nothing (the docs' 404 examples).
 */
export const PARAM_EXAMPLES: Record<keyof typeof PARAM_PATTERNS, { example: string; missing: string }> = {
  soc_code: { example: '15-1252.00', missing: '99-9999.99' },
  naics_code: { example: '5415', missing: '99' },
  isco_code: { example: '2512', missing: '9999' },
  isco_slug: { example: 'software-developers', missing: 'no-such-unit-group' },
  slug: { example: 'software-developers', missing: 'no-such-occupation' },
  problem: { example: 'not-found', missing: 'no-such-problem' },
  registered_file: { example: 'forecast-3.0.0-2026-11-25.json', missing: 'forecast-0.0.0-2000-01-01.json' },
};

const BOTH: Shape[] = ['percentile', 'timeline'];
const ISCO_NOT_SCORED = PROBLEM_VARIANTS['isco-not-scored'].type;
/** Every POST's 415: a body it cannot read as sent (the function refuses a Content-Encoding rather than parse it as plain JSON). */
const UNSUPPORTED_BODY = 'Content-Type is not application/json, or the body has a Content-Encoding';
/** A static route: GET answered by its file. */
const FILE: RouteSpec['ops'] = { GET: {} };
const BAD_QUERY = { 400: 'Invalid query parameter; errors name each parameter' } as const;

const ASSESS_BODY: RequestBody = {
  name: 'AssessRequest',
  schema: AssessRequest,
  media: ['application/json'],
  description:
    'The occupation, the personal factors to apply (names and option values from GET /api/v1/displacement/factors) and, optionally, the tasks the person does: `tasks` lists {task_id, share} for tasks of GET /api/v1/occupations/{soc_code}/tasks (shares are relative time, normalized with `other_share`, the time on work outside that list, scored at the occupation\'s average). `tasks` is not a personal factor: its effect is reported in adjustments under the key `tasks`.',
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
          415: 'Content-Type is neither application/json nor application/x-www-form-urlencoded, or the body has a Content-Encoding',
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
  route({ id: 'isco-list', pattern: '/api/v1/isco', ops: { GET: { handler: 'list-isco', errors: BAD_QUERY } }, defaultFile: true, shapes: BOTH, body: 'json', schema: 'iscoList', cache: 'function-get', query: ISCO_LIST_QUERY, summary: 'List ISCO-08 unit groups with their scores, optionally searched by title or filtered by major group, paginated.' }),
  route({
    id: 'isco-detail',
    pattern: '/api/v1/isco/:isco_code',
    ops: { GET: { errors: { 400: 'isco_code is not 4 digits' }, description: `An ISCO-08 unit group's score, carried over from the U.S. occupations the BLS crosswalk links it to (weights: U.S. employment). 404 with type ${ISCO_NOT_SCORED} for a unit group of the crosswalk that reaches no scored occupation.` } },
    shapes: BOTH,
    body: 'json',
    schema: 'iscoDetail',
    cache: 'static',
    summary: 'One ISCO-08 unit group: score, interval, the linked U.S. occupations with their weights, and what the mapping assumes.',
  }),
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
          415: UNSUPPORTED_BODY,
          422: 'Unknown personal factor or option (errors name the allowed values); or, in tasks: a task_id not among the occupation\'s tasks (errors list them), a repeated task_id, a share that is not a positive number, an empty array, more entries than the occupation has tasks; or a negative other_share, or other_share without tasks. Each error names its field',
        },
      },
    },
    shapes: BOTH,
    body: 'json',
    schema: 'assessResult',
    cache: 'no-store',
    summary: 'Personalized displacement risk score.',
  }),
  // The Model Context Protocol endpoint (Streamable HTTP, stateless, JSON answers): the same data
  // as tools for an assistant. Its code is a module of its own, loaded on the first /mcp request.
  route({
    id: 'mcp',
    pattern: '/mcp',
    ops: {
      POST: {
        handler: 'mcp',
        request: { name: 'McpMessage', schema: McpMessage, media: ['application/json'], description: `A JSON-RPC 2.0 message of the Model Context Protocol (or a batch of at most ${MCP_MAX_BATCH}); send Accept: application/json, text/event-stream. tools/list describes the tools.` },
        okDescription: 'The JSON-RPC answer (202 with no body for a notification)',
        errors: {
          400: 'Not JSON, not a JSON-RPC message, or a batch over the cap: a JSON-RPC error object',
          413: `Body larger than ${MCP_MAX_BODY_BYTES} bytes`,
          415: UNSUPPORTED_BODY,
        },
      },
    },
    shapes: BOTH,
    body: 'json',
    schema: 'mcpResponse',
    cache: 'no-store',
    summary: 'Model Context Protocol server: find an occupation, its score and guidance, assess tasks, compare, ISCO-08 unit groups.',
  }),
  route({ id: 'problem-type', pattern: '/api/v1/problems/:problem', ops: FILE, shapes: BOTH, body: 'json', schema: 'problemType', cache: 'static', summary: 'Documentation of one problem type: the page that the type URI of an error response names.' }),
  route({ id: 'openapi', pattern: '/api/v1/openapi.json', ops: FILE, shapes: BOTH, body: 'json', schema: 'openapi', cache: 'static', summary: 'This OpenAPI document.' }),
  route({ id: 'api-index', pattern: '/api/v1', ops: FILE, shapes: BOTH, body: 'json', schema: 'apiIndex', cache: 'static', summary: 'Index of the API: every resource with its URL.' }),
  route({ id: 'changes', pattern: '/api/v1/changes', ops: FILE, shapes: BOTH, body: 'json', schema: 'changes', cache: 'static', summary: "Every occupation's final score and tier in the previous release and in this one, the difference and why it moved." }),
  route({ id: 'registered-file', pattern: '/api/v1/registered/:registered_file', ops: FILE, shapes: BOTH, body: 'json', schema: 'registeredFile', cache: 'static', summary: 'A file registered on the record (a forecast, a head-to-head), byte for byte as committed to releases/; /api/v1/meta lists each with its sha256.' }),
  route({ id: 'meta', pattern: '/api/v1/meta', ops: FILE, shapes: BOTH, body: 'json', schema: 'meta', cache: 'static', summary: 'Data and model versions, build id, sources with licenses and attribution, counts.' }),
  route({ id: 'embed-index', pattern: '/embed/', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'Gallery of embeddable risk cards, searchable, grouped by major occupation group.' }),
  route({ id: 'embed-isco-card', pattern: '/embed/isco/:isco_slug', ops: FILE, shapes: BOTH, body: 'html', cache: 'static', summary: 'Embeddable card of an ISCO-08 unit group (iframe, 320x280).' }),
  route({ id: 'embed-card', pattern: '/embed/:slug', ops: FILE, shapes: BOTH, body: 'html', cache: 'static', summary: 'Embeddable risk card (iframe, 320x280).' }),
  route({ id: 'home', pattern: '/', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'Home page.' }),
  route({ id: 'occupation-page', pattern: '/occupations/:slug', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'One occupation for people: score, tasks, factors, transitions, labor data, assessment.' }),
  route({ id: 'isco-index', pattern: '/isco/', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'Every scored ISCO-08 unit group by major group, with a title search (common non-U.S. titles included): the way in for people outside the U.S.' }),
  route({ id: 'overview', pattern: '/overview/', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'Every occupation at a glance: a treemap by employment coloured by score, a sortable table, summaries by major group and industry.' }),
  route({ id: 'industry-page', pattern: '/industries/:naics_code', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'One industry for people: its workers, weighted score, tiers, subsectors and occupations.' }),
  route({ id: 'isco-page', pattern: '/isco/:isco_slug', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'One ISCO-08 unit group for people: score, interval, the linked U.S. occupations and what the mapping assumes.' }),
  route({ id: 'docs', pattern: '/docs/', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'API reference generated from this document, with real examples.' }),
  route({ id: 'docs-embed', pattern: '/docs/embed', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'How to embed a risk card.' }),
  route({ id: 'docs-mcp', pattern: '/docs/mcp', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'The API as a Model Context Protocol server: its tools and the configuration of common MCP clients.' }),
  route({ id: 'docs-methodology', pattern: '/docs/methodology', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'How the score works: the methodology.' }),
  route({ id: 'docs-changes', pattern: '/docs/changes', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'What moved since the previous release, for people: the counts and every occupation whose score moved, with why.' }),
  route({ id: 'downloads', pattern: '/downloads/', ops: FILE, shapes: BOTH, body: 'page', cache: 'static', summary: 'Bulk downloads: what each file holds, its size and sha256.' }),
  route({ id: 'download-occupations', pattern: '/downloads/occupations.csv', ops: FILE, shapes: BOTH, body: 'csv', cache: 'static', release: true, summary: 'Every occupation, one row each (CSV).' }),
  route({ id: 'download-tasks', pattern: '/downloads/tasks.csv', ops: FILE, shapes: BOTH, body: 'csv', cache: 'static', release: true, summary: 'Every task of every occupation, one row each (CSV).' }),
  route({ id: 'download-industries', pattern: '/downloads/industries.csv', ops: FILE, shapes: BOTH, body: 'csv', cache: 'static', release: true, summary: 'Every industry, one row each (CSV).' }),
  route({ id: 'download-isco', pattern: '/downloads/isco.csv', ops: FILE, shapes: BOTH, body: 'csv', cache: 'static', release: true, summary: 'Every scored ISCO-08 unit group, one row each (CSV).' }),
  route({ id: 'download-datapackage', pattern: '/downloads/datapackage.json', ops: FILE, shapes: BOTH, body: 'json', schema: 'dataPackage', cache: 'static', summary: 'A Frictionless Data Package describing every CSV of /downloads/ (fields, types, units, keys, licenses, sources, version).' }),
  route({ id: 'download-readme', pattern: '/downloads/README.txt', ops: FILE, shapes: BOTH, body: 'text', cache: 'static', summary: 'The downloads in plain text: data and model versions, each file, how to read it with common tools, sources and licenses.' }),
  route({ id: 'download-license', pattern: '/downloads/LICENSE.txt', ops: FILE, shapes: BOTH, body: 'text', cache: 'static', summary: "The downloads' licenses and the attribution to reproduce with the data (O*NET's CC BY 4.0 notice among them)." }),
  route({ id: 'download-changes', pattern: '/downloads/changes.csv', ops: FILE, shapes: BOTH, body: 'csv', cache: 'static', release: true, summary: 'Every occupation: the previous release\'s score and tier, this release\'s, the difference and why (CSV).' }),
  route({ id: 'download-release-summary', pattern: '/downloads/release-summary.json', ops: FILE, shapes: BOTH, body: 'json', schema: 'releaseSummary', cache: 'static', release: true, summary: "This release's summary: every occupation's score, tier and component figures (what releases/ keeps)." }),
  route({ id: 'download-sqlite', pattern: '/downloads/occupation-risk.sqlite', ops: FILE, shapes: BOTH, body: 'sqlite', cache: 'static', release: true, summary: 'Every table of the downloads in one SQLite database (keys, indexes, full-text search on titles), for Datasette or any SQL client.' }),
  route({ id: 'download-datasette-metadata', pattern: '/downloads/metadata.json', ops: FILE, shapes: BOTH, body: 'json', schema: 'datasetteMetadata', cache: 'static', summary: "Datasette's metadata.json for the SQLite database: titles, descriptions, licenses, sources, example queries." }),
  route({ id: 'download-archive', pattern: '/downloads/odr-data.jsonl.gz', ops: FILE, shapes: BOTH, body: 'gzip', cache: 'static', release: true, summary: 'Everything the API serves, as gzip-compressed JSON Lines.' }),
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

/** A data version as the model writes it (onet-29.3+oews-may-2025+model-2.1.0): safe in a file name and a URL path. */
export const DATA_VERSION_PATTERN = /^[a-z0-9]+(?:[.+-][a-z0-9]+)*$/;

/**
 * THE versioned name of a release file: the data version (sources and model) in the file name,
 * /downloads/occupations.csv -> /downloads/odr-onet-29.3+oews-may-2025+model-2.1.0-occupations.csv
 * (odr-data.jsonl.gz -> odr-<version>-data.jsonl.gz). A saved file says which release it is; the
 * route's own path stays today's address and names the same bytes, for links that keep working.
 */
export function releaseUrlFor(id: string, dataVersion: string): string {
  const r = routeById(id);
  if (!r.release) throw new Error(`route ${id} is not a release file`);
  if (!DATA_VERSION_PATTERN.test(dataVersion)) throw new Error(`bad data version for a file name: ${dataVersion}`);
  const cut = r.pattern.lastIndexOf('/') + 1;
  return `${r.pattern.slice(0, cut)}odr-${dataVersion}-${r.pattern.slice(cut).replace(/^odr-/, '')}`;
}

/** The release files of a shape, each with its versioned path for this data version. */
export const releaseRoutes = (shape: Shape, dataVersion: string): Array<{ route: RouteDef; path: string }> =>
  routesFor(shape)
    .filter((r) => r.release)
    .map((route) => ({ route, path: releaseUrlFor(route.id, dataVersion) }));

export function fillPattern(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:([a-z_]+)/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || !PARAM_PATTERNS[name]!.test(v)) throw new Error(`bad value for :${name} in ${pattern}: ${v}`);
    return v;
  });
}

export function routeHeaders(route: RouteDef): Record<string, string> {
  return responseHeaders(route.body, route.cache);
}

export function allowedMethods(route: RouteDef | null): string {
  return allowHeader(route ? route.methods : ['GET', 'POST']);
}

/** The Allow header for these methods: HEAD beside GET, and OPTIONS always. */
export function allowHeader(methods: readonly string[]): string {
  const m = [...methods];
  if (m.includes('GET')) m.push('HEAD');
  return [...m, 'OPTIONS'].join(', ');
}

/**
 * CORS preflight answer: any origin, the route's methods, Content-Type, cached for a day; /mcp also
 * the protocol version header MCP clients send after initialize (a browser client needs it allowed).
 */
export function preflightHeaders(route: RouteDef | null): Record<string, string> {
  return preflightHeadersFor(allowedMethods(route), route?.id === 'mcp' ? 'Content-Type, If-None-Match, Mcp-Protocol-Version' : 'Content-Type, If-None-Match');
}

/**
 * CORS preflight answer for `allow` (an allowHeader value) and the request headers a client may
 * send: the function's routes and the local server's plain files (GET only: no Content-Type).
 */
export function preflightHeadersFor(allow: string, requestHeaders: string): Record<string, string> {
  return {
    ...corsHeaders(),
    'Access-Control-Allow-Methods': allow,
    'Access-Control-Allow-Headers': requestHeaders,
    'Access-Control-Max-Age': '86400',
    'Cache-Control': CACHE_CONTROL.static,
    'X-Content-Type-Options': 'nosniff',
    Allow: allow,
  };
}

/** A 405's problem: the path as requested (not the route pattern), and the methods it does accept (`allow`). */
export function methodNotAllowedProblem(method: string, pathname: string, allow: string) {
  return {
    detail: `${method} is not allowed on ${pathname}.`,
    errors: [{ location: 'method', message: `${method} is not allowed here`, allowed: allow.split(', ') }],
    headers: { Allow: allow },
  };
}

/** First path segments the route table serves (for CDN configs that route by prefix). */
export const routePrefixes = (shape: Shape): string[] =>
  [...new Set(routesFor(shape).map((r) => r.pattern.split('/')[1]!).filter((s) => s !== ''))].sort();
