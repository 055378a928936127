// AI-exposure sources: Eloundou et al. 2023 task labels, the Anthropic Economic Index (usage and
// collaboration per task, plus its copy of the O*NET task statements) and Microsoft's
// "Working with AI" applicability scores and per-IWA user-goal / AI-action shares. Pure: Table in, bundle rows out.
import { z } from 'zod';
import { AeiCollaboration, AeiTaskStatement, AeiTaskUsage, ExposureLabel, type IwaWeight, MsftApplicability, AeiPlatform, WwaiIwa } from '../model/inputs.ts';
import { enumOrNull, int, intFromFloat, num, required, shareOrZero, text } from './cells.ts';
import { SourceError } from './errors.ts';
import { parseRows, uniqueRows, type FileLog, type ParsedRow } from './rows.ts';
import type { Table } from './table.ts';

const SOC = 'O*NET-SOC Code';
const values = <T>(rows: Array<{ value: T }>) => rows.map((r) => r.value);

/** The AEI join key: O*NET task text lower-cased (as AEI publishes it), outer spaces trimmed. */
export function taskKey(task: string): string {
  return task.trim().toLowerCase();
}

/** AEI rows that are not O*NET tasks: conversations with no task, and unclassified ones. */
const NON_TASK_KEYS = new Set(['none', 'not_classified']);

export function parseEloundou(table: Table, log: FileLog): ExposureLabel[] {
  const schema = z
    .object({
      [SOC]: text,
      // pandas wrote the IDs as floats ("8823.0").
      'Task ID': intFromFloat,
      Task: required,
      human_exposure_agg: enumOrNull(['E0', 'E1', 'E2']),
      gpt4_exposure: enumOrNull(['E0', 'E1', 'E2']),
      gpt4_exposure_alt_rubric: enumOrNull(['E0', 'E1', 'E2']),
      gpt4_automation: enumOrNull(['T0', 'T1', 'T2', 'T3', 'T4']),
    })
    .transform((r) => ({
      soc_code: r[SOC],
      task_id: r['Task ID'],
      task: r.Task,
      human: r.human_exposure_agg,
      gpt4: r.gpt4_exposure,
      gpt4_alt_rubric: r.gpt4_exposure_alt_rubric,
      gpt4_automation: r.gpt4_automation,
    }))
    .pipe(ExposureLabel);
  const columns = [SOC, 'Task ID', 'Task', 'human_exposure_agg', 'gpt4_exposure', 'gpt4_exposure_alt_rubric', 'gpt4_automation'];
  return values(parseRows(table, log, columns, schema, { key: ['soc_code', 'task_id'], occupation: { code: SOC } }));
}

export interface AeiFileMeta {
  release: string;
  platform: z.infer<typeof AeiPlatform>;
}

function skipNonTask(column: string) {
  return (r: Record<string, string>) =>
    NON_TASK_KEYS.has(taskKey(r[column] ?? '')) ? `"${taskKey(r[column] ?? '')}" row (not an O*NET task)` : null;
}

/** task_name,pct: percent of the release's conversations per task. */
export function parseAeiUsage(table: Table, log: FileLog, meta: AeiFileMeta): AeiTaskUsage[] {
  const schema = z
    .object({ task_name: required, pct: num })
    .transform((r) => ({ ...meta, task_key: taskKey(r.task_name), pct: r.pct }))
    .pipe(AeiTaskUsage);
  return values(parseRows(table, log, ['task_name', 'pct'], schema, { skip: skipNonTask('task_name'), key: ['task_key'] }));
}

/**
 * Two layouts: the 2025-03-27 official file (task_name, ..., filtered) and the derived extracts
 * of later releases (task, ..., none, not_classified; blank = 0). Both end as AeiCollaboration,
 * with filtered / none / not_classified summed into `unclassified`.
 */
export function parseAeiCollaboration(table: Table, log: FileLog, meta: AeiFileMeta): AeiCollaboration[] {
  const patterns = ['directive', 'feedback_loop', 'task_iteration', 'validation', 'learning'] as const;
  const official = table.header.includes('task_name');
  const keyColumn = official ? 'task_name' : 'task';
  const unknownColumns = official ? ['filtered'] : ['none', 'not_classified'];
  const shape: Record<string, z.ZodType<unknown, string>> = { [keyColumn]: required };
  for (const c of [...patterns, ...unknownColumns]) shape[c] = shareOrZero;
  const schema = z
    .object(shape)
    .transform((r) => {
      const get = (c: string) => r[c] as number;
      return {
        ...meta,
        task_key: taskKey(r[keyColumn] as string),
        directive: get('directive'),
        feedback_loop: get('feedback_loop'),
        task_iteration: get('task_iteration'),
        validation: get('validation'),
        learning: get('learning'),
        unclassified: capRounding(unknownColumns.reduce((sum, c) => sum + get(c), 0)),
      };
    })
    .pipe(AeiCollaboration);
  return values(parseRows(table, log, [keyColumn, ...patterns, ...unknownColumns], schema, { skip: skipNonTask(keyColumn), key: ['task_key'] }));
}

/** Summing two shares can overshoot 1 by float rounding; a real excess still fails validation. */
function capRounding(share: number): number {
  return share > 1 && share < 1 + 1e-9 ? 1 : share;
}

export function parseAeiTaskStatements(table: Table, log: FileLog): AeiTaskStatement[] {
  const schema = z
    .object({ [SOC]: text, 'Task ID': int, Task: required })
    .transform((r) => ({ soc_code: r[SOC], task_id: r['Task ID'], task_key: taskKey(r.Task) }))
    .pipe(AeiTaskStatement);
  return values(parseRows(table, log, [SOC, 'Task ID', 'Task'], schema, { key: ['soc_code', 'task_id'], occupation: { code: SOC } }));
}

export function parseMsftApplicability(table: Table, log: FileLog): MsftApplicability[] {
  const schema = z
    .object({ 'SOC Code': text, title: text, ai_applicability_score: num })
    .transform((r) => ({ soc: r['SOC Code'], title: r.title, score: r.ai_applicability_score }))
    .pipe(MsftApplicability);
  return values(parseRows(table, log, ['SOC Code', 'title', 'ai_applicability_score'], schema, { key: ['soc'], occupation: { code: 'SOC Code', title: 'title' } }));
}

/** Working with AI iwa_metrics.csv: the user-goal and AI-action shares of each IWA (the other metrics are not read). */
export function parseWwaiIwa(table: Table, log: FileLog): WwaiIwa[] {
  const schema = z
    .object({ IWA: text, share_user: num, share_ai: num })
    .transform((r) => ({ iwa_id: r.IWA, share_user: r.share_user, share_ai: r.share_ai }))
    .pipe(WwaiIwa);
  return values(parseRows(table, log, ['IWA', 'share_user', 'share_ai'], schema, { key: ['iwa_id'] }));
}

/**
 * Tomlinson et al. per-occupation IWA weights: a wide table, "SOC Code" then one column per IWA.
 * Zero weights (the IWA is not part of the occupation) are dropped.
 */
export function parseIwaWeights(table: Table, log: FileLog): IwaWeight[] {
  const socAt = table.header.indexOf('SOC Code');
  if (socAt < 0) throw new SourceError(`${log.file}: no "SOC Code" column`, log.file);
  const iwaCols = table.header.map((h, i) => [h, i] as const).filter(([h]) => /^4\.A\.\d\.[a-z]\.\d+\.I\d+$/.test(h));
  const rows: Array<ParsedRow<{ soc: string; weights: Array<[string, number]> }>> = [];
  const partial = new Set<number>();
  for (const { line, cells } of table.rows) {
    log.rows++;
    const soc = (cells[socAt] ?? '').trim();
    if (!/^\d{2}-\d{4}$/.test(soc)) {
      log.reject(line, `SOC Code "${soc}" is not a SOC 2018 detailed code`, { code: soc });
      continue;
    }
    const weights: Array<[string, number]> = [];
    let ok = true;
    for (const [iwa, i] of iwaCols) {
      const w = Number(cells[i]);
      if (!Number.isFinite(w) || w < 0) {
        log.reject(line, `${soc} ${iwa}: weight "${cells[i]}" is not a non-negative number`, { code: soc });
        ok = false;
      } else if (w > 0) weights.push([iwa, w]);
    }
    // A row with a bad cell keeps its good weights but is not counted as kept.
    if (!ok) partial.add(line);
    rows.push({ line, value: { soc, weights } });
  }
  const unique = uniqueRows(rows, ['soc'], log);
  log.kept += unique.filter((r) => !partial.has(r.line)).length;
  const out = unique.flatMap(({ value }) => value.weights.map(([iwa_id, weight]): IwaWeight => ({ soc: value.soc, iwa_id, weight })));
  log.note(`${out.length} positive SOC x IWA weights over ${iwaCols.length} IWAs`);
  return out;
}
