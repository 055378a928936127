// Personalized assessment: the one scoring function the build and the serverless function share.
// Pure and tiny on purpose: no I/O, no model recomputation, only the base score from a shard.
//
// Arithmetic is done in integer tenths so that the published identities hold exactly as
// serialized: personalized_score == base_score + total_adjustment, total_adjustment ==
// sum(adjustments). When the 0..100 clamp bites, the adjustments report what was applied.
import type { FactorsTable, RiskTier, TierTable } from './record-schemas.ts';

export interface AssessInput {
  soc_code: string;
  title: string;
  base_score: number;
}

export interface AssessmentResult {
  soc_code: string;
  title: string;
  base_score: number;
  personalized_score: number;
  total_adjustment: number;
  adjustments: Record<string, number>;
  risk_tier: RiskTier;
}

export type AssessIssue =
  | { kind: 'unknown_factor'; factor: string; allowed: string[] }
  | { kind: 'unknown_option'; factor: string; value: string; allowed: string[] };

export type AssessOutcome = { ok: true; result: AssessmentResult } | { ok: false; issues: AssessIssue[] };

const toTenths = (n: number): number => Math.round(n * 10);
const fromTenths = (t: number): number => t / 10;

export function tierFor(score: number, tiers: TierTable): RiskTier {
  let tier = tiers[0]!.tier;
  for (const t of tiers) if (score >= t.min) tier = t.tier;
  return tier;
}

/** Every unknown factor or option is reported at once, each with the allowed values. */
export function validatePersonalFactors(personal: Record<string, string>, factors: FactorsTable): AssessIssue[] {
  const issues: AssessIssue[] = [];
  const names = Object.keys(factors).sort();
  for (const factor of Object.keys(personal).sort()) {
    const options = Object.hasOwn(factors, factor) ? factors[factor] : undefined;
    if (!options) {
      issues.push({ kind: 'unknown_factor', factor, allowed: names });
      continue;
    }
    const value = personal[factor]!;
    if (!options.some((o) => o.value === value)) {
      issues.push({ kind: 'unknown_option', factor, value, allowed: options.map((o) => o.value) });
    }
  }
  return issues;
}

export function assess(
  occupation: AssessInput,
  personal: Record<string, string>,
  factors: FactorsTable,
  tiers: TierTable,
): AssessOutcome {
  const issues = validatePersonalFactors(personal, factors);
  if (issues.length > 0) return { ok: false, issues };

  const base = toTenths(occupation.base_score);
  let running = base;
  const adjustments: Record<string, number> = {};
  // Sorted factor order makes clamping deterministic: each factor gets what still fits.
  for (const factor of Object.keys(personal).sort()) {
    const option = factors[factor]!.find((o) => o.value === personal[factor])!;
    const next = Math.min(1000, Math.max(0, running + toTenths(option.adjustment)));
    adjustments[factor] = fromTenths(next - running);
    running = next;
  }
  const total = running - base;
  return {
    ok: true,
    result: {
      soc_code: occupation.soc_code,
      title: occupation.title,
      base_score: fromTenths(base),
      personalized_score: fromTenths(running),
      total_adjustment: fromTenths(total),
      adjustments,
      risk_tier: tierFor(fromTenths(running), tiers),
    },
  };
}
