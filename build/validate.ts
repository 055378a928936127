// CLI: npm run validate [-- --source DIR] [--json] [--write-docs]. Builds the model from the
// sources and prints (0) the declared outcome tests (build/validation/declared-tests/vN.json, the
// newest version) beside their baselines, with a reading generated from the figures, (1) the figures of issue 8 for model 1.0.0 (baseline measured on commit
// 9ada6c3 by the same function) and the current model, (2) the non-circular validation with
// bootstrap intervals and held-out variants, (3) the rank correlations with published indices.
// --write-docs rewrites the generated sections of docs/METHODOLOGY.md.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { computeModel } from './model/index.ts';
import type { Seeds } from './model/params.ts';
import { loadSeeds } from './seeds-load.ts';
import type { ModelInputs } from './model/inputs.ts';
import { loadSources, resolveSourceDir } from './sources/index.ts';
import { computeDeclared, formatDeclared, parseDeclaration, readDeclared, scoreVsComplementarity, type ModelChoice } from './validation/declared.ts';
import { computeChoice, formatChoice } from './validation/model-choice.ts';
import { formatFigures, issueFigures, type IssueFigures } from './validation/figures.ts';
import { adviceFigures, formatAdviceFigures } from './validation/advice-figures.ts';
import { loadValidation } from './validation/load.ts';
import { parameterIndex, replaceSection } from './validation/methodology.ts';
import { loadOewsHistory } from './validation/oews-history.ts';
import { computeOutcomes, formatOutcomes, type NamedModel } from './validation/outcomes.ts';
import type { Interval } from './validation/stats.ts';
import { computeValidation, formatValidation } from './validation/report.ts';
import { REPO_ROOT } from './repo-root.ts';
import { FORECASTS_DIR, loadForecasts, resultFile } from './releases/forecast.ts';
import { checkForecast, formatCheck } from './validation/forecast.ts';
import { loadRecordedReleases } from './releases/load.ts';
import { formatIntervalReport, intervalReport } from './validation/interval-report.ts';
import { intervalCheck, type IntervalCheck } from './validation/interval-check.ts';

/** Held-out variants: the same sources with one input removed. */
function variants(bundle: ModelInputs, seeds: Seeds): { models: NamedModel[]; check: IntervalCheck } {
  const v = seeds.params.model_version;
  const withKappa = (kappa: number): Seeds => ({
    ...seeds,
    params: { ...seeds.params, complementarity: { kappa: { ...seeds.params.complementarity.kappa, value: kappa } } },
  });
  let check: IntervalCheck | undefined;
  const served = computeModel(bundle, seeds, { withScores: (scores, tiers) => void (check = intervalCheck(scores, seeds.params, tiers)) });
  const models = [
    { name: v, description: `model ${v} as served`, model: served },
    { name: 'without AEI', description: 'no Anthropic Economic Index input (usage and automation share); adoption years fall back to the published range', model: computeModel({ ...bundle, aei_usage: [], aei_collaboration: [] }, seeds) },
    {
      name: 'without labels',
      description: 'Eloundou et al. labels carry no information: every task E2 for both raters and no T-level, so exposure differs only by AEI usage, and substitution by AEI automation shares',
      model: computeModel({ ...bundle, exposure_labels: bundle.exposure_labels.map((l) => ({ ...l, human: 'E2', gpt4: 'E2', gpt4_automation: null })) }, seeds),
    },
    { name: 'without complementarity', description: 'kappa = 0: no complementarity adjustment (substitution-weighted exposure only)', model: computeModel(bundle, withKappa(0)) },
  ];
  return { models, check: check! };
}

const withWwaiWeight = (seeds: Seeds, weight: number): Seeds => ({
  ...seeds,
  params: { ...seeds.params, propensity: { ...seeds.params.propensity, wwai: { ...seeds.params.propensity.wwai, value: { ...seeds.params.propensity.wwai.value, weight } } } },
});

/**
 * The models of a declared model choice's candidates, by candidate id. Each id the declaration
 * names must have its construction here (an unknown id stops the report, it is never skipped).
 */
function choiceModels(choice: ModelChoice, bundle: ModelInputs, seeds: Seeds): Map<string, ReturnType<typeof computeModel>> {
  if (choice.id !== 'wwai-propensity') throw new Error(`model choice ${choice.id} has no candidates implemented in build/validate.ts`);
  // Without the file every candidate would equal 'none': say so instead of comparing a model with itself.
  if (bundle.wwai_iwa.length === 0) throw new Error(`model choice ${choice.id}: iwa_metrics.csv (Microsoft working-with-ai) not found or empty in the source directory; the declared comparison cannot run`);
  const tw = seeds.params.propensity.t_weight.value;
  const build: Record<string, () => ReturnType<typeof computeModel>> = {
    none: () => computeModel(bundle, withWwaiWeight(seeds, 0)),
    // W as a third input with its declared weight.
    wwai_third_input: () => computeModel(bundle, withWwaiWeight(seeds, choice.candidates.find((c) => c.id === 'wwai_third_input')!.weight!)),
    // W in the AEI automation share's place: no AEI collaboration rows, and W weighted as A was (1 - t_weight).
    wwai_replaces_aei: () => computeModel({ ...bundle, aei_collaboration: [] }, withWwaiWeight(seeds, 1 - tw)),
  };
  return new Map(
    choice.candidates.map((c) => {
      const make = build[c.id];
      if (!make) throw new Error(`model choice ${choice.id}: candidate ${c.id} is declared but not implemented in build/validate.ts`);
      return [c.id, make()];
    }),
  );
}

/** The newest declaration (declared-tests/vN.json, highest N): a later version sits beside the earlier ones, never replaces them. */
async function loadDeclaration(repoRoot: string) {
  const dir = path.join(repoRoot, 'build/validation/declared-tests');
  const versions = (await readdir(dir)).flatMap((f) => (/^v(\d+)\.json$/.exec(f) ? [Number(/^v(\d+)/.exec(f)![1])] : [])).sort((a, b) => a - b);
  if (!versions.length) throw new Error(`no declared tests in ${dir}`);
  return parseDeclaration(await readFile(path.join(dir, `v${versions.at(-1)}.json`), 'utf8'));
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--source');
  const cliSource = at >= 0 ? argv[at + 1] : undefined;
  const json = argv.includes('--json');
  const writeDocs = argv.includes('--write-docs');
  const repoRoot = REPO_ROOT;
  const dir = resolveSourceDir({ cliSource, env: process.env, repoRoot });
  const [{ bundle }, seeds, refs, history, baselineText, declaration] = await Promise.all([
    loadSources(dir),
    loadSeeds(path.join(repoRoot, 'seeds')),
    loadValidation(dir),
    loadOewsHistory(dir),
    readFile(path.join(repoRoot, 'build/validation/baseline-1.0.0.json'), 'utf8'),
    loadDeclaration(repoRoot),
  ]);
  const { models, check } = variants(bundle, seeds);
  const model = models[0]!.model;
  const release200 = loadRecordedReleases(repoRoot).find((r) => r.model_version === '2.0.0') ?? null;
  const interval = intervalReport(model, check, release200, model.tiers);
  const baseline = JSON.parse(baselineText) as IssueFigures & { outcomes_by_reference: Record<string, { n: number; value: Interval }> };
  const figures = issueFigures(model, bundle, refs.ai_statements);
  // Guidance (issue 43): the same sources with the 3.0 move rules only, beside the model as served.
  const adviceBefore = adviceFigures(computeModel(bundle, seeds, { moveRules30: true }).occupations);
  const adviceAfter = adviceFigures(model.occupations);
  const guidanceReport = (model.report as { guidance?: { moves_removed: Record<string, number> | null; table_1_12: Record<string, number> | null; routes: Record<string, number> | null; focus: Record<string, number> | null } }).guidance;
  const outcomes = computeOutcomes(models, refs, new Map(bundle.msft_applicability.map((m) => [m.soc, m.score])), refs.aei_job_exposure, history.years);
  const report = computeValidation(model, bundle, refs);
  const declared = computeDeclared(declaration, model, refs.ep_factor_rows, history.years, refs.eloundou_occ);
  const withoutLabels = models.find((m) => m.name === 'without labels')!.model;
  const noLabelsAuc = outcomes.rows[0]?.values.find((v) => v.column === 'without labels')?.value.value ?? null;
  const choices = (declaration.model_choices ?? []).map((c) => computeChoice(declaration, c, choiceModels(c, bundle, seeds), refs.ep_factor_rows, history.years, refs.eloundou_occ));
  const declaredReading = readDeclared(declared, { ...scoreVsComplementarity(withoutLabels, model, refs.ai_statements.keys()), auc: noLabelsAuc });
  // Registered forecasts: each checked against the OEWS file it names, as soon as that file is here.
  const forecastDir = path.join(repoRoot, FORECASTS_DIR);
  const forecasts = loadForecasts(forecastDir).map(({ file, forecast }) => ({ file, forecast, results: checkForecast(forecast, history.years) }));
  const forecastText = forecasts.length
    ? forecasts.map((f) => formatCheck(f.forecast, f.results, `${FORECASTS_DIR}/${f.file}`)).join('\n')
    : `No forecast registered yet (${FORECASTS_DIR}/ holds none).`;
  if (json) {
    console.log(JSON.stringify({ forecasts: forecasts.map((f) => ({ file: f.file, results: f.results })), declared: { version: declaration.version, results: declared, model_choices: choices }, interval, figures: { before: baseline, after: figures }, guidance: { before: adviceBefore, after: adviceAfter }, outcomes, validation: report, model_report: model.report, oews_history: { files: history.files, failed: history.failed } }, null, 2));
    return;
  }
  const skipped = [
    ...history.failed.map((f) => `${f.path}: ${f.reason} (skipped)`),
  ];
  const validationSection = [
    `Figures for O*NET ${model.meta.onet_version}, OEWS ${model.meta.oews_period}, model ${model.meta.model_version}; printed by \`npm run validate\`, which also writes this section (\`-- --write-docs\`).`,
    '',
    '### Declared outcome tests, beside baselines',
    '',
    formatDeclared(declared, declaration.version),
    '',
    'Reading (generated from the figures above; no pass mark):',
    '',
    declaredReading,
    '',
    ...choices.flatMap((c) => ['### Model choices decided on the declared test', '', formatChoice(c, declaration.version), '']),
    '### Registered forecasts',
    '',
    'Each forecast of releases/forecasts/ against the OEWS file it names (pending until that file is in the source directory); the rules are in "A forecast on the record" below.',
    '',
    forecastText,
    '',
    '### Score interval and displacement years: 2.0.0 and now',
    '',
    formatIntervalReport(interval, model.meta.model_version),
    '',
    '### Guidance (issue 43): moves, routes, focus, before (3.0 move rules) and now',
    '',
    formatAdviceFigures(adviceBefore, adviceAfter, guidanceReport?.moves_removed ?? undefined, guidanceReport?.table_1_12, guidanceReport?.routes, guidanceReport?.focus),
    '',
    '### Issue 8 figures: 1.0.0 and now',
    '',
    'The 1.0.0 column was measured with the same function (build/validation/figures.ts) on commit 9ada6c3 (build/validation/baseline-1.0.0.json).',
    '',
    formatFigures(baseline, figures, model.meta.model_version),
    '',
    '### Outcomes and references, with held-out variants',
    '',
    formatOutcomes(outcomes, models, baseline.outcomes_by_reference),
    '',
    ...skipped.map((s) => `- ${s}`),
    '',
    '### Rank correlations of final_score with published indices (no intervals; see above for the main ones)',
    '',
    formatValidation(report),
  ].join('\n');
  console.log(`Validation of risk model ${model.meta.model_version} (${model.meta.data_version}), ${model.occupations.length} occupations\n`);
  console.log(validationSection);
  console.log(`\nReference files: ${[...report.files, ...history.files].join(', ') || 'none found'}`);
  if (writeDocs) {
    const docPath = path.join(repoRoot, 'docs/METHODOLOGY.md');
    let doc = await readFile(docPath, 'utf8');
    doc = replaceSection(doc, 'validation', validationSection);
    doc = replaceSection(doc, 'parameters', parameterIndex(seeds.params));
    await writeFile(docPath, doc);
    // A check, once made, is recorded beside the forecast (the forecast file itself never changes); /api/v1/meta lists it.
    for (const f of forecasts.filter((x) => x.results.some((r) => r.status === 'checked'))) {
      await mkdir(path.dirname(resultFile(forecastDir, f.file)), { recursive: true });
      await writeFile(resultFile(forecastDir, f.file), JSON.stringify(f.results, null, 2) + '\n');
      console.log(`Recorded the check of ${FORECASTS_DIR}/${f.file} in ${path.relative(repoRoot, resultFile(forecastDir, f.file))}.`);
    }
    console.log(`\nWrote the generated sections of ${path.relative(repoRoot, docPath)}.`);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
