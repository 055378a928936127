// loadSources on the real data mirror (../shared/data next to the repo). The expected figures
// were checked against the files by other means (awk / wc / Python's csv module, and the row
// counts in the mirror's SOURCES notes), not taken from this loader's output.
//
// Through the checkout's parsed-source cache, as the build reads them: in a full run the
// integration project's global setup has just parsed the same files with the same parsers (the
// cache's key is the files' bytes and the parsers' code), so the parse is not done twice; run
// alone, or after a parser changed, this file parses them and fills the cache.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelInputs } from '../../../../build/model/inputs.ts';
import type { SourceReport } from '../../../../build/sources/report.ts';
import { checkRejectThreshold, loadSources } from '../../../../build/sources/index.ts';
import { listSourceFiles } from '../../../../build/sources/discover.ts';
import { parsedCache, sourceKeys } from '../../../../build/cache/sources-cache.ts';
import { parseCsv, splitQuoted } from '../../../../build/sources/table.ts';
import { repoRoot } from './helpers/paths.ts';

const mirror = path.resolve(repoRoot, '../shared/data');
const present = existsSync(mirror);
if (!present) console.warn(`mirror integration test skipped: ${mirror} not found`);

describe.skipIf(!present)('loadSources on the data mirror', () => {
  let bundle: ModelInputs;
  let report: SourceReport;

  beforeAll(async () => {
    const cacheDir = path.join(repoRoot, '.cache');
    const { parser, files } = await sourceKeys(mirror, path.join(cacheDir, 'file-hashes.json'));
    const loaded = await loadSources(mirror, { cache: parsedCache({ dir: path.join(cacheDir, 'sources'), parser, files, log: () => undefined }) });
    ({ bundle, report } = loaded);
    console.log(`mirror: ${loaded.cache.parsed} files parsed, ${loaded.cache.fromCache} read from the parsed-source cache`);
  }, 120_000);

  // Load time is a benchmark figure (`npm run bench -- --build` prints it per stage), not a test.
  it('loads with no rejected rows and no repeated keys', () => {
    expect(report.problems).toEqual([]);
    expect(report.files.filter((f) => f.repeats > 0)).toEqual([]);
    expect(checkRejectThreshold(report)).toEqual([]);
  });

  it('reads the O*NET 29.3 files in full', () => {
    expect(bundle.onet_version).toBe('29.3');
    // awk 'NR>1' | wc -l on the text files; distinct codes with sort -u.
    expect(bundle.occupations).toHaveLength(1016);
    expect(bundle.job_zones).toHaveLength(923);
    // Job Zone Reference.txt: one named row per zone, 1 to 5.
    expect(bundle.job_zone_names.map((z) => z.job_zone)).toEqual([1, 2, 3, 4, 5]);
    expect(bundle.job_zone_names[3]!.name).toBe('Job Zone Four: Considerable Preparation Needed');
    expect(bundle.tasks).toHaveLength(18_796);
    expect(new Set(bundle.tasks.map((t) => t.soc_code)).size).toBe(923);
    // awk -F'\t' '$5==""' (Task Type blank)
    expect(bundle.tasks.filter((t) => t.task_type === null)).toHaveLength(1157);
    expect(bundle.dwa_reference).toHaveLength(2087);
    expect(bundle.related).toHaveLength(18_460);
    // SOURCES.md row counts of the xlsx files.
    expect(bundle.task_dwas).toHaveLength(23_233);
    expect(bundle.titles.filter((t) => t.source === 'alternate')).toHaveLength(56_560);
    expect(bundle.titles.filter((t) => t.source === 'reported')).toHaveLength(7796);
    expect(bundle.task_ratings).toBeNull();
  });

  it('merges descriptor scales: one rating per occupation x element', () => {
    // 879 occupations x 35 skills / 33 knowledge areas (SOURCES.md); 894 x 52 abilities / 41 work activities (30.0).
    expect(bundle.skills).toHaveLength(879 * 35);
    expect(bundle.knowledge).toHaveLength(879 * 33);
    expect(bundle.abilities).toHaveLength(894 * 52);
    expect(bundle.work_activities).toHaveLength(894 * 41);
    // Skills.xlsx row 2-3: Chief Executives, Reading Comprehension, IM 4.12 / LV 4.62.
    expect(bundle.skills[0]).toMatchObject({ soc_code: '11-1011.00', element_id: '2.A.1.a', importance: 4.12, level: 4.62 });
  });

  it('reads the exposure sources', () => {
    expect(bundle.exposure_labels).toHaveLength(19_265);
    expect(new Set(bundle.exposure_labels.map((e) => e.soc_code)).size).toBe(923);
    expect(bundle.exposure_labels[0]).toMatchObject({ task_id: 8823, human: 'E0', gpt4: 'E2', gpt4_automation: 'T2' });
    // 3,514 rows in onet_task_mappings.csv, one of them "none".
    expect(bundle.aei_usage.filter((u) => u.release === '2025-02-10')).toHaveLength(3513);
    expect(bundle.aei_collaboration.filter((c) => c.release === '2025-03-27' && c.platform === 'claude_ai')).toHaveLength(3364);
    const releases = new Set(bundle.aei_usage.map((u) => `${u.release}/${u.platform}`));
    expect([...releases].sort()).toEqual([
      '2025-02-10/claude_ai',
      '2025-03-27/claude_ai',
      '2025-09-15/api',
      '2025-09-15/claude_ai',
      '2026-01-15/api',
      '2026-01-15/claude_ai',
      '2026-03-24/api',
      '2026-03-24/claude_ai',
    ]);
    expect(bundle.aei_task_statements).toHaveLength(19_530);
    expect(bundle.msft_applicability).toHaveLength(785);
    // iwa_metrics.csv: 332 IWA rows (the mirror's SOURCES lists 332), every share read.
    expect(bundle.wwai_iwa).toHaveLength(332);
    expect(bundle.wwai_iwa.find((r) => r.iwa_id === '4.A.1.a.1.I04')).toMatchObject({ share_user: 0.23218281587854345, share_ai: 0.035202326954342666 });
  });

  it('reads OEWS, NAICS and EP', () => {
    expect(bundle.oews_national.map((n) => [n.period, n.rows.length])).toEqual([
      ['May 2025', 1401],
      ['May 2024', 1403],
    ]);
    // grep ',15-1252,' national_M2025_dl.csv: TOT_EMP 1687890, A_MEDIAN 135980.
    const dev = bundle.oews_national[0]!.rows.find((r) => r.occ_code === '15-1252')!;
    expect(dev).toMatchObject({ tot_emp: 1_687_890, a_median: { value: 135_980, flag: null } });
    // Python csv: 19 '#' in A_MEDIAN of May 2024, none in May 2025.
    expect(bundle.oews_national[1]!.rows.filter((r) => r.a_median.flag === 'top_coded')).toHaveLength(19);
    // Python csv on natsector CSV: 8,579 detailed + 20 total rows; nat3d 18,783; nat5d_6d 7,730.
    const byLevel = (test: (l: number) => boolean) => bundle.oews_industry.filter((r) => test(r.naics_level)).length;
    expect(byLevel((l) => l === 2)).toBe(8599);
    expect(byLevel((l) => l === 3)).toBe(18_783);
    expect(byLevel((l) => l >= 5)).toBe(7730);
    expect(report.missing_optional.some((m) => m.startsWith('nat4d'))).toBe(true);
    expect(bundle.naics).toHaveLength(2125);
    expect(bundle.naics.find((n) => n.code === '31-33')).toEqual({ code: '31-33', title: 'Manufacturing', level: 2 });
    expect(bundle.projections).toHaveLength(1113);
    // EP Table 1.2 CSV: 19 ">=$239,200" and 9 "—" median wages.
    expect(bundle.projections.filter((p) => p.median_wage_2024.flag === 'top_coded')).toHaveLength(19);
    expect(bundle.projections.filter((p) => p.median_wage_2024.flag === 'not_available')).toHaveLength(9);
    expect(bundle.votes).toBeNull();
  });
});

describe.skipIf(!present)('quoted text files of the data mirror', () => {
  it('split by the fast quoted-text path exactly as csv-parse reads them', async () => {
    const files = (await listSourceFiles(mirror)).filter((f) => /\.(csv|tsv|txt)$/i.test(f));
    let quoted = 0;
    for (const f of files) {
      const text = readFileSync(path.join(mirror, f), 'utf8');
      if (!text.includes('"')) continue;
      quoted++;
      const d = f.toLowerCase().endsWith('.csv') ? ',' : '\t';
      const fast = splitQuoted(text, d);
      const general = parseCsv(text, d);
      // Both are plain data (strings, arrays, whole numbers, the Rows holder's two fields), so equal
      // JSON is equal tables: a sixth of the CPU of toEqual's walk over some 30 MB of cells
      // (0.34 s against 2.05 s). toEqual only when they differ, for its diff.
      if (JSON.stringify(fast) !== JSON.stringify(general)) expect(fast, f).toEqual(general);
    }
    expect(quoted).toBeGreaterThan(20);
  }, 60_000);
});
