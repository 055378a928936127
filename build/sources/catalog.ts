// The accepted file names of every source, in order of preference. Matching is on the base name,
// case-insensitive, anywhere under the source directory (see discover.ts).
//
// Preference, when one source exists in several forms:
// - O*NET: the text file (.txt) over the xlsx. Both are official with identical columns; text
//   parses much faster. The mirror's derived O*NET 30.0 tables are the last resort for
//   Abilities / Work Activities (no official file of either in the mirror).
// - BLS and Census: the official xlsx over the mirror's CSV conversion of it (the conversion is
//   verbatim, so the choice changes no value, but the official file is what a download has).
// - Several copies of the same name: the first path in sorted order; the others are reported.
// Official names come from the registry of sources (registry.ts), which the fetcher downloads by;
// the other patterns here are the data mirror's names for the same files.
import type { NamePattern } from './discover.ts';
import { FILE, ONET_TABLES, SOURCES } from './registry.ts';

export const onetNames = (base: string): NamePattern[] => [`${base}.txt`, `${base}.xlsx`];
const onet = (key: keyof typeof ONET_TABLES): NamePattern[] => onetNames(ONET_TABLES[key]);
const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const NAMES = {
  readMe: [`${ONET_TABLES.readMe}.txt`],
  occupations: onet('occupations'),
  jobZones: onet('jobZones'),
  jobZoneReference: onet('jobZoneReference'),
  tasks: onet('tasks'),
  taskRatings: onet('taskRatings'),
  taskDwas: onet('taskDwas'),
  dwaReference: onet('dwaReference'),
  alternateTitles: onet('alternateTitles'),
  reportedTitles: onet('reportedTitles'),
  related: onet('related'),
  skills: onet('skills'),
  knowledge: onet('knowledge'),
  education: onet('education'),
  levelAnchors: onet('levelAnchors'),
  iwaWeights: ['soc_iwa_weights.csv', /msft_working_with_ai_soc_iwa_weights\.csv/],
  abilities: [...onet('abilities'), /ONET[\d.]+_Abilities_IM_LV\.derived\.tsv/],
  workActivities: [...onet('workActivities'), /ONET[\d.]+_Work_Activities_IM_LV\.derived\.tsv/],
  eloundou: [FILE.eloundou, new RegExp(`eloundou_\\d{4}_${escape(FILE.eloundou)}`)],
  aeiTaskStatements: [FILE.aeiTaskStatements, new RegExp(`aei_\\d{4}_\\d{2}_\\d{2}_${escape(FILE.aeiTaskStatements)}`)],
  msft: [FILE.msft, new RegExp(`msft_working_with_ai_${escape(FILE.msft)}`)],
  wwaiIwa: [FILE.msftIwaMetrics, new RegExp(`msft_working_with_ai_${escape(FILE.msftIwaMetrics)}`)],
  // A capture group holds the release year: among names of one pattern the newest release wins.
  naics: [/2-6 digit_(\d{4})_Codes\.xlsx/, /2-6_digit_(\d{4})_Codes\.xlsx/, /naics_(\d{4})_codes_2-6digit\.csv/],
  projections: [FILE.projections, /ep_occupation_(\d{4})-\d{2}\.xlsx/, /ep_(\d{4})-\d{2}_table_1\.2_occupational_projections\.csv/],
  // Table 1.12 is a sheet of the same official occupation.xlsx; the mirror also has a CSV of it.
  epFactors: [FILE.projections, /ep_occupation_(\d{4})-\d{2}\.xlsx/, /ep_(\d{4})-\d{2}_table_1\.12_factors_affecting_utilization\.csv/],
  votes: ['votes.csv'],
  iscoLinks: [FILE.iscoSoc],
  // The official xlsx first, then the mirror's CSV conversion of it.
  socCrosswalk: [FILE.socCrosswalk, FILE.socCrosswalk.replace(/\.xlsx$/, '.csv')],
} satisfies Record<string, NamePattern[]>;

/** The O*NET sources: each is read from one database release (see selectOnetRelease). */
export const ONET_SOURCES = {
  required: ['occupations', 'jobZones', 'tasks', 'taskDwas', 'dwaReference', 'alternateTitles', 'reportedTitles', 'related', 'skills', 'knowledge'],
  optional: ['taskRatings', 'abilities', 'workActivities', 'education', 'levelAnchors', 'jobZoneReference', 'readMe'],
} as const satisfies Record<string, Array<keyof typeof NAMES>>;

/**
 * The O*NET release the model is calibrated on: the Eloundou labels and the AEI task texts were
 * joined against its task statements (join counts in METHODOLOGY). When the source directory
 * holds it complete it is used; otherwise the newest complete release, and the report says so.
 */
export const MODEL_ONET_RELEASE = '29.3';

/** O*NET release of a file from its official folder (db_29_3_text, db_30_1_excel ...), else null. */
export function onetReleaseOf(relPath: string): string | null {
  const m = /(?:^|\/)db_(\d+)_(\d+)_[a-z]+\//i.exec(relPath);
  return m ? `${m[1]}.${m[2]}` : null;
}

/**
 * OEWS national years the model reads: the newest (wages, employment) and the one before it,
 * which fills cells the newest suppresses. Older years are yardsticks for `npm run validate`
 * (see validation/oews-history.ts), never read by the build, so they cannot fail it.
 */
export const OEWS_MODEL_YEARS = 2;

/** OEWS national file of one reference year: official xlsx first, then the CSV conversion. */
export const OEWS_NATIONAL = /national_M(\d{4})_dl\.(xlsx|csv)/;
/** OEWS industry files; the mirror's trims are named oews_<kind>_m<year>_dl.csv. */
export const OEWS_INDUSTRY = /(?:oews_)?(natsector|nat3d|nat4d|nat5d_6d)_M(\d{4})_dl\.(xlsx|csv)/;

export type AeiKind = 'usage' | 'collaboration';

interface AeiName {
  pattern: RegExp;
  kind: AeiKind;
  /** Release and platform of the official file name; null for names that carry their own. */
  defaults: { release: string; platform: 'claude_ai' } | null;
}

/**
 * AEI file names. The mirror prefixes files with aei_<YYYY_MM_DD>_; Anthropic's own names do not
 * carry the release, so for those the date comes from a release_YYYY_MM_DD folder in the path
 * (as on Hugging Face), else from the release that published that file name (the defaults).
 */
const DATE = String.raw`(?:aei_(\d{4})_(\d{2})_(\d{2})_)?`;
/** An official AEI file: its release is the registry source that ships it (id aei-YYYY-MM-DD). */
const official = (name: string, kind: AeiKind): AeiName => {
  const source = SOURCES.find((s) => s.files.some((f) => f.name === name));
  if (!source?.id.startsWith('aei-')) throw new Error(`${name} is not a file of an AEI source in the registry`);
  return { pattern: new RegExp(`${DATE}${escape(name)}`), kind, defaults: { release: source.id.slice('aei-'.length), platform: 'claude_ai' } };
};
export const AEI_NAMES: AeiName[] = [
  official(FILE.aeiUsage20250210, 'usage'),
  official(FILE.aeiUsage20250327, 'usage'),
  { pattern: new RegExp(`${DATE}derived_task_pct_(claude_ai|1p_api)\\.csv`), kind: 'usage', defaults: null },
  official(FILE.aeiCollaboration20250327, 'collaboration'),
  {
    pattern: new RegExp(`${DATE}derived_automation_vs_augmentation_by_task_(claude_ai|1p_api)\\.csv`),
    kind: 'collaboration',
    defaults: null,
  },
];

export interface AeiFileInfo {
  kind: AeiKind;
  release: string | null;
  platform: 'claude_ai' | 'api';
}

/** Release and platform of an AEI file from its path; null when the name is not an AEI file. */
export function aeiFileInfo(relPath: string): AeiFileInfo | null {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  for (const { pattern, kind, defaults } of AEI_NAMES) {
    const m = name.match(new RegExp(`^(?:${pattern.source})$`, 'i'));
    if (!m) continue;
    const prefix = m[1] ? `${m[1]}-${m[2]}-${m[3]}` : null;
    const folder = relPath.match(/release_(\d{4})_(\d{2})_(\d{2})\//);
    const release = prefix ?? (folder ? `${folder[1]}-${folder[2]}-${folder[3]}` : (defaults?.release ?? null));
    const platformName = m[4] ?? defaults?.platform ?? 'claude_ai';
    // AEI calls first-party API traffic "1p_api".
    return { kind, release, platform: platformName.toLowerCase() === '1p_api' ? 'api' : 'claude_ai' };
  }
  return null;
}
