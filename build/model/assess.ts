// Personalized assessment: the one scoring function the build and the serverless function share.
// Pure and tiny on purpose: no I/O, no model recomputation, only the base score from a shard.
//
// Arithmetic is done in integer tenths so that the published identities hold exactly as
// serialized: personalized_score == base_score + total_adjustment, total_adjustment ==
// sum(adjustments). When the 0..100 clamp bites, the adjustments report what was applied.
import type { FactorsTable, RiskTier, TierTable } from './record-schemas.ts';
import { compareText } from './text.ts';

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

/**
 * The client's factor names and options. A Map where the names are the client's text (the
 * function's): a plain object would take "constructor" or "__proto__" for members it inherits.
 */
export type PersonalFactors = ReadonlyMap<string, string> | Readonly<Record<string, string>>;

/** The personal factors as [name, option] pairs in name order (the order they are applied in). */
const sortedEntries = (personal: PersonalFactors): Array<[string, string]> =>
  (personal instanceof Map ? [...personal] : Object.entries(personal)).sort(([a], [b]) => compareText(a, b));

/**
 * Every unknown factor or option is reported at once, each with the allowed values: unknown
 * options of known factors first (a client's likeliest slip, and never more than there are
 * factors), then unknown factor names, each in name order.
 */
export function validatePersonalFactors(personal: PersonalFactors, factors: FactorsTable): AssessIssue[] {
  const options: AssessIssue[] = [];
  const unknown: AssessIssue[] = [];
  let names: string[] | undefined;
  for (const [factor, value] of sortedEntries(personal)) {
    const known = Object.hasOwn(factors, factor) ? factors[factor] : undefined;
    if (!known) unknown.push({ kind: 'unknown_factor', factor, allowed: (names ??= Object.keys(factors).sort()) });
    else if (!known.some((o) => o.value === value)) options.push({ kind: 'unknown_option', factor, value, allowed: known.map((o) => o.value) });
  }
  return [...options, ...unknown];
}

export function assess(
  occupation: AssessInput,
  personal: PersonalFactors,
  factors: FactorsTable,
  tiers: TierTable,
): AssessOutcome {
  const issues = validatePersonalFactors(personal, factors);
  if (issues.length > 0) return { ok: false, issues };

  const base = toTenths(occupation.base_score);
  let running = base;
  const adjustments: Record<string, number> = {};
  // Sorted factor order makes clamping deterministic: each factor gets what still fits. Every
  // name is a factor of the table here (validated above), never an inherited member's.
  for (const [factor, value] of sortedEntries(personal)) {
    const option = factors[factor]!.find((o) => o.value === value)!;
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
