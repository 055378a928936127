// The tools' one way to the data: the function's own handler, asked in process (the same search,
// assessment, paging and errors as over HTTP), and the build's JSON files by URL path (the static
// routes' bodies: an occupation's risk response, an ISCO-08 unit group). A 4xx of the API becomes
// a ToolError carrying its problem's detail and errors, which the server answers as a tool error.
import type { ShardSource } from '../shard-store.ts';
import type { AnyReply, RequestLike } from '../http.ts';
import { joinParts } from '../http.ts';

export type InProcessApi = (req: RequestLike) => Promise<AnyReply>;

export interface ToolContext {
  api: InProcessApi;
  source: ShardSource;
}

/** A fault of the caller's input (or a resource that is not there): answered as an MCP tool error. */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly errors: unknown[] = [],
  ) {
    super(message);
  }
}

const ORIGIN = 'http://mcp.internal';
const decoder = new TextDecoder();

function bodyText(reply: AnyReply): string {
  if (reply.body === null) return '';
  return typeof reply.body === 'string' ? reply.body : decoder.decode(joinParts(reply.body));
}

function requestLike(method: string, path: string, body?: string): RequestLike {
  const headers = new Map<string, string>(body === undefined ? [] : [['content-type', 'application/json']]);
  const bytes = body === undefined ? null : new TextEncoder().encode(body);
  return {
    method,
    url: ORIGIN + path,
    headers: { get: (name) => headers.get(name.toLowerCase()) ?? null },
    body: null,
    readBody: async (cap) => (bytes && bytes.byteLength > cap ? null : (bytes ?? new Uint8Array(0))),
  };
}

/** The API's JSON answer to `method path` (a 4xx: ToolError with the problem's words; a 5xx: thrown as ours). */
export async function apiJson<T = Record<string, unknown>>(ctx: ToolContext, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const reply = await ctx.api(requestLike(method, path, body === undefined ? undefined : JSON.stringify(body)));
  const text = bodyText(reply);
  if (reply.status === 200) return JSON.parse(text) as T;
  if (reply.status >= 400 && reply.status < 500) throw problemError(text);
  throw new Error(`${method} ${path}: HTTP ${reply.status}`);
}

function problemError(text: string): ToolError {
  try {
    const p = JSON.parse(text) as { detail?: string; title?: string; errors?: unknown[] };
    return new ToolError(p.detail ?? p.title ?? 'The request was refused.', p.errors ?? []);
  } catch {
    return new ToolError('The request was refused.');
  }
}

/**
 * A static route's JSON body by its URL path; when the build has no such file, the API's own
 * not-found answer for the path (an unscored occupation named as such) as a ToolError.
 */
export async function fileJson<T = Record<string, unknown>>(ctx: ToolContext, path: string): Promise<T> {
  if (!ctx.source.loadFile) throw new Error('this host gives the function no static files');
  const value = await ctx.source.loadFile(path);
  if (value !== null) return value as T;
  // No file: the function answers the path as it would over HTTP (404 with its words).
  return apiJson<T>(ctx, 'GET', path);
}
