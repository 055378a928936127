// One source file read and parsed, described as plain data (which parser, which file, its
// arguments) and answered as plain data (the parsed rows and the file's log), so that the same job
// runs on this thread or on a worker thread (parse-pool.ts) with the same result.
import type { AeiCollaboration, AeiTaskUsage, OewsNational } from '../model/inputs.ts';
import { SourceError } from './errors.ts';
import {
  parseAeiCollaboration,
  parseAeiTaskStatements,
  parseAeiUsage,
  parseEloundou,
  parseIwaWeights,
  parseMsftApplicability,
  parseWwaiIwa,
} from './exposure.ts';
import { parseIscoLinks, parseSocCrosswalk } from './isco.ts';
import { parseNaics } from './naics.ts';
import { oewsPeriod, parseOewsIndustry, parseOewsNational, type IndustryFileKind } from './oews.ts';
import * as onet from './onet.ts';
import { parseProjections } from './projections.ts';
import { parseEpFactors } from './ep-factors.ts';
import { readTable } from './read-table.ts';
import { baseName } from './discover.ts';
import { FileLog } from './rows.ts';
import type { AeiPick } from './select.ts';
import type { Table } from './table.ts';
import { parseVotes } from './votes.ts';

/** Every parser a job may name, with the (plain-data) argument it takes. */
export const PARSERS = {
  occupations: (t: Table, log: FileLog) => onet.parseOccupations(t, log),
  jobZones: (t: Table, log: FileLog) => onet.parseJobZones(t, log),
  jobZoneReference: (t: Table, log: FileLog) => onet.parseJobZoneReference(t, log),
  tasks: (t: Table, log: FileLog) => onet.parseTaskStatements(t, log),
  taskRatings: (t: Table, log: FileLog) => onet.parseTaskRatings(t, log),
  taskDwas: (t: Table, log: FileLog) => onet.parseTaskDwas(t, log),
  dwaReference: (t: Table, log: FileLog) => onet.parseDwaReference(t, log),
  alternateTitles: (t: Table, log: FileLog) => onet.parseAlternateTitles(t, log),
  reportedTitles: (t: Table, log: FileLog) => onet.parseReportedTitles(t, log),
  related: (t: Table, log: FileLog) => onet.parseRelated(t, log),
  education: (t: Table, log: FileLog) => onet.parseEducation(t, log),
  levelAnchors: (t: Table, log: FileLog) => onet.parseLevelAnchors(t, log),
  // The derived O*NET 30.0 tables have IM and LV side by side; official files one row per scale.
  element: (t: Table, log: FileLog, derived: boolean) => {
    if (!derived) return onet.parseElementScales(t, log);
    log.note('derived O*NET 30.0 substitute (IM/LV values only, no suppress / not-relevant flags)');
    return onet.parseElementWide(t, log);
  },
  skillsFill: (t: Table, log: FileLog, release: string) => {
    log.note(`O*NET ${release} Skills: fills only occupations the chosen release does not rate`);
    return onet.parseElementScales(t, log);
  },
  iwaWeights: (t: Table, log: FileLog) => parseIwaWeights(t, log),
  eloundou: (t: Table, log: FileLog) => parseEloundou(t, log),
  aei: (t: Table, log: FileLog, a: AeiPick) => {
    log.note(`release ${a.release}, platform ${a.platform}`);
    return a.kind === 'usage'
      ? { usage: parseAeiUsage(t, log, a), collaboration: [] as AeiCollaboration[] }
      : { usage: [] as AeiTaskUsage[], collaboration: parseAeiCollaboration(t, log, a) };
  },
  aeiTaskStatements: (t: Table, log: FileLog) => parseAeiTaskStatements(t, log),
  msft: (t: Table, log: FileLog) => parseMsftApplicability(t, log),
  wwaiIwa: (t: Table, log: FileLog) => parseWwaiIwa(t, log),
  national: (t: Table, log: FileLog, year: string): OewsNational => ({ period: oewsPeriod(year), rows: parseOewsNational(t, log) }),
  industry: (t: Table, log: FileLog, a: { kind: IndustryFileKind; year: string }) => parseOewsIndustry(t, log, a.kind, oewsPeriod(a.year)),
  naics: (t: Table, log: FileLog) => parseNaics(t, log),
  projections: (t: Table, log: FileLog) => parseProjections(t, log),
  epFactors: (t: Table, log: FileLog) => parseEpFactors(t, log),
  votes: (t: Table, log: FileLog) => parseVotes(t, log),
  iscoLinks: (t: Table, log: FileLog) => parseIscoLinks(t, log),
  socCrosswalk: (t: Table, log: FileLog) => parseSocCrosswalk(t, log),
};

export type ParserName = keyof typeof PARSERS;
export type ParserArg<K extends ParserName> = Parameters<(typeof PARSERS)[K]>[2];
export type ParserResult<K extends ParserName> = ReturnType<(typeof PARSERS)[K]>;

export interface ParseJob<K extends ParserName = ParserName> {
  parser: K;
  arg: ParserArg<K>;
  /** Absolute path, and the path relative to the source directory (messages and the report). */
  abs: string;
  rel: string;
  wanted: string[];
  sheet?: string;
  /** The cache entry to store the parsed file in (ParsedCache.entryFor), by the thread that parsed it. */
  store?: string;
}

/** What a job adds to its file's log (FileLog.absorb takes it back). */
export type JobLog = Pick<FileLog, 'rows' | 'kept' | 'rejected' | 'repeats' | 'lastLine' | 'notes' | 'problems'>;

/** `unstored`: why the parsed file could not be stored in the cache (the build goes on). */
export type JobOutcome = { ok: true; value: unknown; log: JobLog; unstored?: string } | { ok: false; error: SentError };

/** An error as it crosses threads: a worker's error arrives as a plain object, not as its class. */
export interface SentError {
  source: boolean;
  message: string;
  file: string | null;
  stack?: string;
}

/** Stores a parsed file under its cache entry (a ParsedCache's, parsed-cache.ts). */
export type StoreParsed = (entry: string, value: unknown, log: JobLog) => Promise<void>;

/** Runs the job; `store` stores what it parsed when the job names an entry (a failure to store is reported, not thrown). */
export async function runJob(job: ParseJob, store?: StoreParsed): Promise<JobOutcome> {
  try {
    const log = new FileLog(baseName(job.rel), job.rel);
    const table = await readTable(job.abs, job.rel, job.wanted, job.sheet);
    const parse = PARSERS[job.parser] as (t: Table, log: FileLog, arg: unknown) => unknown;
    const value = parse(table, log, job.arg);
    const jobLog: JobLog = { rows: log.rows, kept: log.kept, rejected: log.rejected, repeats: log.repeats, lastLine: log.lastLine, notes: log.notes, problems: log.problems };
    const unstored = job.store
      ? await (store ? store(job.store, value, jobLog) : Promise.reject(new Error('no store given'))).then(
          () => undefined,
          (e: Error) => e.message,
        )
      : undefined;
    return { ok: true, value, log: jobLog, ...(unstored !== undefined ? { unstored } : {}) };
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    return { ok: false, error: { source: err instanceof SourceError, message: err.message, file: err instanceof SourceError ? err.file : null, stack: err.stack } };
  }
}

/** The error a job failed with, as its class again (SourceError for source problems). */
export function revive(sent: SentError): Error {
  const err = sent.source ? new SourceError(sent.message, sent.file) : new Error(sent.message);
  if (!sent.source && sent.stack) err.stack = sent.stack;
  return err;
}
