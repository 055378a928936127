// What the pure model takes in: the clean, validated rows of every source it reads. The model
// owns this contract; the source loaders (build/sources/*) parse the official files, check every
// row against these schemas and produce a ModelInputs; the model never sees a raw cell. Types
// come from these schemas (z.infer), nowhere else.
import { z } from 'zod';
import { ONET_SOC_PATTERN } from './ids.ts';

/** O*NET-SOC 2019 code, e.g. 15-1252.00. The first 7 characters are the SOC 2018 detailed code. */
export const OnetSocCode = z.string().regex(ONET_SOC_PATTERN);
/** SOC 2018 code as BLS writes it, e.g. 15-1252, or an OEWS aggregate such as 15-125X / 51-9198. */
export const BlsSocCode = z.string().regex(/^\d{2}-\d{3}[0-9X]$/);

export const OnetOccupation = z.object({
  soc_code: OnetSocCode,
  title: z.string().min(1),
  description: z.string(),
});

export const JobZoneRow = z.object({
  soc_code: OnetSocCode,
  job_zone: z.number().int().min(1).max(5),
});

/** A job zone's name as O*NET's Job Zone Reference gives it. */
export const JobZoneName = z.object({
  job_zone: z.number().int().min(1).max(5),
  name: z.string().min(1),
});

export const TaskStatement = z.object({
  soc_code: OnetSocCode,
  task_id: z.number().int().positive(),
  task: z.string().min(1),
  /** Blank in the official file for some tasks: null here, counted by the loader. */
  task_type: z.enum(['Core', 'Supplemental']).nullable(),
  incumbents_responding: z.number().nullable(),
});

/** O*NET Task Ratings.txt (absent from the mirror; used when a fresh download has it). */
export const TaskRating = z.object({
  soc_code: OnetSocCode,
  task_id: z.number().int().positive(),
  scale_id: z.enum(['FT', 'IM', 'RT']),
  /** FT rows carry a category 1..7; IM/RT rows have none. */
  category: z.number().int().nullable(),
  value: z.number(),
  recommend_suppress: z.boolean(),
});

export const TaskDwa = z.object({
  soc_code: OnetSocCode,
  task_id: z.number().int().positive(),
  dwa_id: z.string().min(1),
});

/** DWA Reference: each DWA with its IWA and its generalized work activity (GWA, 4.A.x.x.x). */
export const DwaReference = z.object({
  element_id: z.string().min(1),
  element_name: z.string().min(1),
  iwa_id: z.string().min(1),
  iwa_title: z.string().min(1),
  dwa_id: z.string().min(1),
  dwa_title: z.string().min(1),
});

/** O*NET Alternate Titles (source 'alternate') and Sample of Reported Titles (source 'reported'). */
export const OccupationTitle = z.object({
  soc_code: OnetSocCode,
  title: z.string().min(1),
  short_title: z.string().nullable(),
  source: z.enum(['alternate', 'reported']),
});

export const RelatedOccupation = z.object({
  soc_code: OnetSocCode,
  related_soc_code: OnetSocCode,
  tier: z.string().min(1),
  index: z.number().int().positive(),
});

/**
 * One occupation x element of a descriptor (Skills, Knowledge, Abilities, Work Activities),
 * with the importance (IM, 1..5) and level (LV, 0..7) scales merged into one row. A value the
 * source marks "Not Relevant" or "Recommend Suppress" is kept with its flag; the model decides.
 */
export const ElementRating = z.object({
  soc_code: OnetSocCode,
  element_id: z.string().min(1),
  element_name: z.string().min(1),
  importance: z.number().min(0).max(5).nullable(),
  level: z.number().min(0).max(7).nullable(),
  not_relevant: z.boolean(),
  recommend_suppress: z.boolean(),
});

/** One O*NET Level Scale Anchor: what a level of an element looks like in practice. */
export const LevelAnchor = z.object({
  element_id: z.string().min(1),
  value: z.number().min(0).max(7),
  description: z.string().min(1),
});

export const ExposureLevel = z.enum(['E0', 'E1', 'E2']);
export const AutomationLevel = z.enum(['T0', 'T1', 'T2', 'T3', 'T4']);

/**
 * O*NET Education, Training, and Experience: percent of incumbents (Data Value) in each category of
 * RL (required education, 1..12) and RW (related work experience, 1..11).
 */
export const EducationRow = z.object({
  soc_code: OnetSocCode,
  scale_id: z.enum(['RL', 'RW']),
  category: z.number().int().min(1),
  pct: z.number().min(0).max(100),
  recommend_suppress: z.boolean(),
});

/**
 * Tomlinson et al. (2025) per-occupation IWA weights (derived from O*NET task importance and
 * relevance through Tasks to DWAs): one SOC 2018 code x IWA with a positive weight.
 */
export const IwaWeight = z.object({
  soc: BlsSocCode,
  iwa_id: z.string().regex(/^4\.A\.\d\.[a-z]\.\d+\.I\d+$/),
  weight: z.number().positive(),
});

/** Eloundou et al. 2023 task labels, keyed by O*NET Task ID (27.x IDs persist into 29.3). */
export const ExposureLabel = z.object({
  soc_code: OnetSocCode,
  task_id: z.number().int().positive(),
  task: z.string().min(1),
  human: ExposureLevel.nullable(),
  gpt4: ExposureLevel.nullable(),
  gpt4_alt_rubric: ExposureLevel.nullable(),
  gpt4_automation: AutomationLevel.nullable(),
});

export const AeiPlatform = z.enum(['claude_ai', 'api']);

/** Anthropic Economic Index: share of a release's conversations (percent) that map to a task. */
export const AeiTaskUsage = z.object({
  release: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  platform: AeiPlatform,
  /** Lower-cased O*NET task text, the AEI join key. */
  task_key: z.string().min(1),
  pct: z.number().min(0),
});

/** AEI per-task collaboration shares (each row sums to ~1). */
export const AeiCollaboration = z.object({
  release: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  platform: AeiPlatform,
  task_key: z.string().min(1),
  directive: z.number().min(0).max(1),
  feedback_loop: z.number().min(0).max(1),
  task_iteration: z.number().min(0).max(1),
  validation: z.number().min(0).max(1),
  learning: z.number().min(0).max(1),
  /** filtered + none + not_classified: conversations whose pattern is unknown. */
  unclassified: z.number().min(0).max(1),
});

/** The O*NET task statements shipped with the AEI release: bridge from AEI task text to Task ID. */
export const AeiTaskStatement = z.object({
  soc_code: OnetSocCode,
  task_id: z.number().int().positive(),
  task_key: z.string().min(1),
});

/**
 * Microsoft "Working with AI" (Tomlinson et al. 2025) per IWA: its share of the Copilot
 * conversations' user-goal classifications (a person doing the activity with AI's help) and of
 * the AI-action classifications (the AI doing the activity). Each column sums to 1 over IWAs.
 */
export const WwaiIwa = z.object({
  iwa_id: z.string().regex(/^4\.A\.\d\.[a-z]\.\d+\.I\d+$/),
  share_user: z.number().min(0).max(1),
  share_ai: z.number().min(0).max(1),
});

/** Microsoft "Working with AI" applicability score per SOC 2018 detailed code. */
export const MsftApplicability = z.object({
  soc: BlsSocCode,
  title: z.string(),
  score: z.number(),
});

/**
 * A wage cell of an OEWS file: a number, or a BLS marker made explicit.
 * '#' = top-coded (at or above the published ceiling); '*' / '**' = not available.
 */
export const WageCell = z.object({
  value: z.number().nullable(),
  flag: z.enum(['top_coded', 'not_available']).nullable(),
});

export const OewsNationalRow = z.object({
  occ_code: z.string().regex(/^\d{2}-\d{4}$|^\d{2}-\d{3}X$|^\d{2}-\d{2}XX$/),
  occ_title: z.string(),
  o_group: z.enum(['total', 'major', 'minor', 'broad', 'detailed']),
  tot_emp: z.number().nullable(),
  a_median: WageCell,
  a_mean: WageCell,
  h_median: WageCell,
  /** OEWS ANNUAL = TRUE: only annual wages are published (e.g. teachers). */
  annual_only: z.boolean(),
  /** OEWS HOURLY = TRUE: only hourly wages are published (e.g. actors). */
  hourly_only: z.boolean(),
});

export const OewsNational = z.object({
  /** e.g. "May 2025" */
  period: z.string(),
  rows: z.array(OewsNationalRow),
});

/** OEWS occupation-by-industry employment (sector, 3-digit, 4-digit, 5/6-digit files). */
export const OewsIndustryRow = z.object({
  period: z.string(),
  /** As published: '11', '31-33', '113000', '221111', ... */
  naics: z.string(),
  naics_title: z.string(),
  /** Level of the NAICS code by its significant digits: 2 sector, 3, 4, 5, 6. */
  naics_level: z.number().int().min(2).max(6),
  own_code: z.string(),
  occ_code: z.string(),
  o_group: z.string(),
  tot_emp: z.number().nullable(),
});

export const NaicsCode = z.object({
  /** '11', '31-33', '111', '1111', ... as Census writes it. */
  code: z.string(),
  title: z.string().min(1),
  level: z.number().int().min(2).max(6),
});

/** BLS's education and training categories (Table 1.2), as published; "—" is null. */
export const EntryEducation = z.enum([
  'No formal educational credential',
  'High school diploma or equivalent',
  'Some college, no degree',
  'Postsecondary nondegree award',
  "Associate's degree",
  "Bachelor's degree",
  "Master's degree",
  'Doctoral or professional degree',
]);
export const RelatedExperience = z.enum(['None', 'Less than 5 years', '5 years or more']);
export const OnTheJobTraining = z.enum([
  'None',
  'Short-term on-the-job training',
  'Moderate-term on-the-job training',
  'Long-term on-the-job training',
  'Apprenticeship',
  'Internship/residency',
]);

/** BLS Employment Projections 2024-34, Table 1.2 (employment in thousands). */
export const Projection = z.object({
  soc: z.string(),
  title: z.string(),
  occupation_type: z.enum(['Summary', 'Line item']),
  employment_2024: z.number().nullable(),
  employment_2034: z.number().nullable(),
  change_pct: z.number().nullable(),
  openings_annual: z.number().nullable(),
  median_wage_2024: WageCell,
  /** Typical education needed for entry; null on summary rows ("—"). */
  entry_education: EntryEducation.nullable(),
  /** Work experience in a related occupation. */
  related_experience: RelatedExperience.nullable(),
  /** Typical on-the-job training needed to attain competency. */
  on_the_job_training: OnTheJobTraining.nullable(),
});

/**
 * BLS Employment Projections Table 1.12 (factors affecting occupational utilization): one row per
 * occupation (a detailed SOC code, or an aggregate such as 13-1020) and industry (a National
 * Employment Matrix code; TE1000 is "Total, all industries"). Guidance only: never a score input.
 */
export const EpFactorRow = z.object({
  soc: z.string().regex(/^\d{2}-\d{4}$/),
  title: z.string(),
  industry_title: z.string(),
  industry_code: z.string(),
  statement: z.string(),
  /** Whether the statement says the occupation's share of the industry's employment decreases or increases. */
  direction: z.enum(['decreases', 'increases']),
});

/** Optional community votes file (votes.csv in the source directory). */
export const VoteRow = z.object({
  soc_code: OnetSocCode,
  agree: z.number().int().min(0),
  too_high: z.number().int().min(0),
  too_low: z.number().int().min(0),
});

/** ISCO-08 unit group (4 digits) or, in two rows of the BLS crosswalk, a minor group (3 digits). */
export const IscoCode = z.string().regex(/^\d{3,4}$/);
/** SOC 2010 or 2018 detailed code as BLS writes it, e.g. 15-1132. */
export const SocDetailed = z.string().regex(/^\d{2}-\d{4}$/);

/** One link of the BLS ISCO-08 -> 2010 SOC crosswalk ("ISCO-08 to 2010 SOC" sheet). */
export const IscoLink = z.object({
  isco_code: IscoCode,
  isco_title: z.string().min(1),
  soc2010: SocDetailed,
  /** BLS "part" marker (*): the link covers part of the ISCO or SOC occupation. */
  part: z.boolean(),
  /** The crosswalk's comment column ("matches to 3-digit ISCO", ...), null when blank. */
  comment: z.string().nullable(),
});

/** One row of the BLS SOC 2010 -> SOC 2018 crosswalk. */
export const SocCrosswalkRow = z.object({
  soc2010: SocDetailed,
  soc2018: SocDetailed,
});

export const ModelInputs = z.object({
  onet_version: z.string(),
  /** The sources' attribution notices, as the published meta quotes them (the source registry's). */
  attribution: z.array(z.string()),
  occupations: z.array(OnetOccupation),
  job_zones: z.array(JobZoneRow),
  /** O*NET Job Zone Reference (same release): the zones' names for the pages; empty when absent. */
  job_zone_names: z.array(JobZoneName).default([]),
  tasks: z.array(TaskStatement),
  /** null when Task Ratings.txt is not in the source directory. */
  task_ratings: z.array(TaskRating).nullable(),
  task_dwas: z.array(TaskDwa),
  dwa_reference: z.array(DwaReference),
  titles: z.array(OccupationTitle),
  related: z.array(RelatedOccupation),
  skills: z.array(ElementRating),
  knowledge: z.array(ElementRating),
  abilities: z.array(ElementRating),
  work_activities: z.array(ElementRating),
  /** O*NET Education, Training, and Experience (same release); empty when absent. */
  education: z.array(EducationRow),
  /** O*NET Level Scale Anchors (same release): the skill gaps' plain words; empty when absent. */
  level_anchors: z.array(LevelAnchor).default([]),
  /**
   * Skills from a newer O*NET release, used only for occupations the chosen release does not rate
   * (named in the output); null when no newer release is present.
   */
  skills_fill: z.object({ release: z.string(), rows: z.array(ElementRating) }).nullable(),
  /** Tomlinson et al. per-occupation IWA weights (time-weight evidence); empty when absent. */
  iwa_weights: z.array(IwaWeight),
  exposure_labels: z.array(ExposureLabel),
  aei_usage: z.array(AeiTaskUsage),
  aei_collaboration: z.array(AeiCollaboration),
  aei_task_statements: z.array(AeiTaskStatement),
  msft_applicability: z.array(MsftApplicability),
  /** Working with AI user-goal and AI-action shares per IWA; empty when absent. */
  wwai_iwa: z.array(WwaiIwa),
  /** Newest first (May 2025, then May 2024). */
  oews_national: z.array(OewsNational),
  /** Older OEWS national years (May 2023 back to 2019): evidence beside the score only (job-evidence.ts), never read by it. */
  oews_history: z.array(OewsNational).default([]),
  oews_industry: z.array(OewsIndustryRow),
  naics: z.array(NaicsCode),
  projections: z.array(Projection),
  /** BLS EP Table 1.12 (guidance only); empty when the source directory lacks it (reported). */
  ep_factors: z.array(EpFactorRow),
  /** null when no votes.csv is present. */
  votes: z.array(VoteRow).nullable(),
  /** BLS ISCO-08 -> SOC 2010 links (the ISCO-08 scores); empty when the file is absent (reported). */
  isco_links: z.array(IscoLink),
  /** BLS SOC 2010 -> 2018 crosswalk (takes the ISCO links to today's codes); empty when absent. */
  soc_crosswalk: z.array(SocCrosswalkRow),
});

export type OnetOccupation = z.infer<typeof OnetOccupation>;
export type JobZoneRow = z.infer<typeof JobZoneRow>;
export type JobZoneName = z.infer<typeof JobZoneName>;
export type TaskStatement = z.infer<typeof TaskStatement>;
export type TaskRating = z.infer<typeof TaskRating>;
export type TaskDwa = z.infer<typeof TaskDwa>;
export type DwaReference = z.infer<typeof DwaReference>;
export type OccupationTitle = z.infer<typeof OccupationTitle>;
export type RelatedOccupation = z.infer<typeof RelatedOccupation>;
export type ElementRating = z.infer<typeof ElementRating>;
export type LevelAnchor = z.infer<typeof LevelAnchor>;
export type ExposureLabel = z.infer<typeof ExposureLabel>;
export type EducationRow = z.infer<typeof EducationRow>;
export type IwaWeight = z.infer<typeof IwaWeight>;
export type AeiTaskUsage = z.infer<typeof AeiTaskUsage>;
export type AeiCollaboration = z.infer<typeof AeiCollaboration>;
export type AeiTaskStatement = z.infer<typeof AeiTaskStatement>;
export type MsftApplicability = z.infer<typeof MsftApplicability>;
export type WwaiIwa = z.infer<typeof WwaiIwa>;
export type WageCell = z.infer<typeof WageCell>;
export type OewsNationalRow = z.infer<typeof OewsNationalRow>;
export type OewsNational = z.infer<typeof OewsNational>;
export type OewsIndustryRow = z.infer<typeof OewsIndustryRow>;
export type NaicsCode = z.infer<typeof NaicsCode>;
export type Projection = z.infer<typeof Projection>;
export type EpFactorRow = z.infer<typeof EpFactorRow>;
export type EntryEducation = z.infer<typeof EntryEducation>;
export type RelatedExperience = z.infer<typeof RelatedExperience>;
export type OnTheJobTraining = z.infer<typeof OnTheJobTraining>;
export type VoteRow = z.infer<typeof VoteRow>;
export type IscoLink = z.infer<typeof IscoLink>;
export type SocCrosswalkRow = z.infer<typeof SocCrosswalkRow>;
export type ModelInputs = z.infer<typeof ModelInputs>;
