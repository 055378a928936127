// Reads the validation indices (validation/*.csv in the source directory) and the SOC
// 2010 -> 2018 crosswalk. I/O only; the comparison is report.ts.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { baseName, listSourceFiles } from '../sources/discover.ts';
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
    ai_statements: aiStatementsBySoc(
      (await get(FILES.ep_factors)).map((r) => ({
        soc: soc6(r['2024 National Employment Matrix occupation code']) ?? '',
        statement: r['Factors affecting occupational utilization'] ?? '',
      })),
    ),
    files,
  };
}
