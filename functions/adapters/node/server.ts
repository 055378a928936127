// Local server: dist/ from disk through a cache bounded by size (files.ts), plus the BUNDLED
// function, routed and headed from the route table by the same decision as the Cloudflare worker
// (functions/dispatch.ts: static route + file -> file; everything else on /api and /embed ->
// function). Lean node:http on purpose: no framework between us and the bytes.
import { execFileSync } from 'node:child_process';
import { readFileSync, type Stats } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { fileFor, FUNCTION_PATHS, shardFile } from '../../../build/contract/dist-layout.ts';
import { allowHeader, methodNotAllowedProblem, preflightHeadersFor, routePrefixes } from '../../../build/contract/routes.ts';
import { responseHeaders } from '../../../build/contract/http-policy.ts';
import type { Shape } from '../../../build/model/record-schemas.ts';
import type { ProblemStatus } from '../../../build/contract/problem.ts';
import { DISCARD_LIMIT_BYTES } from '../../../build/contract/limits.ts';
import { ConnectionCap } from './connection-cap.ts';
import { chooseEncoding, encoded, etagFor, FileChunks, FileReader, SizedCache, type Encoding, type StaticFile } from './files.ts';
import { matchesEtag, problemResponse, type AnyReply, type BodyParts, type RequestLike } from '../../http.ts';
import type { HandlerOptions, ReplyHandler, RequestInfo, ShardSource } from '../../api.ts';
import { lastForwardedHop } from '../../client-address.ts';
import { localHost } from '../../votes.ts';
import { dispatch } from '../../dispatch.ts';

export interface FunctionModule {
  /** The bundled function's handler before it makes a Response (functions/api.ts). */
  createReplyHandler(source: ShardSource, options?: HandlerOptions): ReplyHandler;
}

/** Limits of one server process; see SERVER_DEFAULTS. */
export interface ServerLimits {
  /**
   * Open connections at once; past it a new connection takes the place of the longest-idle one,
   * and is closed as soon as it is accepted only when every open one has a request in flight.
   */
  maxConnections: number;
  /** Milliseconds a request (headers and body) may take to arrive; then 408 and the connection closes. */
  requestTimeoutMs: number;
  /** Milliseconds the headers may take (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** Bytes of files (and their compressed variants) kept in memory. */
  cacheBytes: number;
  /** Milliseconds an idle keep-alive connection is kept open (Node's default, 5 s, said in Keep-Alive: timeout=5). */
  keepAliveTimeoutMs: number;
}

/**
 * Defaults: a slow or stalled client is cut within seconds, not Node's 300 s. The connection cap is
 * 1000, or less when the open-file limit is lower (see defaultMaxConnections).
 */
export const SERVER_DEFAULTS: Readonly<ServerLimits> = {
  maxConnections: 1000,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  cacheBytes: 16 * 1024 * 1024,
  keepAliveTimeoutMs: 5_000,
};

/**
 * The connection cap under this process's open-file limit: 64 descriptors are left for the file
 * being read, the database, stdio and the cluster's channel (macOS's default limit, 256, gives
 * 192). Past the limit an accept fails (EMFILE) instead of the connection being closed cleanly.
 */
export function defaultMaxConnections(): number {
  return Math.max(16, Math.min(SERVER_DEFAULTS.maxConnections, openFileLimit() - 64));
}

/** The soft limit on open files (Linux: /proc; elsewhere the shell's ulimit -n); Infinity when unknown. */
function openFileLimit(): number {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (m) return m[1] === 'unlimited' ? Infinity : Number(m[1]);
  } catch {
    // not Linux
  }
  try {
    const out = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return /^\d+$/.test(out) ? Number(out) : Infinity;
  } catch {
    return Infinity;
  }
}

export interface ServerOptions extends Partial<ServerLimits> {
  dir: string;
  port: number;
  host: string;
  /** Defaults to the esbuild bundle in dir (what a CDN runs); tests may pass the TS source. */
  functionModule?: FunctionModule;
  /** Community votes (timeline shape): the store (SQLite) and its settings; absent: POST gets 503. */
  votes?: HandlerOptions['votes'];
  /** Take the client address from the last X-Forwarded-For hop (only behind our own proxy). */
  trustProxy?: boolean;
}

/**
 * Whether the server listens on this machine only: then a browser reaches it only by a local name,
 * or by a name rebound to a loopback address, whose votes are refused (VoteOptions.hostAllowed).
 * Behind our own proxy (--trust-proxy) the Host is the public name, and the proxy chose it.
 */
const loopback = (host: string): boolean => host === 'localhost' || host === '::1' || /^127\./.test(host);

const DIRECT_TYPES: Record<string, string> = { '.json': 'json', '.html': 'html' };
/** What an entry costs beyond its bytes (its header objects, the Map slot), for the cache's bound. */
const ENTRY_OVERHEAD = 1024;

/** One encoding of a resolved path: its bytes and its headers, made once. */
interface Variant {
  body: Buffer;
  etag: string;
  /** Headers of the 200 (Content-Length and Content-Encoding included). */
  ok: Record<string, string>;
  /** Headers of the 304. */
  notModified: Record<string, string>;
}

interface Resolved {
  file: StaticFile;
  /** The route's headers for this path, without ETag. */
  headers: Record<string, string>;
  identity: Variant;
  br?: Variant;
  gzip?: Variant;
  /** For the cache: bytes held, and whether it was asked for since the cache's hand last passed. */
  size: number;
  used: boolean;
}

const variant = (headers: Record<string, string>, body: Buffer, etag: string, encoding: Encoding | null): Variant => {
  const notModified = { ...headers, ETag: etag, Vary: 'Accept-Encoding' };
  const ok = encoding ? { ...notModified, 'Content-Encoding': encoding, 'Content-Length': String(body.length) } : { ...notModified, 'Content-Length': String(body.length) };
  return { body, etag, ok, notModified };
};

/**
 * The origin-form path of a request target: absolute-form (`GET http://host/p?q HTTP/1.1`, which
 * RFC 9112 §3.2.2 says a server must accept) loses its scheme and authority; anything else that
 * is not a path (`*`, authority-form) becomes "/".
 */
export function originForm(target: string): string {
  if (target.startsWith('/')) return target;
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  if (!m) return '/';
  const rest = target.slice(m[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

export async function startServer(opts: ServerOptions): Promise<{ url: string; close(): Promise<void> }> {
  const dir = path.resolve(opts.dir);
  const limits = serverLimits(opts);
  const reader = new FileReader(dir);
  const metaFile = reader.read(shardFile('meta'));
  if (!metaFile) throw new Error(`${dir} holds no build (no ${shardFile('meta')}); run npm run build first`);
  const { shape, data_version: dataVersion } = JSON.parse(metaFile.body.toString('utf8')) as { shape: Shape; data_version: string };
  const handler = await functionHandler(opts, dir, reader);
  const router = new Router(dir, reader, limits, handler, shape, dataVersion, opts.trustProxy === true);
  const server = nodeServer(limits, router);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  // Once listening, an accept that fails (EMFILE: out of file descriptors) costs that connection
  // only; without a listener Node would end the process.
  server.on('error', () => undefined);
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  router.origin = `http://${host}:${port}`;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The options' limits, each defaulting to SERVER_DEFAULTS (the headers' time within the request's). */
function serverLimits(opts: ServerOptions): ServerLimits {
  return {
    maxConnections: opts.maxConnections ?? defaultMaxConnections(),
    requestTimeoutMs: opts.requestTimeoutMs ?? SERVER_DEFAULTS.requestTimeoutMs,
    headersTimeoutMs: Math.min(opts.headersTimeoutMs ?? SERVER_DEFAULTS.headersTimeoutMs, opts.requestTimeoutMs ?? SERVER_DEFAULTS.requestTimeoutMs),
    cacheBytes: opts.cacheBytes ?? SERVER_DEFAULTS.cacheBytes,
    keepAliveTimeoutMs: opts.keepAliveTimeoutMs ?? SERVER_DEFAULTS.keepAliveTimeoutMs,
  };
}

/** The function's handler over the build in `dir`: the bundle (or the module the options pass) reading shards from disk. */
async function functionHandler(opts: ServerOptions, dir: string, reader: FileReader): Promise<ReplyHandler> {
  const mod: FunctionModule = opts.functionModule ?? ((await import(pathToFileURL(path.join(dir, FUNCTION_PATHS.core)).href)) as FunctionModule);
  // The function keeps the shards it parsed; they are read from disk, not from the file cache.
  return mod.createReplyHandler(
    {
      loadShard: async (name) => {
        const bytes = reader.bytes(shardFile(name));
        if (!bytes) throw new Error(`no shard ${name}`);
        return JSON.parse(bytes.toString('utf8'));
      },
      // A static route's JSON (the MCP tools' risk responses); the path comes from the route table.
      loadFile: async (urlPath) => {
        const bytes = reader.bytes(fileFor(urlPath, 'json'));
        return bytes ? JSON.parse(bytes.toString('utf8')) : null;
      },
    },
    { votes: opts.votes && loopback(opts.host) && !opts.trustProxy ? { ...opts.votes, hostAllowed: localHost } : opts.votes },
  );
}

/**
 * What answers a request: a static file (from the cache of resolved answers, or read and cached),
 * a large file streamed from disk, or the function. The client address is handed to the function
 * as an argument, never as a header a client could send: the socket's peer, or with --trust-proxy
 * the hop our proxy appended last (NodeRequestInfo).
 */
class Router {
  /** Our own address, set once listening; requests to the function are built on it. */
  origin = 'http://localhost';
  private readonly prefixes: Set<string>;
  /**
   * Static answers per URL path, resolved once while the file is cached: the file and its full
   * header sets (a static file's headers never change). The hot path is then one Map lookup.
   */
  private readonly resolved: SizedCache<Resolved>;
  /**
   * Files the cache would not keep (over a quarter of it: the SQLite download) are sent as they
   * are on disk, read a chunk at a time as the client takes them (FileChunks): compressing one on
   * every request would cost a worker seconds of CPU, and reading it whole would hold all of it per
   * connection for as long as the client took to read it.
   */
  private readonly largeFileBytes: number;
  /**
   * Paths the route table sends to the function (list queries, assess, votes...), and static
   * routes with no file, remembered so their next request skips the static lookup (and the disk).
   * Bounded: arbitrary 404 paths must not grow it.
   */
  private readonly functionPaths = new Set<string>();
  /** The connection cap's bookkeeping: which connections have a request in flight. */
  readonly cap: ConnectionCap<Duplex>;
  private readonly onResponseClose: (this: http.ServerResponse) => void;

  constructor(
    private readonly dir: string,
    private readonly reader: FileReader,
    limits: ServerLimits,
    private readonly handler: ReplyHandler,
    private readonly shape: Shape,
    private readonly dataVersion: string,
    private readonly trustProxy: boolean,
  ) {
    this.prefixes = new Set(routePrefixes(shape));
    this.resolved = new SizedCache<Resolved>(limits.cacheBytes);
    this.largeFileBytes = limits.cacheBytes / 4;
    const cap = (this.cap = new ConnectionCap<Duplex>(limits.maxConnections));
    this.onResponseClose = function (this: http.ServerResponse) {
      cap.requestEnded(this.req.socket);
    };
  }

  inFlight(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.cap.requestStarted(req.socket);
    res.once('close', this.onResponseClose);
  }

  serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.inFlight(req, res);
    // A throw here would take the whole server down: answer 500 and keep serving.
    try {
      this.route(req, res);
    } catch {
      internalError(req, res);
    }
  }

  private route(req: http.IncomingMessage, res: http.ServerResponse): void {
    const rawUrl = originForm(req.url ?? '/');
    const q = rawUrl.indexOf('?');
    const pathname = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const isGet = req.method === 'GET' || req.method === 'HEAD';
    const known = isGet ? this.resolved.get(pathname) : undefined;
    if (known) return this.sendStatic(req, res, pathname, known);
    // The function needs only the path and query: the URL is built on our own address, never on
    // the client's Host header (a malformed one would make Request throw, or reroute the path).
    const url = `${this.origin}${rawUrl}`;
    if (this.functionPaths.has(pathname)) return this.sendFunction(req, res, url);
    // Under the route table's prefixes (and at the root) only its routes are files; the rest goes
    // to the function (404, 405, slash redirects), as on Cloudflare.
    const isRouted = pathname === '/' || this.prefixes.has(pathname.split('/')[1]!);
    if (isRouted) {
      const d = dispatch(req.method ?? 'GET', pathname, this.shape, this.dataVersion);
      if (d.to === 'file') return this.sendFile(req, res, pathname, d.file, d.headers, url);
      if (d.route) this.rememberFunctionPath(pathname);
    } else if (/^[A-Za-z0-9_./-]*$/.test(pathname) && !pathname.includes('/.') && !pathname.startsWith('/_')) {
      // Outside the API and embed prefixes dist/ is a plain file host (manifest, configs); never
      // a dot-file (nor anything under a dot-folder), nor the deployment's own files (_functions/
      // with the bundle's metafile, _shards/, _headers, _worker.js...).
      const kind = DIRECT_TYPES[path.extname(pathname)];
      if (kind && !isGet) return this.plainFileMethod(req, res, pathname, pathname.slice(1), url);
      if (kind) return this.sendFile(req, res, pathname, pathname.slice(1), responseHeaders(kind as 'json' | 'html', 'static'), url);
    }
    this.sendFunction(req, res, url);
  }

  private rememberFunctionPath(pathname: string): void {
    if (this.functionPaths.size >= FUNCTION_PATHS_KEPT) this.functionPaths.clear();
    this.functionPaths.add(pathname);
  }

  private resolve(pathname: string, file: StaticFile, headers: Record<string, string>): Resolved {
    const r: Resolved = { file, headers, identity: variant(headers, file.body, etagFor(file, null), null), size: file.body.length + ENTRY_OVERHEAD, used: false };
    this.resolved.set(pathname, r);
    return r;
  }

  private variantOf(pathname: string, r: Resolved, encoding: Encoding | null): Variant {
    if (encoding === null) return r.identity;
    let v = r[encoding];
    if (!v) {
      const body = encoded(r.file, encoding);
      v = r[encoding] = variant(r.headers, body, etagFor(r.file, encoding), encoding);
      this.resolved.grow(pathname, r, body.length + ENTRY_OVERHEAD);
    }
    return v;
  }

  private sendStatic(req: http.IncomingMessage, res: http.ServerResponse, pathname: string, r: Resolved): void {
    const v = this.variantOf(pathname, r, chooseEncoding(r.file, req.headers['accept-encoding']));
    // The tag of the representation this request would get: a gzip tag never validates br bytes.
    if (req.headers['if-none-match'] !== undefined && matchesEtag(req.headers['if-none-match'], v.etag)) {
      res.writeHead(304, v.notModified).end();
      return;
    }
    res.writeHead(200, v.ok);
    res.end(req.method === 'HEAD' ? undefined : v.body);
  }

  private sendLarge(req: http.IncomingMessage, res: http.ServerResponse, rel: string, stat: Stats, headers: Record<string, string>): void {
    const hash = this.reader.hashOf(rel, `${stat.ino}:${stat.mtimeMs}:${stat.size}`);
    if (hash === null) return internalError(req, res);
    const etag = `"${hash}"`;
    if (req.headers['if-none-match'] !== undefined && matchesEtag(req.headers['if-none-match'], etag)) {
      res.writeHead(304, { ...headers, ETag: etag, Vary: 'Accept-Encoding' }).end();
      return;
    }
    res.writeHead(200, { ...headers, ETag: etag, Vary: 'Accept-Encoding', 'Content-Length': String(stat.size) });
    if (req.method === 'HEAD') return void res.end();
    const chunks = new FileChunks(path.join(this.dir, rel), stat);
    chunks.on('error', () => res.destroy());
    res.on('close', () => chunks.destroy());
    chunks.pipe(res);
  }

  /** Serves `rel` when it exists (cached from now on), otherwise hands the request to the function. */
  private sendFile(req: http.IncomingMessage, res: http.ServerResponse, pathname: string, rel: string, headers: Record<string, string>, url: string): void {
    const stat = this.reader.statOf(rel);
    if (stat && stat.size > this.largeFileBytes) return this.sendLarge(req, res, rel, stat, headers);
    const file = this.reader.read(rel);
    if (file) return this.sendStatic(req, res, pathname, this.resolve(pathname, file, headers));
    this.rememberFunctionPath(pathname);
    this.sendFunction(req, res, url);
  }

  // The function gets a light request over Node's own (no Web Request, no body stream) and
  // answers with a Reply written straight out (no Response to build and drain): on Node those
  // conversions cost more than the function's work.
  private sendFunction(req: http.IncomingMessage, res: http.ServerResponse, url: string): void {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    this.handler(new NodeRequest(req, url), new NodeRequestInfo(req, this.trustProxy))
      .then((r) => writeReply(req, res, hasBody, r))
      .catch(() => internalError(req, res));
  }

  /**
   * A method other than GET/HEAD on a plain file outside the route table (manifest.json...): the
   * file exists, so 405 with what it allows (OPTIONS: the preflight for it), not 404.
   */
  private plainFileMethod(req: http.IncomingMessage, res: http.ServerResponse, pathname: string, rel: string, url: string): void {
    if (!this.reader.isFile(rel)) return this.sendFunction(req, res, url);
    // The same preflight and 405 as the function's (routes.ts), for a file: GET only.
    const allow = allowHeader(['GET']);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, preflightHeadersFor(allow, 'If-None-Match'));
      return void res.end();
    }
    const p = methodNotAllowedProblem(req.method ?? '', pathname, allow);
    writeReply(req, res, true, problemResponse(new NodeRequest(req, url), 405, p.detail, p.errors, p.headers));
  }
}

/** A reply of the function (or our own problem) written to Node's response. */
function writeReply(req: http.IncomingMessage, res: http.ServerResponse, hasBody: boolean, reply: AnyReply): void {
  const headers = reply.headers;
  // A HEAD's reply keeps the body GET would get: its length is sent (RFC 9110 §9.3.2), not the body.
  const body = reply.body;
  if (reply.status !== 204 && reply.status !== 304) headers['Content-Length'] = String(body === null ? 0 : bodyLength(body));
  if (req.method === 'HEAD') return void res.writeHead(reply.status, headers).end();
  // The function may answer without reading the body (413, 415, 404...): say the connection
  // closes, and close it only once the client has sent the rest (see closeAfterBody).
  const unread = hasBody && !req.complete;
  if (unread) headers['Connection'] = 'close';
  // Still waiting for "100 Continue": the client sends no body, there is nothing to drain.
  const neverAsked = (req as ReadingRequest)[AWAITING_CONTINUE] !== undefined;
  res.writeHead(reply.status, headers);
  // Text goes out as it is (Node encodes it while writing, cheaper than a Buffer made here);
  // parts are written corked, so the headers and every part leave in one writev.
  if (typeof body === 'string' && !unread) return void res.end(body);
  if (typeof body === 'string') res.write(body);
  else if (body) {
    res.cork();
    for (const part of body) res.write(part);
  }
  if (unread && !neverAsked) closeAfterBody(req, res);
  else res.end();
}

/** Node's HTTP server with our timeouts, our answers where Node's had no body, and the connection cap. */
function nodeServer(limits: ServerLimits, router: Router): http.Server {
  const server = http.createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      // Node checks those timeouts this often (its default, 30 s, would let a stalled client stay
      // up to 30 s past them).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    (req, res) => router.serve(req, res),
  );
  // Expect: 100-continue: "100 Continue" is sent only when the function reads the body
  // (NodeRequest.readBody), so a body it refuses unread (413 by Content-Length, 415, 404) is never
  // asked for; Node's own handling would send it first, and the client then all of its body.
  server.on('checkContinue', (req: ReadingRequest, res: http.ServerResponse) => {
    req[AWAITING_CONTINUE] = res;
    router.serve(req, res);
  });
  // Any other expectation: Node's 417 has no body.
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    router.inFlight(req, res);
    const reply = problemResponse(requestLike(req), 417, `This server meets no expectation but 100-continue (Expect: ${String(req.headers.expect)}).`, [
      { location: 'header.Expect', message: 'unsupported expectation', allowed: ['100-continue'] },
    ]);
    writeReply(req, res, true, reply);
  });
  // CONNECT: Node answers nothing (the connection would hang until the client gave up).
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(rawProblem(501, `This server is not a proxy: CONNECT ${req.url ?? ''} is not supported.`));
  });
  // Requests Node's parser refuses before we see them (bad syntax, headers too large, too slow):
  // its answers (400, 431, 408) have no body; these are our problem+json with the same statuses.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight) return void socket.destroy();
    const [status, detail] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'The request is not valid HTTP/1.1.'];
    socket.end(rawProblem(status, detail));
  });
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // Connections are counted here, not by server.maxConnections: in a cluster worker that makes the
  // worker refuse the handle, and the primary then hands it to the next worker, and the next, for
  // as long as all are full (the client hangs unanswered and the primary spins).
  // Past the cap a new connection takes the place of the longest-idle one (ConnectionCap), so held
  // idle sockets cannot keep a client out; it is closed at once only when every connection has a
  // request in flight.
  const cap = router.cap;
  server.on('connection', (socket: Duplex) => {
    const a = cap.admit(socket);
    if (!a.accepted) return void socket.destroy();
    a.evict?.destroy();
    socket.once('close', () => cap.closed(socket));
  });
  return server;
}

/**
 * Our own fault (a throw in routing, or the function failing): the same problem+json 500 the
 * function gives, from the same helper. The connection closes: the request may be half read.
 */
function internalError(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const reply = problemResponse(
    requestLike(req),
    500,
    'The server could not answer this request.',
  );
  const body = reply.body ?? '';
  res.writeHead(500, { ...reply.headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

const requestLike = (req: http.IncomingMessage): RequestLike => ({
  method: req.method ?? 'GET',
  url: req.url ?? '/',
  headers: { get: (name) => headerValue(req, name) },
  body: null,
});

/** What Node's parser reports, as our answer: [status, detail]; anything else is a 400. */
const CLIENT_ERRORS: Record<string, [ProblemStatus, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request line and headers are larger than this server accepts.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time.'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'The chunk extensions of the request body are too large.'],
};

/** A whole problem+json response written to a socket Node's HTTP layer no longer serves; the connection closes. */
function rawProblem(status: ProblemStatus, detail: string): string {
  const reply = problemResponse({ method: 'GET', url: '/', headers: { get: () => null }, body: null }, status, detail);
  const body = reply.body ?? '';
  const headers = { ...reply.headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' };
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${head}\r\n${body}`;
}

const bodyLength = (body: string | BodyParts): number =>
  typeof body === 'string' ? Buffer.byteLength(body) : body.reduce((n, p) => n + (typeof p === 'string' ? Buffer.byteLength(p) : p.byteLength), 0);

/** What the function reads of a Node request: method, URL, headers; the body through readBody. */
// Classes, not per-request closures: under tsx every closure made per request also pays for
// keeping its name (esbuild's keepNames).
class NodeRequest implements RequestLike {
  readonly method: string;
  readonly body = null;
  readonly headers: RequestLike['headers'];
  constructor(private readonly req: http.IncomingMessage, readonly url: string) {
    this.method = req.method ?? 'GET';
    this.headers = new NodeHeaders(req);
  }
  readBody(cap: number): Promise<Uint8Array | null> {
    const req = this.req as ReadingRequest;
    const waiting = req[AWAITING_CONTINUE];
    if (waiting) {
      req[AWAITING_CONTINUE] = undefined;
      waiting.writeContinue();
    }
    // When the function asks only after the parser has the whole message (it awaited something
    // first), the bytes wait in the stream's buffer: taken in one read, without listeners.
    if (req.complete && !req.readableFlowing && req.readableLength <= cap) {
      const bytes = req.readableLength === 0 ? null : (req.read() as Buffer | null);
      return Promise.resolve(bytes ?? new Uint8Array(0));
    }
    return readBody(req, cap);
  }
}

class NodeHeaders {
  constructor(private readonly req: http.IncomingMessage) {}
  get(name: string): string | null {
    return headerValue(this.req, name);
  }
}

/** The client address, worked out only when a handler asks (votes); see clientAddress above. */
class NodeRequestInfo implements RequestInfo {
  constructor(private readonly req: http.IncomingMessage, private readonly trustProxy: boolean) {}
  get clientAddress(): string | null {
    return (this.trustProxy ? lastForwardedHop(this.req.headers['x-forwarded-for'] as string | undefined) : null) ?? this.req.socket.remoteAddress ?? null;
  }
}

/** Paths remembered as the function's (see functionPaths); past this many the memory starts over. */
const FUNCTION_PATHS_KEPT = 1024;

/** A request header as Headers.get gives it: case-insensitive, repeated values joined. */
function headerValue(req: http.IncomingMessage, name: string): string | null {
  const v = req.headers[name.toLowerCase()];
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
}

/** A body being read by readBody: what its listeners need, kept on the request itself. */
interface BodyRead {
  cap: number;
  size: number;
  chunks: Buffer[];
  resolve(bytes: Uint8Array | null): void;
  reject(e: Error): void;
}
const BODY_READ = Symbol('body read');
/** The response of a request that sent Expect: 100-continue, until "100 Continue" is sent. */
const AWAITING_CONTINUE = Symbol('awaiting continue');
type ReadingRequest = http.IncomingMessage & { [BODY_READ]?: BodyRead; [AWAITING_CONTINUE]?: http.ServerResponse };

/**
 * At most `cap` bytes of the body, or null as soon as it is longer (the rest is left unread).
 * This is the path of nearly every POST: 'request' fires while the parser is still inside the
 * packet that carried the headers, so the fast path in NodeRequest.readBody finds the body not yet
 * complete. The listeners are module functions that find their state on the request (an emitter
 * calls them with `this` set to it), not closures made per request: under tsx each named closure
 * costs an Object.defineProperty (esbuild's keepNames), a large share of a small POST's time.
 */
function readBody(req: ReadingRequest, cap: number): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    req[BODY_READ] = { cap, size: 0, chunks: [], resolve, reject };
    req.on('data', onBodyData);
    req.on('end', onBodyEnd);
    req.on('error', onBodyError);
  });
}

function stopReading(req: ReadingRequest): BodyRead {
  const read = req[BODY_READ]!;
  req[BODY_READ] = undefined;
  req.off('data', onBodyData);
  req.off('end', onBodyEnd);
  req.off('error', onBodyError);
  return read;
}

function onBodyData(this: ReadingRequest, chunk: Buffer): void {
  const read = this[BODY_READ]!;
  read.size += chunk.length;
  if (read.size > read.cap) stopReading(this).resolve(null);
  else read.chunks.push(chunk);
}

function onBodyEnd(this: ReadingRequest): void {
  const { chunks, size, resolve } = stopReading(this);
  resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
}

function onBodyError(this: ReadingRequest, e: Error): void {
  stopReading(this).reject(e);
}

/**
 * Answered with `Connection: close` while the client is still sending: keep reading (dropping)
 * the rest, then end, so the client reads the answer instead of a reset, and does not reuse the
 * connection. An upload past DISCARD_LIMIT_BYTES or LINGER_MS is cut off.
 */
function closeAfterBody(req: http.IncomingMessage, res: http.ServerResponse): void {
  let size = 0;
  const cut = () => req.socket.destroy();
  const timer = setTimeout(cut, LINGER_MS).unref();
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > DISCARD_LIMIT_BYTES) cut();
  });
  req.once('end', () => res.end());
  req.once('close', () => clearTimeout(timer));
  req.resume();
}

/** How long a connection answered early may keep sending before it is cut. */
const LINGER_MS = 10_000;

