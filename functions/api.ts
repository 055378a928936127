// The serverless function: (Request) => Promise<Response>. It answers what files cannot:
// POST /api/v1/displacement/assess, list requests with a query string, votes (GET and POST, over
// the VoteStore the adapter passes in), every 404/405/preflight, and the slash redirects
// (/embed -> /embed/). Thin on purpose: route -> a handler of functions/handlers/ -> reply. It
// reads prebuilt shards through loadShard and never recomputes the model. No node:*, no fs.
import type { ShardMeta } from '../build/contract/request-schemas.ts';
import type { HandlerId, Method } from '../build/contract/routes.ts';
import { matchRoute, redirectFor } from '../build/contract/route-match.ts';
import { noResourceAtDotted } from '../build/contract/problem.ts';
import { DISCARD_LIMIT_BYTES } from '../build/contract/limits.ts';
import { preflight, problemResponse, redirect, toResponse, type AnyReply, type RequestLike } from './http.ts';
import { discardUnread } from './body.ts';
import type { VoteOptions } from './votes.ts';
import { dotSegmentPath, pathAndQuery } from './request-url.ts';
import { shardStore, type ShardSource, type ShardStore } from './shard-store.ts';
import { PageItems } from './page-items.ts';
import { searchCache } from './occupation-search.ts';
import type { RequestInfo, RouteHandler } from './route-handler.ts';
import { iscoNotFound, malformedIsco, methodNotAllowed, notFound } from './handlers/not-found.ts';
import { listOccupations, searchPageCache } from './handlers/list-occupations.ts';
import { listIndustries } from './handlers/list-industries.ts';
import { iscoSearchCache, listIsco } from './handlers/list-isco.ts';
import { assessHandler } from './handlers/assess.ts';
import { voteHandlers } from './handlers/votes.ts';
import { mcpHandler } from './handlers/mcp.ts';
import { iscoSlugRedirect, sixDigitRedirect, slugRedirect } from './handlers/code-redirects.ts';

export type { ShardSource } from './shard-store.ts';
export type { RequestInfo } from './route-handler.ts';

export type Handler = (req: Request, info?: RequestInfo) => Promise<Response>;
/** The same handler before the Response is made: what the local server calls. */
export type ReplyHandler = (req: RequestLike, info?: RequestInfo) => Promise<AnyReply>;

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

export function createHandler(source: ShardSource, options: HandlerOptions = {}): Handler {
  const reply = createReplyHandler(source, options);
  return async (req, info) => toResponse(await reply(req, info), req.method);
}

export function createReplyHandler(source: ShardSource, options: HandlerOptions = {}): ReplyHandler {
  const shards = shardStore(source);
  const discardLimit = options.discardLimitBytes ?? DISCARD_LIMIT_BYTES;
  // Both vote routes share one set of vote handlers over one store, made when either is first asked for.
  let votes: ReturnType<typeof voteHandlers> | undefined;
  const votesOf = () => (votes ??= voteHandlers({ shards, options: options.votes ?? { store: null } }));
  // The code behind each handler id of the route table; the type makes a missing one a compile
  // error. The caches live as long as the instance, as the shards they come from.
  const handlers: Record<HandlerId, RouteHandler> = {
    'list-occupations': onFirstUse(() => listOccupations({ shards, pages: new PageItems(shards), searches: searchCache(), searchPages: searchPageCache() })),
    'list-industries': onFirstUse(() => listIndustries({ shards })),
    'list-isco': onFirstUse(() => listIsco({ shards, searches: iscoSearchCache() })),
    assess: onFirstUse(() => assessHandler({ shards })),
    'votes-get': (req, query, match, info) => votesOf().get(req, query, match, info),
    'votes-post': (req, query, match, info) => votesOf().post(req, query, match, info),
    // The tools of /mcp ask this same router in process, so they answer as the API does.
    mcp: onFirstUse(() => mcpHandler({ source, api: (r) => route(shards, handlers, r, {}) })),
  };
  return async function handle(req: RequestLike, info: RequestInfo = {}): Promise<AnyReply> {
    const response = await route(shards, handlers, req, info);
    // Only a body can be left unread (GET and HEAD have none here).
    if (req.body) await discardUnread(req, discardLimit);
    return response;
  };
}

/**
 * A handler made when its route is first asked for: a cold instance compiles (V8 compiles a
 * function on its first call) only the code of the route it serves, not every handler's factory.
 */
function onFirstUse(make: () => RouteHandler): RouteHandler {
  let handler: RouteHandler | undefined;
  return (req, query, match, info) => (handler ??= make())(req, query, match, info);
}

/** The request to its handler, or the answer when none serves it (404, 405, preflight, redirect). */
async function route(shards: ShardStore, handlers: Record<HandlerId, RouteHandler>, req: RequestLike, info: RequestInfo): Promise<AnyReply> {
  try {
    // A dot segment (`..`, or `%2e%2e` that URL parsing decodes) would make the path name
    // another resource than the one asked for (/isco/%2e%2e/meta -> /meta): none is ours.
    const dotted = dotSegmentPath(req.url);
    if (dotted !== null) return notFound(shards, req, dotted, undefined, noResourceAtDotted(dotted));
    const { pathname, query } = pathAndQuery(req.url);
    const meta = shards.loaded<ShardMeta>('meta') ?? (await shards.load<ShardMeta>('meta'));
    const match = matchRoute(pathname, meta.shape);
    // A preflight names what a resource allows: a path with no resource is a 404 like any other.
    if (req.method === 'OPTIONS') return match ? preflight(match.route) : notFound(shards, req, pathname);
    if (!match) return await unmatched(shards, req, pathname, meta.shape);
    const { route } = match;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (!Object.hasOwn(route.ops, method)) return methodNotAllowed(req, pathname, route);
    // A static route reaches the function only when no file exists for the path.
    const handler = route.ops[method as Method]!.handler;
    if (handler) return await handlers[handler](req, query, match, info);
    return match.params.isco_code !== undefined ? iscoNotFound(shards, req, match.params.isco_code) : notFound(shards, req, pathname, match.params.soc_code);
  } catch {
    // Only our own faults land here (a missing shard); bad input is answered above with a 4xx.
    return problemResponse(req, 500, 'The server could not answer this request.');
  }
}

/**
 * A path no route matches: a redirect when it names one of ours another way, else a 404. Apart
 * from route(): a cold instance compiles a function whole on its first call, and a request for a
 * route compiles none of this.
 */
async function unmatched(shards: ShardStore, req: RequestLike, pathname: string, shape: ShardMeta['shape']): Promise<AnyReply> {
  // A code people have in place of ours (six-digit SOC, a slug): each reads its shards only for a path that may be one.
  const coded = (await sixDigitRedirect(shards, req, pathname, shape)) ?? (await slugRedirect(shards, req, pathname, shape)) ?? (await iscoSlugRedirect(shards, req, pathname));
  if (coded) return coded;
  const to = req.method === 'GET' || req.method === 'HEAD' ? redirectFor(pathname, shape) : null;
  return to ? redirect(to + new URL(req.url).search) : ((await malformedIsco(shards, req, pathname)) ?? notFound(shards, req, pathname));
}
