// Reads the validation indices (validation/*.csv in the source directory) and the SOC
// 2010 -> 2018 crosswalk. I/O only; the comparison is report.ts.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { baseName, listSourceFiles } from '../sources/discover.ts';
import { readXls } from '../sources/xls-read.ts';
import { readXlsx } from '../sources/xlsx-read.ts';
import type { SheetCell } from '../sources/xlsx-read.ts';
import { emptyIlo, type IloRefs } from './refs.ts';
import { aiStatementsBySoc, type ValidationRefs } from './refs.ts';

const FILES = {
  eloundou: 'eloundou_2023_occ_level.csv',
  felten: 'felten_aioe_appendixA_occupation_soc2010.csv',
  felten_lm: 'felten_lm_aioe_occupation_soc2010.csv',
  frey: 'frey_osborne_2013_automation_probability_soc2010.csv',
  webb: 'webb_onetsoc2010_ai_software_robot_scores.csv',
  crosswalk: 'soc_2010_to_2018_crosswalk.csv',
  ep_factors: 'ep_2024-34_table_1.12_factors_affecting_utilization.csv',
  aei_jobs: 'job_exposure.csv',
  ilo_scores: 'Final_Scores_ISCO08_Gmyrek_et_al_2025.xlsx',
  isco_soc: 'isco_soc_crosswalk.xls',
} as const;

type Row = Record<string, string>;

async function readCsv(dir: string, all: string[], name: string): Promise<{ rows: Row[]; rel: string } | null> {
  const rel = all.find((f) => baseName(f).toLowerCase() === name.toLowerCase());
  if (!rel) return null;
  const text = await readFile(path.join(dir, rel), 'utf8');
  return { rows: parse(text, { columns: true, skip_empty_lines: true, bom: true, trim: true }) as Row[], rel };
}

const num = (s: string | undefined): number | null => {
  if (s === undefined || s.trim() === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
};

const soc6 = (s: string | undefined): string | null => {
  const m = /^(\d{2}-\d{4})/.exec((s ?? '').trim());
  return m ? m[1]! : null;
};

/** The row holding every wanted header name (sheets may start with title lines), and each column. */
function headerOf(data: SheetCell[][], names: string[]): { row: number; cols: number[] } | null {
  for (let row = 0; row < Math.min(data.length, 30); row++) {
    const cells = data[row]!.map((c) => (typeof c === 'string' ? c.trim() : ''));
    const cols = names.map((n) => cells.indexOf(n));
    if (cols.every((c) => c >= 0)) return { row, cols };
  }
  return null;
}

/** ISCO-08 unit group: four digits (armed forces start with 0, so a number is padded). */
const isco4 = (c: SheetCell): string | null => {
  const s = typeof c === 'number' && Number.isInteger(c) ? String(c).padStart(4, '0') : typeof c === 'string' ? c.trim() : '';
  return /^\d{4}$/.test(s) ? s : null;
};
/** The crosswalk also links two SOC codes to 3-digit ISCO-08 minor groups ("matches to 3-digit ISCO"). */
const iscoCode = (c: SheetCell): string | null => isco4(c) ?? (typeof c === 'string' && /^\d{3}$/.test(c.trim()) ? c.trim() : null);

/**
 * ILO 2025 scores (xlsx, one row per task, mean_score_2025 repeated per occupation) and the BLS
 * ISCO-08 -> SOC 2010 crosswalk (legacy .xls). Validation only: the build never reads either.
 */
export async function loadIlo(dir: string, all: string[]): Promise<IloRefs> {
  const find = (name: string) => all.find((f) => baseName(f).toLowerCase() === name.toLowerCase());
  const scoresRel = find(FILES.ilo_scores);
  const crossRel = find(FILES.isco_soc);
  if (!scoresRel || !crossRel) return emptyIlo(`not found: ${[!scoresRel && FILES.ilo_scores, !crossRel && FILES.isco_soc].filter(Boolean).join(', ')}`);
  let skipped = 0;
  try {
    const sheets = await readXlsx(path.join(dir, scoresRel));
    const sheet = sheets.find((s) => headerOf(s.data, ['ISCO_08', 'mean_score_2025']));
    if (!sheet) return emptyIlo(`${scoresRel}: no sheet with columns ISCO_08 and mean_score_2025`);
    const h = headerOf(sheet.data, ['ISCO_08', 'mean_score_2025'])!;
    const perCode = new Map<string, number[]>();
    for (const r of sheet.data.slice(h.row + 1)) {
      const code = isco4(r[h.cols[0]!]);
      const v = r[h.cols[1]!];
      if (code === null || typeof v !== 'number' || !Number.isFinite(v)) {
        if (r.some((c) => c !== null)) skipped++;
        continue;
      }
      perCode.set(code, [...(perCode.get(code) ?? []), v]);
    }
    const spread = Math.max(0, ...[...perCode.values()].map((xs) => Math.max(...xs) - Math.min(...xs)));
    const scores = new Map([...perCode].map(([k, xs]) => [k, xs.reduce((a, b) => a + b, 0) / xs.length]));

    const book = await readXls(path.join(dir, crossRel));
    const want = ['ISCO-08 Code', '2010 SOC Code'];
    // The sheet that reads ISCO-08 -> SOC (its first column is the ISCO code).
    const xs = book.find((s) => {
      const hh = headerOf(s.data, want);
      return hh !== null && hh.cols[0]! < hh.cols[1]!;
    });
    if (!xs) return emptyIlo(`${crossRel}: no sheet with columns ${want.join(' and ')}`);
    const hx = headerOf(xs.data, want)!;
    const links: IloRefs['links'] = [];
    for (const r of xs.data.slice(hx.row + 1)) {
      const isco = iscoCode(r[hx.cols[0]!]);
      const soc2010 = soc6(typeof r[hx.cols[1]!] === 'string' ? (r[hx.cols[1]!] as string) : undefined);
      if (isco && soc2010) links.push({ isco, soc2010 });
      else if (r.some((c) => c !== null)) skipped++;
    }
    return { scores, links, max_within_code_spread: spread, rows_skipped: skipped, unavailable: null, files: [scoresRel, crossRel] };
  } catch (e) {
    return emptyIlo(e instanceof Error ? e.message : String(e));
  }
}

/** Missing files leave their index empty; the report says which comparisons were possible. */
export async function loadValidation(dir: string): Promise<ValidationRefs> {
  const all = await listSourceFiles(dir);
  const files: string[] = [];
  const get = async (name: string) => {
    const r = await readCsv(dir, all, name);
    if (r) files.push(r.rel);
    return r?.rows ?? [];
  };
  const bySoc = (rows: Row[], codeCol: string, valueCol: string): Map<string, number> => {
    const m = new Map<string, number>();
    for (const r of rows) {
      const c = soc6(r[codeCol]);
      const v = num(r[valueCol]);
      if (c && v !== null) m.set(c, v);
    }
    return m;
  };

  const ilo = await loadIlo(dir, all);
  const epRows = (await get(FILES.ep_factors)).map((r) => ({
    soc: soc6(r['2024 National Employment Matrix occupation code']) ?? '',
    statement: r['Factors affecting occupational utilization'] ?? '',
  }));
  const eloundou_occ = new Map<string, { gpt4_beta: number | null; human_beta: number | null }>();
  for (const r of await get(FILES.eloundou)) {
    const code = (r['O*NET-SOC Code'] ?? '').trim();
    if (/^\d{2}-\d{4}\.\d{2}$/.test(code)) eloundou_occ.set(code, { gpt4_beta: num(r.dv_rating_beta), human_beta: num(r.human_rating_beta) });
  }

  // Webb scores are per O*NET-SOC 2010 occupation: average them to the SOC 2010 code.
  const webbAcc = new Map<string, { s: number; n: number }>();
  for (const r of await get(FILES.webb)) {
    const c = soc6(r.onetsoccode);
    const v = num(r.ai_score);
    if (!c || v === null) continue;
    const a = webbAcc.get(c) ?? { s: 0, n: 0 };
    webbAcc.set(c, { s: a.s + v, n: a.n + 1 });
  }

  const crosswalk: ValidationRefs['crosswalk'] = [];
  for (const r of await get(FILES.crosswalk)) {
    const a = soc6(r['2010 SOC Code']);
    const b = soc6(r['2018 SOC Code']);
    if (a && b) crosswalk.push({ soc2010: a, soc2018: b });
  }

  return {
    eloundou_occ,
    soc2010: {
      felten_aioe: bySoc(await get(FILES.felten), 'SOC Code', 'AIOE'),
      felten_lm_aioe: bySoc(await get(FILES.felten_lm), 'SOC Code', 'Language Modeling AIOE'),
      frey_osborne: bySoc(await get(FILES.frey), 'SOC code', 'Probability'),
      webb_ai: new Map([...webbAcc].map(([k, a]) => [k, a.s / a.n])),
    },
    crosswalk,
    aei_job_exposure: bySoc(await get(FILES.aei_jobs), 'occ_code', 'observed_exposure'),
    ai_statements: aiStatementsBySoc(epRows),
    ep_factor_rows: epRows,
    ilo,
    files: [...files, ...ilo.files],
  };
}
