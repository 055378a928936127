// Shared contract-test setup: a global setup builds dist/ of EACH shape once per run from the real
// sources. In the integration project each test file starts the real local server (which mounts
// the esbuild function bundle) over those builds; in the cloudflare project the same tests speak
// to `wrangler pages dev` serving them (test/support/cloudflare-sites.ts, wrangler.ts).
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Shape } from '../../build/model/record-schemas.ts';
import { startServer } from '../../functions/adapters/node/server.ts';
import { urlFor } from '../../build/contract/routes.ts';
import { openSqliteVotes } from '../../functions/adapters/node/vote-store-sqlite.ts';
import { cloudflareSites } from '../support/wrangler.ts';
import { REPO_ROOT, SHAPES } from '../support/dists-status.ts';

export { REPO_ROOT, SHAPES };
/** Which runtime answers: the local node server, or Cloudflare's workerd. */
export const TARGET: 'node' | 'cloudflare' = inject('cloudflare') ? 'cloudflare' : 'node';
/**
 * The header a test sets to vote as a given client: the local server is started with
 * --trust-proxy (last X-Forwarded-For hop); on Cloudflare the runtime reads CF-Connecting-IP,
 * which `wrangler pages dev` passes through from the request (Cloudflare's edge sets it itself).
 */
export const CLIENT_HEADER = TARGET === 'cloudflare' ? 'CF-Connecting-IP' : 'X-Forwarded-For';

export interface Site {
  shape: Shape;
  dir: string;
  url: string;
  get(p: string, init?: RequestInit): Promise<Response>;
  json<T = any>(p: string): Promise<T>;
}

/** Call at the top of a test file: builds (once per run) and serves both shapes for this file. */
export function useSites(): Record<Shape, Site> {
  const sites = {} as Record<Shape, Site>;
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    const dirs = inject('dists');
    const lazy = inject('cloudflare');
    const cloudflare = lazy && (await cloudflareSites(lazy)).urls;
    for (const shape of SHAPES) {
      const dir = dirs[shape];
      let url: string;
      if (cloudflare) {
        url = cloudflare[shape];
      } else {
        // The timeline shape collects votes: a fresh SQLite file per test file, as `npm start` has.
        let votes;
        if (shape === 'timeline') {
          const scratch = mkdtempSync(path.join(tmpdir(), 'odr-votes-'));
          const db = openSqliteVotes(path.join(scratch, 'votes.sqlite'));
          votes = { store: db.store };
          closers.push(async () => {
            db.close();
            rmSync(scratch, { recursive: true, force: true });
          });
        }
        // Idle connections kept a minute: this process is both the server and its client, and a
        // test that parses a large download blocks it for seconds; the server's 5 s idle timer then
        // closed a connection in the same turn that the client's next request reused it (ECONNRESET).
        const server = await startServer({ dir, port: 0, host: '127.0.0.1', votes, trustProxy: true, keepAliveTimeoutMs: 60_000 });
        closers.unshift(server.close);
        url = server.url;
      }
      const get = (p: string, init?: RequestInit) => (cloudflare ? fetchRetryingResets(url + p, init) : fetch(url + p, init));
      sites[shape] = {
        shape,
        dir,
        url,
        get,
        json: async (p) => {
          const r = await get(p);
          if (r.status !== 200) throw new Error(`${p}: HTTP ${r.status} ${await r.text()}`);
          return r.json();
        },
      };
    }
  });
  afterAll(async () => {
    // In order: servers stop before the vote databases they write to are closed.
    for (const close of closers) await close();
  });
  return sites;
}

/** The start of the text/plain 503 that `wrangler pages dev`'s proxy answers a POST with when its runtime restarted during it. */
const WRANGLER_RESTARTED = 'Your worker restarted mid-request.';

/** How long a request to `wrangler pages dev` may wait for its answer's headers before it is given up (and, if idempotent, sent again). */
const WRANGLER_ANSWER_MS = 30_000;

/**
 * fetch, with a GET or HEAD sent again (at most twice, each said on stderr) when the connection is
 * reset before an answer, or when no answer came within WRANGLER_ANSWER_MS: `wrangler pages dev`
 * (its local proxy in front of workerd, not what Cloudflare's edge runs) reset a keep-alive
 * connection now and then while the machine was busy with the browser tests running beside it,
 * and in about one full run in ten left one request of headers.test.ts unanswered for the test's
 * whole 120 s while the same runtime answered the next test at once. A POST gets no second try:
 * it fails, naming the request, except a POST to assess, which records nothing (the same body gets
 * the same answer), when wrangler itself answers that the runtime restarted under it (below). The
 * local server gets no such allowance: a reset there is ours.
 */
async function fetchRetryingResets(url: string, init?: RequestInit): Promise<Response> {
  const method = init?.method ?? 'GET';
  const idempotent = method === 'GET' || method === 'HEAD';
  const pure = idempotent || (method === 'POST' && new URL(url).pathname === urlFor('assess'));
  for (let attempt = 0; ; attempt++) {
    // Until the answer's headers: a body read afterwards is not cut short by it.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), WRANGLER_ANSWER_MS);
    try {
      const res = await fetch(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal });
      // wrangler's dev proxy answers this 503 itself (a GET it resends on its own) when the runtime
      // behind it was restarted while the request was in it; the function never answers text/plain.
      if (pure && attempt < 2 && res.status === 503 && !res.headers.get('content-type')?.includes('json')) {
        const text = await res.text();
        if (!text.startsWith(WRANGLER_RESTARTED)) return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
        console.warn(`[cloudflare] wrangler pages dev restarted its runtime during ${method} ${url}: sent again`);
        continue;
      }
      return res;
    } catch (e) {
      const code = deadline.signal.aborted ? 'no answer' : (e as { cause?: { code?: string } }).cause?.code;
      const sendAgain = idempotent && attempt < 2 && (code === 'no answer' || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET');
      if (!sendAgain) throw code === 'no answer' ? new Error(`${method} ${url}: no answer from wrangler pages dev in ${WRANGLER_ANSWER_MS / 1000} s`) : e;
      console.warn(`[cloudflare] ${code} from wrangler pages dev on ${method} ${url}: sent again`);
    } finally {
      clearTimeout(timer);
    }
  }
}

export const postJson = (site: Site, body: unknown, headers: Record<string, string> = {}) =>
  site.get(urlFor('assess'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** Bodies a test does not read may be up to this size; larger files are asked for with HEAD (getHeaders). */
const DISCARD_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Reads to its end a body the test does not look at, so the connection is free for the next
 * request; never cancels. Through `wrangler pages dev` every body is chunked (no Content-Length),
 * and the two runs in which a request to it went unanswered were both in the test that cancelled
 * bodies there. A body over DISCARD_MAX_BYTES fails the test: ask for such a file with HEAD.
 */
export async function discard(res: Response): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  for (let bytes = 0; ; ) {
    const { done, value } = await reader.read();
    if (done) return;
    bytes += value.byteLength;
    if (bytes > DISCARD_MAX_BYTES) throw new Error(`${res.url}: a body over ${DISCARD_MAX_BYTES} bytes to discard; ask for its headers with getHeaders (HEAD)`);
  }
}

/**
 * The response a test reads only the headers of: GET, or HEAD for a static file of the build over
 * DISCARD_MAX_BYTES (three downloads, up to 16 MB), whose GET is checked byte for byte by
 * downloads.test.ts and sqlite.test.ts; streaming 25 MB per shape through wrangler's proxy only to
 * drop it cost it several CPU-seconds per test. http-semantics.test.ts checks that HEAD answers with
 * GET's headers.
 */
export async function getHeaders(site: Site, p: string): Promise<Response> {
  return site.get(p, isLargeFile(site, p) ? { method: 'HEAD' } : undefined);
}

/** Whether `p` is a static file of the build over DISCARD_MAX_BYTES (getHeaders asks for it with HEAD). */
export function isLargeFile(site: Site, p: string): boolean {
  const file = path.join(site.dir, decodeURIComponent(p.split('?')[0]!));
  return existsSync(file) && statSync(file).isFile() && statSync(file).size > DISCARD_MAX_BYTES;
}

export function manifestOf(site: Site): { data_version: string; shape: string; files: Record<string, string> } {
  return JSON.parse(readFileSync(path.join(site.dir, 'manifest.json'), 'utf8'));
}

/** Exactly one decimal place as serialized: "62.4" -> 624 tenths; throws on more decimals. */
export function tenths(raw: string): number {
  if (!/^-?\d+(\.\d)?$/.test(raw)) throw new Error(`not a one-decimal number: ${raw}`);
  return Math.round(Number(raw) * 10);
}
