// CLI: npm run build -- [--shape percentile|timeline] [--source DIR] [--out DIR]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBuild } from './pipeline.ts';
import { explainFailure, parseFlags, stageProgress } from './cli.ts';
import { formatJoinReport, formatUnscored } from './report-format.ts';
import { Shape } from './model/records.ts';

const USAGE = 'usage: npm run build -- [--shape percentile|timeline] [--source DIR] [--out DIR]';

export function parseBuildArgs(argv: string[]): { shape: Shape; source?: string; out: string } {
  const flags = parseFlags(argv, ['--shape', '--source', '--out'], USAGE);
  const opts: { shape: Shape; source?: string; out: string } = { shape: 'percentile', out: flags['--out'] ?? 'dist' };
  if (flags['--shape'] !== undefined) {
    const s = Shape.safeParse(flags['--shape']);
    if (!s.success) throw new Error(`--shape must be percentile or timeline, got ${flags['--shape']}\n${USAGE}`);
    opts.shape = s.data;
  }
  if (flags['--source'] !== undefined) opts.source = flags['--source'];
  return opts;
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
  console.log(`Building shape=${args.shape} -> ${args.out}`);
  try {
    const s = await runBuild({ ...args, repoRoot, log: (l) => console.log(l), onStageStart: stageProgress(process.stdout) });
    if (s.sourceReport) console.log(`\nSources\n${s.sourceReport}`);
    console.log(`\nModel joins and counts\n${formatJoinReport(s.joinReport)}`);
    console.log(`\nOccupations kept ${s.occupations}, unscored ${s.unscored}`);
    if (s.unscored > 0) console.log(formatUnscored(s.unscoredList));
    console.log(`Industries per level ${Object.entries(s.industriesByLevel).map(([l, n]) => `${l}: ${n}`).join(', ')}`);
    console.log(`Wrote ${s.files} files, ${(s.bytes / 1e6).toFixed(1)} MB, data version ${s.dataVersion}, to ${s.out}`);
  } catch (e) {
    console.error(explainFailure(e));
    console.error('Build failed; the previous output folder is unchanged.');
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
