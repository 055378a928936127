// Local server: dist/ from memory plus the BUNDLED function, routed and headed from the route
// table exactly as the Cloudflare worker does it (static route + file -> file; everything else on
// /api and /embed -> function). Lean node:http on purpose: no framework between us and the bytes.
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { fileFor, matchRoute, routeHeaders, responseHeaders, API_PREFIX } from '../model/routes.ts';
import type { Shape } from '../model/records.ts';
import { FUNCTION_PATHS } from '../emit/deploy.ts';
import { encodedBody, loadTree, type StaticFile } from './files.ts';
import type { Reply, RequestLike } from '../../functions/http.ts';

export interface FunctionModule {
  /** The bundled function's handler before it makes a Response (functions/api.ts). */
  createReplyHandler(source: { loadShard(name: string): Promise<unknown> }): (req: RequestLike) => Promise<Reply>;
}

export interface ServerOptions {
  dir: string;
  port: number;
  host: string;
  /** Defaults to the esbuild bundle in dir (what a CDN runs); tests may pass the TS source. */
  functionModule?: FunctionModule;
}

const matchesEtag = (inm: string | undefined, etag: string) =>
  !!inm && (inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag));

const DIRECT_TYPES: Record<string, string> = { '.json': 'json', '.html': 'html' };

interface Resolved {
  file: StaticFile;
  /** Headers of every answer for this path (304 included). */
  base: Record<string, string>;
  /** base plus the identity Content-Length: the common 200. */
  plain: Record<string, string>;
}

export async function startServer(opts: ServerOptions): Promise<{ url: string; close(): Promise<void> }> {
  const dir = path.resolve(opts.dir);
  const files = await loadTree(dir);
  const metaFile = files.get('_shards/meta.json');
  if (!metaFile) throw new Error(`${dir} holds no build (no _shards/meta.json); run npm run build first`);
  const shape = (JSON.parse(metaFile.body.toString('utf8')) as { shape: Shape }).shape;
  const mod: FunctionModule = opts.functionModule ?? ((await import(pathToFileURL(path.join(dir, FUNCTION_PATHS.core)).href)) as FunctionModule);
  const handler = mod.createReplyHandler({
    loadShard: async (name) => {
      const f = files.get(`_shards/${name}.json`);
      if (!f) throw new Error(`no shard ${name}`);
      return JSON.parse(f.body.toString('utf8'));
    },
  });

  /** Our own address, set once listening; requests to the function are built on it. */
  let origin = 'http://localhost';

  /**
   * Static answers per URL path, resolved once: the route match, the file and its full header set
   * (a static file's headers never change). The hot path is then one Map lookup.
   */
  const resolved = new Map<string, Resolved>();
  const resolve = (pathname: string, file: StaticFile, headers: Record<string, string>): Resolved => {
    const base = { ...headers, ETag: file.etag, Vary: 'Accept-Encoding' };
    const r = { file, base, plain: { ...base, 'Content-Length': String(file.body.length) } };
    resolved.set(pathname, r);
    return r;
  };

  function sendStatic(req: http.IncomingMessage, res: http.ServerResponse, { file, base, plain }: Resolved) {
    if (req.headers['if-none-match'] !== undefined && matchesEtag(req.headers['if-none-match'], file.etag)) {
      res.writeHead(304, base).end();
      return;
    }
    const { body, encoding } = encodedBody(file, req.headers['accept-encoding']);
    res.writeHead(200, encoding ? { ...base, 'Content-Encoding': encoding, 'Content-Length': String(body.length) } : plain);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  // The function gets a light request over Node's own (no Web Request, no body stream) and
  // answers with a Reply written straight out (no Response to build and drain): on Node those
  // conversions cost more than the function's work.
  async function sendFunction(req: http.IncomingMessage, res: http.ServerResponse, url: string) {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const reply = await handler({
      method: req.method ?? 'GET',
      url,
      headers: { get: (name) => headerValue(req, name) },
      body: null,
      readBody: hasBody ? (cap) => readBody(req, cap) : undefined,
    });
    const headers = reply.headers;
    if (reply.status !== 204 && reply.status !== 304) headers['Content-Length'] = String(reply.body === null ? 0 : Buffer.byteLength(reply.body));
    res.writeHead(reply.status, headers);
    res.end(req.method === 'HEAD' || !reply.body ? undefined : reply.body);
    // The function may answer before reading the whole body (413); drain so the socket stays sane.
    if (hasBody && !req.readableEnded) req.resume();
  }

  function route(req: http.IncomingMessage, res: http.ServerResponse): void {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const pathname = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const isGet = req.method === 'GET' || req.method === 'HEAD';
    const known = isGet ? resolved.get(pathname) : undefined;
    if (known) return sendStatic(req, res, known);
    // The function needs only the path and query: the URL is built on our own address, never on
    // the client's Host header (a malformed one would make Request throw, or reroute the path).
    const url = `${origin}${rawUrl.startsWith('/') ? rawUrl : '/'}`;
    const isRouted = pathname.startsWith('/api/') || pathname === '/embed' || pathname.startsWith('/embed/');
    if (isGet && isRouted) {
      const match = matchRoute(pathname, shape);
      if (match?.route.serve === 'static') {
        const file = files.get(fileFor(pathname, match.route.body));
        if (file) return sendStatic(req, res, resolve(pathname, file, routeHeaders(match.route)));
      }
    } else if (isGet && /^[A-Za-z0-9_./-]*$/.test(pathname) && !pathname.includes('..')) {
      // Outside the API and embed prefixes dist/ is a plain file host (manifest, configs).
      const file = files.get(pathname.slice(1));
      const kind = DIRECT_TYPES[path.extname(pathname)];
      if (file && kind) return sendStatic(req, res, resolve(pathname, file, responseHeaders(kind as 'json' | 'html', 'static')));
    }
    sendFunction(req, res, url).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' });
      res.end('internal error');
    });
  }

  const server = http.createServer((req, res) => {
    // A throw here would take the whole server down: answer 500 and keep serving.
    try {
      route(req, res);
    } catch {
      if (!res.headersSent) res.writeHead(500, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' });
      res.end('internal error');
    }
  });
  server.keepAliveTimeout = 5000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  origin = `http://${host}:${port}`;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request header as Headers.get gives it: case-insensitive, repeated values joined. */
function headerValue(req: http.IncomingMessage, name: string): string | null {
  const v = req.headers[name.toLowerCase()];
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
}

/** At most `cap` bytes of the body, or null as soon as it is longer (the rest is left unread). */
function readBody(req: http.IncomingMessage, cap: number): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > cap) {
        done();
        resolve(null);
      } else chunks.push(c);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (e: Error) => {
      done();
      reject(e);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

export { API_PREFIX };
