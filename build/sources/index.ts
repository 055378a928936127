// loadSources: find every source file under a directory, parse and validate it, and hand back the
// ModelInputs plus a report of what was read, kept and rejected. Prints nothing; the build does.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AeiCollaboration, AeiTaskUsage, OewsIndustryRow, OewsNational, ModelInputs } from '../model/inputs.ts';
import type { SourceReport } from './report.ts';
import { baseName, listSourceFiles } from './discover.ts';
import { HOW_TO_GET_DATA, SourceError } from './errors.ts';
import {
  parseAeiCollaboration,
  parseAeiTaskStatements,
  parseAeiUsage,
  parseEloundou,
  parseIwaWeights,
  parseMsftApplicability,
} from './exposure.ts';
import { parseNaics } from './naics.ts';
import { oewsPeriod, parseOewsIndustry, parseOewsNational } from './oews.ts';
import * as onet from './onet.ts';
import { parseProjections, PROJECTIONS_SHEET } from './projections.ts';
import { readTable } from './read-table.ts';
import { FileLog } from './rows.ts';
import { selectFiles, type Picked } from './select.ts';
import type { Table } from './table.ts';
import { parseVotes } from './votes.ts';

export { SourceError } from './errors.ts';
export { resolveSourceDir } from './locate.ts';
export { checkRejectThreshold, formatSourceReport } from './report.ts';
export { taskKey } from './exposure.ts';

export async function loadSources(dir: string): Promise<{ bundle: ModelInputs; report: SourceReport }> {
  const root = path.resolve(dir);
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory()) throw new SourceError(`Source directory ${root} does not exist. ${HOW_TO_GET_DATA}`);
  const files = await listSourceFiles(root);
  if (files.length === 0) throw new SourceError(`Source directory ${root} is empty. ${HOW_TO_GET_DATA}`);

  const { picked: p, skillsFill, national, industry, aei, aeiSkipped, missingRequired, missingOptional, choices } = selectFiles(files);

  if (missingRequired.length > 0) {
    throw new SourceError(
      `Missing required source file(s) under ${root}: ${missingRequired.join('; ')}. ${HOW_TO_GET_DATA}`,
    );
  }

  return loadFiles();

  async function loadFiles(): Promise<{ bundle: ModelInputs; report: SourceReport }> {
    // Logs are created in this (fixed) order, so the report does not depend on parse timing.
    const logs: FileLog[] = [];
    // One file at a time: parsing is synchronous work on this thread anyway, and reading every
    // file up front kept all raw contents and tables alive at once (the build's memory peak).
    let queue: Promise<unknown> = Promise.resolve();
    const load = <T>(picked: Picked, parse: (t: Table, log: FileLog) => T, sheet?: string, wanted: string[] = []) => {
      const log = new FileLog(baseName(picked.found.path), picked.found.path);
      if (picked.others.length > 0) log.note(`also found, not used: ${picked.others.join(', ')}`);
      logs.push(log);
      const job = queue.then(() => readTable(path.join(root, picked.found.path), picked.found.path, wanted, sheet).then((t) => parse(t, log)));
      queue = job.catch(() => undefined);
      return job;
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
      education: optional(p.education, onet.parseEducation),
      skillsFill: skillsFill
        ? load({ found: skillsFill.found, others: [] }, (t, log) => {
            log.note(`O*NET ${skillsFill.release} Skills: fills only occupations the chosen release does not rate`);
            return onet.parseElementScales(t, log);
          })
        : Promise.resolve(null),
      iwaWeights: optional(p.iwaWeights, parseIwaWeights),
      eloundou: req(p.eloundou, parseEloundou),
      aei: allOrThrow(
        aei.map((a) =>
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
      national: allOrThrow(
        national.map((n) =>
          load(n, (t, log): OewsNational => ({ period: oewsPeriod(n.year), rows: parseOewsNational(t, log) })),
        ),
      ),
      industry: allOrThrow(
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

    const bundle: ModelInputs = {
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
      education: r.education ?? [],
      skills_fill: skillsFill && r.skillsFill ? { release: skillsFill.release, rows: r.skillsFill } : null,
      iwa_weights: r.iwaWeights ?? [],
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
      choices,
    };
    return { bundle, report };
  }
}

/**
 * Awaits every job, so one fatal file error does not leave others running unobserved, then
 * throws all fatal errors together (in job order): every broken file is named in one build.
 */
async function allOrThrow<T>(promises: Array<Promise<T>>): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  if (failed.length === 1) throw failed[0];
  if (failed.length > 1) {
    const messages = failed.flatMap((e) => (e instanceof Error ? e.message.split('\n- ') : [String(e)]));
    throw new SourceError(`${messages.length} source files cannot be read:\n- ${messages.join('\n- ')}`);
  }
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

async function settleAll<T extends Record<string, Promise<unknown>>>(jobs: T): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const values = await allOrThrow(Object.values(jobs));
  return Object.fromEntries(Object.keys(jobs).map((k, i) => [k, values[i]])) as { [K in keyof T]: Awaited<T[K]> };
}
