// Schema of seeds/advice.json (the rules of moves, routes and focus added in model 3.1) and of
// seeds/entry-corrections.json (professions whose entry rule is stricter than BLS Table 1.2 says).
import { z } from 'zod';

const Rationale = z.string().min(10);
const P = <T extends z.ZodTypeAny>(value: T) => z.object({ value, rationale: Rationale });
const Unit = z.number().min(0).max(1);

export const AdviceSeed = z.object({
  description: z.string(),
  moves: z.object({
    /** A move in the origin's own tier must be lower by at least this many points at safer_by.low. */
    same_tier_min_points: P(z.number().min(0)),
    /** An O*NET-related occupation is in the field only at this similarity or more. */
    related_min_similarity: P(z.number().min(-1).max(1)),
    /** Table 1.12: the industries of an occupation's technology statements must hold this share of its jobs. */
    material_industry_share: P(Unit),
    /** Capacity: workers of the origins a destination is offered to, per annual opening of its job pool, at most K. */
    capacity_workers_per_opening: P(z.number().positive()),
    /** A destination asking this much related work experience (BLS Table 1.2): only from its SOC major group (moves and routes). */
    ladder_experience: P(z.enum(['Less than 5 years', '5 years or more'])),
    /** A move to a lower job zone or entry education only when it pays more. */
    no_step_down: P(z.boolean()),
  }),
  routes: z.object({
    /** Out of a growing occupation (any tier), a route must pay and grow more. */
    growing_origin: P(z.boolean()),
    /** A route's entry asks more than the origin's in education, related work experience or on-the-job training (these orders). */
    entry_above_origin: P(z.object({ experience: z.record(z.string(), z.number().int().min(0)), training: z.record(z.string(), z.number().int().min(0)) })),
    min_similarity: P(z.number().min(-1).max(1)),
    max_education_step: P(z.number().int().min(0)),
    min_points: P(z.number().min(0)),
    /** Lower than the origin under at least this share of the paired alternatives. */
    min_share_lower: P(Unit),
    min_wage_ratio: P(z.number().min(0)),
    max_routes: P(z.number().int().min(0)),
  }),
  focus: z.object({
    /** A focus task sits in this lowest fraction of the occupation's task risks ... */
    lowest_fraction: P(Unit),
    /** ... under at least this share of the alternatives. */
    min_share_alternatives: P(Unit),
    max_tasks: P(z.number().int().min(1)),
  }),
});
export type AdviceSeed = z.infer<typeof AdviceSeed>;

/** seeds/ep-factor-causes.json: each Table 1.12 'share decreases' statement's cause (ep-factors.ts). */
export const EpFactorCausesSeed = z.object({
  description: z.string(),
  source: z.object({ title: z.string(), publisher: z.string(), url: z.string().url(), file: z.string() }),
  statements: z.array(z.object({ soc: z.string().regex(/^\d{2}-\d{4}$/), industry: z.string(), cause: z.enum(['technology_or_ai', 'other']), basis: z.string().min(5) })),
});
export type EpFactorCausesSeed = z.infer<typeof EpFactorCausesSeed>;

export const EntryCorrectionsSeed = z.object({
  description: z.string(),
  corrections: z.array(
    z.object({
      /** SOC 2018 code (NN-NNNN): every O*NET occupation under it. */
      soc: z.string().regex(/^\d{2}-\d{4}$/),
      entry_education: z.string(),
      related_experience: z.string(),
      on_the_job_training: z.string(),
      rationale: Rationale,
      sources: z.array(z.object({ title: z.string(), url: z.string().url() })).min(1),
    }),
  ),
});
export type EntryCorrectionsSeed = z.infer<typeof EntryCorrectionsSeed>;
