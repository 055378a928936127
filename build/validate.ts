// CLI: npm run validate [-- --source DIR] [--json]. Builds the model from the sources and
// prints how its scores compare with published indices (which never feed the model).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeModel } from './model/index.ts';
import { loadSeeds } from './seeds-load.ts';
import { loadSources, resolveSourceDir } from './sources/index.ts';
import { loadValidation } from './validation/load.ts';
import { computeValidation, formatValidation } from './validation/report.ts';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--source');
  const cliSource = at >= 0 ? argv[at + 1] : undefined;
  const json = argv.includes('--json');
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const dir = resolveSourceDir({ cliSource, env: process.env, repoRoot });
  const [{ bundle }, seeds, refs] = await Promise.all([
    loadSources(dir),
    loadSeeds(path.join(repoRoot, 'seeds')),
    loadValidation(dir),
  ]);
  const model = computeModel(bundle, seeds);
  const report = computeValidation(model, bundle, refs);
  if (json) console.log(JSON.stringify({ validation: report, model_report: model.report }, null, 2));
  else {
    console.log(`Validation of risk model ${model.meta.model_version} (${model.meta.data_version}), ${model.occupations.length} occupations\n`);
    console.log(formatValidation(report));
    console.log(`\nReference files: ${report.files.join(', ') || 'none found'}`);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
