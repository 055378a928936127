// Personalized assessment: the one scoring function the build and the serverless function share.
// Pure and tiny on purpose: no I/O; the base score and interval come from a shard, and a person's
// task shares are scored by the task path (task-assess.ts) on the occupation's task basis.
//
// Arithmetic is done in integer tenths so that the published identities hold exactly as
// serialized: personalized_score == base_score + total_adjustment, total_adjustment ==
// sum(adjustments). When the 0..100 clamp bites, the adjustments report what was applied.
import type { FactorOption, FactorsTable, RiskTier, TaskBasis, TaskScale, TierTable } from './record-schemas.ts';
import { taskScores, validateTasks, type TaskIssue, type TaskShare } from './task-assess.ts';
import { clamp } from './num.ts';
import { compareText } from './text.ts';

export interface AssessInput {
  soc_code: string;
  title: string;
  base_score: number;
  /** The occupation's exposure_score (0..100) and interval (score_low, score_high). */
  exposure_score: number;
  score_low: number;
  score_high: number;
}

/** A person's task shares and what scoring them needs. */
export interface TaskPath {
  tasks: readonly TaskShare[];
  other_share: number;
  basis: TaskBasis;
  scale: TaskScale;
}

/** The key of the task path's adjustment (never a factor name: the factors seed refuses it). */
export const TASKS_ADJUSTMENT = 'tasks';

export interface AssessmentResult {
  soc_code: string;
  title: string;
  base_score: number;
  personalized_score: number;
  total_adjustment: number;
  adjustments: Record<string, number>;
  risk_tier: RiskTier;
  /** Exposure the factors' exposure rules read: the person's task-based one, else the occupation's. */
  exposure_score: number;
  personalized_low: number;
  personalized_high: number;
}

/** Whether a factor option applies at this exposure (an option with min_exposure applies only at or above it). */
export const optionApplies = (o: FactorOption, exposure: number): boolean => o.min_exposure === undefined || exposure >= o.min_exposure;

export type AssessIssue =
  | { kind: 'unknown_factor'; factor: string; allowed: string[] }
  | { kind: 'unknown_option'; factor: string; value: string; allowed: string[] }
  | TaskIssue;

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
  taskPath?: TaskPath,
): AssessOutcome {
  const issues: AssessIssue[] = [...(taskPath ? validateTasks(taskPath.tasks, taskPath.basis) : []), ...validatePersonalFactors(personal, factors)];
  if (issues.length > 0) return { ok: false, issues };

  const base = toTenths(occupation.base_score);
  let running = base;
  let low = toTenths(occupation.score_low);
  let high = toTenths(occupation.score_high);
  let exposure = occupation.exposure_score;
  const adjustments: Record<string, number> = {};
  if (taskPath) {
    const t = taskScores(taskPath.basis, taskPath.tasks, taskPath.other_share, occupation.exposure_score, taskPath.scale);
    running = toTenths(t.score);
    [low, high, exposure] = [toTenths(t.low), toTenths(t.high), t.exposure_score];
    adjustments[TASKS_ADJUSTMENT] = fromTenths(running - base);
  }
  const beforeFactors = running;
  // Sorted factor order makes clamping deterministic: each factor gets what still fits. Every
  // name is a factor of the table here (validated above), never an inherited member's.
  for (const [factor, value] of sortedEntries(personal)) {
    const option = factors[factor]!.find((o) => o.value === value)!;
    const step = optionApplies(option, exposure) ? toTenths(option.adjustment) : 0;
    const next = Math.min(1000, Math.max(0, running + step));
    adjustments[factor] = fromTenths(next - running);
    running = next;
  }
  // The personal interval: the task path's (else the occupation's) alternatives, moved by the factors.
  const moved = running - beforeFactors;
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
      exposure_score: exposure,
      personalized_low: fromTenths(clamp(low + moved, 0, 1000)),
      personalized_high: fromTenths(clamp(high + moved, 0, 1000)),
    },
  };
}
