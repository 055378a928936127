// Bundles the function with esbuild: the platform-neutral module the local server mounts, plus
// one thin adapter bundle per CDN. Returns file bodies (not written here) and the metafile, which
// a test reads to prove the bundle pulls in no node:*, fs, csv-parse or eta.
import { build, type Metafile } from 'esbuild';
import path from 'node:path';
import { FUNCTION_PATHS } from '../contract/dist-layout.ts';
import type { FunctionBundle } from '../function-bundle.ts';


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

export async function bundleFunctions(repoRoot: string): Promise<FunctionBundle> {
  const entries: Array<[string, string]> = [
    ['functions/api.ts', FUNCTION_PATHS.core],
    ['functions/adapters/cloudflare.ts', FUNCTION_PATHS.cloudflareWorker],
    ['functions/adapters/netlify.ts', FUNCTION_PATHS.netlify],
  ];
  // The three bundles are independent: built at once, collected in this order.
  const results = await Promise.all(
    entries.map(([entry, out]) =>
      build({
        absWorkingDir: repoRoot,
        entryPoints: [entry],
        bundle: true,
        format: 'esm',
        platform: 'neutral',
        target: 'es2022',
        mainFields: ['module', 'main'],
        write: false,
        metafile: true,
        minify: true,
        legalComments: 'none',
        outfile: path.join(repoRoot, '.fn-out', out),
        logLevel: 'silent',
      }),
    ),
  );
  const files: FunctionBundle['files'] = entries.map(([, out], i) => ({ path: out, body: results[i]!.outputFiles.find((f) => f.path.endsWith(path.basename(out)))!.text }));
  const metafile = results[entries.findIndex(([entry]) => entry === 'functions/api.ts')]!.metafile;
  files.push({ path: FUNCTION_PATHS.core.replace(/\.mjs$/, '.meta.json'), body: JSON.stringify(metafile) });
  const inputs = [...new Set(results.flatMap((r) => Object.keys(r.metafile.inputs)))].sort();
  return { files, metafile: metafile!, inputs };
}
