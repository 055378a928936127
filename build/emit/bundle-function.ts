// Bundles the function with esbuild: the platform-neutral module the local server mounts, plus
// one thin adapter bundle per CDN. Returns file bodies (not written here) and the metafile, which
// a test reads to prove the bundle pulls in no node:*, fs, csv-parse or eta.
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import path from 'node:path';
import { FUNCTION_PATHS } from '../contract/dist-layout.ts';
import { FUNCTION_ENTRIES, type FunctionBundle } from '../function-bundle.ts';


/**
 * Size budget of the platform-neutral function module (minified, before compression). Cold starts
 * parse it on every new instance; full zod with its locales alone would exceed it.
 */
export const FUNCTION_BUNDLE_BUDGET_BYTES = 100 * 1024;

/** The inputs that put the most bytes into the bundle, biggest first (for a failing budget). */
export function largestInputs(meta: Metafile, n: number): Array<{ input: string; bytes: number }> {
  const all = Object.values(meta.outputs).flatMap((o) => Object.entries(o.inputs).map(([input, i]) => ({ input, bytes: i.bytesInOutput })));
  return all.sort((a, b) => b.bytes - a.bytes || (a.input < b.input ? -1 : 1)).slice(0, n);
}

const FORBIDDEN = [/^node:/, /(^|\/)fs$/, /csv-parse/, /(^|\/)eta(\/|$)/, /node_modules\/eta\//, /build\/sources\//, /build\/emit\//];

export function forbiddenInputs(meta: Metafile): string[] {
  const names = [...Object.keys(meta.inputs), ...Object.values(meta.inputs).flatMap((i) => i.imports.map((x) => x.path))];
  return [...new Set(names.filter((n) => FORBIDDEN.some((re) => re.test(n))))].sort();
}

/** The MCP server's module (functions/api.ts imports it on the first /mcp request). */
const MCP_ENTRY = FUNCTION_ENTRIES[3];
/** The MCP module's file beside an entry bundle: mcp.mjs, or mcp.js beside a .js. */
export const mcpModuleFor = (out: string): string => path.posix.join(path.posix.dirname(out), `mcp${path.extname(out)}`);

/**
 * functions/api.ts's dynamic import of the MCP module, left as an import of its bundled file
 * beside the entry (`./mcp.mjs`): bundled separately, it shares no chunk with the entry, so the
 * other routes parse none of its code (a shared chunk held zod's core whole: 150 KB eager).
 */
const lazyMcp = (specifier: string): Plugin => ({
  name: 'lazy-mcp',
  setup(b) {
    b.onResolve({ filter: /\/mcp\/endpoint\.ts$/ }, (args) => (args.kind === 'dynamic-import' ? { path: specifier, external: true } : undefined));
  },
});

/** How every function bundle is made (the bundle test builds its comparison bundle the same way). */
export const FUNCTION_BUILD_OPTIONS = {
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  mainFields: ['module', 'main'],
  write: false,
  minify: true,
  legalComments: 'none',
} as const satisfies BuildOptions;

export async function bundleFunctions(repoRoot: string): Promise<FunctionBundle> {
  const [api, cloudflare, netlify] = FUNCTION_ENTRIES;
  const entries: Array<[string, string]> = [
    [api, FUNCTION_PATHS.core],
    [cloudflare, FUNCTION_PATHS.cloudflareWorker],
    [netlify, FUNCTION_PATHS.netlify],
  ];
  const jobs: Array<[string, string]> = entries.flatMap(([entry, out]): Array<[string, string]> => [[entry, out], [MCP_ENTRY, mcpModuleFor(out)]]);
  // The bundles are independent: built at once, collected in this order.
  const results = await Promise.all(
    jobs.map(([entry, out]) =>
      build({
        ...FUNCTION_BUILD_OPTIONS,
        absWorkingDir: repoRoot,
        entryPoints: [entry],
        metafile: true,
        outfile: path.join(repoRoot, '.fn-out', out),
        plugins: [lazyMcp(`./${path.posix.basename(mcpModuleFor(out))}`)],
        logLevel: 'silent',
      }),
    ),
  );
  const files: FunctionBundle['files'] = jobs.map(([, out], i) => ({ path: out, body: results[i]!.outputFiles.find((f) => f.path.endsWith(path.basename(out)))!.text }));
  const metafile = results[jobs.findIndex(([entry]) => entry === 'functions/api.ts')]!.metafile;
  files.push({ path: FUNCTION_PATHS.core.replace(/\.mjs$/, '.meta.json'), body: JSON.stringify(metafile) });
  const inputs = [...new Set(results.flatMap((r) => Object.keys(r.metafile.inputs)))].sort();
  return { files, metafile: metafile!, inputs };
}
