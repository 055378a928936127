// Which file to read for each source, decided from the list of paths alone (pure, no I/O):
// preferences from catalog.ts, required sources that are missing, optional ones that are absent.
import { aeiFileInfo, NAMES, OEWS_INDUSTRY, OEWS_NATIONAL } from './catalog.ts';
import { findAll, pickOne, type Found } from './discover.ts';
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

export function selectFiles(files: string[]) {
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
    /** OEWS national per reference year, newest first. */
    national: nationalYears.map((year) => ({ year, ...national.get(year)! })),
    industry,
    aei: [...aei.values()],
    aeiSkipped,
    missingRequired,
    missingOptional,
  };
}

export type Selection = ReturnType<typeof selectFiles>;

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
