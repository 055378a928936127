// CLI: npm run build -- [--shape percentile|timeline|both] [--source DIR] [--out DIR] [--cache LIST | --no-cache] [--cache-dir DIR] [--no-reuse] [--strict]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBuilds } from './pipeline.ts';
import { CACHE_NAMES, type CacheName } from './build-types.ts';
import { explainFailure, parseFlags, stageProgress } from './cli.ts';
import { formatJoinReport, formatRejectedRows, formatUnscored } from './report-format.ts';
import { Shape } from './model/record-schemas.ts';
import { REPO_ROOT } from './repo-root.ts';

const USAGE = 'usage: npm run build -- [--shape percentile|timeline|both] [--source DIR] [--out DIR] [--cache sources,model,function,output | --no-cache] [--cache-dir DIR] [--no-reuse] [--strict]';

export interface BuildArgs {
  /** `both` reads the sources once and writes OUT/percentile and OUT/timeline. */
  targets: Array<{ shape: Shape; out: string }>;
  source?: string;
  /** The caches the build may use: all by default, none with --no-cache, a list with --cache. */
  caches: CacheName[];
  /** Where the caches live (default .cache under the repository). */
  cacheDir?: string;
  /** Update the previous generation of each out folder in place (--no-cache and --no-reuse: write a fresh tree). */
  reuse: boolean;
  /** --strict: any rejected source row fails the build (nothing written). */
  strict?: true;
}

export function parseBuildArgs(argv: string[]): BuildArgs {
  const noCache = argv.includes('--no-cache');
  const reuse = !noCache && !argv.includes('--no-reuse');
  const strict = argv.includes('--strict');
  const flags = parseFlags(argv.filter((a) => a !== '--no-cache' && a !== '--no-reuse' && a !== '--strict'), ['--shape', '--source', '--out', '--cache', '--cache-dir'], USAGE);
  for (const f of ['--cache', '--cache-dir']) if (noCache && flags[f] !== undefined) throw new Error(`${f} and --no-cache cannot be used together\n${USAGE}`);
  const caches = noCache ? [] : flags['--cache'] === undefined ? [...CACHE_NAMES] : parseCacheList(flags['--cache']);
  const out = flags['--out'] ?? 'dist';
  const shape = flags['--shape'] ?? 'percentile';
  let targets: BuildArgs['targets'];
  if (shape === 'both') targets = Shape.options.map((s) => ({ shape: s, out: path.join(out, s) }));
  else {
    const s = Shape.safeParse(shape);
    if (!s.success) throw new Error(`--shape must be percentile, timeline or both, got ${shape}\n${USAGE}`);
    targets = [{ shape: s.data, out }];
  }
  return {
    targets,
    caches,
    reuse,
    ...(strict ? { strict } : {}),
    ...(flags['--source'] !== undefined ? { source: flags['--source'] } : {}),
    ...(flags['--cache-dir'] !== undefined ? { cacheDir: flags['--cache-dir'] } : {}),
  };
}

/** `--cache sources,model` (in any order; `none` for none): each name once, from the known ones. */
function parseCacheList(list: string): CacheName[] {
  if (list === 'none') return [];
  const names = list.split(',');
  const unknown = names.filter((n) => !(CACHE_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length !== new Set(names).size) {
    throw new Error(`--cache takes a comma-separated list of ${CACHE_NAMES.join(', ')} (or none), got ${list}\n${USAGE}`);
  }
  return CACHE_NAMES.filter((n) => names.includes(n));
}

/** Where the CLI writes: the console when run as a command, a test's lines when called in its process. */
export interface CliOutput {
  log: (line: string) => void;
  error: (line: string) => void;
  onStageStart?: (stage: string) => void;
}

/** The build CLI for `argv`: 0 built, 1 the build failed (told without a stack trace for expected failures), 2 a usage error. */
export async function runBuildCli(argv: string[], io: CliOutput): Promise<0 | 1 | 2> {
  let args;
  try {
    args = parseBuildArgs(argv);
  } catch (e) {
    io.error((e as Error).message);
    return 2;
  }
  const repoRoot = REPO_ROOT;
  const { log } = io;
  log(`Building ${args.targets.map((t) => `shape=${t.shape} -> ${t.out}`).join(', ')}`);
  try {
    const summaries = await runBuilds({ source: args.source, caches: args.caches, ...(args.cacheDir ? { cacheDir: path.resolve(args.cacheDir) } : {}), reuse: args.reuse, ...(args.strict ? { strict: true } : {}), repoRoot, log, ...(io.onStageStart ? { onStageStart: io.onStageStart } : {}) }, args.targets);
    const s = summaries[0]!;
    if (s.sourceReport) log(`\nSources\n${s.sourceReport}`);
    log(`\nModel joins and counts\n${formatJoinReport(s.joinReport)}`);
    log(`\nOccupations kept ${s.occupations}, unscored ${s.unscored}`);
    if (s.unscored > 0) log(formatUnscored(s.unscoredList));
    log(`Industries per level ${Object.entries(s.industriesByLevel).map(([l, n]) => `${l}: ${n}`).join(', ')}`);
    for (const x of summaries) log(`Wrote ${x.files} files, ${(x.bytes / 1e6).toFixed(1)} MB, shape ${x.shape}, data version ${x.dataVersion}, to ${x.out}`);
    const last = summaries[summaries.length - 1]!;
    log(`Peak RSS so far at the end of each stage (MB): ${Object.entries(last.stagePeakRssMb).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    const caches = s.caches ? CACHE_NAMES.map((n) => `${n} ${summaries.map((x) => x.caches![n]).filter((v, i, a) => a.indexOf(v) === i).join('/')}`).join(', ') : 'none';
    log(`Caches: ${caches}; peak RSS ${last.peakRssMb} MB; CPU ${(last.cpuMs / 1000).toFixed(1)} s`);
    // Last, where it is seen: what rejected source rows cost (every occupation that lost its page, and why).
    if (s.rejected.rows.length > 0) log(`\n${formatRejectedRows(s.rejected)}`);
    return 0;
  } catch (e) {
    io.error(explainFailure(e));
    io.error('Build failed; the previous output folder is unchanged.');
    return 1;
  }
}

async function main() {
  const progress = stageProgress(process.stdout);
  const code = await runBuildCli(process.argv.slice(2), { log: (l) => console.log(l), error: (l) => console.error(l), ...(progress ? { onStageStart: progress } : {}) });
  if (code !== 0) process.exit(code);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
