// loadSources: find every source file under a directory, parse and validate it, and hand back the
// ModelInputs plus a report of what was read, kept and rejected. Prints nothing; the build does.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { OewsIndustryRow, ModelInputs } from '../model/inputs.ts';
import type { SourceReport } from './report.ts';
import { baseName, listSourceFiles } from './discover.ts';
import { HOW_TO_GET_DATA, SourceError, sourceProblems } from './errors.ts';
import * as onet from './onet.ts';
import { revive, type JobOutcome, type ParseJob, type ParserArg, type ParserName, type ParserResult } from './parse-jobs.ts';
import type { ParsedCache } from './parsed-cache.ts';
import type { CacheOutcome } from '../build-types.ts';
import { stageLabel } from '../report-format.ts';
import { parsePool } from './parse-pool.ts';
import { PROJECTIONS_SHEET } from './projections.ts';
import { EP_FACTORS_MARKER, EP_FACTORS_SHEET } from './ep-factors.ts';
import { ISCO_SOC_COLUMNS, ISCO_SOC_SHEET, SOC_CROSSWALK_COLUMNS } from './isco.ts';
import { interner } from './intern.ts';
import { FileLog } from './rows.ts';
import { missingReferences, type ReferredFile } from './references.ts';
import { checkRecorded, recordedFiles } from './recorded.ts';
import { selectFiles, type Picked } from './select.ts';
import { ATTRIBUTION } from './registry.ts';

export { SourceError } from './errors.ts';
export { resolveSourceDir } from './locate.ts';
export { checkRejectThreshold, formatSourceReport } from './report.ts';
export { taskKey } from './exposure.ts';

/** What the parsed-source cache gave a load: 'off' without one. */
export interface SourcesCacheUse {
  outcome: CacheOutcome;
  /** Files read from their entries, and files parsed (stored unless `outcome` is 'off'). */
  fromCache: number;
  parsed: number;
}

export interface LoadOptions {
  /** Parse on this many worker threads (0: on this thread); by default chosen by the size of the files to parse. */
  threads?: number;
  /** The parsed-source cache (made by build/cache/sources-cache.ts): files found there are not parsed, files parsed are stored. */
  cache?: ParsedCache;
}

export async function loadSources(dir: string, opts: LoadOptions = {}): Promise<{ bundle: ModelInputs; report: SourceReport; cache: SourcesCacheUse }> {
  const root = path.resolve(dir);
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory()) throw new SourceError(`Source directory ${root} does not exist. ${HOW_TO_GET_DATA}`);
  const files = await listSourceFiles(root);
  if (files.length === 0) throw new SourceError(`Source directory ${root} is empty. ${HOW_TO_GET_DATA}`);

  const selection = selectFiles(files);
  if (selection.missingRequired.length > 0) {
    throw new SourceError(
      `Missing required source file(s) under ${root}: ${selection.missingRequired.join('; ')}. ${HOW_TO_GET_DATA}`,
    );
  }
  return loadFiles(root, files, selection, opts);
}

type Selection = ReturnType<typeof selectFiles>;

/** Parses the selected files (or takes them from the cache) into the model's inputs, and reports every file read. */
async function loadFiles(root: string, files: Parameters<typeof recordedFiles>[1], selection: Selection, opts: LoadOptions): Promise<{ bundle: ModelInputs; report: SourceReport; cache: SourcesCacheUse }> {
  const { picked: p, aeiSkipped, missingOptional, choices } = selection;
  // Logs are created in this (fixed) order, so the report does not depend on parse timing.
  const logs: FileLog[] = [];
  const historySkipped: string[] = [];
  // Jobs are planned first and run once all are known: those the cache answers are not parsed,
  // and the pool is sized by what is left to parse.
  const planned: Planned[] = [];
  const jobs = planJobs(jobPlanner(root, opts, logs, planned), selection, root, files, opts, historySkipped);
  // AEI files passed over still appear in the report, with the reason.
  for (const skipped of aeiSkipped) {
    const log = new FileLog(baseName(skipped.path), skipped.path);
    log.note(`not used: ${skipped.reason}`);
    logs.push(log);
  }
  // Together, so that a failed job is observed at once (and every failure reported together).
  const [cache, r] = await Promise.all([runPlanned(planned, opts), settleAll(jobs)]);
  const bundle = modelInputs(r, selection);
  // Rows other files of the release refer to and a file lacks: it was cut short (fatal, --strict or not).
  const referred = (picked: Picked | null): ReferredFile | null => {
    const log = picked && logs.find((l) => l.path === picked.found.path);
    return log ? { path: log.path, lastLine: log.lastLine, rejectedCodes: new Set(log.problems.flatMap((pr) => (pr.code ? [pr.code] : []))) } : null;
  };
  const lacking = missingReferences(bundle, { occupations: referred(p.occupations)!, tasks: referred(p.tasks)!, taskDwas: referred(p.taskDwas)!, taskRatings: referred(p.taskRatings) });
  if (lacking.length > 0) throw sourceProblems(lacking);

  const report: SourceReport = {
    files: logs.map((l) => l.toReport()),
    problems: logs.flatMap((l) => l.problems),
    missing_optional: missingOptional,
    choices: [...choices, ...historySkipped],
  };
  return { bundle, report, cache };
}

/** Plans a parse job per file: `load` (its log is added to `logs` now, in order), `optional` (null when absent), `req`. */
function jobPlanner(root: string, opts: LoadOptions, logs: FileLog[], planned: Planned[]) {
  const intern = interner();
  const load = <K extends ParserName>(picked: Picked, parser: K, arg: ParserArg<K>, sheet?: string, wanted: string[] = []): Promise<ParserResult<K>> => {
    const log = new FileLog(baseName(picked.found.path), picked.found.path);
    if (picked.others.length > 0) log.note(`also found, not used: ${picked.others.join(', ')}`);
    logs.push(log);
    const rel = picked.found.path;
    const job: ParseJob = { parser, arg, abs: path.join(root, rel), rel, wanted, ...(sheet !== undefined ? { sheet } : {}) };
    return new Promise<Answer>((resolve, reject) => planned.push({ job, resolve, reject })).then((a) => {
      if (!a.outcome.ok) throw revive(a.outcome.error);
      log.absorb(a.outcome.log);
      if (a.outcome.unstored !== undefined) opts.cache?.log(`${stageLabel('cache')} could not store parsed ${rel} (${a.outcome.unstored}); the build goes on`);
      // A file parsed here is interned (the thread's copy of every string); one read from the cache is used as JSON gave it.
      return (a.cached ? a.outcome.value : intern(a.outcome.value)) as ParserResult<K>;
    });
  };
  const optional = <K extends ParserName>(picked: Picked | null, parser: K, arg: ParserArg<K>, sheet?: string, wanted?: string[]) =>
    picked ? load(picked, parser, arg, sheet, wanted) : Promise.resolve(null);
  const req = <K extends ParserName>(picked: Picked | null, parser: K, arg: ParserArg<K>) => load(picked!, parser, arg);
  const derived = (picked: Picked | null) => picked !== null && /\.derived\.tsv$/i.test(picked.found.path);
  return { load, optional, req, derived, logs, planned };
}

/** Every file's job, by the name the model's inputs are assembled from (modelInputs). */
function planJobs(plan: ReturnType<typeof jobPlanner>, selection: Selection, root: string, files: Parameters<typeof recordedFiles>[1], opts: LoadOptions, historySkipped: string[]) {
  const { load, optional, req, derived, logs } = plan;
  const { picked: p, skillsFill, national, nationalHistory, industry, aei } = selection;
  const planned = plan.planned;
  return {
    occupations: req(p.occupations, 'occupations', undefined),
    jobZones: req(p.jobZones, 'jobZones', undefined),
    jobZoneReference: optional(p.jobZoneReference, 'jobZoneReference', undefined),
    tasks: req(p.tasks, 'tasks', undefined),
    taskRatings: optional(p.taskRatings, 'taskRatings', undefined),
    taskDwas: req(p.taskDwas, 'taskDwas', undefined),
    dwaReference: req(p.dwaReference, 'dwaReference', undefined),
    alternateTitles: req(p.alternateTitles, 'alternateTitles', undefined),
    reportedTitles: req(p.reportedTitles, 'reportedTitles', undefined),
    related: req(p.related, 'related', undefined),
    skills: req(p.skills, 'element', derived(p.skills)),
    knowledge: req(p.knowledge, 'element', derived(p.knowledge)),
    abilities: optional(p.abilities, 'element', derived(p.abilities)),
    workActivities: optional(p.workActivities, 'element', derived(p.workActivities)),
    education: optional(p.education, 'education', undefined),
    levelAnchors: optional(p.levelAnchors, 'levelAnchors', undefined),
    skillsFill: skillsFill ? load({ found: skillsFill.found, others: [] }, 'skillsFill', skillsFill.release) : Promise.resolve(null),
    iwaWeights: optional(p.iwaWeights, 'iwaWeights', undefined),
    eloundou: req(p.eloundou, 'eloundou', undefined),
    aei: allOrThrow(aei.map((a) => load({ found: { path: a.path, rank: 0, match: [a.path] }, others: [] }, 'aei', a))),
    aeiTaskStatements: optional(p.aeiTaskStatements, 'aeiTaskStatements', undefined),
    msft: optional(p.msft, 'msft', undefined),
    wwaiIwa: optional(p.wwaiIwa, 'wwaiIwa', undefined),
    national: allOrThrow(national.map((n) => load(n, 'national', n.year))),
    // Older years are evidence beside the score: one that cannot be read is reported and left out.
    nationalHistory: Promise.all(
      nationalHistory.map((n) => {
        return load(n, 'national', n.year).catch((e: unknown) => {
          const at = logs.findIndex((l) => l.path === n.found.path);
          if (at >= 0) logs.splice(at, 1);
          historySkipped.push(`OEWS national May ${n.year} (${n.found.path}) not readable, left out of the employment evidence: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
          return null;
        });
      }),
    ).then((all) => all.filter((x) => x !== null)),
    industry: allOrThrow([...industry.entries()].map(([kind, picked]) => load(picked, 'industry', { kind, year: picked.year }))),
    naics: req(p.naics, 'naics', undefined),
    projections: optional(
      p.projections,
      'projections',
      undefined,
      p.projections?.found.path.toLowerCase().endsWith('.xlsx') ? PROJECTIONS_SHEET : undefined,
      ['Occupation type'],
    ),
    epFactors: optional(
      p.epFactors,
      'epFactors',
      undefined,
      p.epFactors?.found.path.toLowerCase().endsWith('.xlsx') ? EP_FACTORS_SHEET : undefined,
      [EP_FACTORS_MARKER],
    ),
    votes: optional(p.votes, 'votes', undefined),
    iscoLinks: optional(p.iscoLinks, 'iscoLinks', undefined, ISCO_SOC_SHEET, [ISCO_SOC_COLUMNS.isco, ISCO_SOC_COLUMNS.soc]),
    socCrosswalk: optional(p.socCrosswalk, 'socCrosswalk', undefined, undefined, Object.values(SOC_CROSSWALK_COLUMNS)),
    readMe: p.readMe ? readFile(path.join(root, p.readMe.found.path), 'utf8') : Promise.resolve(null),
    // Last: every file read is planned by now. Sizes and sha256 the folder records for them.
    recorded: recordedFiles(root, files).then((rec) => checkRecorded(root, [...planned.map((x) => x.job.rel), ...(p.readMe ? [p.readMe.found.path] : [])], rec, opts.cache?.files)),
  };
}

/** The parsed files as the model's inputs. */
function modelInputs(r: Awaited<ReturnType<typeof settleAll<ReturnType<typeof planJobs>>>>, { skillsFill }: Selection): ModelInputs {
  return {
    onet_version: (r.readMe && onet.parseOnetVersion(r.readMe)) ?? 'unknown',
    attribution: ATTRIBUTION,
    occupations: r.occupations,
    job_zones: r.jobZones,
    job_zone_names: r.jobZoneReference ?? [],
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
    level_anchors: r.levelAnchors ?? [],
    skills_fill: skillsFill && r.skillsFill ? { release: skillsFill.release, rows: r.skillsFill } : null,
    iwa_weights: r.iwaWeights ?? [],
    exposure_labels: r.eloundou,
    aei_usage: r.aei.flatMap((a) => a.usage),
    aei_collaboration: r.aei.flatMap((a) => a.collaboration),
    aei_task_statements: r.aeiTaskStatements ?? [],
    msft_applicability: r.msft ?? [],
    wwai_iwa: r.wwaiIwa ?? [],
    oews_national: r.national,
    oews_history: r.nationalHistory,
    oews_industry: r.industry.flat() as OewsIndustryRow[],
    naics: r.naics,
    projections: r.projections ?? [],
    ep_factors: r.epFactors ?? [],
    votes: r.votes,
    isco_links: r.iscoLinks ?? [],
    soc_crosswalk: r.socCrosswalk ?? [],
  };
}

/** A planned job's answer: its outcome, and whether it came from the cache. */
interface Answer {
  outcome: JobOutcome;
  cached: boolean;
}
interface Planned {
  job: ParseJob;
  resolve: (a: Answer) => void;
  reject: (e: unknown) => void;
}

/**
 * Answers every planned job: from its cache entry when there is a verified one, else parsed (on the
 * pool) and stored. Settles each job's promise; returns what the cache gave once all are done and
 * the cache folder is pruned.
 */
async function runPlanned(planned: readonly Planned[], opts: LoadOptions): Promise<SourcesCacheUse> {
  const { cache } = opts;
  const toParse: Planned[] = [];
  const used: string[] = [];
  let damaged = false;
  for (const p of planned) {
    const entry = cache ? cache.entryFor(p.job) : null;
    if (cache && entry) {
      used.push(entry);
      const hit = await cache.read(entry, p.job.rel);
      if (hit.outcome === 'hit') {
        p.resolve({ outcome: { ok: true, value: hit.value, log: hit.log! }, cached: true });
        continue;
      }
      damaged ||= hit.outcome === 'damaged';
    }
    toParse.push(entry ? { ...p, job: { ...p.job, store: entry } } : p);
  }
  if (toParse.length > 0) {
    const pool = parsePool(toParse.map((p) => p.job.abs), opts.threads, cache ? { store: cache.store, module: cache.storeModule } : undefined);
    await Promise.allSettled(toParse.map((p) => pool.run(p.job).then((o) => p.resolve({ outcome: o, cached: false }), p.reject))).finally(() => pool.close());
  }
  if (cache) await cache.prune(used);
  const parsed = toParse.length;
  return { outcome: !cache ? 'off' : damaged ? 'damaged' : parsed > 0 ? 'miss' : 'hit', fromCache: planned.length - parsed, parsed };
}

/**
 * Awaits every job, so one fatal file error does not leave others running unobserved, then
 * throws all fatal errors together (in job order): every broken file is named in one build.
 */
async function allOrThrow<T>(promises: Array<Promise<T>>): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  if (failed.length === 1) throw failed[0];
  if (failed.length > 1) throw sourceProblems(failed.flatMap((e) => (e instanceof SourceError ? e.problems : [e instanceof Error ? e.message : String(e)])));
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

async function settleAll<T extends Record<string, Promise<unknown>>>(jobs: T): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const values = await allOrThrow(Object.values(jobs));
  return Object.fromEntries(Object.keys(jobs).map((k, i) => [k, values[i]])) as { [K in keyof T]: Awaited<T[K]> };
}
