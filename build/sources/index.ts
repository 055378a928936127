// loadSources: find every source file under a directory, parse and validate it, and hand back the
// SourceBundle plus a report of what was read, kept and rejected. Prints nothing; the build does.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type {
  AeiCollaboration,
  AeiTaskUsage,
  OewsIndustryRow,
  OewsNational,
  SourceBundle,
  SourceReport,
} from './bundle.ts';
import { aeiFileInfo, NAMES, OEWS_INDUSTRY, OEWS_NATIONAL } from './catalog.ts';
import { baseName, findAll, listSourceFiles, pickOne, type Found } from './discover.ts';
import { HOW_TO_GET_DATA, SourceError } from './errors.ts';
import {
  parseAeiCollaboration,
  parseAeiTaskStatements,
  parseAeiUsage,
  parseEloundou,
  parseMsftApplicability,
} from './exposure.ts';
import { parseNaics } from './naics.ts';
import { oewsPeriod, parseOewsIndustry, parseOewsNational, type IndustryFileKind } from './oews.ts';
import * as onet from './onet.ts';
import { parseProjections, PROJECTIONS_SHEET } from './projections.ts';
import { readTable } from './read-table.ts';
import { FileLog } from './rows.ts';
import type { Table } from './table.ts';
import { parseVotes } from './votes.ts';
import { XlsxPool } from './xlsx-pool.ts';

export { SourceError } from './errors.ts';
export { resolveSourceDir } from './locate.ts';
export { checkRejectThreshold, formatSourceReport } from './report.ts';
export { taskKey } from './exposure.ts';

interface Picked {
  found: Found;
  others: string[];
}

export async function loadSources(dir: string): Promise<{ bundle: SourceBundle; report: SourceReport }> {
  const root = path.resolve(dir);
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory()) throw new SourceError(`Source directory ${root} does not exist. ${HOW_TO_GET_DATA}`);
  const files = await listSourceFiles(root);
  if (files.length === 0) throw new SourceError(`Source directory ${root} is empty. ${HOW_TO_GET_DATA}`);

  const missingRequired: string[] = [];
  const missingOptional: string[] = [];
  const pick = (names: (typeof NAMES)[keyof typeof NAMES], label: string, required: boolean): Picked | null => {
    const picked = pickOne(files, names);
    if (!picked) (required ? missingRequired : missingOptional).push(label);
    return picked;
  };

  const p = {
    occupations: pick(NAMES.occupations, 'Occupation Data.txt', true),
    jobZones: pick(NAMES.jobZones, 'Job Zones.txt', true),
    tasks: pick(NAMES.tasks, 'Task Statements.txt', true),
    taskRatings: pick(NAMES.taskRatings, 'Task Ratings.txt', false),
    taskDwas: pick(NAMES.taskDwas, 'Tasks to DWAs.txt/.xlsx', true),
    dwaReference: pick(NAMES.dwaReference, 'DWA Reference.txt', true),
    alternateTitles: pick(NAMES.alternateTitles, 'Alternate Titles.txt/.xlsx', true),
    reportedTitles: pick(NAMES.reportedTitles, 'Sample of Reported Titles.txt', true),
    related: pick(NAMES.related, 'Related Occupations.txt', true),
    skills: pick(NAMES.skills, 'Skills.txt/.xlsx', true),
    knowledge: pick(NAMES.knowledge, 'Knowledge.txt/.xlsx', true),
    abilities: pick(NAMES.abilities, 'Abilities.txt (or the derived ONET30.0_Abilities_IM_LV table)', false),
    workActivities: pick(NAMES.workActivities, 'Work Activities.txt (or the derived ONET30.0_Work_Activities_IM_LV table)', false),
    eloundou: pick(NAMES.eloundou, 'full_labelset.tsv (Eloundou et al. 2023)', true),
    aeiTaskStatements: pick(NAMES.aeiTaskStatements, 'onet_task_statements.csv (AEI)', false),
    msft: pick(NAMES.msft, 'soc_ai_applicability_scores.csv (Microsoft working-with-ai)', false),
    naics: pick(NAMES.naics, '2-6 digit_2022_Codes.xlsx (NAICS 2022)', true),
    projections: pick(NAMES.projections, 'occupation.xlsx (BLS Employment Projections, Table 1.2)', false),
    votes: pick(NAMES.votes, 'votes.csv', false),
    readMe: pick(NAMES.readMe, 'Read Me.txt (O*NET release notice)', false),
  };

  // OEWS national: one file per reference year, newest first; xlsx preferred within a year.
  const national = groupBest(findAll(files, [OEWS_NATIONAL]), (f) => f.match[1]!, (f) => f.match[2]!.toLowerCase() === 'xlsx');
  const nationalYears = [...national.keys()].sort().reverse();
  if (nationalYears.length === 0) missingRequired.push('national_M<year>_dl.xlsx (OEWS national)');

  // OEWS industry: per file kind the newest year, xlsx preferred.
  const industry = new Map<IndustryFileKind, Picked & { year: string }>();
  for (const kind of ['natsector', 'nat3d', 'nat4d', 'nat5d_6d'] as const) {
    const ofKind = findAll(files, [OEWS_INDUSTRY]).filter((f) => f.match[1]!.toLowerCase() === kind);
    const byYear = groupBest(ofKind, (f) => f.match[2]!, (f) => f.match[3]!.toLowerCase() === 'xlsx');
    const year = [...byYear.keys()].sort().reverse()[0];
    if (year === undefined) {
      (kind === 'natsector' ? missingRequired : missingOptional).push(`${kind}_M<year>_dl.xlsx (OEWS industry)`);
      continue;
    }
    const best = byYear.get(year)!;
    const others = ofKind.map((f) => f.path).filter((x) => x !== best.found.path);
    industry.set(kind, { found: best.found, others, year });
  }

  // AEI: every usage / collaboration file, one per (kind, release, platform).
  const aei = new Map<string, { path: string; release: string; platform: 'claude_ai' | 'api'; kind: 'usage' | 'collaboration' }>();
  const aeiSkipped: Array<{ path: string; reason: string }> = [];
  for (const file of files) {
    const meta = aeiFileInfo(file);
    if (!meta) continue;
    if (meta.release === null) {
      aeiSkipped.push({ path: file, reason: 'release date unknown (put it under a release_YYYY_MM_DD/ folder)' });
      continue;
    }
    const key = `${meta.kind}|${meta.release}|${meta.platform}`;
    if (aei.has(key)) aeiSkipped.push({ path: file, reason: `same release and platform as ${aei.get(key)!.path}` });
    else aei.set(key, { path: file, release: meta.release, platform: meta.platform, kind: meta.kind });
  }
  if (![...aei.values()].some((a) => a.kind === 'usage')) missingOptional.push('AEI task usage (onet_task_mappings.csv / task_pct_*.csv)');
  if (![...aei.values()].some((a) => a.kind === 'collaboration')) {
    missingOptional.push('AEI collaboration (automation_vs_augmentation_by_task*.csv)');
  }

  if (missingRequired.length > 0) {
    throw new SourceError(
      `Missing required source file(s) under ${root}: ${missingRequired.join('; ')}. ${HOW_TO_GET_DATA}`,
    );
  }

  const pool = new XlsxPool();
  try {
    return await loadFiles();
  } finally {
    await pool.close();
  }

  async function loadFiles(): Promise<{ bundle: SourceBundle; report: SourceReport }> {
  // Logs are created in this (fixed) order, so the report does not depend on parse timing.
  const logs: FileLog[] = [];
  const load = <T>(picked: Picked, parse: (t: Table, log: FileLog) => T, sheet?: string, wanted: string[] = []) => {
    const log = new FileLog(baseName(picked.found.path), picked.found.path);
    if (picked.others.length > 0) log.note(`also found, not used: ${picked.others.join(', ')}`);
    logs.push(log);
    return readTable(path.join(root, picked.found.path), picked.found.path, wanted, sheet, pool).then((t) => parse(t, log));
  };
  const optional = <T>(picked: Picked | null, parse: (t: Table, log: FileLog) => T, sheet?: string, wanted?: string[]) =>
    picked ? load(picked, parse, sheet, wanted) : Promise.resolve(null);
  const req = <T>(picked: Picked | null, parse: (t: Table, log: FileLog) => T) => load(picked!, parse);

  // The derived O*NET 30.0 tables have IM and LV side by side; official files one row per scale.
  const elementParser = (picked: Picked | null) => (t: Table, log: FileLog) => {
    if (picked && /\.derived\.tsv$/i.test(picked.found.path)) {
      log.note('derived O*NET 30.0 substitute (IM/LV values only, no suppress / not-relevant flags)');
      return onet.parseElementWide(t, log);
    }
    return onet.parseElementScales(t, log);
  };

  const jobs = {
    occupations: req(p.occupations, onet.parseOccupations),
    jobZones: req(p.jobZones, onet.parseJobZones),
    tasks: req(p.tasks, onet.parseTaskStatements),
    taskRatings: optional(p.taskRatings, onet.parseTaskRatings),
    taskDwas: req(p.taskDwas, onet.parseTaskDwas),
    dwaReference: req(p.dwaReference, onet.parseDwaReference),
    alternateTitles: req(p.alternateTitles, onet.parseAlternateTitles),
    reportedTitles: req(p.reportedTitles, onet.parseReportedTitles),
    related: req(p.related, onet.parseRelated),
    skills: req(p.skills, elementParser(p.skills)),
    knowledge: req(p.knowledge, elementParser(p.knowledge)),
    abilities: optional(p.abilities, elementParser(p.abilities)),
    workActivities: optional(p.workActivities, elementParser(p.workActivities)),
    eloundou: req(p.eloundou, parseEloundou),
    aei: Promise.all(
      [...aei.values()].map((a) =>
        load({ found: { path: a.path, rank: 0, match: [a.path] }, others: [] }, (t, log) => {
          log.note(`release ${a.release}, platform ${a.platform}`);
          return a.kind === 'usage'
            ? { usage: parseAeiUsage(t, log, a), collaboration: [] as AeiCollaboration[] }
            : { usage: [] as AeiTaskUsage[], collaboration: parseAeiCollaboration(t, log, a) };
        }),
      ),
    ),
    aeiTaskStatements: optional(p.aeiTaskStatements, parseAeiTaskStatements),
    msft: optional(p.msft, parseMsftApplicability),
    national: Promise.all(
      nationalYears.map((year) =>
        load(national.get(year)!, (t, log): OewsNational => ({ period: oewsPeriod(year), rows: parseOewsNational(t, log) })),
      ),
    ),
    industry: Promise.all(
      [...industry.entries()].map(([kind, picked]) =>
        load(picked, (t, log) => parseOewsIndustry(t, log, kind, oewsPeriod(picked.year))),
      ),
    ),
    naics: req(p.naics, parseNaics),
    projections: optional(
      p.projections,
      parseProjections,
      p.projections?.found.path.toLowerCase().endsWith('.xlsx') ? PROJECTIONS_SHEET : undefined,
      ['Occupation type'],
    ),
    votes: optional(p.votes, parseVotes),
    readMe: p.readMe ? readFile(path.join(root, p.readMe.found.path), 'utf8') : Promise.resolve(null),
  };
  // AEI files passed over still appear in the report, with the reason.
  for (const skipped of aeiSkipped) {
    const log = new FileLog(baseName(skipped.path), skipped.path);
    log.note(`not used: ${skipped.reason}`);
    logs.push(log);
  }
  const r = await settleAll(jobs);


  const bundle: SourceBundle = {
    onet_version: (r.readMe && onet.parseOnetVersion(r.readMe)) ?? 'unknown',
    occupations: r.occupations,
    job_zones: r.jobZones,
    tasks: r.tasks,
    task_ratings: r.taskRatings,
    task_dwas: r.taskDwas,
    dwa_reference: r.dwaReference,
    titles: [...r.alternateTitles, ...r.reportedTitles],
    related: r.related,
    skills: r.skills,
    knowledge: r.knowledge,
    abilities: r.abilities ?? [],
    work_activities: r.workActivities ?? [],
    exposure_labels: r.eloundou,
    aei_usage: r.aei.flatMap((a) => a.usage),
    aei_collaboration: r.aei.flatMap((a) => a.collaboration),
    aei_task_statements: r.aeiTaskStatements ?? [],
    msft_applicability: r.msft ?? [],
    oews_national: r.national,
    oews_industry: r.industry.flat() as OewsIndustryRow[],
    naics: r.naics,
    projections: r.projections ?? [],
    votes: r.votes,
  };
  const report: SourceReport = {
    files: logs.map((l) => l.toReport()),
    problems: logs.flatMap((l) => l.problems),
    missing_optional: missingOptional,
  };
  return { bundle, report };
  }
}

/** Per group key, the preferred file (xlsx over csv), else the first by path. */
function groupBest(found: Found[], key: (f: Found) => string, preferred: (f: Found) => boolean): Map<string, Picked> {
  const groups = new Map<string, Found[]>();
  for (const f of found) groups.set(key(f), [...(groups.get(key(f)) ?? []), f]);
  const out = new Map<string, Picked>();
  for (const [k, list] of groups) {
    const best = list.find(preferred) ?? list[0]!;
    out.set(k, { found: best, others: list.filter((f) => f !== best).map((f) => f.path) });
  }
  return out;
}

/**
 * Awaits every job, so one fatal file error does not leave others running unobserved, then
 * throws all fatal errors together (in job order).
 */
async function settleAll<T extends Record<string, Promise<unknown>>>(jobs: T): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const keys = Object.keys(jobs);
  const settled = await Promise.allSettled(Object.values(jobs));
  const failed = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as unknown);
  if (failed.length === 1) throw failed[0];
  if (failed.length > 1) {
    // Report every fatal file problem at once rather than one per build attempt.
    const messages = failed.map((e) => (e instanceof Error ? e.message : String(e)));
    throw new SourceError(`${failed.length} source files cannot be read:\n- ${messages.join('\n- ')}`);
  }
  return Object.fromEntries(keys.map((k, i) => [k, (settled[i] as PromiseFulfilledResult<unknown>).value])) as {
    [K in keyof T]: Awaited<T[K]>;
  };
}
