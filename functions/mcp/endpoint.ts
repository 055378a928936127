// POST /mcp: the Model Context Protocol over Streamable HTTP, stateless (a server and transport per
// request, no session store) with JSON answers, on the official SDK. A module of its own that the
// function imports on the first /mcp request (functions/api.ts), bundled as a separate chunk.
//
// Limits as the API's: the body is read here under MCP_MAX_BODY_BYTES, a batch holds at most
// MCP_MAX_BATCH messages, and input faults are JSON-RPC or tool errors, never a 5xx. Tool input
// is checked with @cfworker/json-schema (no code generation: workerd refuses the `new Function`
// the SDK's default Ajv compiles with).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import * as z from 'zod';
import { CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, InitializeRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { corsHeaders, CACHE_CONTROL } from '../../build/contract/http-policy.ts';
import { MCP_MAX_BATCH, MCP_MAX_BODY_BYTES } from '../../build/contract/limits.ts';
import { MODEL_VERSION } from '../../build/model/version.ts';
import type { AnyReply, RequestLike } from '../http.ts';
import { declaredOver, readCapped, utf8 } from '../body.ts';
import { TOOLS, ToolError } from './tools.ts';
import { PROMPTS, promptMessages, readResource, resourceList } from './resources.ts';
import type { ToolContext } from './api-client.ts';

export const SERVER_INFO = { name: 'occupation-displacement-risk', version: MODEL_VERSION } as const;

const validator = new CfWorkerJsonSchemaValidator({ shortcircuit: false });
const checks = new Map(TOOLS.map((t) => [t.name, t.checkInput === false ? null : validator.getValidator(t.inputSchema)]));
const byName = new Map(TOOLS.map((t) => [t.name, t]));

const INSTRUCTIONS =
  'Occupation displacement risk: find an occupation by title (find_occupation), then its score (occupation_score), guidance (occupation_guidance), a personal assessment (assess_my_tasks), a comparison or an ISCO-08 unit group. ' +
  'Quote a score with its range and say what it leaves out (each tool says so).';

function headers(extra: Record<string, string> = {}): Record<string, string> {
  return { 'Content-Type': 'application/json', 'Cache-Control': CACHE_CONTROL['no-store'], 'X-Content-Type-Options': 'nosniff', ...corsHeaders(), ...extra };
}

/** A JSON-RPC error answered before the SDK sees the message (unreadable or oversized bodies). */
const rpcError = (status: number, code: number, message: string): AnyReply => ({
  status,
  headers: headers(),
  body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }),
});

/** The first fields at fault in a request's params, as a client can act on them. */
function invalidParams(error: z.ZodError): string {
  const where = error.issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || '(the request)'}: ${i.message}`);
  return `Invalid params: ${where.join('; ')}`.slice(0, 500);
}

/**
 * Registers `handler` for `schema`'s method. The SDK checks a request against the schema before the
 * handler and answers a mismatch -32603 (an internal error); params that do not match are the
 * client's fault, so the SDK is given the method with its params left open and the request is
 * checked here: a mismatch is -32602 (invalid params), naming the fields at fault.
 */
function handle<S extends z.ZodObject<{ method: z.ZodLiteral<string> }>>(server: Server, schema: S, handler: (request: z.output<S>) => unknown): void {
  const open = schema.extend({ params: z.unknown().optional() });
  const checked = (request: unknown) => {
    const r = schema.safeParse(request);
    if (!r.success) throw new McpError(ErrorCode.InvalidParams, invalidParams(r.error));
    return handler(r.data);
  };
  server.setRequestHandler(open as unknown as S, checked as never);
}

function buildServer(ctx: ToolContext, origin: string): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: validator,
  });
  // initialize is the SDK's own handler: registered again through `handle`, its params are checked the same way.
  const initialize = (server as unknown as { _oninitialize(request: unknown): Promise<object> })._oninitialize.bind(server);
  server.removeRequestHandler('initialize');
  handle(server, InitializeRequestSchema, initialize);
  handle(server, ListToolsRequestSchema, () => ({
    tools: TOOLS.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: { readOnlyHint: true, openWorldHint: false } })),
  }));
  handle(server, CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name.slice(0, 80)}"; tools/list names them.`);
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const check = checks.get(tool.name);
    if (check) {
      const verdict = check(args);
      if (!verdict.valid) return toolError(`Invalid arguments for ${tool.name}: ${verdict.errorMessage ?? 'they do not match its input schema'}`, []);
    }
    try {
      const { text, structured } = await tool.run(args, ctx);
      return { content: [{ type: 'text' as const, text }], structuredContent: structured };
    } catch (e) {
      if (e instanceof ToolError) return toolError(e.message, e.errors);
      throw e;
    }
  });
  handle(server, ListResourcesRequestSchema, () => ({ resources: resourceList(origin) }));
  handle(server, ReadResourceRequestSchema, async (request) => {
    const contents = await readResource(ctx, origin, request.params.uri);
    if (!contents) throw new McpError(ErrorCode.InvalidParams, `Unknown resource "${request.params.uri.slice(0, 200)}"; resources/list names them.`);
    return { contents: [contents] };
  });
  handle(server, ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
  handle(server, GetPromptRequestSchema, (request) => {
    const messages = promptMessages(request.params.name, request.params.arguments ?? {});
    if (!messages) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt "${request.params.name.slice(0, 80)}", or its job_title argument is missing.`);
    return { messages };
  });
  return server;
}

const toolError = (message: string, errors: unknown[]) => ({
  content: [{ type: 'text' as const, text: message }],
  structuredContent: { detail: message, errors },
  isError: true,
});

export async function mcpReply(req: RequestLike, ctx: ToolContext): Promise<AnyReply> {
  if (declaredOver(req, MCP_MAX_BODY_BYTES)) return rpcError(413, -32600, `The request body is larger than ${MCP_MAX_BODY_BYTES} bytes.`);
  const coding = (req.headers.get('Content-Encoding') ?? '').trim().toLowerCase();
  if (coding !== '' && coding !== 'identity') return rpcError(415, -32600, 'Send the request body without a Content-Encoding.');
  const bytes = await readCapped(req, MCP_MAX_BODY_BYTES);
  if (bytes === null) return rpcError(413, -32600, `The request body is larger than ${MCP_MAX_BODY_BYTES} bytes.`);
  let parsed: unknown;
  try {
    const text = utf8(bytes);
    if (text === null) throw new Error('not UTF-8');
    parsed = JSON.parse(text);
  } catch {
    return rpcError(400, -32700, 'Parse error: the body is not UTF-8 JSON.');
  }
  if (Array.isArray(parsed) && parsed.length > MCP_MAX_BATCH) return rpcError(400, -32600, `A batch holds at most ${MCP_MAX_BATCH} messages.`);
  const origin = new URL(req.url).origin;
  // The SDK reads only these headers; the body is handed over parsed.
  const forward: Record<string, string> = {};
  for (const name of ['content-type', 'mcp-protocol-version']) {
    const v = req.headers.get(name);
    if (v !== null) forward[name] = v;
  }
  // Every answer is JSON (enableJsonResponse), whatever the client accepts: the SDK's 406 for an
  // Accept without text/event-stream would refuse clients that ask for exactly what they get.
  forward.accept = 'application/json, text/event-stream';
  const server = buildServer(ctx, origin);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const res = await transport.handleRequest(new Request(req.url, { method: 'POST', headers: forward }), { parsedBody: parsed });
    const body = res.status === 202 || res.status === 204 ? null : await res.text();
    const extra: Record<string, string> = {};
    const type = res.headers.get('Content-Type');
    if (type) extra['Content-Type'] = type;
    return { status: res.status, headers: headers(extra), body };
  } finally {
    await server.close().catch(() => undefined);
  }
}
