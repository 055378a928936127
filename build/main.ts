// CLI: npm run build -- [--shape percentile|timeline|both] [--source DIR] [--out DIR] [--no-cache] [--no-reuse]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBuilds } from './pipeline.ts';
import { explainFailure, parseFlags, stageProgress } from './cli.ts';
import { formatJoinReport, formatUnscored } from './report-format.ts';
import { Shape } from './model/records.ts';

const USAGE = 'usage: npm run build -- [--shape percentile|timeline|both] [--source DIR] [--out DIR] [--no-cache] [--no-reuse]';

export interface BuildArgs {
  /** `both` reads the sources once and writes OUT/percentile and OUT/timeline. */
  targets: Array<{ shape: Shape; out: string }>;
  source?: string;
  cache: boolean;
  /** Update the previous generation of each out folder in place (--no-cache and --no-reuse: write a fresh tree). */
  reuse: boolean;
}

export function parseBuildArgs(argv: string[]): BuildArgs {
  const cache = !argv.includes('--no-cache');
  const reuse = cache && !argv.includes('--no-reuse');
  const flags = parseFlags(argv.filter((a) => a !== '--no-cache' && a !== '--no-reuse'), ['--shape', '--source', '--out'], USAGE);
  const out = flags['--out'] ?? 'dist';
  const shape = flags['--shape'] ?? 'percentile';
  let targets: BuildArgs['targets'];
  if (shape === 'both') targets = Shape.options.map((s) => ({ shape: s, out: path.join(out, s) }));
  else {
    const s = Shape.safeParse(shape);
    if (!s.success) throw new Error(`--shape must be percentile, timeline or both, got ${shape}\n${USAGE}`);
    targets = [{ shape: s.data, out }];
  }
  return { targets, cache, reuse, ...(flags['--source'] !== undefined ? { source: flags['--source'] } : {}) };
}

async function main() {
  let args;
  try {
    args = parseBuildArgs(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  console.log(`Building ${args.targets.map((t) => `shape=${t.shape} -> ${t.out}`).join(', ')}`);
  try {
    const summaries = await runBuilds({ source: args.source, cache: args.cache, reuse: args.reuse, repoRoot, log: (l) => console.log(l), onStageStart: stageProgress(process.stdout) }, args.targets);
    const s = summaries[0]!;
    if (s.sourceReport) console.log(`\nSources\n${s.sourceReport}`);
    console.log(`\nModel joins and counts\n${formatJoinReport(s.joinReport)}`);
    console.log(`\nOccupations kept ${s.occupations}, unscored ${s.unscored}`);
    if (s.unscored > 0) console.log(formatUnscored(s.unscoredList));
    console.log(`Industries per level ${Object.entries(s.industriesByLevel).map(([l, n]) => `${l}: ${n}`).join(', ')}`);
    for (const x of summaries) console.log(`Wrote ${x.files} files, ${(x.bytes / 1e6).toFixed(1)} MB, shape ${x.shape}, data version ${x.dataVersion}, to ${x.out}`);
    const last = summaries[summaries.length - 1]!;
    console.log(`Peak RSS so far at the end of each stage (MB): ${Object.entries(last.stagePeakRssMb).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    console.log(`Parsed-source cache: ${s.cache}; peak RSS ${last.peakRssMb} MB; CPU ${(last.cpuMs / 1000).toFixed(1)} s`);
  } catch (e) {
    console.error(explainFailure(e));
    console.error('Build failed; the previous output folder is unchanged.');
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
