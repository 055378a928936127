// The serverless function: (Request) => Promise<Response>. It answers what files cannot:
// POST /api/v1/displacement/assess, list requests with a query string, votes (GET and POST,
// functions/votes.ts, over the VoteStore the adapter passes in), every 404/405/preflight, and
// the slash redirects (/embed -> /embed/). Thin on purpose: parse -> pure model modules ->
// Response. It reads prebuilt shards through loadShard and never recomputes the model.
// No node:*, no fs.
import { assess } from '../build/model/assess.ts';
import type { AssessShard, IndustryList, OccupationListItem, PageShard, SearchShard, VotesShard } from '../build/model/api-schemas.ts';
import { AssessRequest, ShardMeta } from '../build/model/request-schemas.ts';
import { INDUSTRY_LIST_QUERY, OCCUPATION_LIST_QUERY, pageShardName, pageWindow, parseQuery, shardOf } from '../build/model/paging.ts';
import { listPageJson } from '../build/model/present.ts';
import { allowedMethods, matchRoute, notFoundKind, redirectFor, urlFor, type HandlerId, type Method, type RouteDef, type RouteMatch } from '../build/model/routes.ts';
import { searchOccupations, suggestOccupations } from '../build/model/search.ts';
import type { ProblemError } from '../build/model/problem.ts';
import { ASSESS_MAX_BODY_BYTES, DISCARD_LIMIT_BYTES } from '../build/model/limits.ts';
import { MODEL_VERSION } from '../build/model/version.ts';
import { etagOf, hash53, json, preflight, problemResponse, redirect, respond, toResponse, type Reply, type RequestLike } from './http.ts';
import { discardUnread, readCapped } from './body.ts';
import { votesEndpoint, type VoteOptions } from './votes.ts';

const MAX_BODY_BYTES = ASSESS_MAX_BODY_BYTES;
/** Queries whose ranked matches an instance keeps (at most one number per occupation each). */
const SEARCH_CACHE_ENTRIES = 1000;

export interface ShardSource {
  loadShard(name: string): Promise<unknown>;
}

/** What the adapter knows about a request beyond the Request itself (never taken from headers here). */
export interface RequestInfo {
  /** The client's IP address as the adapter established it (socket, trusted proxy, CF-Connecting-IP). */
  clientAddress?: string | null;
}

export type Handler = (req: Request, info?: RequestInfo) => Promise<Response>;
/** The same handler before the Response is made: what the local server calls. */
export type ReplyHandler = (req: RequestLike, info?: RequestInfo) => Promise<Reply>;

interface SerializedPage {
  offset: number;
  json: string[];
  hashes: string[];
}

export interface HandlerOptions {
  /** Community votes: the store (null or absent: no database, POST answers 503) and its settings. */
  votes?: VoteOptions;
  /**
   * Bytes of an unwanted request body read and dropped (see DISCARD_LIMIT_BYTES). Hosts that cap
   * bodies themselves pass Infinity: Cloudflare refuses bodies over its plan limit (100 MB and
   * up) before the worker runs, and workerd left the client's next request hanging when the
   * worker cancelled a body instead.
   */
  discardLimitBytes?: number;
}

/**
 * Shards are loaded once per instance and kept: they are immutable per build. The build validated
 * every shard against its full schema before writing it beside this bundle, so only the metadata
 * (which says what kind of build this is) is checked again here; re-parsing megabytes of search
 * index on every cold start would buy nothing.
 */
function shardCache(source: ShardSource) {
  const cache = new Map<string, Promise<unknown>>();
  return <T>(name: string): Promise<T> => {
    let p = cache.get(name);
    if (!p) {
      p = source.loadShard(name).then((raw) => (name === 'meta' ? ShardMeta.parse(raw) : raw));
      // A failed load must not poison the instance: the next request retries.
      p.catch(() => cache.delete(name));
      cache.set(name, p);
    }
    return p as Promise<T>;
  };
}

export function createHandler(source: ShardSource, options: HandlerOptions = {}): Handler {
  const reply = createReplyHandler(source, options);
  return async (req, info) => toResponse(await reply(req, info));
}

export function createReplyHandler(source: ShardSource, options: HandlerOptions = {}): ReplyHandler {
  const shard = shardCache(source);
  const discardLimit = options.discardLimitBytes ?? DISCARD_LIMIT_BYTES;
  const votes = votesEndpoint(options.votes ?? { store: null }, async (soc) => {
    const all = (await shard<VotesShard>('votes')).occupations;
    const o = Object.hasOwn(all, soc) ? all[soc]! : null;
    return o && { slug: o[0], snapshot: { agree: o[1], too_high: o[2], too_low: o[3] } };
  });

  /** Each page shard's items serialized once, with a hash of each (for the page's ETag). */
  const serialized = new Map<number, Promise<SerializedPage>>();
  const serializedPage = (n: number): Promise<SerializedPage> => {
    let p = serialized.get(n);
    if (!p) {
      p = shard<PageShard>(pageShardName(n)).then((page) => {
        const json = page.items.map((item: OccupationListItem) => JSON.stringify(item));
        return { offset: page.offset, json, hashes: json.map(hash53) };
      });
      p.catch(() => serialized.delete(n));
      serialized.set(n, p);
    }
    return p;
  };

  async function pageItems(positions: number[], meta: ShardMeta): Promise<{ json: string[]; hashes: string[] }> {
    const size = meta.page_shard_size;
    const pages = new Map<number, SerializedPage>();
    for (const p of positions) {
      const n = shardOf(p, size);
      if (!pages.has(n)) pages.set(n, await serializedPage(n));
    }
    const json: string[] = [];
    const hashes: string[] = [];
    for (const p of positions) {
      const page = pages.get(shardOf(p, size))!;
      json.push(page.json[p - page.offset]!);
      hashes.push(page.hashes[p - page.offset]!);
    }
    return { json, hashes };
  }

  // Ranked matches per query, kept per instance like the shards they come from (people search
  // for the same few words; a typo-tolerant scan costs up to a few ms). Bounded: oldest out first.
  const searches = new Map<string, number[]>();
  const searched = (index: SearchShard, q: string): number[] => {
    let hit = searches.get(q);
    if (!hit) {
      hit = searchOccupations(index, q);
      if (searches.size >= SEARCH_CACHE_ENTRIES) searches.delete(searches.keys().next().value!);
      searches.set(q, hit);
    }
    return hit;
  };

  async function listOccupations(req: RequestLike, params: URLSearchParams, route: RouteDef): Promise<Reply> {
    const parsed = parseQuery(params, OCCUPATION_LIST_QUERY);
    if (!parsed.ok) return problemResponse(req, 400, 'Invalid query parameters.', parsed.errors);
    const limit = parsed.values.limit as number;
    const offset = parsed.values.offset as number;
    const q = parsed.values.q as string | undefined;
    const meta = await shard<ShardMeta>('meta');
    let positions: number[];
    let count: number;
    let suggested: number[] | undefined;
    if (q === undefined) {
      count = meta.occupation_count;
      const { start, end } = pageWindow(count, limit, offset);
      positions = range(start, end);
    } else {
      const index = await shard<SearchShard>('search');
      const matches = searched(index, q);
      count = matches.length;
      // Nothing at all: say which titles come closest, additively (data stays empty, count 0).
      if (count === 0) suggested = suggestOccupations(index, q);
      const { start, end } = pageWindow(count, limit, offset);
      positions = matches.slice(start, end);
    }
    const items = await pageItems(positions, meta);
    // The body is a function of the items, the envelope numbers and the model version, so is its
    // tag: hashing those is as strong as hashing the body and 20x shorter.
    const suggestions = suggested && (await pageItems(suggested, meta));
    const etag = etagOf(`${MODEL_VERSION}:${count},${limit},${offset}:${items.hashes.join('')}${suggestions ? `:${suggestions.hashes.join('')}` : ''}`);
    return respond(req, 200, listPageJson(items.json, count, limit, offset, suggestions?.json), 'json', route.cache, {}, etag);
  }

  async function listIndustries(req: RequestLike, params: URLSearchParams, route: RouteDef): Promise<Reply> {
    const parsed = parseQuery(params, INDUSTRY_LIST_QUERY);
    if (!parsed.ok) return problemResponse(req, 400, 'Invalid query parameters.', parsed.errors);
    const level = parsed.values.level as number | undefined;
    const all = await shard<IndustryList>('industries');
    const data = level === undefined ? all.data : all.data.filter((i) => i.level === level);
    return json(req, { data, count: data.length }, route.cache);
  }

  async function assessOne(req: RequestLike, route: RouteDef): Promise<Reply> {
    const type = (req.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      return problemResponse(req, 415, 'Send the request body as JSON with Content-Type: application/json.', [
        { location: 'header.Content-Type', message: type ? `unsupported media type "${type}"` : 'missing', allowed: ['application/json'] },
      ]);
    }
    const declared = req.headers.get('Content-Length');
    if (declared !== null && Number(declared) > MAX_BODY_BYTES) return tooLarge(req);
    const bytes = await readCapped(req, MAX_BODY_BYTES);
    if (bytes === null) return tooLarge(req);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      return problemResponse(req, 400, 'The request body is not valid UTF-8 JSON.', [{ location: 'body', message: 'invalid JSON' }]);
    }
    const parsed = AssessRequest.safeParse(body);
    if (!parsed.success) {
      const errors: ProblemError[] = parsed.error.issues.map((i) => ({
        location: ['body', ...i.path.map(String)].join('.'),
        message: i.message,
      }));
      return problemResponse(req, 400, 'The request body does not match the assessment request schema.', errors);
    }
    const data = await shard<AssessShard>('assess');
    const occ = Object.hasOwn(data.occupations, parsed.data.soc_code) ? data.occupations[parsed.data.soc_code] : undefined;
    if (!occ) return problemResponse(req, 404, `No occupation with soc_code ${parsed.data.soc_code}.`, [{ location: 'body.soc_code', message: 'unknown occupation' }]);
    const personal = factorEntries(body, parsed.data.personal_factors ?? {});
    const outcome = assess({ soc_code: parsed.data.soc_code, title: occ[0], base_score: occ[1] }, personal, data.factors, data.tiers);
    if (!outcome.ok) {
      const errors: ProblemError[] = outcome.issues.map((i) =>
        i.kind === 'unknown_factor'
          ? { location: `body.personal_factors.${i.factor}`, message: `unknown factor "${i.factor}"`, allowed: i.allowed }
          : { location: `body.personal_factors.${i.factor}`, message: `unknown option "${i.value}" for ${i.factor}`, allowed: i.allowed },
      );
      return problemResponse(req, 422, `Unknown personal factor or option; see GET ${urlFor('factors')}.`, errors);
    }
    return json(req, outcome.result, route.cache);
  }

  async function notFound(req: RequestLike, pathname: string): Promise<Reply> {
    const kind = notFoundKind(pathname);
    if (kind !== 'problem') {
      const page = (await shard<{ html: string }>(kind === 'html' ? 'embed-404' : 'page-404')).html;
      return respond(req, 404, page, kind, 'error');
    }
    return problemResponse(req, 404, `No resource at ${pathname}.`);
  }

  /** The code behind each handler id of the route table; the type makes a missing one a compile error. */
  const handlers: Record<HandlerId, (req: RequestLike, url: URL, match: RouteMatch, info: RequestInfo) => Promise<Reply>> = {
    'list-occupations': (req, url, { route }) => listOccupations(req, url.searchParams, route),
    'list-industries': (req, url, { route }) => listIndustries(req, url.searchParams, route),
    assess: (req, _url, { route }) => assessOne(req, route),
    'votes-get': (req, _url, { route, params }) => votes.get(req, params.soc_code!, route),
    'votes-post': (req, _url, { params }, info) => votes.post(req, params.soc_code!, info.clientAddress ?? null),
  };

  return async function handle(req: RequestLike, info: RequestInfo = {}): Promise<Reply> {
    const response = await route(req, info);
    await discardUnread(req, discardLimit);
    return response;
  };

  async function route(req: RequestLike, info: RequestInfo): Promise<Reply> {
    try {
      const url = new URL(req.url);
      const meta = await shard<ShardMeta>('meta');
      const match = matchRoute(url.pathname, meta.shape);
      if (req.method === 'OPTIONS') return preflight(match?.route ?? null);
      if (!match) {
        const to = req.method === 'GET' || req.method === 'HEAD' ? redirectFor(url.pathname, meta.shape) : null;
        return to ? redirect(to + url.search) : notFound(req, url.pathname);
      }
      const { route } = match;
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (!Object.hasOwn(route.ops, method)) return methodNotAllowed(req, url.pathname, route);
      // A static route reaches the function only when no file exists for the path.
      const handler = route.ops[method as Method]!.handler;
      return handler ? await handlers[handler](req, url, match, info) : notFound(req, url.pathname);
    } catch {
      // Only our own faults land here (a missing shard); bad input is answered above with a 4xx.
      return problemResponse(req, 500, 'The server could not answer this request.');
    }
  }
}

/**
 * The factor map as the client sent it. Zod's record output cannot hold a `__proto__` key (it
 * would be dropped silently), so the names come from the raw JSON object into a null-prototype
 * map, where such a key stays an ordinary, unknown factor and is answered with a 422.
 */
function factorEntries(body: unknown, parsed: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  const raw = (body as { personal_factors?: unknown }).personal_factors;
  const names = raw !== null && typeof raw === 'object' ? Object.keys(raw) : Object.keys(parsed);
  for (const name of names) out[name] = Object.hasOwn(parsed, name) ? parsed[name]! : String((raw as Record<string, unknown>)[name]);
  return out;
}

function range(start: number, end: number): number[] {
  const out: number[] = [];
  for (let i = start; i < end; i++) out.push(i);
  return out;
}

/** 405: the path as requested (not the route pattern), and the methods it does accept. */
function methodNotAllowed(req: RequestLike, pathname: string, route: RouteDef): Reply {
  const allow = allowedMethods(route);
  return problemResponse(req, 405, `${req.method} is not allowed on ${pathname}.`, [{ location: 'method', message: `${req.method} is not allowed here`, allowed: allow.split(', ') }], { Allow: allow });
}

const tooLarge = (req: RequestLike): Reply =>
  problemResponse(req, 413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`, [{ location: 'body', message: `at most ${MAX_BODY_BYTES} bytes` }]);
