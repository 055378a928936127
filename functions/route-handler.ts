// What a route's handler is: the route table (build/contract/routes.ts) names a handler id per
// method of a function route, and functions/api.ts ties each id to one of these.
import type { RouteMatch } from '../build/contract/route-match.ts';
import type { AnyReply, RequestLike } from './http.ts';

/** What the adapter knows about a request beyond the Request itself (never taken from headers here). */
export interface RequestInfo {
  /** The client's IP address as the adapter established it (socket, trusted proxy, CF-Connecting-IP). */
  clientAddress?: string | null;
}

/** `query`: the request URL's query without "?"; `match`: the route and its path parameters. */
export type RouteHandler = (req: RequestLike, query: string, match: RouteMatch, info: RequestInfo) => Promise<AnyReply>;
