// Schemas of our curated tables in seeds/. Pure: callers pass parsed JSON (the build reads the
// files; the function bundle imports them through esbuild), so both validate the same way.
import { z } from 'zod';
import { RiskTier } from './record-schemas.ts';

const Rationale = z.string().min(10);

export const FactorsSeed = z.object({
  description: z.string(),
  factors: z.record(
    // `tasks` is the assessment's task path, never a factor (its adjustment has that key).
    z.string().regex(/^[a-z][a-z0-9_]*$/).refine((n) => n !== 'tasks', '"tasks" is reserved for the task path'),
    z.object({
      label: z.string().min(1),
      rationale: Rationale,
      /**
       * The factor's options apply only in the more exposed occupations: at or above this
       * quantile of the occupations' exposure_score (the model computes the threshold and
       * /displacement/factors lists it on each option as min_exposure).
       */
      exposure_rule: z.object({ quantile: z.number().gt(0).lt(1), rationale: Rationale }).optional(),
      options: z
        .array(
          z.object({
            value: z.string().regex(/^[a-z0-9][a-z0-9_]*$/),
            label: z.string().min(1),
            /** Score points on the 0..100 scale, at most one decimal. */
            adjustment: z.number().refine((n) => Number.isInteger(Math.round(n * 10)) && Math.abs(n * 10 - Math.round(n * 10)) < 1e-9, 'at most one decimal'),
            rationale: Rationale,
          }),
        )
        .min(2),
    }),
  ),
});
export type FactorsSeed = z.infer<typeof FactorsSeed>;

export const TiersSeed = z.object({
  description: z.string(),
  /** Ascending by min; the first min is 0. */
  tiers: z
    .array(z.object({ tier: RiskTier, min: z.number().min(0).max(100), rationale: Rationale }))
    .min(3)
    .refine((t) => t[0]?.min === 0, 'the first tier starts at 0')
    .refine((t) => t.every((x, i) => i === 0 || x.min > t[i - 1]!.min), 'mins strictly ascending'),
});
export type TiersSeed = z.infer<typeof TiersSeed>;
