// Schemas of the model's own seed tables (seeds/model-params.json, seeds/task-categories.json,
// seeds/protective-factors.json) and the Seeds bundle computeModel takes. Pure: the build reads
// the files (build/seeds-load.ts), tests pass hand-written objects; both validate the same way.
import { z } from 'zod';
import { TaskCategory } from './record-schemas.ts';
import { FactorsSeed, TiersSeed } from './seeds.ts';
import { AdviceSeed, EntryCorrectionsSeed, EpFactorCausesSeed } from './advice-params.ts';
import { IscoTitlesSeed } from './record-schemas.ts';
import { MODEL_VERSION } from './version.ts';

const Rationale = z.string().min(10);
const Unit = z.number().min(0).max(1);
/** A parameter with the reason it has that value. */
const P = <T extends z.ZodTypeAny>(value: T) => z.object({ value, rationale: Rationale });

const Year = z.number().int().min(2000).max(2200);

export const ModelParamsSeed = z.object({
  description: z.string(),
  model_version: z.literal(MODEL_VERSION, { error: `model_version must be ${MODEL_VERSION} (build/model/version.ts): bump both together` }),
  capability: z.object({
    /** Eloundou et al. beta convention: E1 counts fully, E2 half, E0 not at all. */
    label_values: P(z.object({ E0: Unit, E1: Unit, E2: Unit })),
    /** How far observed usage can lift capability above the label value: cap = L + w*U*(1-L). */
    usage_weight: P(Unit),
  }),
  usage: z.object({
    /** log10 of (task share / equal share) mapped linearly from floor (0) to ceiling (1). */
    log10_floor: P(z.number()),
    log10_ceiling: P(z.number()),
    /** Release dates and recency half-life (years) for the level; horizon (years) for the trend. */
    half_life_years: P(z.number().positive()),
    nowcast_years: P(z.number().min(0)),
  }),
  propensity: z.object({
    t_values: P(z.object({ T0: Unit, T1: Unit, T2: Unit, T3: Unit, T4: Unit })),
    /** Weight of the GPT-4 T-level when AEI automation share also exists. */
    t_weight: P(Unit),
    /** Raw propensity when neither source says anything. */
    default_raw: P(Unit),
    /** propensity = floor + (1 - floor) * raw: augmentation still removes task time. */
    floor: P(Unit),
    /**
     * Working with AI AI-action share W as a propensity input: its weight (0: not used) and the
     * minimum share_user + share_ai an IWA needs to have a W (declared tests v2).
     */
    wwai: P(z.object({ weight: Unit, min_share: Unit })),
  }),
  category_factors: P(z.record(TaskCategory, Unit)),
  time_weights: z.object({
    core: P(z.number().positive()),
    supplemental: P(z.number().positive()),
    /** Blank Task Type: the expected weight of a rated task, from the bundle's Core share. */
    blank: P(z.literal('expected')),
  }),
  complementarity: z.object({
    /** C = 1 - kappa * (theta - theta_min) (Pizzinelli et al. 2023 use kappa = 1). */
    kappa: P(z.number().min(0).max(2)),
  }),
  scale: z.object({
    /** Pseudo-tasks of prior evidence in D = (n X C + k prior) / (n + k). */
    prior_tasks: P(z.number().min(0)),
    /** Half-saturation h of score = 100 * D (1 + h) / (D + h). */
    half_saturation: P(z.number().positive()),
  }),
  interval: z.object({
    /** Relative move of each perturbed parameter (both directions). */
    parameter_spread: P(z.number().min(0).max(1)),
    /** Tilt of the time weights toward / away from exposed tasks, by time-weight evidence. */
    tilt: P(z.object({ task_ratings: z.number().min(0), iwa_weights: z.number().min(0), gwa_importance: z.number().min(0), task_type: z.number().min(0) })),
    /** E2 label values the alternatives try besides the seeded one. */
    e2_values: P(z.array(Unit).min(1)),
    /** Sampled alternatives (interval.ts): how many, and the Mulberry32 seed, for the interval and for its held-out check. */
    construction: P(z.object({ count: z.number().int().min(1).max(2000), seed: z.number().int().min(0) })),
    held_out: P(z.object({ count: z.number().int().min(1).max(2000), seed: z.number().int().min(0) })),
    /** A transition option is lower under at least 1 - safer_quantile of the paired alternatives (safer_by.low is that quantile). */
    safer_quantile: P(z.number().min(0).lt(0.5)),
    /** Probability that an alternative keeps a dimension at the base model's level (the rest spread evenly over its other levels). */
    base_weight: P(z.number().min(0).lt(1)),
    /** The interval is the quantile .. 1 - quantile range of the construction scores (and the base score). */
    quantile: P(z.number().min(0).lt(0.5)),
    /** ISCO-08 unit groups' confidence word from the interval's arcsine-square-root width: <= high_max_width high, <= medium_max_width medium. */
    high_max_width: P(z.number().positive()),
    medium_max_width: P(z.number().positive()),
  }),
  /** Confidence word from how settled the evidence is (uncertainty.ts): a high and a medium cut per input. */
  confidence: z.object({
    tier_share: P(z.object({ high: Unit, medium: Unit })),
    label_agreement: P(z.object({ high: Unit, medium: Unit })),
    label_coverage: P(z.object({ high: Unit, medium: Unit })),
  }),
  timeline: z.object({
    /** Published diffusion: years from 10% to 90% adoption on the fast and the slow logistic curve. */
    fast_10_90_years: P(z.number().positive()),
    slow_10_90_years: P(z.number().positive()),
    /** Adoption share of the occupation's exposed work the years refer to. */
    target_share: P(z.number().gt(0).lt(1)),
    /** Adoption share of exposed work in the average occupation (scaled by the AEI usage index). */
    population_adoption: P(z.number().gt(0).lt(1)),
    /** Floor of the adoption share (also the share assumed without AEI evidence). */
    min_adoption: P(z.number().gt(0).lt(0.5)),
    /** The adoption level is divided and multiplied by this factor for its uncertainty. */
    level_band: P(z.number().gt(1)),
    /** The AEI usage level is used only when its rank agreement between the first and the latest release is at least this. */
    level_min_spearman: P(z.number().min(-1).max(1)),
    /** Below this score the exposure is negligible: displacement_year_high is last_year. */
    negligible_score: P(z.number().min(0).max(100)),
    first_year: P(Year),
    last_year: P(Year),
  }),
  wages: z.object({
    /** OEWS top-code ceilings by reference period ("May 2025" -> annual/hourly). */
    top_code: P(z.record(z.string(), z.object({ annual: z.number().positive(), hourly: z.number().positive() }))),
    hours_per_year: P(z.number().positive()),
  }),
  skill_gaps: z.object({
    /** A safer option scores at least min(min_score_margin, relative_margin * score) lower. */
    min_score_margin: P(z.number().min(0)),
    relative_margin: P(z.number().min(0).max(1)),
    /** Nesta (Mapping Career Causeways): viable >= 0.3, highly viable >= 0.4 similarity. */
    viable_similarity: P(z.number().min(0).max(1)),
    highly_viable_similarity: P(z.number().min(0).max(1)),
    min_options: P(z.number().int().min(0)),
    max_job_zone_difference: P(z.number().int().min(0).max(4)),
    /** "Desirable": keeps at least this share of the current median wage. */
    desirable_wage_ratio: P(z.number().min(0)),
    /** No option pays less than this share of the current median wage. */
    min_wage_ratio: P(z.number().min(0).max(1)),
    max_transitions: P(z.number().int().positive()),
    /** Skills that matter in the targets: mean importance at least this (1..5 scale). */
    min_target_importance: P(z.number().min(1).max(5)),
    min_gap: P(z.number().min(0)),
    max_items: P(z.number().int().positive()),
    /** Knowledge gaps fill the list when skills give fewer than this many. */
    min_skill_items: P(z.number().int().min(0)),
    /** An option has at least this many jobs (OEWS employment as published). */
    min_employment: P(z.number().min(0)),
    /** An option's BLS projected employment change is at least this (percent, 10 years); unknown is excluded. */
    min_projected_change_pct: P(z.number()),
    /** BLS "typical education needed for entry" as ordered levels. */
    education_levels: P(z.record(z.string(), z.number().int().min(0))),
    /** An option's entry education is at most this many levels above the origin's. */
    max_education_step: P(z.number().int().min(0)),
    /**
     * Licensed professions (SOC 2018 code prefixes): an option in a family is offered only to an
     * occupation in it (members) or on its licence route (entry_from).
     */
    licensed_families: P(z.record(z.string(), z.object({ members: z.array(z.string().min(1)), entry_from: z.array(z.string()) }))),
  }),
});
export type ModelParamsSeed = z.infer<typeof ModelParamsSeed>;

const GwaId = z.string().regex(/^4\.A\.\d\.[a-z]\.\d+$/);

export const TaskCategoriesSeed = z.object({
  description: z.string(),
  /** Tie-break when two categories have the same vote weight: earlier in this list wins. */
  tie_break_order: P(z.array(TaskCategory).length(5)),
  gwas: z.record(
    GwaId,
    z.object({ name: z.string().min(1), category: TaskCategory, rationale: Rationale }),
  ),
  /** Keyword fallback for tasks without DWA links: first rule with a matching word wins. */
  keyword_rules: z.array(
    z.object({ category: TaskCategory, words: z.array(z.string().min(2)).min(1), rationale: Rationale }),
  ),
  /** When no keyword matches: the occupation's time-weighted majority category from its DWA-linked tasks. */
  keyword_default: P(z.literal('occupation_majority')),
  /** When the occupation has no DWA-linked task at all either. */
  last_resort: P(TaskCategory),
});
export type TaskCategoriesSeed = z.infer<typeof TaskCategoriesSeed>;

export const DescriptorSource = z.enum(['abilities', 'work_activities', 'skills', 'knowledge']);
export type DescriptorSource = z.infer<typeof DescriptorSource>;

export const ProtectiveFactorsSeed = z.object({
  description: z.string(),
  /** Element value = ((IM-1)/4)^a * (LV/7)^(1-a): importance and level both count. */
  importance_exponent: P(Unit),
  factors: z.record(
    z.string().regex(/^[a-z][a-z_]*$/),
    z.object({
      label: z.string().min(1),
      rationale: Rationale,
      elements: z
        .array(
          z.object({
            element_id: z.string().min(1),
            name: z.string().min(1),
            source: DescriptorSource,
            weight: z.number().positive(),
          }),
        )
        .min(1),
    }),
  ),
});
export type ProtectiveFactorsSeed = z.infer<typeof ProtectiveFactorsSeed>;

/** Everything computeModel needs besides the source bundle. */
export const Seeds = z.object({
  factors: FactorsSeed,
  tiers: TiersSeed,
  params: ModelParamsSeed,
  task_categories: TaskCategoriesSeed,
  protective: ProtectiveFactorsSeed,
  advice: AdviceSeed,
  ep_causes: EpFactorCausesSeed,
  entry_corrections: EntryCorrectionsSeed,
  isco_titles: IscoTitlesSeed,
});
export type Seeds = z.infer<typeof Seeds>;

/** Seed file name for each key of Seeds (one file each under seeds/). */
export const SEED_FILES: Record<keyof Seeds, string> = {
  factors: 'factors.json',
  tiers: 'tiers.json',
  params: 'model-params.json',
  task_categories: 'task-categories.json',
  protective: 'protective-factors.json',
  advice: 'advice.json',
  ep_causes: 'ep-factor-causes.json',
  entry_corrections: 'entry-corrections.json',
  isco_titles: 'isco-alternate-titles.json',
};
