// The four rooms and the rule between them (docs/ARCHITECTURE.md): risk model <- API contract <-
// runtime <- build. A room imports only itself and the rooms before it; node builtins only in the
// build and the node adapter of the runtime.
import type { ImportGraph } from './import-graph.ts';

export const ROOMS = ['model', 'contract', 'runtime', 'build'] as const;
export type Room = (typeof ROOMS)[number];

/** The room of a repository file, or null for files outside the four (tests, bench). */
export function roomOf(file: string): Room | null {
  if (file.startsWith('build/model/')) return 'model';
  if (file.startsWith('build/contract/')) return 'contract';
  if (file.startsWith('functions/')) return 'runtime';
  if (file.startsWith('build/')) return 'build';
  return null;
}

/** Where `node:` builtins may be imported: the build, and the runtime's adapter for Node. */
export const mayUseNode = (file: string): boolean => roomOf(file) === 'build' || file.startsWith('functions/adapters/node/');

/** Packages each room may import (the model and the contract are bundle-safe: zod only). */
const PACKAGES: Record<Room, RegExp | null> = {
  model: /^zod(\/mini)?$/,
  contract: /^zod(\/mini)?$/,
  runtime: /^(zod(\/mini)?|better-sqlite3)$/,
  build: null,
};
/** The MCP SDK, only in the module the function imports on the first /mcp request (issue 47): other routes never load it. */
const MCP_SDK = /^@modelcontextprotocol\/sdk\//;
const mayUseMcpSdk = (file: string): boolean => file.startsWith('functions/mcp/');

export function layeringViolations(graph: ImportGraph): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph.files) {
    const room = roomOf(file);
    if (!room) continue;
    for (const target of targets) {
      const to = roomOf(target);
      if (to && ROOMS.indexOf(to) > ROOMS.indexOf(room)) out.push(`${file} (${room}) imports ${target} (${to})`);
    }
    for (const spec of graph.external.get(file) ?? []) {
      if (spec.startsWith('node:')) {
        if (!mayUseNode(file)) out.push(`${file} (${room}) imports ${spec}`);
      } else {
        const allowed = PACKAGES[room];
        if (allowed && !allowed.test(spec) && !(mayUseMcpSdk(file) && MCP_SDK.test(spec))) out.push(`${file} (${room}) imports the package ${spec}`);
      }
    }
  }
  return out.sort();
}

/**
 * The build's stages: each takes inputs and returns outputs, and build/pipeline.ts runs it through
 * its cache (build/cache/stage-cache.ts). A stage that imported a cache module, itself or through
 * any module it imports (the source loaders under the model stage, say), would decide about
 * caching itself.
 */
export const STAGE_MODULES = ['build/model-stage.ts', 'build/stages.ts', 'build/emit/bundle-function.ts'] as const;

/** Imports of build/cache/ by a stage module or any module it imports, however deep (type-only imports count too). */
export function stageCacheImports(graph: ImportGraph): string[] {
  const out = new Set<string>();
  for (const stage of STAGE_MODULES) {
    const seen = new Set<string>([stage]);
    const stack: string[] = [stage];
    while (stack.length > 0) {
      const file = stack.pop()!;
      for (const target of graph.files.get(file) ?? []) {
        if (target.startsWith('build/cache/')) {
          out.add(file === stage ? `${stage} (a stage) imports ${target}` : `${file} (run by the stage ${stage}) imports ${target}`);
        } else if (!seen.has(target)) {
          seen.add(target);
          stack.push(target);
        }
      }
    }
  }
  return [...out].sort();
}
