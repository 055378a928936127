// Which file to read for each source, decided from the list of paths alone (pure, no I/O):
// preferences from catalog.ts, required sources that are missing, optional ones that are absent.
import { aeiFileInfo, MODEL_ONET_RELEASE, NAMES, OEWS_INDUSTRY, OEWS_MODEL_YEARS, OEWS_NATIONAL, ONET_SOURCES, onetReleaseOf } from './catalog.ts';
import { findAll, type Found } from './discover.ts';
import type { IndustryFileKind } from './oews.ts';

export interface Picked {
  found: Found;
  /** Other accepted copies, passed over (reported). */
  others: string[];
}

export interface AeiPick {
  path: string;
  release: string;
  platform: 'claude_ai' | 'api';
  kind: 'usage' | 'collaboration';
}

type SourceKey = keyof typeof NAMES;
const ONET_KEYS = new Set<SourceKey>([...ONET_SOURCES.required, ...ONET_SOURCES.optional]);

/** "30.1" > "29.3", compared as numbers part by part. */
const newerRelease = (a: string, b: string): number => {
  const [a1, a2] = a.split('.').map(Number);
  const [b1, b2] = b.split('.').map(Number);
  return a1! - b1! || a2! - b2!;
};

/**
 * The one O*NET release every O*NET source is read from, so a newer (or older) release beside it
 * never mixes into the model: the calibration release when complete, else the newest complete
 * one; null when no file sits in an official db_X_Y_* folder (then nothing is filtered).
 */
export function selectOnetRelease(files: string[]): { release: string | null; others: string[]; note: string | null } {
  const releases = new Set<string>();
  for (const key of ONET_KEYS) {
    for (const f of findAll(files, NAMES[key])) {
      const r = onetReleaseOf(f.path);
      if (r !== null) releases.add(r);
    }
  }
  const complete = (r: string) =>
    ONET_SOURCES.required.every((key) => findAll(files, NAMES[key]).some((f) => [r, null].includes(onetReleaseOf(f.path))));
  const candidates = [...releases].filter(complete).sort(newerRelease).reverse();
  const release = candidates.includes(MODEL_ONET_RELEASE) ? MODEL_ONET_RELEASE : (candidates[0] ?? null);
  const others = [...releases].filter((r) => r !== release).sort(newerRelease);
  let note: string | null = null;
  if (release !== null && release !== MODEL_ONET_RELEASE) {
    note = `the model is calibrated on O*NET ${MODEL_ONET_RELEASE}, which is not complete here; using ${release}`;
  } else if (release === null && releases.size > 0) {
    note = `no complete O*NET release among ${[...releases].join(', ')}; files taken by name from any release`;
  }
  return { release, others, note };
}

export function selectFiles(files: string[]) {
  const missingRequired: string[] = [];
  const missingOptional: string[] = [];
  const onet = selectOnetRelease(files);
  const pick = (key: SourceKey, label: string, required: boolean): Picked | null => {
    let all = findAll(files, NAMES[key]);
    let otherReleases: string[] = [];
    if (ONET_KEYS.has(key) && onet.release !== null) {
      // Only the chosen release, then files outside any release folder; the rest is reported.
      const release = (f: Found) => onetReleaseOf(f.path);
      otherReleases = all.filter((f) => ![onet.release, null].includes(release(f))).map((f) => `${f.path} (O*NET ${release(f)})`);
      all = [...all.filter((f) => release(f) === onet.release), ...all.filter((f) => release(f) === null)];
    }
    const [found, ...rest] = all;
    if (!found) (required ? missingRequired : missingOptional).push(label);
    return found ? { found, others: [...rest.map((f) => f.path), ...otherReleases] } : null;
  };

  const p = {
    occupations: pick('occupations', 'Occupation Data.txt', true),
    jobZones: pick('jobZones', 'Job Zones.txt', true),
    jobZoneReference: pick('jobZoneReference', "Job Zone Reference.txt/.xlsx (the job zones' names on the pages)", false),
    tasks: pick('tasks', 'Task Statements.txt', true),
    taskRatings: pick('taskRatings', 'Task Ratings.txt', false),
    taskDwas: pick('taskDwas', 'Tasks to DWAs.txt/.xlsx', true),
    dwaReference: pick('dwaReference', 'DWA Reference.txt', true),
    alternateTitles: pick('alternateTitles', 'Alternate Titles.txt/.xlsx', true),
    reportedTitles: pick('reportedTitles', 'Sample of Reported Titles.txt', true),
    related: pick('related', 'Related Occupations.txt', true),
    skills: pick('skills', 'Skills.txt/.xlsx', true),
    knowledge: pick('knowledge', 'Knowledge.txt/.xlsx', true),
    abilities: pick('abilities', 'Abilities.txt (or the derived ONET30.0_Abilities_IM_LV table)', false),
    education: pick('education', 'Education, Training, and Experience.txt/.xlsx', false),
    levelAnchors: pick('levelAnchors', 'Level Scale Anchors.txt/.xlsx (the skill gaps\' plain-word levels)', false),
    iwaWeights: pick('iwaWeights', 'soc_iwa_weights.csv (Tomlinson et al. per-occupation IWA weights)', false),
    workActivities: pick('workActivities', 'Work Activities.txt (or the derived ONET30.0_Work_Activities_IM_LV table)', false),
    eloundou: pick('eloundou', 'full_labelset.tsv (Eloundou et al. 2023)', true),
    aeiTaskStatements: pick('aeiTaskStatements', 'onet_task_statements.csv (AEI)', false),
    msft: pick('msft', 'soc_ai_applicability_scores.csv (Microsoft working-with-ai)', false),
    wwaiIwa: pick('wwaiIwa', 'iwa_metrics.csv (Microsoft working-with-ai, user-goal and AI-action shares per IWA)', false),
    naics: pick('naics', '2-6 digit_2022_Codes.xlsx (NAICS 2022)', true),
    projections: pick('projections', 'occupation.xlsx (BLS Employment Projections, Table 1.2)', false),
    epFactors: pick('epFactors', 'occupation.xlsx, sheet Table 1.12 (BLS Employment Projections; guidance only, never the score)', false),
    votes: pick('votes', 'votes.csv', false),
    iscoLinks: pick('iscoLinks', 'isco_soc_crosswalk.xls (BLS ISCO-08 / SOC 2010 crosswalk; without it the ISCO-08 endpoints list nothing)', false),
    socCrosswalk: pick('socCrosswalk', 'soc_2010_to_2018_crosswalk.xlsx (BLS SOC 2010 / 2018 crosswalk; without it the ISCO-08 endpoints list nothing)', false),
    readMe: pick('readMe', 'Read Me.txt (O*NET release notice)', false),
  };

  // Skills fill: the Skills file of the newest release newer than the chosen one, read only for
  // occupations the chosen release does not rate. A separate, named source: nothing else mixes.
  const skillsFill = selectSkillsFill(files, onet.release);
  if (skillsFill === null && onet.release !== null) missingOptional.push(`Skills.txt/.xlsx of an O*NET release newer than ${onet.release} (fills unrated occupations)`);

  // OEWS national: one file per reference year, newest first; xlsx preferred within a year. The
  // model reads the newest OEWS_MODEL_YEARS; older years are read as evidence beside the score (never by it).
  const national = groupBest(findAll(files, [OEWS_NATIONAL]), (f) => f.match[1]!, (f) => f.match[2]!.toLowerCase() === 'xlsx');
  const nationalYears = [...national.keys()].sort().reverse();
  if (nationalYears.length === 0) missingRequired.push('national_M<year>_dl.xlsx (OEWS national)');
  const modelYears = nationalYears.slice(0, OEWS_MODEL_YEARS);
  const historyYears = nationalYears.slice(OEWS_MODEL_YEARS);

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
  const aei = new Map<string, AeiPick>();
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


  return {
    picked: p,
    onet,
    skillsFill,
    /** OEWS national years the model reads, newest first. */
    national: modelYears.map((year) => ({ year, ...national.get(year)! })),
    /** Older OEWS national years: employment evidence beside the score and validation yardsticks, never score inputs. */
    nationalHistory: historyYears.map((year) => ({ year, ...national.get(year)! })),
    industry,
    aei: [...aei.values()],
    aeiSkipped,
    missingRequired,
    missingOptional,
    choices: [
      ...describeChoices(onet, modelYears, historyYears, industry),
      ...(skillsFill ? [`O*NET Skills fill: release ${skillsFill.release} (${skillsFill.found.path}), only for occupations release ${onet.release} does not rate`] : []),
    ],
  };
}

/** What the build reads, and what it found but does not use, as report lines. */
function describeChoices(
  onet: ReturnType<typeof selectOnetRelease>,
  modelYears: string[],
  historyYears: string[],
  industry: Map<IndustryFileKind, { year: string }>,
): string[] {
  const lines: string[] = [];
  if (onet.release !== null || onet.others.length > 0) {
    const also = onet.others.length > 0 ? `; also found, not used: ${onet.others.map((r) => `O*NET ${r}`).join(', ')}` : '';
    lines.push(`O*NET: release ${onet.release ?? '(none complete)'}${also}${onet.note ? ` (${onet.note})` : ''}`);
  }
  if (modelYears.length > 0) {
    const [newest, ...fallback] = modelYears;
    const fill = fallback.length > 0 ? `, May ${fallback.join(', May ')} (fills values May ${newest} suppresses)` : '';
    const also =
      historyYears.length > 0
        ? `; also May ${historyYears.join(', May ')} (employment by year beside the score, never in it; OEWS history for npm run validate)`
        : '';
    lines.push(`OEWS national: May ${newest} (wages, employment)${fill}${also}`);
  }
  if (industry.size > 0) {
    lines.push(`OEWS industry: ${[...industry.entries()].map(([kind, f]) => `${kind} May ${f.year}`).join(', ')}`);
  }
  return lines;
}

/** The Skills file of the newest O*NET release newer than `release` (text over xlsx), or null. */
export function selectSkillsFill(files: string[], release: string | null): { found: Found; release: string } | null {
  if (release === null) return null;
  const newer = findAll(files, NAMES.skills)
    .map((f) => ({ found: f, release: onetReleaseOf(f.path) }))
    .filter((x): x is { found: Found; release: string } => x.release !== null && newerRelease(x.release, release) > 0);
  if (newer.length === 0) return null;
  const newest = newer.map((x) => x.release).sort(newerRelease).at(-1)!;
  return newer.find((x) => x.release === newest)!;
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
