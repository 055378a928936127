// POST /mcp: the Model Context Protocol endpoint. The MCP server (the SDK and its schemas, some
// 350 KB minified) is a module of its own, imported on the first /mcp request: no other route
// loads or parses it (build/emit/bundle-function.ts keeps the import lazy).
import type { AnyReply, RequestLike } from '../http.ts';
import type { ShardSource } from '../shard-store.ts';
import type { RouteHandler } from '../route-handler.ts';

export function mcpHandler(deps: { source: ShardSource; api: (req: RequestLike) => Promise<AnyReply> }): RouteHandler {
  let mcpModule: Promise<typeof import('../mcp/endpoint.ts')> | undefined;
  return async (req) => {
    const p = (mcpModule ??= import('../mcp/endpoint.ts'));
    // A failed import is tried again on the next request rather than remembered.
    p.catch(() => (mcpModule = undefined));
    return (await p).mcpReply(req, deps);
  };
}
