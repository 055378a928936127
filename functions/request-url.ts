// The path and query of a request URL, cut by hand when nothing needs normalizing.

/** A path that URL parsing leaves as it is: plain characters, no dot segment, no escapes. */
const PLAIN_PATH = /^\/[A-Za-z0-9_.~/-]*$/;
/** A query whose pairs come out the same parsed raw as after URL serialization: printable ASCII, no fragment. */
const PLAIN_QUERY = /^[\x21-\x22\x24-\x7e]*$/;

/** A path segment that URL parsing removes or resolves upwards: `.`, `..`, and their percent-encoded forms. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=[/?#]|$)/i;

/** The path of an absolute request URL as the client sent it, when it has a dot segment; otherwise null. */
export function dotSegmentPath(url: string): string | null {
  const scheme = url.indexOf('://');
  const at = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
  if (at < 0) return null;
  // Where the path ends: at the first "?" or "#" (indexOf, not a regular expression: V8 compiles
  // each one on its first use, some 20 µs on a cold instance's first request).
  const q = url.indexOf('?', at);
  const h = url.indexOf('#', at);
  const end = q < 0 ? h : h < 0 ? q : Math.min(q, h);
  const raw = end < 0 ? url.slice(at) : url.slice(at, end);
  // Only a path with "/." or an escape can hold one (most have neither: no pattern to compile).
  return (raw.includes('/.') || raw.includes('%')) && DOT_SEGMENT.test(raw) ? raw : null;
}

/**
 * The path and the query (without "?") of an absolute request URL, as `new URL` would give them.
 * Cut by hand when nothing needs normalizing (what runtimes hand us, and nearly every request),
 * parsed otherwise: URL construction is a good part of a small request's cost.
 */
export function pathAndQuery(url: string): { pathname: string; query: string } {
  const scheme = url.indexOf('://');
  const at = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
  if (at >= 0) {
    const q = url.indexOf('?', at);
    const pathname = q < 0 ? url.slice(at) : url.slice(at, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    if (PLAIN_PATH.test(pathname) && !pathname.includes('/.') && PLAIN_QUERY.test(query)) return { pathname, query };
  }
  const parsed = new URL(url);
  return { pathname: parsed.pathname, query: parsed.search.slice(1) };
}

/**
 * A request URL's origin and path as URL gives them: cut from the serialized URL for http and
 * https (a Request's URL has no credentials, and its path starts at the first "/" after the
 * host), parsed otherwise. Parsing it whole was a good part of a small request's cost on Node.
 */
export function originAndPath(href: string): { origin: string; pathname: string } {
  const at = href.startsWith('http://') || href.startsWith('https://') ? href.indexOf('/', href.indexOf('://') + 3) : -1;
  if (at >= 0) return { origin: href.slice(0, at), pathname: pathAndQuery(href).pathname };
  const url = new URL(href);
  return { origin: url.origin, pathname: url.pathname };
}
