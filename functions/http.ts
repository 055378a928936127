// Response helpers for the function: headers from the route table, a content hash for ETags
// and 304s, problem+json for every error. No node:* here: this runs on any Web-standard runtime.
//
// Handlers answer with a Reply (status, headers, body text), not a Response: a CDN adapter turns
// it into a Response in one step (toResponse), while the local server writes it straight to the
// socket. On Node, building and then draining a Response costs more than the handler's own work.
import { responseHeaders, corsHeaders, CACHE_CONTROL, type BodyKind, type CachePolicy } from '../build/contract/http-policy.ts';
import { preflightHeaders, type RouteDef } from '../build/contract/routes.ts';
import { problem, type ProblemError, type ProblemStatus, type ProblemVariant } from '../build/contract/problem.ts';
import { appendVersion } from '../build/model/version.ts';

import { hash53 } from '../build/contract/content-hash.ts';

export const etagOf = (body: string): string => `"f-${hash53(body)}"`;

/** True when any entity tag in If-None-Match (a list, or *) matches ours. */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** What a handler needs of a request; a Web Request is one, the local server makes a lighter one. */
export interface RequestLike {
  readonly method: string;
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  /** At most `cap` bytes of the body, null when longer; the local server reads Node's stream itself. */
  readBody?(cap: number): Promise<Uint8Array | null>;
}

/**
 * A body in pieces sent one after another: text, and bytes cut (never copied) from data encoded
 * once per instance. The local server writes the pieces as they are; a Response gets them joined.
 */
export type BodyParts = Array<string | Uint8Array<ArrayBuffer>>;

export interface Reply<Body extends string | BodyParts = string> {
  status: number;
  headers: Record<string, string>;
  /**
   * Null for 204 and 304. A HEAD's reply carries the body GET would get: whoever writes it sends
   * that body's length and drops the bytes (a Response does that itself on every runtime).
   */
  body: Body | null;
}

/** Any handler's answer: text, or a body in parts (list pages). */
export type AnyReply = Reply<string | BodyParts>;

const encoder = new TextEncoder();

/** The parts as one byte array (what a Response is made of on a CDN). */
export function joinParts(parts: BodyParts): Uint8Array<ArrayBuffer> {
  // One part of bytes is the body itself: a Response copies what it is given (Fetch's "extract a body").
  if (parts.length === 1 && typeof parts[0] !== 'string') return parts[0]!;
  const bytes = parts.map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
  const out = new Uint8Array(bytes.reduce((n, b) => n + b.byteLength, 0));
  let at = 0;
  for (const b of bytes) {
    out.set(b, at);
    at += b.byteLength;
  }
  return out;
}

export function toResponse(r: AnyReply, method = 'GET'): Response {
  const body = r.body === null || typeof r.body === 'string' ? r.body : joinParts(r.body);
  if (method !== 'HEAD' || r.status === 204 || r.status === 304) return new Response(body, { status: r.status, headers: r.headers });
  // HEAD: no body, and the length GET would send said outright (a runtime drops a HEAD's body and,
  // workerd at least, its length with it; RFC 9110 §9.3.2). A redirect's is 0, as GET's.
  const length = body === null ? 0 : typeof body === 'string' ? encoder.encode(body).byteLength : body.byteLength;
  return new Response(null, { status: r.status, headers: { ...r.headers, 'Content-Length': String(length) } });
}

/** Headers per (kind, cache) are the same for every response: built once, copied per reply. */
const baseHeaders = new Map<string, Record<string, string>>();
const headersFor = (kind: BodyKind, cache: CachePolicy): Record<string, string> => {
  const key = `${kind} ${cache}`;
  let h = baseHeaders.get(key);
  if (!h) baseHeaders.set(key, (h = responseHeaders(kind, cache)));
  return h;
};

export function respond<Body extends string | BodyParts>(
  req: RequestLike,
  status: number,
  body: Body,
  kind: BodyKind,
  cache: CachePolicy,
  extra: Record<string, string> = {},
  /** A precomputed ETag for `body` (callers that cache bodies cache their tags too); required for parts. */
  knownEtag?: string,
): Reply<Body> {
  const headers = { ...headersFor(kind, cache), ...extra };
  if (status === 200 && (req.method === 'GET' || req.method === 'HEAD')) {
    if (knownEtag === undefined && typeof body !== 'string') throw new Error('respond: a body in parts needs its ETag');
    const etag = knownEtag ?? etagOf(body as string);
    headers.ETag = etag;
    if (matchesEtag(req.headers.get('If-None-Match'), etag)) return { status: 304, headers, body: null };
  }
  // HEAD keeps the body GET would send: the writer sends its length, not the bytes (RFC 9110 §9.3.2).
  return { status, headers, body };
}

/** A JSON object answer; the model version every body names (issue 8) is appended here, so no handler can forget it. */
export const json = <T extends object>(req: RequestLike, value: T & { model_version?: never }, cache: CachePolicy): Reply =>
  respond(req, 200, appendVersion(JSON.stringify(value)), 'json', cache);

export function problemResponse(
  req: RequestLike,
  kind: ProblemStatus | ProblemVariant,
  detail: string,
  errors?: ProblemError[],
  extra: Record<string, string> = {},
): Reply {
  const body = problem(kind, detail, errors);
  return respond(req, body.status, JSON.stringify(body), 'problem', 'error', extra);
}

/** Permanent redirect to a path on the same site (slash variants); cached like static files. */
export const redirect = (location: string, status: 301 | 308 = 301): Reply => ({
  status,
  headers: { Location: location, 'Cache-Control': CACHE_CONTROL.static, ...corsHeaders() },
  body: null,
});

export const preflight = (route: RouteDef | null): Reply => ({ status: 204, headers: preflightHeaders(route), body: null });
