// Where the raw sources live. Precedence: --source DIR, then ODR_SOURCE_DIR, then <repo>/data/raw/
// when it holds files (what `npm run data:fetch` fills), then the sibling mirror <repo>/../shared/data.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { HOW_TO_GET_DATA, SourceError } from './errors.ts';

function hasFiles(dir: string): boolean {
  try {
    return statSync(dir).isDirectory() && readdirSync(dir).some((name) => !name.startsWith('.'));
  } catch {
    return false;
  }
}

export function resolveSourceDir(opts: {
  cliSource?: string;
  env?: NodeJS.ProcessEnv;
  repoRoot: string;
}): string {
  const env = opts.env ?? {};
  // An explicit choice must exist: silently falling back would build from other data than asked.
  const explicit: Array<[string | undefined, string]> = [
    [opts.cliSource, '--source'],
    [env.ODR_SOURCE_DIR, 'ODR_SOURCE_DIR'],
  ];
  for (const [value, origin] of explicit) {
    if (value === undefined || value.trim() === '') continue;
    const dir = path.resolve(opts.repoRoot, value);
    if (!hasFiles(dir)) {
      throw new SourceError(
        `Source directory from ${origin} (${dir}) ${existsSync(dir) ? 'is empty' : 'does not exist'}. ${HOW_TO_GET_DATA}`,
      );
    }
    return dir;
  }
  const raw = path.join(opts.repoRoot, 'data', 'raw');
  if (hasFiles(raw)) return raw;
  const mirror = path.resolve(opts.repoRoot, '..', 'shared', 'data');
  if (hasFiles(mirror)) return mirror;
  throw new SourceError(`No source data found (looked in ${raw} and ${mirror}). ${HOW_TO_GET_DATA}`);
}
