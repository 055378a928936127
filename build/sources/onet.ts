// O*NET database files (29.3 text or xlsx; both forms have the same columns). Pure: Table in,
// bundle rows out, problems into the FileLog.
import { z } from 'zod';
import { DwaReference, EducationRow, ElementRating, LevelAnchor, JobZoneName, JobZoneRow, OccupationTitle, OnetOccupation, RelatedOccupation, TaskDwa, TaskRating, TaskStatement } from '../model/inputs.ts';
import { enumOrNull, int, num, numOrNull, required, text, yesNo } from './cells.ts';
import { parseRows, type FileLog } from './rows.ts';
import { filterRows, type Table } from './table.ts';

const SOC = 'O*NET-SOC Code';
/** Where a rejected row names its occupation (most O*NET files have the title beside the code). */
const OCCUPATION = { code: SOC, title: 'Title' };
const values = <T>(rows: Array<{ value: T }>) => rows.map((r) => r.value);

/** "O*NET 29.3 Database" in the release's Read Me.txt. */
export function parseOnetVersion(readMe: string): string | null {
  return readMe.match(/O\*NET\s+(\d+\.\d+)\s+Database/i)?.[1] ?? null;
}

export function parseOccupations(table: Table, log: FileLog): OnetOccupation[] {
  const schema = z
    .object({ [SOC]: text, Title: required, Description: text })
    .transform((r) => ({ soc_code: r[SOC], title: r.Title, description: r.Description }))
    .pipe(OnetOccupation);
  return values(parseRows(table, log, [SOC, 'Title', 'Description'], schema, { key: ['soc_code'], occupation: OCCUPATION }));
}

export function parseJobZones(table: Table, log: FileLog): JobZoneRow[] {
  const schema = z
    .object({ [SOC]: text, 'Job Zone': int })
    .transform((r) => ({ soc_code: r[SOC], job_zone: r['Job Zone'] }))
    .pipe(JobZoneRow);
  return values(parseRows(table, log, [SOC, 'Job Zone'], schema, { key: ['soc_code'], occupation: OCCUPATION }));
}

/** O*NET Job Zone Reference: each zone's own name ("Job Zone Four: Considerable Preparation Needed"). */
export function parseJobZoneReference(table: Table, log: FileLog): JobZoneName[] {
  const schema = z
    .object({ 'Job Zone': int, Name: required })
    .transform((r) => ({ job_zone: r['Job Zone'], name: r.Name }))
    .pipe(JobZoneName);
  return values(parseRows(table, log, ['Job Zone', 'Name'], schema, { key: ['job_zone'] }));
}

export function parseTaskStatements(table: Table, log: FileLog): TaskStatement[] {
  const schema = z
    .object({
      [SOC]: text,
      'Task ID': int,
      Task: required,
      'Task Type': enumOrNull(['Core', 'Supplemental']),
      'Incumbents Responding': numOrNull(['n/a']),
    })
    .transform((r) => ({
      soc_code: r[SOC],
      task_id: r['Task ID'],
      task: r.Task,
      task_type: r['Task Type'],
      incumbents_responding: r['Incumbents Responding'],
    }))
    .pipe(TaskStatement);
  const rows = values(parseRows(table, log, [SOC, 'Task ID', 'Task', 'Task Type', 'Incumbents Responding'], schema, { key: ['soc_code', 'task_id'], occupation: OCCUPATION }));
  const blank = rows.filter((t) => t.task_type === null).length;
  // The model weights tasks by type when Task Ratings are absent, so blanks must be visible.
  if (blank > 0) log.note(`${blank} tasks with blank Task Type (kept as null)`);
  return rows;
}

export function parseTaskRatings(table: Table, log: FileLog): TaskRating[] {
  const schema = z
    .object({
      [SOC]: text,
      'Task ID': int,
      'Scale ID': text,
      Category: numOrNull(['n/a']),
      'Data Value': num,
      'Recommend Suppress': yesNo,
    })
    .transform((r) => ({
      soc_code: r[SOC],
      task_id: r['Task ID'],
      scale_id: r['Scale ID'],
      category: r.Category,
      value: r['Data Value'],
      recommend_suppress: r['Recommend Suppress'],
    }))
    .pipe(TaskRating);
  return values(
    parseRows(table, log, [SOC, 'Task ID', 'Scale ID', 'Category', 'Data Value', 'Recommend Suppress'], schema, {
      key: ['soc_code', 'task_id', 'scale_id', 'category'],
      occupation: OCCUPATION,
    }),
  );
}

export function parseTaskDwas(table: Table, log: FileLog): TaskDwa[] {
  const schema = z
    .object({ [SOC]: text, 'Task ID': int, 'DWA ID': text })
    .transform((r) => ({ soc_code: r[SOC], task_id: r['Task ID'], dwa_id: r['DWA ID'] }))
    .pipe(TaskDwa);
  return values(parseRows(table, log, [SOC, 'Task ID', 'DWA ID'], schema, { key: ['soc_code', 'task_id', 'dwa_id'], occupation: OCCUPATION }));
}

export function parseDwaReference(table: Table, log: FileLog): DwaReference[] {
  const cols = ['Element ID', 'Element Name', 'IWA ID', 'IWA Title', 'DWA ID', 'DWA Title'] as const;
  const schema = z
    .object(Object.fromEntries(cols.map((c) => [c, text])) as Record<(typeof cols)[number], typeof text>)
    .transform((r) => ({
      element_id: r['Element ID'],
      element_name: r['Element Name'],
      iwa_id: r['IWA ID'],
      iwa_title: r['IWA Title'],
      dwa_id: r['DWA ID'],
      dwa_title: r['DWA Title'],
    }))
    .pipe(DwaReference);
  return values(parseRows(table, log, [...cols], schema, { key: ['dwa_id'] }));
}

export function parseAlternateTitles(table: Table, log: FileLog): OccupationTitle[] {
  const schema = z
    .object({ [SOC]: text, 'Alternate Title': text, 'Short Title': text })
    .transform((r): OccupationTitle => ({
      soc_code: r[SOC],
      title: r['Alternate Title'],
      // The text release writes "n/a" where the xlsx leaves the cell empty.
      short_title: r['Short Title'] === '' || r['Short Title'] === 'n/a' ? null : r['Short Title'],
      source: 'alternate',
    }))
    .pipe(OccupationTitle);
  // Titles are names the search adds up (a row overrides nothing), so a row is keyed by all it holds:
  // O*NET 29.3 lists "Licensed Mental Health Counselor (LMHC)" of 21-1014.00 twice, with and
  // without its short title (30.1 keeps the one with it); both are read, only an exact repeat is dropped.
  return values(parseRows(table, log, [SOC, 'Alternate Title', 'Short Title'], schema, { key: ['soc_code', 'title', 'short_title'], occupation: OCCUPATION }));
}

export function parseReportedTitles(table: Table, log: FileLog): OccupationTitle[] {
  const schema = z
    .object({ [SOC]: text, 'Reported Job Title': text })
    .transform((r): OccupationTitle => ({
      soc_code: r[SOC],
      title: r['Reported Job Title'],
      short_title: null,
      source: 'reported',
    }))
    .pipe(OccupationTitle);
  return values(parseRows(table, log, [SOC, 'Reported Job Title'], schema, { key: ['soc_code', 'title'], occupation: OCCUPATION }));
}

export function parseRelated(table: Table, log: FileLog): RelatedOccupation[] {
  const schema = z
    .object({ [SOC]: text, 'Related O*NET-SOC Code': text, 'Relatedness Tier': text, Index: int })
    .transform((r) => ({
      soc_code: r[SOC],
      related_soc_code: r['Related O*NET-SOC Code'],
      tier: r['Relatedness Tier'],
      index: r.Index,
    }))
    .pipe(RelatedOccupation);
  return values(parseRows(table, log, [SOC, 'Related O*NET-SOC Code', 'Relatedness Tier', 'Index'], schema, { key: ['soc_code', 'related_soc_code'], occupation: OCCUPATION }));
}

const ScaleRow = z.object({
  [SOC]: text,
  'Element ID': required,
  'Element Name': required,
  'Scale ID': text,
  'Data Value': num,
  'Recommend Suppress': yesNo,
  // Absent from some official descriptor files: a missing column reads as "not flagged".
  'Not Relevant': z
    .string()
    .optional()
    .transform((s) => s ?? '')
    .pipe(yesNo),
});

/**
 * Official descriptor files (Skills, Knowledge, Abilities, Work Activities) have one row per
 * occupation x element x scale. IM and LV rows are merged into one ElementRating (first-seen
 * order); a flag set on either scale row is kept. Other scales are not used and are counted.
 */
export function parseElementScales(table: Table, log: FileLog): ElementRating[] {
  // Some official files omit Not Relevant (only LV carries it); a missing column reads as blank.
  const columns = [SOC, 'Element ID', 'Element Name', 'Scale ID', 'Data Value', 'Recommend Suppress'];
  const parsed = parseRows(table, log, columns, ScaleRow, { key: [SOC, 'Element ID', 'Scale ID'], occupation: OCCUPATION });
  const merged = new Map<string, ElementRating & { line: number }>();
  let otherScales = 0;
  for (const { line, value: r } of parsed) {
    const scale = r['Scale ID'];
    if (scale !== 'IM' && scale !== 'LV') {
      otherScales++;
      continue;
    }
    const key = `${r[SOC]}\u0000${r['Element ID']}`;
    let rating = merged.get(key);
    if (!rating) {
      rating = {
        line,
        soc_code: r[SOC],
        element_id: r['Element ID'],
        element_name: r['Element Name'],
        importance: null,
        level: null,
        not_relevant: false,
        recommend_suppress: false,
      };
      merged.set(key, rating);
    }
    if (scale === 'IM') rating.importance = r['Data Value'];
    else rating.level = r['Data Value'];
    rating.not_relevant ||= r['Not Relevant'];
    rating.recommend_suppress ||= r['Recommend Suppress'];
  }
  if (otherScales > 0) log.note(`${otherScales} rows on scales other than IM/LV ignored`);
  return finishRatings([...merged.values()], log);
}

/** The mirror's derived O*NET 30.0 tables: one row per occupation x element with IM and LV. */
export function parseElementWide(table: Table, log: FileLog): ElementRating[] {
  const schema = z
    .object({ [SOC]: text, 'Element ID': required, 'Element Name': required, IM: numOrNull(), LV: numOrNull() })
    .transform((r) => ({
      soc_code: r[SOC],
      element_id: r['Element ID'],
      element_name: r['Element Name'],
      importance: r.IM,
      level: r.LV,
      not_relevant: false,
      recommend_suppress: false,
    }));
  const rows = parseRows(table, log, [SOC, 'Element ID', 'Element Name', 'IM', 'LV'], schema, { key: ['soc_code', 'element_id'], occupation: OCCUPATION });
  return finishRatings(
    rows.map((r) => ({ ...r.value, line: r.line })),
    log,
  );
}

function finishRatings(ratings: Array<ElementRating & { line: number }>, log: FileLog): ElementRating[] {
  const out: ElementRating[] = [];
  for (const { line, ...rating } of ratings) {
    const checked = ElementRating.safeParse(rating);
    if (checked.success) out.push(checked.data);
    else log.reject(line, `${rating.soc_code} ${rating.element_id}: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`, { code: rating.soc_code });
  }
  log.note(`${out.length} occupation x element ratings`);
  return out;
}

/**
 * Education, Training, and Experience: category percentages of the RL (required education) and
 * RW (related work experience) scales. The other scales (PT, OJ) and rows without a category are
 * not used by the model; they are counted, not rejected.
 */
export function parseEducation(table: Table, log: FileLog): EducationRow[] {
  const scaleAt = table.header.indexOf('Scale ID');
  const catAt = table.header.indexOf('Category');
  const used = (cells: string[]) => ['RL', 'RW'].includes((cells[scaleAt] ?? '').trim()) && (cells[catAt] ?? '').trim() !== '';
  const kept = scaleAt < 0 || catAt < 0 ? { table, dropped: () => 0 } : filterRows(table, used);
  const schema = z
    .object({ [SOC]: text, 'Scale ID': text, Category: int, 'Data Value': num, 'Recommend Suppress': yesNo })
    .transform((r) => ({
      soc_code: r[SOC],
      scale_id: r['Scale ID'],
      category: r.Category,
      pct: r['Data Value'],
      recommend_suppress: r['Recommend Suppress'],
    }))
    .pipe(EducationRow);
  // The note on unused rows comes before parseRows' own notes, though it is known only after them.
  const place = log.notePlace();
  const rows = values(parseRows(kept.table, log, [SOC, 'Scale ID', 'Category', 'Data Value'], schema, { key: ['soc_code', 'scale_id', 'category'], occupation: OCCUPATION }));
  const skipped = kept.dropped();
  if (skipped > 0) log.noteAt(place, `${skipped} rows on scales other than RL/RW or without a category not used`);
  return rows;
}

/** Level Scale Anchors: the LV rows only (the file holds no other scale for Skills and Knowledge). */
export function parseLevelAnchors(table: Table, log: FileLog): LevelAnchor[] {
  const scaleAt = table.header.indexOf('Scale ID');
  const kept = scaleAt < 0 ? { table, dropped: () => 0 } : filterRows(table, (cells) => (cells[scaleAt] ?? '').trim() === 'LV');
  const schema = z
    .object({ 'Element ID': required, 'Anchor Value': num, 'Anchor Description': required })
    .transform((r) => ({ element_id: r['Element ID'], value: r['Anchor Value'], description: r['Anchor Description'] }))
    .pipe(LevelAnchor);
  const rows = values(parseRows(kept.table, log, ['Element ID', 'Scale ID', 'Anchor Value', 'Anchor Description'], schema, { key: ['element_id', 'value'] }));
  const skipped = kept.dropped();
  if (skipped > 0) log.note(`${skipped} rows on scales other than LV not used`);
  return rows;
}
