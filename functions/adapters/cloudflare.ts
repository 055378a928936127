// Cloudflare Pages advanced mode (_worker.js). _routes.json sends the root and the route table's prefixes here.
// Static routes are served from ASSETS with the route table's headers; everything else (query
// lists, assess, 404/405, preflight) goes to the shared handler, exactly as the local server does.
import { createHandler, type Handler } from '../api.ts';
import { problemResponse, toResponse } from '../http.ts';
import { fileFor, shardFile } from '../../build/contract/dist-layout.ts';
import { dispatch } from '../dispatch.ts';
import { originAndPath } from '../request-url.ts';
import type { ShardMeta } from '../../build/contract/request-schemas.ts';
import { VOTE_POLICY } from '../../build/contract/votes.ts';
import { d1VoteStore, type D1Like } from './d1-vote-store.ts';
import { weakSecret } from '../votes.ts';

interface Env {
  ASSETS: { fetch(req: Request | string): Promise<Response> };
  /** Vote database (D1 binding VOTES); without it POST votes answers 503 and GET the snapshot. */
  VOTES?: D1Like;
  /**
   * The secret mixed into every client key (a Pages secret); never stored or logged. Required
   * with VOTES: without it POST votes answers 503 (vote-secret-missing), since the salts in D1
   * alone would let whoever holds the database map the keys back to addresses.
   */
  VOTE_SECRET?: string;
  /** Votes per client per hour (default 30). */
  VOTE_BUDGET?: string;
}

function voteBudget(text: string | undefined): number {
  if (text === undefined) return VOTE_POLICY.defaultBudget;
  if (/^[1-9]\d{0,5}$/.test(text)) return Number(text);
  console.error(`VOTE_BUDGET must be a whole number from 1 to 999999, got ${JSON.stringify(text)}; using ${VOTE_POLICY.defaultBudget}`);
  return VOTE_POLICY.defaultBudget;
}

let handler: Handler | null = null;
let meta: Promise<ShardMeta> | null = null;

export default {
  async fetch(req: Request, env: Env): Promise<Response> {
    try {
      return await answer(req, env);
    } catch {
      // Our own fault (the metadata shard unreadable): the same problem+json 500 as the function
      // and the local server give, and the next request tries again.
      meta = null;
      return toResponse(problemResponse(req, 500, 'The server could not answer this request.'), req.method);
    }
  },
};

async function answer(req: Request, env: Env): Promise<Response> {
  const { origin, pathname } = originAndPath(req.url);
  const load = async (name: string) => {
    const res = await env.ASSETS.fetch(`${origin}/${shardFile(name)}`);
    if (!res.ok) throw new Error(`shard ${name}: HTTP ${res.status}`);
    return res.json();
  };
  if (!handler && env.VOTES) warnOfSecret(env.VOTE_SECRET);
  // The platform caps request bodies itself (see HandlerOptions.discardLimitBytes).
  // A static route's JSON by its own file name (the MCP tools read risk responses); 404: none.
  const loadFile = async (urlPath: string) => {
    const res = await env.ASSETS.fetch(`${origin}/${fileFor(urlPath, 'json')}`);
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`file ${urlPath}: HTTP ${res.status}`);
    return res.json();
  };
  handler ??= createHandler(
    // The metadata shard once: the handler's store reads (and checks) the one read here.
    { loadShard: (name) => (name === 'meta' && meta ? meta : load(name)), loadFile },
    {
      votes: { store: env.VOTES ? d1VoteStore(env.VOTES) : null, secret: env.VOTE_SECRET || undefined, requireSecret: true, budget: voteBudget(env.VOTE_BUDGET) },
      discardLimitBytes: Number.POSITIVE_INFINITY,
    },
  );
  meta ??= load('meta') as Promise<ShardMeta>;
  const { shape, data_version } = await meta;
  const d = dispatch(req.method, pathname, shape, data_version);
  if (d.to === 'file') {
    const asset = await fileAnswer(req, env, origin, d);
    if (asset) return asset;
  }
  // Cloudflare sets CF-Connecting-IP itself on every request that reaches the worker. Read only
  // when a handler asks (votes), as the local server reads its address: not on every request.
  return handler(req, {
    get clientAddress() {
      return req.headers.get('CF-Connecting-IP');
    },
  });
}

/**
 * A static route's file with the route's headers, or null when the platform has none for it.
 * Apart from answer(), as warnOfSecret is: a cold instance compiles a function whole on its first
 * call, and a request for the function compiles none of this.
 */
async function fileAnswer(req: Request, env: Env, origin: string, d: { file: string; headers: Record<string, string> }): Promise<Response | null> {
  // Pages' asset server answers /x/index.html with a redirect to /x/ (its HTML handling), so
  // HTML pages are fetched by their folder; JSON files by their own name.
  const file = d.file.replace(/(^|\/)index\.html$/, '$1');
  const asset = await env.ASSETS.fetch(new Request(`${origin}/${file}`, req));
  if (asset.status !== 200 && asset.status !== 304) return null;
  const headers = new Headers(asset.headers);
  for (const [k, v] of Object.entries(d.headers)) headers.set(k, v);
  return new Response(asset.body, { status: asset.status, headers });
}

/** Says, once per instance with a vote database, when VOTE_SECRET is missing or too weak (votes are then refused). */
function warnOfSecret(secret: string | undefined): void {
  if (!secret) {
    console.error('VOTE_SECRET is not set: votes are refused (503 vote-secret-missing). Set it with `npx wrangler pages secret put VOTE_SECRET`.');
    return;
  }
  const weak = weakSecret(secret);
  if (weak) console.error(`VOTE_SECRET is too weak (${weak}): votes are refused (503 vote-secret-missing). Set a random one, e.g. \`openssl rand -hex 32 | npx wrangler pages secret put VOTE_SECRET\`.`);
}
