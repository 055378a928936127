// `npm run data:fetch`: argument handling around fetchSources. Returns the exit code instead of
// exiting, so tests run it in-process.
import { resolve } from 'node:path';
import { parseFetchArgs, USAGE } from './args.ts';
import { isFetchable } from './manifest.ts';
import type { Manifest } from '../sources/registry-schema.ts';
import { loadManifest, ManifestFileError } from './manifest-file.ts';
import { fetchSources, formatBytes, type Log, type Progress } from './run.ts';

/** One line, rewritten in place: which file, how much of how much. Only on a terminal. */
export function terminalProgress(stream: NodeJS.WriteStream): Progress | undefined {
  if (!stream.isTTY) return undefined;
  let last = 0;
  return (id, name, got, total) => {
    const now = Date.now();
    if (now - last < 100 && got !== total) return;
    last = now;
    const pct = total > 0 ? ` ${Math.floor((got / total) * 100)}% of ${formatBytes(total)}` : ` ${formatBytes(got)}`;
    stream.write(`\x1b[2K\r[${id}] ${name}${pct}\r`);
  };
}

export interface MainDeps {
  env?: Record<string, string | undefined>;
  log?: Log;
  /** Defaults to a live line on a terminal; CI logs keep the quiet quarter lines of large files. */
  progress?: Progress;
  /** Replaces the built-in list in-process (tests); --manifest / ODR_FETCH_MANIFEST does it from a file. */
  manifest?: Manifest;
}

export async function main(argv: readonly string[], deps: MainDeps = {}): Promise<number> {
  const log = deps.log ?? ((line: string) => console.log(line));
  const parsed = parseFetchArgs(argv, deps.env ?? process.env);
  let manifest: Manifest;
  try {
    manifest = deps.manifest ?? loadManifest(parsed.kind === 'run' ? parsed.options.manifestPath : parsed.kind === 'list' ? parsed.manifestPath : undefined);
  } catch (err) {
    if (!(err instanceof ManifestFileError)) throw err;
    log(`data:fetch: ${err.message}`);
    return 2;
  }
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
  // On a terminal (and unless the caller routes the output), a live progress line; each log line
  // first clears it so no digits are left behind.
  const live = deps.progress === undefined && deps.log === undefined ? terminalProgress(process.stdout) : undefined;
  const progress = deps.progress ?? live;
  const lineLog: Log = live ? (line) => void process.stdout.write(`\x1b[2K${line}\n`) : log;
  const result = await fetchSources(manifest, { ...options, outDir: resolve(options.outDir) }, lineLog, progress);
  if (live) process.stdout.write('\x1b[2K');
  return result.exitCode;
}
