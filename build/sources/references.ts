// Rows one O*NET file refers to that another file of the same release lacks. O*NET's files refer
// to each other: Tasks to DWAs and Task Ratings name tasks (occupation and Task ID) that Task
// Statements lists, Task Statements names occupations that Occupation Data lists. A file cut short
// at a line end reads as whole; these references show the rows it lost. Without this check the
// occupations whose tasks were lost would be published as "O*NET has not collected task data",
// which is false, and every other score would move. Pure: the loaded rows in, messages out.
import type { ModelInputs } from '../model/inputs.ts';

/** A file as the check names it: its path, the last row read, and the occupations it rejected rows of (their loss is reported as rejected, not here). */
export interface ReferredFile {
  path: string;
  lastLine: number;
  rejectedCodes: ReadonlySet<string>;
}

const SHOWN = 5;

/**
 * Why the release's files do not agree, one message per file that lacks rows others refer to;
 * empty when they agree. `files`: the file each table came from (null: not read).
 */
export function missingReferences(
  b: Pick<ModelInputs, 'occupations' | 'tasks' | 'task_dwas' | 'task_ratings'>,
  files: { occupations: ReferredFile; tasks: ReferredFile; taskDwas: ReferredFile; taskRatings: ReferredFile | null },
): string[] {
  const out: string[] = [];
  const taskKey = (t: { soc_code: string; task_id: number }) => `${t.soc_code}\u0000${t.task_id}`;
  const tasks = new Set(b.tasks.map(taskKey));
  const referring: Array<[ReferredFile, ReadonlyArray<{ soc_code: string; task_id: number }>]> = [[files.taskDwas, b.task_dwas]];
  if (files.taskRatings && b.task_ratings) referring.push([files.taskRatings, b.task_ratings]);
  for (const [by, rows] of referring) {
    out.push(...lacking(files.tasks, by, rows.filter((r) => !tasks.has(taskKey(r))), taskKey, 'task'));
  }
  const occupations = new Set(b.occupations.map((o) => o.soc_code));
  out.push(...lacking(files.occupations, files.tasks, b.tasks.filter((t) => !occupations.has(t.soc_code)), (t) => t.soc_code, 'occupation'));
  return out;
}

/** The message for rows `by` refers to that `file` lacks, grouped by occupation (none: no message). */
function lacking<T extends { soc_code: string }>(file: ReferredFile, by: ReferredFile, missing: readonly T[], key: (r: T) => string, what: string): string[] {
  const codes = new Map<string, Set<string>>();
  for (const r of missing) {
    if (file.rejectedCodes.has(r.soc_code)) continue;
    const keys = codes.get(r.soc_code) ?? new Set<string>();
    keys.add(key(r));
    codes.set(r.soc_code, keys);
  }
  if (codes.size === 0) return [];
  const count = [...codes.values()].reduce((n, k) => n + k.size, 0);
  const names = [...codes.keys()].sort();
  const shown = names.slice(0, SHOWN).join(', ') + (names.length > SHOWN ? `, ... (${names.length - SHOWN} more)` : '');
  const lost = what === 'occupation' ? `${count} occupation(s)` : `${count} ${what}(s) of ${codes.size} occupation(s)`;
  return [
    `${file.path}:${file.lastLine}: ${lost} that ${by.path} refers to have no row here (${shown}); ` +
      `the file ends at line ${file.lastLine}: it was cut short or is not of the same release as ${by.path}. ` +
      'The build stops rather than publish those occupations as not collected; get the whole file again',
  ];
}
