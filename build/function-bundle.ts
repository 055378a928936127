// The function bundles as the build holds them: made by build/emit/bundle-function.ts, kept by
// build/cache/function-cache.ts (a file of its own so the cache need not import the emit).
import type { Metafile } from 'esbuild';

export interface FunctionBundle {
  files: Array<{ path: string; body: string }>;
  metafile: Metafile;
  /** Every file esbuild read for any of the bundles, relative to the repository (the function cache checks its key covers them). */
  inputs: string[];
}

/** The function's entry modules (each bundled by build/emit/bundle-function.ts), the MCP module last. */
export const FUNCTION_ENTRIES = ['functions/api.ts', 'functions/adapters/cloudflare.ts', 'functions/adapters/netlify.ts', 'functions/mcp/endpoint.ts'] as const;
