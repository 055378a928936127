// OEWS national employment by year for the outcome check (never a model input). Reads every
// national file the source selection lists (model years and history), tolerant: a file that fails
// is reported and skipped. Older years use transitional SOC codes (May 2019-2020 mix SOC 2010 and
// 2018, e.g. 15-1256 = 15-1252 + 15-1253); matchToCurrent maps them onto the newest year's codes.
import path from 'node:path';
import { listSourceFiles } from '../sources/discover.ts';
import { parseOewsNational } from '../sources/oews.ts';
import { readTable } from '../sources/read-table.ts';
import { FileLog } from '../sources/rows.ts';
import { selectFiles } from '../sources/select.ts';

export interface OewsYear {
  year: string;
  /** Detailed (and OEWS-aggregate) occupation code -> employment. */
  employment: Map<string, number>;
  /** Detailed code -> annual median wage; a top-coded median ('#') takes the file's largest reported median (a floor). */
  wage: Map<string, number>;
  /** The file's name without folder and extension (national_M2022_dl), as the declared tests name it. */
  file: string;
}

export interface OewsHistory {
  years: OewsYear[];
  /** Files that could not be read, with the reason. */
  failed: Array<{ path: string; reason: string }>;
  files: string[];
}

export async function loadOewsHistory(dir: string): Promise<OewsHistory> {
  const sel = selectFiles(await listSourceFiles(dir));
  const all = [...sel.national, ...sel.nationalHistory].sort((a, b) => (a.year < b.year ? -1 : 1));
  const years: OewsYear[] = [];
  const failed: OewsHistory['failed'] = [];
  const files: string[] = [];
  for (const n of all) {
    const rel = n.found.path;
    try {
      const log = new FileLog(path.basename(rel), rel);
      const rows = parseOewsNational(await readTable(path.join(dir, rel), rel, []), log);
      const employment = new Map<string, number>();
      for (const r of rows) if (r.o_group === 'detailed' && r.tot_emp !== null) employment.set(r.occ_code, r.tot_emp);
      if (employment.size === 0) throw new Error('no detailed rows with employment');
      years.push({ year: n.year, employment, wage: detailedWages(rows), file: path.basename(rel).replace(/\.[^.]+$/, '') });
      files.push(rel);
    } catch (e) {
      failed.push({ path: rel, reason: e instanceof Error ? e.message.split('\n')[0]! : String(e) });
    }
  }
  return { years, failed, files };
}

/** Detailed code -> annual median wage; top-coded medians take the largest reported one (the ceiling is at least that). */
export function detailedWages(rows: ReadonlyArray<{ occ_code: string; o_group: string; a_median: { value: number | null; flag: string | null } }>): Map<string, number> {
  const detailed = rows.filter((r) => r.o_group === 'detailed');
  const top = Math.max(0, ...detailed.flatMap((r) => (r.a_median.flag === null && r.a_median.value !== null ? [r.a_median.value] : [])));
  const wage = new Map<string, number>();
  for (const r of detailed) {
    if (r.a_median.flag === null && r.a_median.value !== null && r.a_median.value > 0) wage.set(r.occ_code, r.a_median.value);
    else if (r.a_median.flag === 'top_coded' && top > 0) wage.set(r.occ_code, r.a_median.value ?? top);
  }
  return wage;
}

export interface CodeMatch {
  /** Current code -> the old year's employment attributed to it (summed over a group when aggregated). */
  groups: Array<{ current: string[]; old: string[] }>;
  direct: number;
  aggregated: number;
  unmatched_old: number;
  unmatched_current: number;
}

/**
 * Match an older year's codes to the newest year's: the same code when both publish it; otherwise
 * within the SOC broad group (first six characters, e.g. 15-125), the old codes and current codes
 * that have no direct match form one group compared in total (15-1256 in 2019 vs 15-1252 +
 * 15-1253 in 2025). Groups with codes on one side only are unmatched and counted.
 */
export function matchToCurrent(old: ReadonlyMap<string, number>, current: ReadonlyMap<string, number>): CodeMatch {
  const groups: CodeMatch['groups'] = [];
  let direct = 0;
  const restOld = new Map<string, string[]>();
  const restCur = new Map<string, string[]>();
  for (const c of [...current.keys()].sort()) {
    if (old.has(c)) {
      groups.push({ current: [c], old: [c] });
      direct++;
    } else restCur.set(c.slice(0, 6), [...(restCur.get(c.slice(0, 6)) ?? []), c]);
  }
  for (const c of [...old.keys()].sort()) if (!current.has(c)) restOld.set(c.slice(0, 6), [...(restOld.get(c.slice(0, 6)) ?? []), c]);
  let aggregated = 0;
  let unmatchedOld = 0;
  let unmatchedCur = 0;
  for (const [broad, cur] of restCur) {
    const o = restOld.get(broad);
    if (o) {
      groups.push({ current: cur, old: o });
      aggregated++;
      restOld.delete(broad);
    } else unmatchedCur += cur.length;
  }
  for (const o of restOld.values()) unmatchedOld += o.length;
  return { groups, direct, aggregated, unmatched_old: unmatchedOld, unmatched_current: unmatchedCur };
}
