// CDN configs, generated from the route table so they cannot drift from the local server:
// Cloudflare Pages (_routes.json + advanced-mode _worker.js, bundled elsewhere) and Netlify
// (_headers, netlify.toml). Pure: returns file contents.
//
// No Vercel output: a no-framework Vercel deployment neither serves static files under api/ (our
// whole /api/v1 tree) nor turns api/_*.mjs into a function, so a vercel.json here could not work.
// Vercel needs its Build Output API (.vercel/output with its own static tree) instead.
import { releaseUrlFor, routeHeaders, routesFor, routePrefixes, type RouteDef } from '../contract/routes.ts';
import { fileFor } from '../contract/dist-layout.ts';
import type { Shape } from '../model/record-schemas.ts';
import { FUNCTION_PATHS, NETLIFY_FUNCTIONS } from '../contract/dist-layout.ts';
import { mcpModuleFor } from './bundle-function.ts';

const functionRoutes = (shape: Shape) => routesFor(shape).filter((r) => r.serve === 'function');
const staticRoutes = (shape: Shape) => routesFor(shape).filter((r) => r.serve === 'static');

const headerLines = (r: RouteDef) => Object.entries(routeHeaders(r)).map(([k, v]) => `  ${k}: ${v}`);

/**
 * Shared by Netlify and Cloudflare Pages (same syntax). Cloudflare sends /api and /embed through
 * the worker, which sets the same headers itself; this file covers whatever a host serves directly.
 * Blocks with a placeholder come first, exact paths after them: Netlify merges every block that
 * matches, a later value replacing an earlier one, and a route's file can match another route's
 * placeholder (/embed/index.html is also an /embed/:slug), so its own block must be the later one.
 */
export function headersFile(shape: Shape, dataVersion: string): string {
  const blocks: Array<{ path: string; lines: string[] }> = [];
  for (const r of staticRoutes(shape)) {
    const file = '/' + fileFor(r.pattern, r.body);
    // A named file (a download, the script) is its own path: one block, not two. A release file's
    // versioned name (rewritten to the same file) gets the same headers.
    const paths = [r.pattern, file, ...(r.release ? [releaseUrlFor(r.id, dataVersion)] : [])];
    for (const path of new Set(paths)) blocks.push({ path, lines: headerLines(r) });
  }
  const placeholder = (b: { path: string }) => b.path.includes('/:');
  const ordered = [...blocks.filter(placeholder), ...blocks.filter((b) => !placeholder(b))];
  return ['# Generated from build/contract/routes.ts. Do not edit.', ...ordered.flatMap((b) => [b.path, ...b.lines, ''])].join('\n');
}

/**
 * Netlify: netlify.toml with its rewrites. Not `_redirects`: Cloudflare Pages reads that file too,
 * and Netlify's catch-all to /.netlify/functions would turn every asset into a 404 there (seen
 * under `wrangler pages dev`). One exact rewrite per static file (no placeholder rule can tell a
 * missing file from an existing one), then the forced function routes, then a catch-all so that
 * every unknown /api or /embed path reaches the function and gets a real 404 body.
 */
export function netlifyToml(shape: Shape, staticPaths: { path: string; file: string }[]): string {
  // Netlify names a function after its file or folder: _netlify/functions/api/api.mjs answers at /.netlify/functions/api.
  const fn = `/.netlify/functions/${NETLIFY_FUNCTIONS.name}`;
  const rule = (from: string, to: string, force = false) =>
    ['[[redirects]]', `  from = ${JSON.stringify(from)}`, `  to = ${JSON.stringify(to)}`, '  status = 200', ...(force ? ['  force = true'] : []), ''];
  return [
    '# Generated from build/contract/routes.ts. Do not edit. Deploy this folder as is: netlify deploy --dir .',
    '[build]',
    '  publish = "."',
    '',
    '[functions]',
    `  directory = ${JSON.stringify(NETLIFY_FUNCTIONS.directory)}`,
    '  node_bundler = "none"',
    // The "none" bundler ships the entry file and included_files only: the MCP module the entry
    // imports on the first /mcp request must be named here (it stays beside api.mjs in the zip).
    `  included_files = [${JSON.stringify(mcpModuleFor(FUNCTION_PATHS.netlify))}]`,
    '',
    ...staticPaths.flatMap((p) => rule(p.path, `/${p.file}`)),
    ...functionRoutes(shape).flatMap((r) => rule(r.pattern, fn, true)),
    // Unknown paths under the table's prefixes get the function's 404 (or its slash redirect);
    // elsewhere Netlify serves the root 404.html itself.
    ...routePrefixes(shape).flatMap((p) => [...rule(`/${p}`, fn), ...rule(`/${p}/*`, fn)]),
  ].join('\n');
}

/**
 * Cloudflare Pages: the root and every prefix of the route table invoke the worker, which serves
 * each route's file with the table's headers, redirects slash variants and answers 404s exactly
 * like the local server; shards and configs stay plain assets. Paths outside these prefixes get
 * Pages' own handling, where the root 404.html stops the single-page fallback to the home page.
 */
export function cloudflareRoutes(shape: Shape): string {
  // _functions/ too: the platform would serve its files (the bundle and its metafile) as assets;
  // the worker answers 404 there, as the local server does.
  const include = ['/', ...[...routePrefixes(shape), '_functions'].flatMap((p) => [`/${p}`, `/${p}/*`])];
  return JSON.stringify({ version: 1, include, exclude: [] }, null, 2) + '\n';
}
