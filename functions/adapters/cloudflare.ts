// Cloudflare Pages advanced mode (_worker.js). _routes.json sends only /api/* and /embed/* here.
// Static routes are served from ASSETS with the route table's headers; everything else (query
// lists, assess, 404/405, preflight) goes to the shared handler, exactly as the local server does.
import { createHandler, type Handler } from '../api.ts';
import { fileFor, matchRoute, routeHeaders } from '../../build/model/routes.ts';
import type { ShardMeta } from '../../build/model/api-schemas.ts';

interface Env {
  ASSETS: { fetch(req: Request | string): Promise<Response> };
}

let handler: Handler | null = null;
let meta: Promise<ShardMeta> | null = null;

export default {
  async fetch(req: Request, env: Env): Promise<Response> {
    const url = new URL(req.url);
    const load = async (name: string) => {
      const res = await env.ASSETS.fetch(`${url.origin}/_shards/${name}.json`);
      if (!res.ok) throw new Error(`shard ${name}: HTTP ${res.status}`);
      return res.json();
    };
    // The platform caps request bodies itself (see HandlerOptions).
    handler ??= createHandler({ loadShard: load }, { discardLimitBytes: Number.POSITIVE_INFINITY });
    meta ??= load('meta') as Promise<ShardMeta>;
    const match = matchRoute(url.pathname, (await meta).shape);
    if (match?.route.serve === 'static' && (req.method === 'GET' || req.method === 'HEAD')) {
      // Pages' asset server answers /x/index.html with a redirect to /x/ (its HTML handling), so
      // HTML pages are fetched by their folder; JSON files by their own name.
      const file = fileFor(url.pathname, match.route.body).replace(/(^|\/)index\.html$/, '$1');
      const asset = await env.ASSETS.fetch(new Request(`${url.origin}/${file}`, req));
      if (asset.status === 200 || asset.status === 304) {
        const headers = new Headers(asset.headers);
        for (const [k, v] of Object.entries(routeHeaders(match.route))) headers.set(k, v);
        return new Response(asset.body, { status: asset.status, headers });
      }
    }
    return handler(req);
  },
};
