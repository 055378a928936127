// HTTP policy of every response: cache lifetimes, content types, the pages' and cards' CSP, CORS.
// The route table (routes.ts) names a policy per route; the files' hosts, the function and the
// local server all send these headers.
import { PROBLEM_CONTENT_TYPE } from './problem.ts';
import { VOTE_POLICY } from './votes.ts';

export type CachePolicy = 'static' | 'function-get' | 'votes' | 'no-store' | 'error';

export const CACHE_CONTROL: Record<CachePolicy, string> = {
  // Data changes only with a new build; an hour keeps CDN edges warm without stale days.
  static: 'public, max-age=3600',
  // Query-string lists: computed per request from the same build, cheaper to recompute.
  'function-get': 'public, max-age=300',
  // Live vote counts: browsers revalidate every time (ETag), a CDN may keep them 60 s at most.
  votes: `public, max-age=0, s-maxage=${VOTE_POLICY.cdnMaxAgeSeconds}`,
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
  /** README.txt and LICENSE.txt of /downloads/. */
  text: 'text/plain; charset=utf-8',
  gzip: 'application/gzip',
  sqlite: 'application/vnd.sqlite3',
} as const;
export type BodyKind = keyof typeof CONTENT_TYPE;
export type RouteBody = Exclude<BodyKind, 'problem'>;

// form-action: the timeline card's vote form may post to its own origin only.
export const EMBED_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors *";
/** Pages load one same-origin script and call the API on their own origin; nothing from elsewhere. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'";

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
