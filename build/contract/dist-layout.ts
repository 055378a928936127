// Where things live in dist/: each route's file, the 404 bodies, the function's shards and bundles.
import type { RouteBody } from './http-policy.ts';

export const FUNCTION_PATHS = {
  /**
   * Where esbuild writes the platform-neutral handler module and the adapters. Each has the MCP
   * server's module beside it (mcp.mjs or mcp.js), imported on the first /mcp request: Cloudflare
   * Pages takes a _worker.js folder of modules (index.js), Netlify a function folder named as its
   * entry file (api/api.mjs answers at /.netlify/functions/api).
   */
  core: '_functions/api.mjs',
  cloudflareWorker: '_worker.js/index.js',
  netlify: '_netlify/functions/api/api.mjs',
} as const;
/** Netlify's functions folder (netlify.toml [functions] directory) and the function's name there. */
export const NETLIFY_FUNCTIONS = { directory: '_netlify/functions', name: 'api' } as const;

/** Not-found bodies as files, for hosts that serve a static 404 (and the local server). The root
 * 404.html also stops Cloudflare Pages from answering unknown paths with the home page. */
export const NOT_FOUND_FILES = { api: 'api/v1/404.json', embed: 'embed/404.html', page: '404.html' } as const;

/** Every file's sha256 and the data version (build/emit/manifest.ts); the local server's ETags come from it. */
export const MANIFEST_FILE = 'manifest.json';

/** The function's prebuilt data: plain files of the deployment, never under a route prefix. */
export const SHARD_DIR = '_shards';
/** Where shard `name` lives in dist/ (and, with a leading slash, its URL on the site). */
export const shardFile = (name: string): string => `${SHARD_DIR}/${name}.json`;
/** The unscored occupations' search index, whole: the served index's shard ("search") leaves it out (search-words.ts). */
export const UNSCORED_SHARD = 'search-unscored';
/** The shard mapping each served occupation's slug to its SOC code (route-match.ts: the slug redirects). */
export const SLUGS_SHARD = 'slugs';
/**
 * The parts of the served occupations' search index that its shard ("search") leaves out besides
 * the postings, each a shard of its own loaded when a query first needs it (search-words.ts): the
 * titles (suggestions when nothing is found) and the vocabulary ids by length (the typo scan).
 */
export const SEARCH_PART_SHARDS = { titles: 'search/titles', by_length: 'search/by_length' } as const;
/** An occupation's task basis (the assessment's task path) is a shard of its own, `tasks/<soc_code>`: a request loads one occupation's, not all. */
export const TASK_SHARD_PREFIX = 'tasks/';
export const taskShardName = (soc: string): string => `${TASK_SHARD_PREFIX}${soc}`;

/** Body kinds served as a file named by the URL itself (downloads, the script); the rest as <path>/index.<ext>. */
const NAMED_FILE_KINDS: ReadonlySet<RouteBody> = new Set(['js', 'csv', 'text', 'gzip', 'sqlite']);
const INDEX_EXT: Record<RouteBody, string> = { json: 'json', html: 'html', page: 'html', js: 'js', csv: 'csv', text: 'txt', gzip: 'gz', sqlite: 'sqlite' };

/**
 * Where the file for a concrete path lives in dist/: always <path>/index.json (or index.html).
 * A name ending in ".00" must not decide the content type, so no file is named after a SOC code.
 */
export function fileFor(urlPath: string, body: RouteBody): string {
  const trimmed = urlPath.replace(/^\/+|\/+$/g, '');
  if (NAMED_FILE_KINDS.has(body)) return trimmed;
  return trimmed ? `${trimmed}/index.${INDEX_EXT[body]}` : `index.${INDEX_EXT[body]}`;
}
