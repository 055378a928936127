// The contract between the pure model (computeModel) and everything that presents it: the
// JSON emitter, the function's shards and the embed card. A record holds everything known about
// an occupation in both interface shapes; build/contract/present.ts cuts the published responses
// out of it for one shape. Types come from these schemas.
import { z } from 'zod';
import { JobZoneName, OnetSocCode } from './inputs.ts';
import { SCOPE } from './scope.ts';

export const RiskTier = z.enum(['low', 'medium', 'high']);
export const Confidence = z.enum(['low', 'medium', 'high']);
export const TaskCategory = z.enum([
  'non_routine_analytical',
  'non_routine_interpersonal',
  'routine_cognitive',
  'routine_manual',
  'non_routine_manual',
]);
export const Shape = z.enum(['percentile', 'timeline']);

/** Scores are 0..100 with one decimal; task-level scores are 0..1 with 4 decimals. */
const Score100 = z.number().min(0).max(100);
const Unit = z.number().min(0).max(1);

export const TaskRecord = z.object({
  task_id: z.number().int(),
  description: z.string(),
  task_type: z.enum(['Core', 'Supplemental']).nullable(),
  task_category: TaskCategory,
  /** How the category was assigned: from the task's DWA links, or the keyword fallback. */
  category_source: z.enum(['dwa', 'keyword']),
  ai_capability_score: Unit,
  automation_propensity: Unit,
  task_risk_score: Unit,
  time_fraction: Unit,
  /** The evidence behind the capability score, so anyone can recompute it. */
  evidence: z.object({
    human_label: z.enum(['E0', 'E1', 'E2']).nullable(),
    gpt4_label: z.enum(['E0', 'E1', 'E2']).nullable(),
    gpt4_automation: z.enum(['T0', 'T1', 'T2', 'T3', 'T4']).nullable(),
    /** Observed AI usage share (AEI), latest release with data, percent of conversations. */
    aei_usage_pct: z.number().nullable(),
    /** AEI automation share (directive + feedback loop) among classified conversations. */
    aei_automation_share: Unit.nullable(),
  }),
});

export const RiskScoreRecord = z.object({
  final_score: Score100.describe(`Displacement risk, 0..100 (one decimal). ${SCOPE.sentence}`),
  risk_tier: RiskTier,
  confidence: Confidence.describe(
    'How settled the evidence behind the tier is, from three inputs served beside it: tier_shares[risk_tier] (how many of the modelling alternatives give the served tier), label_agreement and label_coverage. High when all three reach their high cut, low when any falls below its medium cut (seeds/model-params.json, confidence). It still follows the score in part: METHODOLOGY.md reports Spearman(confidence, final_score).',
  ),
  /** Percentile rank (0..100, integer) of final_score; the methodology says among what. */
  risk_percentile: z.number().int().min(0).max(100),
  /** Range of the percentile over the interval's alternatives (percentile shape only). */
  percentile_low: z
    .number()
    .int()
    .min(0)
    .max(100)
    .describe('Low end of the percentile\'s sensitivity range: the 2.5th percentile of risk_percentile when every occupation is ranked again under each of the modelling alternatives of score_low..score_high, or risk_percentile if lower.'),
  percentile_high: z.number().int().min(0).max(100).describe('High end of the same range: the 97.5th percentile, or risk_percentile if higher.'),
  displacement_year_low: z.number().int(),
  displacement_year_high: z.number().int(),
  /** Time-weighted task risk before protective moderation, 0..100. */
  task_exposure: Score100,
  /** Multiplier applied for protective factors (<= 1): in 2.0.0 the complementarity multiplier 1 - kappa (theta - theta_min). */
  protective_moderation: Unit,
  /** Exposure layer: share of the occupation's work time AI can do (time-weighted capability), 0..100. */
  exposure_score: Score100,
  /** Complementarity theta (0..1): education and experience, responsibility, physical and interpersonal context. */
  complementarity: Unit,
  /**
   * Sensitivity range of final_score over modelling choices (not a probability interval): the
   * 2.5th to 97.5th percentile of the score under sampled combinations of alternative choices
   * (E2 weight, category factors, time weights, prior strength, each evidence source on or off,
   * parameters moved), widened to hold final_score.
   */
  score_low: Score100.describe(
    'Low end of the sensitivity range of final_score over modelling choices (not a probability interval): the 2.5th percentile of the score under 200 sampled combinations of alternative choices (E2 label weight, task-category factors, time weights, prior strength, each evidence source on or off, perturbed parameters), or final_score if lower.',
  ),
  score_high: Score100.describe('High end of the same sensitivity range: the 97.5th percentile of the score over the sampled combinations, or final_score if higher.'),
  /** Whether score_low and score_high fall in different risk tiers (the tier depends on modelling choices). */
  interval_crosses_tier: z
    .boolean()
    .describe('True when score_low and score_high fall in different risk tiers: under reasonable modelling choices the occupation could be in another tier.'),
  /** Share of the interval's alternatives giving each tier (3.1.0). */
  tier_shares: z
    .strictObject({ low: Unit, medium: Unit, high: Unit })
    .describe(
      'Sensitivity shares, not probabilities: the share of the modelling alternatives of score_low..score_high under which the score falls in each tier (they add up to 1; the draw weights of the alternatives are a modelling choice). The served risk_tier is that of final_score, usually but not always the most common tier.',
    ),
  /** Evidence behind the time fractions: task_ratings, iwa_weights, gwa_importance or task_type. */
  time_weight_source: z.enum(['task_ratings', 'iwa_weights', 'gwa_importance', 'task_type']),
  /** Share of the occupation's time covered by at least one exposure label. */
  label_coverage: Unit,
  /** Share of labelled time where human and GPT-4 labels agree. */
  label_agreement: Unit,
  model_version: z.string(),
});

/** The labor numbers of one occupation as the sources give them (labor.ts). */
export const LaborFigures = z.object({
  /** OEWS median annual wage; top-coded values carry the ceiling and a status saying so. */
  median_annual_wage: z.number().nullable(),
  median_annual_wage_status: z.enum([
    'reported',
    'top_coded',
    'from_hourly',
    'projections_table',
    /** The SOC broad group's median (the occupation's own OEWS row is missing or was rejected). */
    'broad_group',
    'unavailable',
  ]),
  median_hourly_wage: z.number().nullable(),
  /** OEWS employment of the SOC code this occupation maps to (shared by its O*NET children). */
  employment: z.number().int().nullable(),
  /** The SOC/OEWS code the numbers come from (may be an OEWS aggregate such as 15-125X). */
  oews_code: z.string().nullable(),
  reference_period: z.string(),
  projected_employment_change_pct: z.number().nullable(),
  projected_openings_annual: z.number().nullable(),
  projections_period: z.string(),
  /** BLS Table 1.2 (same projections): typical education needed for entry, work experience in a related occupation, on-the-job training. */
  entry_education: z.string().nullable(),
  related_experience: z.string().nullable(),
  on_the_job_training: z.string().nullable(),
});
export type LaborFigures = z.infer<typeof LaborFigures>;

/** As published: the figures and the job pool they belong to. */
export const LaborData = LaborFigures.extend({
  /** 3.1.0: the job pool. employment is the OEWS code's, shared by every occupation listed here. */
  employment_shared_with: z
    .array(OnetSocCode)
    .describe('The other scored O*NET occupations whose labor numbers come from the same OEWS code (one job pool): employment counts their workers too. Empty when the occupation has the code to itself.'),
  employment_own_share: z
    .number()
    .nullable()
    .describe('employment divided equally among the occupations sharing the OEWS code (this one and employment_shared_with): add these, not employment, to count each worker once. The percentiles, industries and ISCO weights use the same split. Null when employment is not published or comes from an older OEWS period than the reference one (the weights use one period only).'),
});

export const SkillGap = z.object({
  element_id: z.string(),
  name: z.string(),
  current_level: z.number(),
  target_level: z.number(),
  gap: z.number(),
  importance: z.number(),
  /** The O*NET scales of the numbers: level 0-7 (LV), importance 1-5 (IM). */
  scale: z.string(),
  /** O*NET Skills element, or a Knowledge area that fills a short skills list. */
  kind: z.enum(['skill', 'knowledge']),
  /** How many of the chosen options set the target (rate the skill important). */
  targets: z.number().int().min(1),
  /** The SOC codes of those options (transition_options of the same occupation). */
  toward: z.array(OnetSocCode).min(1),
  /** 3.1.0: the titles of those options (moves or routes), in toward's order. */
  needed_by: z.array(z.string()).min(1).describe('Titles of the moves and routes that need this level (the options in toward, same order).'),
  /** 3.1.0: O*NET Level Scale Anchors, the plain words of the levels. */
  current_anchor: z
    .string()
    .nullable()
    .describe("O*NET's level anchor nearest current_level (what that level looks like in practice, e.g. 'Read step-by-step instructions for completing a form'); null for a level more than 1.5 points below the element's first anchor (near 0: little use) or when the anchors are not in the sources."),
  target_anchor: z.string().nullable().describe("O*NET's level anchor nearest target_level; null as for current_anchor."),
  /** O*NET release of this occupation's skill ratings (a newer release fills unrated occupations). */
  onet_release: z.string(),
});

export const TransitionOption = z.object({
  soc_code: OnetSocCode,
  title: z.string(),
  slug: z.string(),
  final_score: Score100,
  risk_tier: RiskTier,
  /** Similarity of skills, knowledge, abilities and work activities (mean cosine of z-profiles, -1..1). */
  similarity: z.number().min(-1).max(1),
  /** Option's median annual wage / this occupation's; null when either is not published. */
  wage_ratio: z.number().nullable(),
  job_zone: z.number().int().min(1).max(5),
  /**
   * Points by which the option scores lower than this occupation over the score interval's
   * alternatives, paired per alternative (one modelling choice moves both scores): the 5th to
   * 95th percentile of the differences over the sampled alternatives, widened to hold the base
   * model's. low > 0: lower under at least 95% of them.
   */
  safer_by: z.strictObject({ low: z.number(), high: z.number() }),
  /** O*NET Related Occupations tier of the option for this occupation; null when it was found by similarity. */
  related_tier: z.enum(['Primary-Short', 'Primary-Long', 'Supplemental']).nullable(),
  /** BLS Table 1.2 typical education needed for entry into the option. */
  entry_education: z.string().nullable(),
  /** Education levels the option's entry needs above this occupation's (0 or less: none; null when either is unknown). */
  education_step: z.number().int().nullable(),
  /** BLS Table 1.2: work experience in a related occupation the option needs. */
  related_experience: z.string().nullable(),
  /** BLS Table 1.2: typical on-the-job training to reach competency in the option. */
  on_the_job_training: z.string().nullable(),
  /** The option's employment (OEWS, as in its labor_data). */
  employment: z.number().nullable(),
  /** BLS projected employment change of the option, percent, 2024-34. */
  projected_employment_change_pct: z.number().nullable(),
  /** BLS projected annual openings of the option, 2024-34. */
  projected_openings_annual: z.number().nullable(),
  /** One line: why this option is listed, in numbers. */
  reason: z.string(),
});

/** A route (model 3.1): a longer step than a move, with what it takes and how sure it is. */
export const RouteOption = TransitionOption.extend({
  kind: z.literal('route'),
  /** Share of the paired alternatives (base model first, then the interval's) under which the route scores lower than this occupation. */
  share_lower: Unit,
});

export const FocusTask = z.object({
  task_id: z.number().int(),
  description: z.string(),
  time_fraction: Unit,
  task_category: TaskCategory,
  /** Share of the alternatives under which the task sits in the occupation's lowest third of task risk. */
  share_lowest_third: Unit,
});

/** Guidance beside the moves (model 3.1, seeds/advice.json): routes, focus within the job, the one best next step. */
export const Guidance = z.object({
  /** The one best next step, for the card: the first move, else the first route, else focus, else staying. */
  next_step: z.object({ kind: z.enum(['move', 'route', 'focus', 'stay', 'none']), soc_code: OnetSocCode.nullable(), text: z.string() }),
  /** For an origin outside the high tier that BLS projects to grow: staying (and the focus) is the advice. Else null. */
  stay: z.string().nullable(),
  routes: z.array(RouteOption),
  /** Why the occupation has no next step (fewer than two moves, no route, fewer than two focus tasks) and what its worker can do: moves left out as full, the nearest route missed and what it lacks. Null when it has one. */
  next_step_note: z.string().nullable(),
  /** Why no route is shown; null when one is. */
  route_note: z.string().nullable(),
  focus: z.object({
    tasks: z.array(FocusTask),
    /** What the focus tasks have in common (their task categories), or why there are none. */
    summary: z.string(),
    /** How the tasks were chosen, including how Table 1.12's statements were matched; never points off the score. */
    method: z.string(),
  }),
  /** Whether BLS Table 1.12 names this occupation as cut by technology or AI (no move or route leads here when it does). */
  technology_cut: z.object({
    cut: z.boolean(),
    /** 'total': a statement for all industries; 'industries': statements for industries holding `share` of its jobs. */
    basis: z.enum(['total', 'industries']).nullable(),
    /** Share of its jobs (OEWS May 2024, NAICS 3-digit) in the industries its technology statements name; null without such a statement. */
    share: Unit.nullable(),
    statements: z.number().int().min(0),
  }),
  /** Its job pool: occupations sharing an OEWS or a BLS projections code share one (and their openings); one row per pool among an occupation's moves. */
  job_pool: OnetSocCode,
});

export const VoteStats = z.object({
  total: z.number().int().min(0),
  agree: z.number().int().min(0),
  too_high: z.number().int().min(0),
  too_low: z.number().int().min(0),
  agree_pct: z.number(),
  too_high_pct: z.number(),
  too_low_pct: z.number(),
});

const ExplanationPoints = z.strictObject({
  key: z.string().describe('Stable identifier of the step or part.'),
  label: z.string().describe('What it is, in words.'),
  points: z.number().describe('Score points, one decimal; negative where it lowers the score.'),
});

/** Why the occupation has its score (build/model/explanation.ts; METHODOLOGY: how points are attributed). */
export const Explanation = z
  .strictObject({
    summary: z.string().describe('One or two sentences made from the numbers below: the final score, the baseline, and the steps that raise and lower it most.'),
    contributions: z
      .array(ExplanationPoints.extend({ key: z.enum(['baseline', 'exposure', 'substitution', 'complementarity', 'shrinkage']) }))
      .length(5)
      .describe(
        'A waterfall whose points add up exactly to risk_score.final_score: first the baseline (the score of a typical occupation, with the median of each factor), then what each step of the model adds or removes: exposure (share of work time AI can do), substitution (AI replacing rather than assisting that work), complementarity, shrinkage toward the median. The scale is not linear: points are Owen values over the steps (METHODOLOGY.md), rounded by largest remainder so that they still add up.',
      ),
    complementarity_parts: z
      .array(ExplanationPoints.extend({ key: z.enum(['education_experience', 'responsibility', 'physical', 'interpersonal', 'technology']) }))
      .length(5)
      .describe("The complementarity step's points shared among its five parts, in proportion to each part's deviation from the typical occupation's; they add up to that step's points."),
    top_tasks: z
      .array(z.strictObject({ task_id: z.number().int(), description: z.string(), points: z.number() }))
      .describe(
        "Up to three tasks that add the most points (points > 0, largest first), then up to three that protect the most (points < 0, most negative first). A task's points: its substitution-weighted exposure minus the typical occupation's for the same share of time, times the task mix's points per unit; all tasks' points add up to exposure + substitution.",
      ),
  })
  .describe('Why the occupation has its score, computed from the model\'s own steps.');

/** 3.1.0: what is happening to the job, beside the score and never an input to it (job-evidence.ts). */
export const JobEvidence = z
  .object({
    about: z.string(),
    bls_statements: z
      .array(
        z.strictObject({
          code: z.string().regex(/^\d{2}-\d{4}$/).describe("Table 1.12's occupation code: the occupation's SOC code, or the aggregate above it (a code ending in 0)."),
          industry_code: z.string().describe('National Employment Matrix industry code (TE1000: total, all industries).'),
          industry_title: z.string(),
          statement: z.string().describe('The statement as BLS writes it.'),
          share: z.enum(['rises', 'falls']).describe("Whether the occupation's share of the industry's employment is expected to rise or fall."),
        }),
      )
      .describe('Every BLS Employment Projections Table 1.12 statement about the occupation (its SOC code and any aggregate above it); empty when BLS makes none.'),
    bls_statements_note: z.string().describe('What the statements are; when there are none, that no statement is not the same as unaffected.'),
    employment_history: z
      .strictObject({
        oews_code: z.string().nullable().describe('The OEWS code of labor_data (its employment is the whole code\'s, shared with employment_shared_with); null without an OEWS match.'),
        years: z
          .array(
            z.strictObject({
              year: z.number().int(),
              employment: z.number().int().nullable().describe('OEWS May national employment of oews_code; null when that year does not publish the code.'),
              hybrid_codes: z.boolean().describe('True for years published in hybrid SOC 2010/2018 codes (May 2019, 2020): the code may cover other jobs than today.'),
            }),
          )
          .describe('Every OEWS national year the sources hold, oldest first; empty without an OEWS match.'),
        missing_years: z.array(z.number().int()).describe('Years within the span the sources do not hold (May 2020).'),
        caution: z.string().describe("BLS's caution: OEWS is not designed as a time series."),
      })
      .describe('OEWS national employment by year: evidence of what is happening, not a trend the score reads.'),
    projection: z
      .strictObject({
        period: z.string(),
        code: z.string().nullable().describe('BLS projections code (Table 1.2 line); null without a match.'),
        employment_2024: z.number().int().nullable(),
        employment_2034: z.number().int().nullable(),
        change_pct: z.number().nullable(),
        openings_annual: z.number().int().nullable(),
      })
      .describe('BLS Employment Projections 2024-34 (Table 1.2): employment in 2024 and 2034, change in percent, average annual openings.'),
  })
  .describe('What is actually happening to the job, beside the score and never an input to it (3.1.0).');
export type JobEvidence = z.infer<typeof JobEvidence>;

export const OccupationRecord = z.object({
  /** Stable: the SOC digits as an integer, 15-1252.00 -> 15125200. */
  id: z.number().int().positive(),
  soc_code: OnetSocCode,
  title: z.string(),
  /** Stable: slugified title; the SOC code is appended only where two titles collide. */
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  job_zone: z.number().int().min(1).max(5),
  description: z.string(),
  labor_data: LaborData,
  risk_score: RiskScoreRecord,
  explanation: Explanation,
  /** At least creativity, social_intelligence, manual_dexterity, complex_judgment, physical_presence. */
  protective_factors: z.record(z.string(), Unit),
  tasks: z.array(TaskRecord),
  skill_gaps: z.array(SkillGap),
  transition_options: z.array(TransitionOption),
  /** Why fewer than two options are listed (which rule left none); null when two or more are. */
  transition_note: z.string().nullable(),
  guidance: Guidance,
  evidence: JobEvidence,
  votes: VoteStats,
});

/**
 * An occupation of an industry as the model keeps it: its code, employment and share. What the
 * occupation's own record says (title, slug, score, tier) is joined in when an industry is
 * presented (present.industryDetail): level-4 groups share their parent's list, and with those
 * fields copied into every list the industries were most of the model, read from its cache and
 * hashed in every build.
 */
export const IndustryOccupationRef = z.object({
  soc_code: OnetSocCode,
  employment: z.number().int().min(0),
  /** employment / industry employment (0..1, 4 decimals). */
  share: Unit,
});

/** An occupation of an industry as the API serves it: the model's fields, joined with the occupation's (in this order). */
const ref = IndustryOccupationRef.shape;
export const IndustryOccupation = z.object({
  soc_code: ref.soc_code,
  title: z.string(),
  slug: z.string(),
  employment: ref.employment,
  share: ref.share,
  final_score: Score100,
  risk_tier: RiskTier,
});

export const IndustryRecord = z.object({
  /** Stable: the NAICS code's leading digits as an integer ('31-33' -> 31, '5415' -> 5415). */
  id: z.number().int().positive(),
  naics_code: z.string(),
  title: z.string(),
  level: z.union([z.literal(2), z.literal(3), z.literal(4)]),
  /** Where the occupation list comes from: the NAICS level and codes of the OEWS rows used. */
  occupations_source: z.object({
    naics_level: z.number().int().min(2).max(6),
    naics_codes: z.array(z.string()),
    note: z.string(),
  }),
  employment: z.number().int().min(0),
  /** Employment-weighted mean final_score of the scored occupations listed; null if none. */
  weighted_risk_score: Score100.nullable(),
  occupations: z.array(IndustryOccupationRef),
});

export const FactorOption = z.object({
  value: z.string().min(1),
  label: z.string().min(1),
  adjustment: z.number(),
  /**
   * When present, the adjustment applies only where the exposure (exposure_score, 0..100: the
   * person's task-based one when `tasks` are sent, else the occupation's) is at least this; below
   * it the option adjusts by 0.
   */
  min_exposure: z.number().min(0).max(100).optional(),
});
export const FactorsTable = z.record(z.string(), z.array(FactorOption));

/** Tier thresholds: a score s gets the last tier whose min <= s. */
export const TierTable = z.array(z.object({ tier: RiskTier, min: Score100 }));

export const ModelMeta = z.object({
  /** The one declared version string in dist/, e.g. "onet-29.3+oews-may-2025+model-2.1.0". */
  data_version: z.string(),
  onet_version: z.string(),
  oews_period: z.string(),
  projections_period: z.string(),
  model_version: z.string(),
  attribution: z.array(z.string()),
});

export const UnscoredOccupation = z.object({
  soc_code: OnetSocCode,
  title: z.string(),
  reason: z.string(),
});

/**
 * What scoring a person's own task shares needs, per occupation (the assessment's `tasks`):
 * compact, since the function loads one per request. Risks and capabilities are integers in
 * ten-thousandths (the served task_risk_score's precision).
 */
export const TaskBasis = z.strictObject({
  /** Task IDs in the order of every per-task array. */
  ids: z.array(z.number().int().positive()),
  /** Base-model AI capability per task (the exposure of a task). */
  caps: z.array(z.number().int().min(0).max(10000)),
  /** Distinct per-task risk vectors among the alternatives; [0] is the base model's. */
  risks: z.array(z.array(z.number().int().min(0).max(10000))).min(1),
  /**
   * Per alternative, the base model first then each evidence variant in the interval's order:
   * [index into risks, complementarity multiplier, labelled tasks, prior pseudo-tasks, the
   * occupation's own substitution exposure under it (what `other_share` is scored at)].
   */
  alts: z.array(z.tuple([z.number().int().min(0), z.number().min(0), z.number().int().min(0), z.number().min(0), z.number().min(0).max(1)])).min(1),
});
export type TaskBasis = z.infer<typeof TaskBasis>;

/** Global constants of the task path: the shrinkage target and the scale's half-saturation. */
export const TaskScale = z.strictObject({
  prior: z.number().min(0).max(1),
  half_saturation: z.number().positive(),
  /** The interval's tail quantile: low and high are the q and 1 - q quantiles of the alternatives' scores (as the occupation's own). */
  quantile: z.number().min(0).max(0.5),
});
export type TaskScale = z.infer<typeof TaskScale>;

/** An ISCO-08 unit group scored from its linked O*NET occupations (build/model/isco.ts). */
export const IscoRecord = z.object({
  isco_code: z.string().regex(/^\d{4}$/),
  title: z.string().min(1),
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  /** ISCO-08 major group: the first digit. */
  major_group: z.string().regex(/^\d$/),
  final_score: Score100,
  risk_tier: RiskTier,
  score_low: Score100,
  score_high: Score100,
  confidence: Confidence,
  /** The linked O*NET occupations with their weights (U.S. employment shares, summing to 1). */
  us_occupations: z.array(z.object({ soc_code: OnetSocCode, title: z.string(), weight: Unit })).min(1),
  mapping: z.object({
    /** Distinct SOC 2010 codes the crosswalk links the unit group to (minor-group links included). */
    soc_codes: z.number().int().min(0),
    /** Whether any link carries the BLS "part" marker, or comes from a minor-group link. */
    partial: z.boolean(),
    /** Links given for the whole 3-digit minor group (ISCO 211, 315), applied to this unit group. */
    minor_group_links: z.number().int().min(0),
    note: z.string(),
  }),
});

/** A common non-U.S. job title and the ISCO-08 unit group it belongs to (seeds/isco-alternate-titles.json): a search alias, never a score. */
export const IscoAlternateTitle = z.object({
  title: z.string().min(1),
  isco_code: z.string().regex(/^\d{4}$/),
  /** A key of the seed's sources. */
  source: z.string().min(1),
  note: z.string().min(1),
});
export type IscoAlternateTitle = z.infer<typeof IscoAlternateTitle>;

export const IscoTitlesSeed = z
  .object({
    description: z.string(),
    sources: z.record(z.string(), z.object({ title: z.string().min(1), url: z.string().url() })),
    titles: z.array(IscoAlternateTitle).min(1),
  })
  .refine((s) => s.titles.every((t) => s.sources[t.source] !== undefined), { message: 'every title names one of the seed\'s sources' });
export type IscoTitlesSeed = z.infer<typeof IscoTitlesSeed>;

/** A unit group of the crosswalk that reaches no scored occupation, and why. */
export const IscoUnscored = z.object({
  isco_code: z.string().regex(/^\d{4}$/),
  title: z.string(),
  soc_codes: z.array(z.string()),
  reason: z.string(),
});

export const ModelOutput = z.object({
  meta: ModelMeta,
  /** Sorted by soc_code: this is the list order of GET /occupations. */
  occupations: z.array(OccupationRecord),
  unscored: z.array(UnscoredOccupation),
  /** Sorted by level, then naics_code. */
  industries: z.array(IndustryRecord),
  factors: FactorsTable,
  /** Why each personal factor adjusts as it does (its seed rationale, with the evidence it cites). */
  factor_notes: z.record(z.string(), z.string()),
  tiers: TierTable,
  /** O*NET's names of the job zones, by zone (the pages say what a job zone is); empty without Job Zone Reference. */
  job_zone_names: z.array(JobZoneName),
  /** soc_code -> what the assessment's task path needs (every scored occupation). */
  task_bases: z.record(OnetSocCode, TaskBasis),
  task_scale: TaskScale,
  /** ISCO-08 unit groups (sorted by code) and those that reach no scored occupation. */
  isco: z.object({
    units: z.array(IscoRecord),
    unscored: z.array(IscoUnscored),
    /** Common non-U.S. titles of scored unit groups, each with its source's citation (search aliases). */
    alternate_titles: z.array(IscoAlternateTitle.extend({ source_title: z.string(), source_url: z.string() })),
  }),
  /** Counts for the build report (joins matched/unmatched, fallbacks used, distributions). */
  report: z.record(z.string(), z.unknown()),
});

export type RiskTier = z.infer<typeof RiskTier>;
export type Confidence = z.infer<typeof Confidence>;
export type TaskCategory = z.infer<typeof TaskCategory>;
export type Shape = z.infer<typeof Shape>;
export type TaskRecord = z.infer<typeof TaskRecord>;
export type RiskScoreRecord = z.infer<typeof RiskScoreRecord>;
export type LaborData = z.infer<typeof LaborData>;
export type SkillGap = z.infer<typeof SkillGap>;
export type TransitionOption = z.infer<typeof TransitionOption>;
export type RouteOption = z.infer<typeof RouteOption>;
export type FocusTask = z.infer<typeof FocusTask>;
export type Guidance = z.infer<typeof Guidance>;
export type VoteStats = z.infer<typeof VoteStats>;
export type OccupationRecord = z.infer<typeof OccupationRecord>;
export type ExplanationRecord = z.infer<typeof Explanation>;
export type IndustryOccupation = z.infer<typeof IndustryOccupation>;
export type IndustryOccupationRef = z.infer<typeof IndustryOccupationRef>;
export type IndustryRecord = z.infer<typeof IndustryRecord>;
export type FactorOption = z.infer<typeof FactorOption>;
export type FactorsTable = z.infer<typeof FactorsTable>;
export type TierTable = z.infer<typeof TierTable>;
export type ModelMeta = z.infer<typeof ModelMeta>;
export type UnscoredOccupation = z.infer<typeof UnscoredOccupation>;
export type IscoRecord = z.infer<typeof IscoRecord>;
export type IscoUnscored = z.infer<typeof IscoUnscored>;
export type ModelOutput = z.infer<typeof ModelOutput>;
