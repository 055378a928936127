// URL rewriting for --base-url / ODR_FETCH_BASE_URL: every publisher origin is replaced by one
// server (a local stand-in in tests, or a private mirror) that serves the same paths.

/**
 * Rewrites `url` so its path and query are served from `base` instead of the publisher's origin.
 * A path prefix on the base is kept: base http://127.0.0.1:8080/mirror + /naics/x.xlsx
 * becomes http://127.0.0.1:8080/mirror/naics/x.xlsx. Percent-encoding of the path is preserved.
 */
export function rewriteOrigin(url: string, base: string | undefined): string {
  if (base === undefined || base === '') return url;
  const target = new URL(url);
  const mirror = new URL(base);
  if (mirror.protocol !== 'http:' && mirror.protocol !== 'https:') {
    throw new Error(`base URL must be http(s): ${base}`);
  }
  const prefix = mirror.pathname.replace(/\/+$/, '');
  return `${mirror.origin}${prefix}${target.pathname}${target.search}`;
}

/** The host a URL belongs to, for messages and host-specific hints (BLS wants a contact). */
export const hostOf = (url: string): string => new URL(url).hostname;
