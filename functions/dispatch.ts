// The file-or-function decision under the route table's prefixes, written once for every host
// that serves dist/ itself (the node server of npm start, the Cloudflare worker): a GET or HEAD
// of a static route is its file with the route's headers; everything else is the function's
// (query lists, POST, 404, 405, preflight, slash redirects).
import type { Shape } from '../build/model/record-schemas.ts';
import { fileFor } from '../build/contract/dist-layout.ts';
import { matchRelease, matchRoute } from '../build/contract/route-match.ts';
import { routeHeaders, type RouteDef } from '../build/contract/routes.ts';

export type Dispatch =
  | { to: 'file'; file: string; headers: Record<string, string> }
  /** `route`: the route the function answers for this path, when one matches it. */
  | { to: 'function'; route: RouteDef | null };

/** `dataVersion`: the build's (its meta shard's), whose release files are also served by their versioned names. */
export function dispatch(method: string, pathname: string, shape: Shape, dataVersion: string): Dispatch {
  if (method !== 'GET' && method !== 'HEAD') return { to: 'function', route: null };
  const match = matchRoute(pathname, shape);
  if (match?.route.serve === 'static') return { to: 'file', file: fileFor(pathname, match.route.body), headers: routeHeaders(match.route) };
  // A versioned release name is the same file as the route's own path (one copy in dist/).
  const release = match ? null : matchRelease(pathname, shape, dataVersion);
  if (release) return { to: 'file', file: fileFor(release.pattern, release.body), headers: routeHeaders(release) };
  return { to: 'function', route: match?.route ?? null };
}
