// Command line and environment -> fetch options. Pure: no I/O, so it is tested directly.
import { parseArgs } from 'node:util';

/**
 * BLS answers 403 to requests without an identifying User-Agent. The default names the tool and
 * carries a placeholder contact; set ODR_FETCH_USER_AGENT to your own, e.g. "my-app jane@example.org".
 */
export const DEFAULT_USER_AGENT =
  'occupation-displacement-risk-api-data-fetch/0.1 (contact: you@example.org; set ODR_FETCH_USER_AGENT)';

export interface FetchOptions {
  outDir: string;
  baseUrl: string | undefined;
  only: string[] | undefined;
  force: boolean;
  userAgent: string;
  timeoutMs: number;
  /** A JSON source list replacing the built-in one (--manifest / ODR_FETCH_MANIFEST), see manifest-file.ts. */
  manifestPath: string | undefined;
}

export type Parsed =
  | { kind: 'run'; options: FetchOptions }
  | { kind: 'help' }
  | { kind: 'list'; manifestPath: string | undefined }
  | { kind: 'error'; message: string };

export const USAGE = `Usage: npm run data:fetch -- [options]

Downloads the official source files from their publishers into data/raw/ (see data/README.md).

  --out DIR          where to put the files (default: data/raw)
  --only ID[,ID]     fetch only these sources (see --list)
  --force            download again even if a file is present with the recorded size and sha256
  --base-url URL     fetch every file from this server instead of the publishers, same paths
                     (env ODR_FETCH_BASE_URL); for mirrors and tests
  --manifest FILE    take the source list (URLs, names, pinned sizes and sha256) from this JSON
                     file instead of the built-in one (env ODR_FETCH_MANIFEST); same schema and
                     checks: for a mirror of another release, and for tests
  --list             list the sources and exit
  --help             this text

Environment: ODR_FETCH_USER_AGENT  User-Agent to send, with your contact (BLS refuses anonymous
agents); ODR_FETCH_BASE_URL as --base-url; ODR_FETCH_TIMEOUT_SECONDS per download (default 900).`;

export function parseFetchArgs(argv: readonly string[], env: Record<string, string | undefined>): Parsed {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        out: { type: 'string' },
        only: { type: 'string' },
        force: { type: 'boolean', default: false },
        'base-url': { type: 'string' },
        manifest: { type: 'string' },
        list: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return { kind: 'error', message: (err as Error).message };
  }
  if (values.help) return { kind: 'help' };
  const manifestPath = values.manifest ?? (env.ODR_FETCH_MANIFEST?.trim() || undefined);
  if (values.list) return { kind: 'list', manifestPath };

  const baseUrl = values['base-url'] ?? (env.ODR_FETCH_BASE_URL || undefined);
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl)) {
    return { kind: 'error', message: `--base-url must be an http(s) URL, got "${baseUrl}"` };
  }
  const only = values.only
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (only !== undefined && only.length === 0) return { kind: 'error', message: '--only needs at least one source id' };

  const timeoutSeconds = Number(env.ODR_FETCH_TIMEOUT_SECONDS ?? 900);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    return { kind: 'error', message: `ODR_FETCH_TIMEOUT_SECONDS must be a positive number` };
  }
  return {
    kind: 'run',
    options: {
      outDir: values.out ?? 'data/raw',
      baseUrl,
      only,
      force: values.force,
      userAgent: env.ODR_FETCH_USER_AGENT?.trim() || DEFAULT_USER_AGENT,
      timeoutMs: timeoutSeconds * 1000,
      manifestPath,
    },
  };
}
