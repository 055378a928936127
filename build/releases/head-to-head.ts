// CLI: npm run head-to-head:register -- --dist DIR [--source DIR] [--date YYYY-MM-DD] [--out-dir DIR]
// Registers, before OEWS May 2026 exists, a head-to-head of the layered final_score against simpler
// candidates (issue 44 item 6): every candidate's score per O*NET-SOC code as the build's model
// computes it, the test design and the decision rule, written once to
// releases/head-to-head/<model version>-<date>.json. As with the forecast, an existing file is never
// rewritten and test/unit/build/releases/forecast-files.test.ts pins its sha256.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../repo-root.ts';
import { fileFor } from '../contract/dist-layout.ts';
import { routeById, urlFor } from '../contract/routes.ts';
import { resolveSourceDir } from '../sources/index.ts';
import { loadValidation } from '../validation/load.ts';
import { standardize } from '../validation/stats.ts';
import { RELEASES_DIR } from './load.ts';

export const HEAD_TO_HEAD_DIR = `${RELEASES_DIR}/head-to-head`;
const USAGE = 'usage: npm run head-to-head:register -- --dist DIR [--source DIR] [--date YYYY-MM-DD] [--out-dir DIR]';

export const CANDIDATES = [
  { id: 'final_score', description: "The layered score: the model's final_score (exposure, substitution, complementarity multiplier, label coverage, scaling)." },
  { id: 'gpt4_beta', description: 'Eloundou et al. (2023) GPT-4 rated beta of the O*NET-SOC occupation (occ_level.csv, dv_rating_beta).' },
  { id: 'exposure', description: "The model's exposure step alone (exposure_score)." },
  { id: 'exposure_plus_complementarity', description: 'z(exposure_score) + z(protective_moderation): each standardized over the occupations listed here; protective_moderation is the complementarity multiplier (lower = more protected), so both terms point toward risk.' },
] as const;

export const DESIGN = {
  outcome: 'Annualized log change in OEWS national employment (log points x 100 per year) of each OEWS detailed code group from the base file to the target file; codes missing from the target file are dropped and counted, never remapped.',
  base: { year: '2025', file: 'national_M2025_dl' },
  windows: [
    { role: 'primary', target: { year: '2028', file: 'national_M2028_dl' } },
    { role: 'secondary', target: { year: '2026', file: 'national_M2026_dl' } },
  ],
  units: "OEWS detailed code groups of the base file, as the forecast of the same model registers them (releases/forecasts/): a group's candidate score is the mean over the O*NET-SOC occupations listed here under its codes (by SOC 2018 prefix, else by oews_code). Only groups that every candidate scores enter (one common sample).",
  predictor: "Each candidate's group score, standardized (z) over the common sample, so coefficients are per standard deviation.",
  controls: 'Log median annual wage at the base year ("beyond log wage"), the pre-trend (annualized log employment growth over the three years before the base year, or from the nearest earlier year published) and major-group fixed effects (first two digits of the group\'s first code): the forecast\'s controls.',
  weightings: ['unweighted: each group counted once (OLS)', 'employment-weighted: each group weighted by its base-year employment (WLS)'],
  statistic: "b(candidate) = the OLS/WLS coefficient of z(candidate) with the controls above; the model predicts b < 0 (higher score, slower growth). The comparison is the paired difference b(final_score) - b(other candidate), computed on the same pairs-bootstrap resamples of groups (1,000 resamples, seed 20240601); the interval is the 95% percentile interval.",
} as const;

export const DECISION_RULE =
  'On the primary window (May 2025 -> May 2028): the layered score (final_score) stays the headline only if b(final_score) - b(gpt4_beta) has a paired 95% interval entirely below 0 in both weightings (unweighted and employment-weighted). Otherwise the headline becomes exposure (exposure_score), with complementarity (protective_moderation) shown beside it. The secondary window (May 2025 -> May 2026) and the exposure and z(exposure) + z(complementarity) candidates are reported beside it and do not change the decision.';

export interface ScoreRow {
  soc_code: string;
  oews_code: string | null;
  final_score: number;
  gpt4_beta: number | null;
  exposure: number;
  complementarity: number;
  exposure_plus_complementarity: number;
}

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Each occupation's candidate scores; the z-sum is standardized over all listed occupations. */
export function candidateScores(
  rows: ReadonlyArray<{ soc_code: string; oews_code: string | null; final_score: number; exposure: number; complementarity: number }>,
  gpt4: ReadonlyMap<string, number | null>,
): ScoreRow[] {
  const ze = standardize(rows.map((r) => r.exposure));
  const zc = standardize(rows.map((r) => r.complementarity));
  if (!ze || !zc) throw new Error('exposure or complementarity has no spread: nothing to standardize');
  return rows.map((r, i) => ({
    soc_code: r.soc_code,
    oews_code: r.oews_code,
    final_score: r.final_score,
    gpt4_beta: gpt4.get(r.soc_code) ?? null,
    exposure: r.exposure,
    complementarity: r.complementarity,
    exposure_plus_complementarity: r6(ze[i]! + zc[i]!),
  }));
}

/** The build's occupations.csv and meta: the per-SOC inputs of the candidates. */
function distRows(dist: string) {
  const read = (id: string) => readFileSync(path.join(dist, fileFor(urlFor(id), routeById(id).body)), 'utf8');
  const meta = JSON.parse(read('meta')) as { data_version: string; model_version: string };
  const rows = parse(read('download-occupations'), { columns: true }) as Array<Record<string, string>>;
  for (const c of ['soc_code', 'final_score', 'oews_code', 'exposure_score', 'protective_moderation']) if (rows.length && !(c in rows[0]!)) throw new Error(`${dist}: occupations.csv has no ${c} column`);
  const out = rows.map((r) => ({ soc_code: r.soc_code!, oews_code: r.oews_code || null, final_score: Number(r.final_score), exposure: Number(r.exposure_score), complementarity: Number(r.protective_moderation) }));
  const bad = out.filter((o) => ![o.final_score, o.exposure, o.complementarity].every(Number.isFinite));
  if (bad.length) throw new Error(`${dist}: occupations.csv: ${bad.length} rows without a score (first ${bad[0]!.soc_code})`);
  return { rows: out, meta };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const opt = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const distArg = opt('--dist');
  const date = opt('--date') ?? new Date().toISOString().slice(0, 10);
  if (!distArg || !/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    console.error(USAGE);
    process.exit(2);
  }
  const dist = path.resolve(distArg);
  const { rows, meta } = distRows(dist);
  const refs = await loadValidation(resolveSourceDir({ cliSource: opt('--source'), env: process.env, repoRoot: REPO_ROOT }));
  const gpt4 = new Map([...refs.eloundou_occ].map(([k, v]) => [k, v.gpt4_beta] as const));
  // No silent fallback: the GPT-4 beta is the comparison the rule is about.
  if (gpt4.size === 0) throw new Error('Eloundou et al. occ_level.csv not found in the source directory: no GPT-4 beta to register');
  const scores = candidateScores(rows, gpt4);
  const head = { head_to_head_version: 1, registered: date, model_version: meta.model_version, data_version: meta.data_version, candidates: CANDIDATES, design: DESIGN, decision_rule: DECISION_RULE, counts: { occupations: scores.length, without_gpt4_beta: scores.filter((s) => s.gpt4_beta === null).length } };
  // One occupation per line, as the forecast's units: readable, and a diff is per code.
  const text = `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "scores": [\n${scores.map((s) => `    ${JSON.stringify(s)}`).join(',\n')}\n  ]\n}\n`;
  const outDir = opt('--out-dir');
  const out = path.join(outDir ? path.resolve(outDir) : path.join(REPO_ROOT, HEAD_TO_HEAD_DIR), `${meta.model_version}-${date}.json`);
  try {
    writeFileSync(out, text, { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`${out} exists: a registered file is never rewritten`);
    throw e;
  }
  console.log(`Registered ${outDir ? out : path.relative(REPO_ROOT, out)} (model ${meta.model_version}; ${scores.length} occupations, ${head.counts.without_gpt4_beta} without a GPT-4 beta)`);
  console.log('Commit the file, then add its sha256 to test/unit/build/releases/forecast-files.test.ts.');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
