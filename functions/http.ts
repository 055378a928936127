// Response helpers for the function: headers from the route table, a content hash for ETags
// and 304s, problem+json for every error. No node:* here: this runs on any Web-standard runtime.
import { responseHeaders, preflightHeaders, corsHeaders, CACHE_CONTROL, type BodyKind, type CachePolicy, type RouteDef } from '../build/model/routes.ts';
import { problem, type ProblemError, type ProblemStatus } from '../build/model/problem.ts';

/** cyrb53: a fast 53-bit string hash; ETags need stability, not cryptographic strength. */
export function hash53(s: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

export const etagOf = (body: string): string => `"f-${hash53(body)}"`;

/** True when any entity tag in If-None-Match (a list, or *) matches ours. */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

export function respond(
  req: Request,
  status: number,
  body: string,
  kind: BodyKind,
  cache: CachePolicy,
  extra: Record<string, string> = {},
): Response {
  const headers = new Headers({ ...responseHeaders(kind, cache), ...extra });
  if (status === 200 && (req.method === 'GET' || req.method === 'HEAD')) {
    const etag = etagOf(body);
    headers.set('ETag', etag);
    if (matchesEtag(req.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers });
  }
  return new Response(req.method === 'HEAD' ? null : body, { status, headers });
}

export const json = (req: Request, value: unknown, cache: CachePolicy): Response =>
  respond(req, 200, JSON.stringify(value), 'json', cache);

export function problemResponse(
  req: Request,
  status: ProblemStatus,
  detail: string,
  errors?: ProblemError[],
  extra: Record<string, string> = {},
): Response {
  return respond(req, status, JSON.stringify(problem(status, detail, errors)), 'problem', 'error', extra);
}

/** Permanent redirect to a path on the same site (slash variants); cached like static files. */
export const redirect = (location: string): Response =>
  new Response(null, { status: 301, headers: { Location: location, 'Cache-Control': CACHE_CONTROL.static, ...corsHeaders() } });

export const preflight = (route: RouteDef | null): Response =>
  new Response(null, { status: 204, headers: preflightHeaders(route) });
