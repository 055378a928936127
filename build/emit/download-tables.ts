// THE description of each CSV of /downloads/: its file, title, keys and every column with its type,
// unit and meaning. The CSV writer takes its columns from here (in this order, and a row holding a
// field not described here is a build error: a field the model adds must be described before it is
// published), and datapackage.json and the SQLite database are generated from it. Pure.
import type { Shape } from '../model/record-schemas.ts';

export type FieldType = 'string' | 'integer' | 'number' | 'boolean';

export interface Column {
  name: string;
  type: FieldType;
  description: string;
  /** The unit of a number, in words ('USD per year', 'score 0-100', 'fraction 0-1'). */
  unit?: string;
  /** Allowed values of a string column. */
  enum?: readonly string[];
  /** Never empty. */
  required?: boolean;
  /** Only in these interface shapes (default: both). */
  shapes?: readonly Shape[];
}

export interface ForeignKey {
  fields: string[];
  reference: { resource: string; fields: string[] };
}

export interface TableSpec {
  /** The resource name in datapackage.json and the table name in SQLite. */
  name: string;
  /** The CSV of /downloads/ and its route; absent for a table of the SQLite database only. */
  file?: string;
  routeId?: string;
  title: string;
  description: string;
  primaryKey: string[];
  foreignKeys?: ForeignKey[];
  columns: readonly Column[];
}

const TIERS = ['low', 'medium', 'high'] as const;
const SCORE = 'score 0-100';
const FRACTION = 'fraction 0-1';
const SOC = { name: 'soc_code', type: 'string', required: true, description: 'O*NET-SOC 2019 occupation code (e.g. 15-1252.00).' } as const;

const PROTECTIVE: Column[] = [
  ['complex_judgment', 'complex judgment and decision making'],
  ['creativity', 'creativity and originality'],
  ['leadership', 'leadership and responsibility for others'],
  ['manual_dexterity', 'manual dexterity'],
  ['physical_presence', 'physical presence and work context'],
  ['social_intelligence', 'social intelligence (persuasion, negotiation, care for others)'],
  ['technology', 'hands-on technology work'],
].map(([k, words]) => ({ name: `protective_${k}`, type: 'number', unit: FRACTION, description: `Protective factor: ${words}, from O*NET ratings (0 to 1).` }));

export const OCCUPATIONS: TableSpec = {
  name: 'occupations',
  file: 'occupations.csv',
  routeId: 'download-occupations',
  title: 'Occupations',
  description: 'One row per scored occupation: codes, title, slug, major group, every risk score field, labor data and protective factors.',
  primaryKey: ['soc_code'],
  columns: [
    SOC,
    { name: 'title', type: 'string', required: true, description: 'O*NET occupation title.' },
    { name: 'slug', type: 'string', required: true, description: 'URL name of the occupation page (/occupations/<slug>).' },
    { name: 'major_group', type: 'string', required: true, description: 'SOC major group code (e.g. 15-0000).' },
    { name: 'major_group_title', type: 'string', required: true, description: 'SOC major group title.' },
    { name: 'job_zone', type: 'integer', required: true, unit: 'O*NET job zone 1-5', description: 'O*NET job zone: the preparation the occupation needs (1 little, 5 extensive).' },
    { name: 'final_score', type: 'number', required: true, unit: SCORE, description: 'Displacement risk score: share of work time exposed to AI after complementarity, shrunk and scaled.' },
    { name: 'risk_tier', type: 'string', required: true, enum: TIERS, description: 'Risk tier of final_score (seeds/tiers.json thresholds).' },
    { name: 'confidence', type: 'string', required: true, enum: TIERS, description: 'How settled the evidence behind the tier is: from the served tier\'s share of the modelling alternatives (tier_shares_<risk_tier>), label_agreement and label_coverage.' },
    { name: 'risk_percentile', type: 'integer', required: true, unit: 'percentile 0-100', shapes: ['percentile'], description: 'Percentile rank of final_score among the scored occupations.' },
    { name: 'percentile_low', type: 'integer', required: true, unit: 'percentile 0-100', shapes: ['percentile'], description: 'Sensitivity range of risk_percentile over the modelling alternatives: 2.5th percentile, or risk_percentile if lower.' },
    { name: 'percentile_high', type: 'integer', required: true, unit: 'percentile 0-100', shapes: ['percentile'], description: 'Sensitivity range of risk_percentile: 97.5th percentile, or risk_percentile if higher.' },
    { name: 'displacement_year_low', type: 'integer', required: true, unit: 'year', shapes: ['timeline'], description: 'Adoption window: earliest year.' },
    { name: 'displacement_year_high', type: 'integer', required: true, unit: 'year', shapes: ['timeline'], description: 'Adoption window: latest year.' },
    { name: 'task_exposure', type: 'number', required: true, unit: SCORE, description: 'Substitution step: time-weighted task risk before protective moderation.' },
    { name: 'protective_moderation', type: 'number', required: true, unit: 'multiplier 0-1', description: 'The complementarity multiplier applied to task_exposure (1 - kappa (theta - theta_min)).' },
    { name: 'label_coverage', type: 'number', required: true, unit: FRACTION, description: "Share of the occupation's time covered by at least one exposure label." },
    { name: 'label_agreement', type: 'number', required: true, unit: FRACTION, description: 'Share of labelled time where human and GPT-4 exposure labels agree.' },
    { name: 'exposure_score', type: 'number', required: true, unit: SCORE, description: "Exposure step: share of the occupation's work time AI can do (time-weighted capability)." },
    { name: 'complementarity', type: 'number', required: true, unit: FRACTION, description: 'Complementarity theta: education and experience, responsibility, physical and interpersonal context.' },
    { name: 'score_low', type: 'number', required: true, unit: SCORE, description: 'Sensitivity range of final_score over modelling choices (not a probability interval): 2.5th percentile over 200 sampled combinations of alternative choices, or final_score if lower.' },
    { name: 'score_high', type: 'number', required: true, unit: SCORE, description: 'Sensitivity range of final_score over modelling choices: 97.5th percentile over the same combinations, or final_score if higher.' },
    { name: 'interval_crosses_tier', type: 'boolean', required: true, description: 'Whether score_low and score_high fall in different risk tiers.' },
    { name: 'tier_shares_low', type: 'number', required: true, unit: FRACTION, description: 'Share of the modelling alternatives under which the score is in the low tier (a sensitivity share, not a probability).' },
    { name: 'tier_shares_medium', type: 'number', required: true, unit: FRACTION, description: 'Share of the modelling alternatives under which the score is in the medium tier.' },
    { name: 'tier_shares_high', type: 'number', required: true, unit: FRACTION, description: 'Share of the modelling alternatives under which the score is in the high tier.' },
    { name: 'time_weight_source', type: 'string', required: true, enum: ['task_ratings', 'iwa_weights', 'gwa_importance', 'task_type'], description: "Evidence behind the tasks' time fractions." },
    { name: 'model_version', type: 'string', required: true, description: 'Version of the risk model.' },
    { name: 'median_annual_wage', type: 'number', unit: 'USD per year', description: 'OEWS median annual wage (top-coded values carry the ceiling; see median_annual_wage_status).' },
    { name: 'median_annual_wage_status', type: 'string', required: true, enum: ['reported', 'top_coded', 'from_hourly', 'projections_table', 'broad_group', 'unavailable'], description: 'Where median_annual_wage comes from (broad_group: the SOC broad group\'s median, not the occupation\'s own).' },
    { name: 'median_hourly_wage', type: 'number', unit: 'USD per hour', description: 'OEWS median hourly wage.' },
    { name: 'employment', type: 'integer', unit: 'jobs', description: 'OEWS employment of the SOC code the occupation maps to (shared by its O*NET children: do not add it up; add employment_own_share).' },
    { name: 'oews_code', type: 'string', description: 'The SOC/OEWS code the labor numbers come from (may be an aggregate such as 15-125X).' },
    { name: 'reference_period', type: 'string', required: true, description: 'OEWS reference period of the wage and employment.' },
    { name: 'projected_employment_change_pct', type: 'number', unit: 'percent', description: 'BLS projected employment change over the projections period.' },
    { name: 'projected_openings_annual', type: 'number', unit: 'jobs per year', description: 'BLS projected annual openings.' },
    { name: 'projections_period', type: 'string', required: true, description: 'BLS Employment Projections period.' },
    { name: 'entry_education', type: 'string', description: 'BLS Employment Projections Table 1.2: typical education needed for entry.' },
    { name: 'related_experience', type: 'string', description: 'BLS Employment Projections Table 1.2: work experience in a related occupation.' },
    { name: 'on_the_job_training', type: 'string', description: 'BLS Employment Projections Table 1.2: typical on-the-job training needed to attain competency.' },
    { name: 'employment_shared_with', type: 'string', description: 'The other scored occupations with the same OEWS code (one job pool), SOC codes separated by spaces; empty when none.' },
    { name: 'employment_own_share', type: 'number', unit: 'jobs', description: 'employment divided equally among the occupations of its job pool: the column to add up (each worker counted once); empty when employment is from an older OEWS period than the reference one.' },
    ...PROTECTIVE,
    { name: 'task_count', type: 'integer', required: true, unit: 'tasks', description: 'Number of tasks of the occupation (rows in tasks.csv).' },
  ],
};

export const TASKS: TableSpec = {
  name: 'tasks',
  file: 'tasks.csv',
  routeId: 'download-tasks',
  title: 'Tasks',
  description: 'One row per task of every occupation: category, AI capability, task risk, time share and the evidence behind them.',
  primaryKey: ['soc_code', 'task_id'],
  foreignKeys: [{ fields: ['soc_code'], reference: { resource: 'occupations', fields: ['soc_code'] } }],
  columns: [
    SOC,
    { name: 'task_id', type: 'integer', required: true, description: 'O*NET task id.' },
    { name: 'description', type: 'string', required: true, description: 'O*NET task statement.' },
    { name: 'task_type', type: 'string', enum: ['Core', 'Supplemental'], description: 'O*NET task type.' },
    { name: 'task_category', type: 'string', required: true, enum: ['non_routine_analytical', 'non_routine_interpersonal', 'routine_cognitive', 'routine_manual', 'non_routine_manual'], description: 'Task category (routine/non-routine, cognitive/manual).' },
    { name: 'category_source', type: 'string', required: true, enum: ['dwa', 'keyword'], description: "How the category was assigned: from the task's detailed work activities, or the keyword fallback." },
    { name: 'ai_capability_score', type: 'number', required: true, unit: FRACTION, description: 'How much of the task current AI can do, from the exposure labels.' },
    { name: 'automation_propensity', type: 'number', required: true, unit: FRACTION, description: "The task category's propensity to be automated rather than augmented." },
    { name: 'task_risk_score', type: 'number', required: true, unit: FRACTION, description: 'Task risk: capability times automation propensity.' },
    { name: 'time_fraction', type: 'number', required: true, unit: FRACTION, description: "Share of the occupation's working time the task takes." },
    { name: 'evidence_human_label', type: 'string', enum: ['E0', 'E1', 'E2'], description: 'Human exposure label (Eloundou et al.).' },
    { name: 'evidence_gpt4_label', type: 'string', enum: ['E0', 'E1', 'E2'], description: 'GPT-4 exposure label (Eloundou et al.).' },
    { name: 'evidence_gpt4_automation', type: 'string', enum: ['T0', 'T1', 'T2', 'T3', 'T4'], description: 'GPT-4 automation label (Eloundou et al.).' },
    { name: 'evidence_aei_usage_pct', type: 'number', unit: 'percent of conversations', description: 'Observed AI usage share of the task (Anthropic Economic Index, latest release with data).' },
    { name: 'evidence_aei_automation_share', type: 'number', unit: FRACTION, description: 'AEI automation share (directive and feedback loop) among classified conversations.' },
  ],
};

export const INDUSTRIES: TableSpec = {
  name: 'industries',
  file: 'industries.csv',
  routeId: 'download-industries',
  title: 'Industries',
  description: 'One row per NAICS industry: level, employment, employment-weighted risk, and where its occupation list comes from.',
  primaryKey: ['naics_code'],
  columns: [
    { name: 'naics_code', type: 'string', required: true, description: 'NAICS 2022 code (2 to 4 digits; 31-33 style ranges for sectors).' },
    { name: 'title', type: 'string', required: true, description: 'NAICS title.' },
    { name: 'level', type: 'integer', required: true, unit: 'NAICS digits 2-4', description: 'NAICS level: sector (2), subsector (3), industry group (4).' },
    { name: 'employment', type: 'integer', required: true, unit: 'jobs', description: 'OEWS employment of the industry.' },
    { name: 'weighted_risk_score', type: 'number', unit: SCORE, description: 'Employment-weighted mean final_score of its scored occupations; empty if none.' },
    { name: 'occupations_naics_level', type: 'integer', required: true, unit: 'NAICS digits', description: 'NAICS level of the OEWS rows its occupation list comes from.' },
    { name: 'occupations_naics_codes', type: 'string', description: 'NAICS codes of those OEWS rows, space-separated; empty when OEWS lists none.' },
    { name: 'occupation_count', type: 'integer', required: true, unit: 'occupations', description: 'Number of occupations listed for the industry.' },
  ],
};

export const CHANGES: TableSpec = {
  name: 'changes',
  file: 'changes.csv',
  routeId: 'download-changes',
  title: 'Changes since the previous release',
  description: "One row per occupation of this release or the previous one: both scores and tiers, the difference and why it moved (GET /api/v1/changes).",
  primaryKey: ['soc_code'],
  columns: [
    SOC,
    { name: 'title', type: 'string', required: true, description: 'Occupation title (this release, or the previous one for a removed occupation).' },
    { name: 'status', type: 'string', required: true, enum: ['unchanged', 'changed', 'added', 'removed'], description: 'changed: the score or tier moved; added or removed: in one release only.' },
    { name: 'previous_final_score', type: 'number', unit: SCORE, description: 'final_score in the previous release; empty for an added occupation.' },
    { name: 'previous_risk_tier', type: 'string', enum: TIERS, description: 'risk_tier in the previous release.' },
    { name: 'final_score', type: 'number', unit: SCORE, description: 'final_score in this release; empty for a removed occupation.' },
    { name: 'risk_tier', type: 'string', enum: TIERS, description: 'risk_tier in this release.' },
    { name: 'difference', type: 'number', unit: 'score points', description: 'final_score - previous_final_score.' },
    { name: 'tier_changed', type: 'boolean', required: true, description: 'Whether the tier moved.' },
    { name: 'cause', type: 'string', description: 'What differs between the releases: data, model, or both (space-separated).' },
    { name: 'step', type: 'string', enum: ['exposure', 'substitution', 'complementarity', 'protective_moderation', 'label_coverage', 'scaling', 'tier_thresholds'], description: 'The first step of the score whose figure moved.' },
    { name: 'components_moved', type: 'string', description: "Each component figure that moved, 'name previous -> current', separated by '; '." },
    { name: 'reason', type: 'string', required: true, description: 'One line: why it moved, or "unchanged".' },
  ],
};

export const INDUSTRY_OCCUPATIONS: TableSpec = {
  name: 'industry_occupations',
  title: 'Occupations of each industry',
  description: "Each industry's occupations with their employment in it and share of its employment (OEWS industry estimates).",
  primaryKey: ['naics_code', 'soc_code'],
  foreignKeys: [
    { fields: ['naics_code'], reference: { resource: 'industries', fields: ['naics_code'] } },
    { fields: ['soc_code'], reference: { resource: 'occupations', fields: ['soc_code'] } },
  ],
  columns: [
    { name: 'naics_code', type: 'string', required: true, description: 'NAICS code of the industry.' },
    SOC,
    { name: 'employment', type: 'integer', required: true, unit: 'jobs', description: 'Employment of the occupation in the industry.' },
    { name: 'share', type: 'number', required: true, unit: FRACTION, description: "The occupation's share of the industry's employment." },
  ],
};

export const TRANSITIONS: TableSpec = {
  name: 'transitions',
  title: 'Transition options',
  description: 'For each occupation, the lower-risk occupations with similar skills it lists as transition options, in its order.',
  primaryKey: ['soc_code', 'target_soc_code'],
  foreignKeys: [
    { fields: ['soc_code'], reference: { resource: 'occupations', fields: ['soc_code'] } },
    { fields: ['target_soc_code'], reference: { resource: 'occupations', fields: ['soc_code'] } },
  ],
  columns: [
    SOC,
    { name: 'rank', type: 'integer', required: true, description: 'Position in the occupation\'s list (1 first).' },
    { name: 'target_soc_code', type: 'string', required: true, description: 'O*NET-SOC code of the option.' },
    { name: 'similarity', type: 'number', required: true, unit: 'cosine -1 to 1', description: 'Similarity of skills, knowledge, abilities and work activities.' },
    { name: 'wage_ratio', type: 'number', unit: 'ratio', description: "Option's median annual wage / this occupation's; empty when either is not published." },
    { name: 'reason', type: 'string', required: true, description: 'Why this option is listed.' },
  ],
};

export const SKILL_GAPS: TableSpec = {
  name: 'skill_gaps',
  title: 'Skill gaps',
  description: "For each occupation, the O*NET skills (or knowledge areas) its transition options need more of, with the current and target levels.",
  primaryKey: ['soc_code', 'element_id'],
  foreignKeys: [{ fields: ['soc_code'], reference: { resource: 'occupations', fields: ['soc_code'] } }],
  columns: [
    SOC,
    { name: 'element_id', type: 'string', required: true, description: 'O*NET element id.' },
    { name: 'name', type: 'string', required: true, description: 'O*NET element name.' },
    { name: 'kind', type: 'string', required: true, enum: ['skill', 'knowledge'], description: 'O*NET Skills element, or a Knowledge area that fills a short skills list.' },
    { name: 'current_level', type: 'number', required: true, unit: 'O*NET level 0-7', description: "The occupation's level." },
    { name: 'target_level', type: 'number', required: true, unit: 'O*NET level 0-7', description: 'The level its transition options need.' },
    { name: 'gap', type: 'number', required: true, unit: 'O*NET level points', description: 'target_level - current_level.' },
    { name: 'importance', type: 'number', required: true, unit: 'O*NET importance 1-5', description: 'Importance of the element to the options.' },
    { name: 'targets', type: 'integer', required: true, description: 'How many of the options set the target.' },
    { name: 'onet_release', type: 'string', required: true, description: "O*NET release of the occupation's ratings." },
  ],
};

export const ISCO: TableSpec = {
  name: 'isco',
  file: 'isco.csv',
  routeId: 'download-isco',
  title: 'ISCO-08 unit groups',
  description: 'One row per scored ISCO-08 unit group: the U.S.-employment-weighted mean of the scores of the U.S. occupations the BLS crosswalk links it to, its interval, tier, confidence and what the mapping assumes (GET /api/v1/isco). Tasks and weights are American.',
  primaryKey: ['isco_code'],
  columns: [
    { name: 'isco_code', type: 'string', required: true, description: 'ISCO-08 unit group code (4 digits).' },
    { name: 'title', type: 'string', required: true, description: 'ISCO-08 title (English), as the BLS crosswalk gives it.' },
    { name: 'slug', type: 'string', required: true, description: 'URL name of the unit group page (/isco/<slug>).' },
    { name: 'major_group', type: 'string', required: true, description: 'ISCO-08 major group (first digit).' },
    { name: 'final_score', type: 'number', required: true, unit: SCORE, description: "U.S.-employment-weighted mean of the linked occupations' final_score." },
    { name: 'risk_tier', type: 'string', required: true, enum: TIERS, description: 'Risk tier of final_score (the occupations\' thresholds).' },
    { name: 'score_low', type: 'number', required: true, unit: SCORE, description: 'Lowest score_low among the linked occupations with weight.' },
    { name: 'score_high', type: 'number', required: true, unit: SCORE, description: 'Highest score_high among the linked occupations with weight.' },
    { name: 'confidence', type: 'string', required: true, enum: TIERS, description: 'From the width of score_low to score_high, by the occupations\' rule.' },
    { name: 'us_occupation_count', type: 'integer', required: true, unit: 'occupations', description: 'Number of linked O*NET occupations (rows in isco_occupations).' },
    { name: 'soc_codes', type: 'integer', required: true, unit: 'SOC 2010 codes', description: 'Distinct SOC 2010 codes the crosswalk links it to.' },
    { name: 'partial', type: 'boolean', required: true, description: 'Whether any link covers only part of an occupation (BLS "part" marker, or a minor-group link).' },
    { name: 'minor_group_links', type: 'integer', required: true, description: 'Links given for its whole 3-digit minor group (ISCO 211, 315).' },
    { name: 'mapping_note', type: 'string', required: true, description: 'What the mapping assumes, in words.' },
  ],
};

export const ISCO_OCCUPATIONS: TableSpec = {
  name: 'isco_occupations',
  title: 'U.S. occupations of each ISCO-08 unit group',
  description: "Each ISCO-08 unit group's linked O*NET occupations with their weight in its score (U.S. employment shares; a unit group's weights add up to 1).",
  primaryKey: ['isco_code', 'soc_code'],
  foreignKeys: [
    { fields: ['isco_code'], reference: { resource: 'isco', fields: ['isco_code'] } },
    { fields: ['soc_code'], reference: { resource: 'occupations', fields: ['soc_code'] } },
  ],
  columns: [
    { name: 'isco_code', type: 'string', required: true, description: 'ISCO-08 unit group code.' },
    SOC,
    { name: 'weight', type: 'number', required: true, unit: FRACTION, description: "The occupation's weight in the unit group's score." },
  ],
};

/** Every CSV of /downloads/, in the order of the downloads page. */
export const TABLES: readonly TableSpec[] = [OCCUPATIONS, TASKS, INDUSTRIES, CHANGES, ISCO];

/** The columns of a table in one shape, in file order. */
export const columnsFor = (t: TableSpec, shape: Shape): Column[] => t.columns.filter((c) => !c.shapes || c.shapes.includes(shape));

/** Every table of the SQLite download: the CSVs' and those the archive holds as nested lists. */
export const DATABASE_TABLES: readonly TableSpec[] = [OCCUPATIONS, TASKS, INDUSTRIES, INDUSTRY_OCCUPATIONS, TRANSITIONS, SKILL_GAPS, CHANGES, ISCO, ISCO_OCCUPATIONS];
