// `npm run data:fetch`: argument handling around fetchSources. Returns the exit code instead of
// exiting, so tests run it in-process.
import { resolve } from 'node:path';
import { parseFetchArgs, USAGE } from './args.ts';
import { isFetchable, MANIFEST, type Manifest } from './manifest.ts';
import { fetchSources, type Log } from './run.ts';

export interface MainDeps {
  env?: Record<string, string | undefined>;
  log?: Log;
  manifest?: Manifest;
}

export async function main(argv: readonly string[], deps: MainDeps = {}): Promise<number> {
  const log = deps.log ?? ((line: string) => console.log(line));
  const manifest = deps.manifest ?? MANIFEST;
  const parsed = parseFetchArgs(argv, deps.env ?? process.env);
  switch (parsed.kind) {
    case 'help':
      log(USAGE);
      return 0;
    case 'error':
      log(`data:fetch: ${parsed.message}\n\n${USAGE}`);
      return 2;
    case 'list':
      for (const s of manifest) {
        const how = isFetchable(s) ? s.files.map((f) => f.url).join(' ') : `not downloadable: ${s.homepage}`;
        log(`${s.id.padEnd(20)} ${s.required ? 'required' : 'optional'}  ${how}`);
      }
      return 0;
  }
  const { options } = parsed;
  const unknown = (options.only ?? []).filter((id) => !manifest.some((s) => s.id === id));
  if (unknown.length > 0) {
    log(`data:fetch: unknown source id(s): ${unknown.join(', ')}. Known: ${manifest.map((s) => s.id).join(', ')}`);
    return 2;
  }
  const result = await fetchSources(manifest, { ...options, outDir: resolve(options.outDir) }, log);
  return result.exitCode;
}
