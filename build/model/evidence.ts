// Task-level evidence: Eloundou et al. labels joined by Task ID, and Anthropic Economic Index
// (AEI) usage and collaboration joined by task text. AEI keys are lower-cased O*NET task text;
// they match the 29.3 text directly, or through the AEI release's own task statements (older
// O*NET text) whose Task ID still exists in 29.3. Every join is counted.
import type { AeiCollaboration, AeiTaskUsage, ExposureLabel, ModelInputs } from './inputs.ts';
import { clamp, round, spearman } from './num.ts';
import type { ModelParamsSeed } from './params.ts';
import { compareText } from './text.ts';

export interface UsageSignal {
  /** U in 0..1: recency-weighted intensity plus the nowcast trend. */
  intensity: number;
  /** Recency-weighted level before the trend. */
  level: number;
  /** Least-squares slope of intensity per year across releases (0 with one release). */
  trend_per_year: number;
  /** Percent of conversations in the latest release where the task was seen (max over platforms). */
  latest_pct: number;
  latest_release: string;
  /** Releases in which the task was observed (either platform), sorted. */
  releases: string[];
}

export interface EvidenceIndex {
  labels: Map<number, ExposureLabel>;
  usage: Map<number, UsageSignal>;
  automationShare: Map<number, number>;
  report: EvidenceReport;
}

export interface EvidenceReport {
  labels_total: number;
  labels_matched_tasks: number;
  labels_unmatched_tasks: number;
  labels_soc_mismatch: number;
  labels_unused: number;
  aei_releases: string[];
  aei_usage_keys: number;
  aei_usage_keys_direct: number;
  aei_usage_keys_bridge: number;
  aei_usage_keys_unmatched: number;
  aei_collaboration_keys: number;
  aei_collaboration_keys_matched: number;
  tasks_with_usage: number;
  tasks_with_automation_share: number;
  /** Observed tasks whose usage intensity rose / fell across releases (trend sign). */
  tasks_usage_rising: number;
  tasks_usage_falling: number;
  /** Rank agreement (Spearman) of task usage intensity between the first and the latest release, over tasks observed in both. */
  usage_level_signal: { releases: string[]; tasks: number; spearman: number | null };
  /** Rank agreement of task usage changes over two non-overlapping release pairs (oldest two, newest two), over tasks observed in all four. */
  usage_change_signal: { releases: string[]; tasks: number; spearman: number | null };
}

/** Whitespace other than single spaces (the only case in which collapsing runs changes anything). */
const ODD_SPACE = /[^\S ]| {2}/;
export const normalizeTaskText = (s: string): string => {
  const lower = s.toLowerCase();
  // Most texts have single spaces only: the test is much cheaper than the replace.
  return (ODD_SPACE.test(lower) ? lower.replace(/\s+/g, ' ') : lower).trim();
};

/** Release date as fractional years, for recency weights and trends. */
export function releaseYears(release: string): number {
  const [y, m, d] = release.split('-').map(Number) as [number, number, number];
  const start = Date.UTC(y, 0, 1);
  const t = Date.UTC(y, m - 1, d);
  return y + (t - start) / (365.25 * 86_400_000);
}

/** Intensity of one usage share: log10(share / equal share) mapped from floor..ceiling to 0..1. */
export function usageIntensity(pct: number, equalShare: number, p: ModelParamsSeed['usage']): number {
  if (pct <= 0 || equalShare <= 0) return 0;
  const lr = Math.log10(pct / equalShare);
  return clamp((lr - p.log10_floor.value) / (p.log10_ceiling.value - p.log10_floor.value), 0, 1);
}

/** Least-squares slope of y on x; 0 when x has no spread. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  return sxx > 0 ? sxy / sxx : 0;
}

const NON_TASK_KEYS = new Set(['none', 'not_classified']);

/** An AEI key, normalized, with the 29.3 Task IDs it matches and how. */
interface Resolved {
  key: string;
  ids: number[];
  via: 'direct' | 'bridge' | 'none';
}

export function buildEvidence(bundle: ModelInputs, params: ModelParamsSeed): EvidenceIndex {
  const tasks = bundle.tasks;
  const socOfTask = new Map<number, string>();
  for (const t of tasks) socOfTask.set(t.task_id, t.soc_code);
  const taskIds: ReadonlySet<number> = new Set(socOfTask.keys());

  // Labels by Task ID (IDs persist across O*NET releases).
  const labels = new Map<number, ExposureLabel>();
  let socMismatch = 0;
  for (const l of bundle.exposure_labels) {
    if (!taskIds.has(l.task_id)) continue;
    if (socOfTask.get(l.task_id) !== l.soc_code) socMismatch++;
    labels.set(l.task_id, l);
  }
  const labelsUnused = bundle.exposure_labels.filter((l) => !taskIds.has(l.task_id)).length;
  const resolveKey = keyResolver(bundle, taskIds);
  const { releases, perTask, keyVia } = usageByTask(bundle, resolveKey, params);
  const years = releases.map(releaseYears);
  const lastYear = years.length > 0 ? Math.max(...years) : 0;
  const weights = years.map((y) => 0.5 ** ((lastYear - y) / params.usage.half_life_years.value));
  const usage = usageSignals(perTask, releases, years, weights, params);
  const automation = automationShares(bundle, resolveKey, releases, weights, lastYear, params);

  const vias = [...keyVia.values()];
  // The task counts of the report, in one pass.
  const taskCounts = { unlabelled: 0, usage: 0, automation: 0, rising: 0, falling: 0 };
  for (const t of tasks) {
    if (!labels.has(t.task_id)) taskCounts.unlabelled++;
    const u = usage.get(t.task_id);
    if (u) taskCounts.usage++;
    if (automation.share.has(t.task_id)) taskCounts.automation++;
    const trend = u?.trend_per_year ?? 0;
    if (trend > 0) taskCounts.rising++;
    if (trend < 0) taskCounts.falling++;
  }
  return {
    labels,
    usage,
    automationShare: automation.share,
    report: {
      labels_total: bundle.exposure_labels.length,
      labels_matched_tasks: labels.size,
      labels_unmatched_tasks: taskCounts.unlabelled,
      labels_soc_mismatch: socMismatch,
      labels_unused: labelsUnused,
      aei_releases: releases,
      aei_usage_keys: keyVia.size,
      aei_usage_keys_direct: vias.filter((v) => v === 'direct').length,
      aei_usage_keys_bridge: vias.filter((v) => v === 'bridge').length,
      aei_usage_keys_unmatched: vias.filter((v) => v === 'none').length,
      aei_collaboration_keys: automation.keys.size,
      aei_collaboration_keys_matched: automation.matched.size,
      tasks_with_usage: taskCounts.usage,
      tasks_with_automation_share: taskCounts.automation,
      tasks_usage_rising: taskCounts.rising,
      tasks_usage_falling: taskCounts.falling,
      ...usageAgreement(perTask, releases),
    },
  };
}

/**
 * AEI key -> 29.3 Task IDs: the task text itself, else the AEI release's own statements (older
 * text) whose Task ID still exists. The same keys recur in every release and platform: each is
 * normalized and resolved once, and every row after that costs one lookup.
 */
function keyResolver(bundle: ModelInputs, taskIds: ReadonlySet<number>): (raw: string) => Resolved {
  const byText = new Map<string, number[]>();
  for (const t of bundle.tasks) {
    const k = normalizeTaskText(t.task);
    const ids = byText.get(k);
    if (ids) ids.push(t.task_id);
    else byText.set(k, [t.task_id]);
  }
  const bridge = new Map<string, number[]>();
  for (const s of bundle.aei_task_statements) {
    if (!taskIds.has(s.task_id)) continue;
    const k = normalizeTaskText(s.task_key);
    const ids = bridge.get(k);
    if (!ids) bridge.set(k, [s.task_id]);
    else if (!ids.includes(s.task_id)) ids.push(s.task_id);
  }
  const resolved = new Map<string, Resolved>();
  return (raw: string): Resolved => {
    let r = resolved.get(raw);
    if (r === undefined) {
      const key = normalizeTaskText(raw);
      const direct = byText.get(key);
      const b = bridge.get(key);
      r = direct ? { key, ids: direct, via: 'direct' } : b && b.length > 0 ? { key, ids: b, via: 'bridge' } : { key, ids: [], via: 'none' };
      resolved.set(raw, r);
    }
    return r;
  };
}

/** A task's usage in one release: the intensity and the percent seen, each the max over platforms. */
type ReleaseUsage = { s: number; pct: number };

/** Usage intensity per task and release (the max over platforms), and how each AEI usage key was matched. */
function usageByTask(bundle: ModelInputs, resolveKey: (raw: string) => Resolved, params: ModelParamsSeed) {
  const releases = [...new Set(bundle.aei_usage.map((u) => u.release))].sort();
  const usageRows = bundle.aei_usage.filter((u) => !NON_TASK_KEYS.has(resolveKey(u.task_key).key));
  const groups = new Map<string, AeiTaskUsage[]>();
  for (const u of usageRows) {
    const g = `${u.release}|${u.platform}`;
    const rows = groups.get(g);
    if (rows) rows.push(u);
    else groups.set(g, [u]);
  }
  const keyVia = new Map<string, 'direct' | 'bridge' | 'none'>();
  const perTask = new Map<number, Map<string, ReleaseUsage>>();
  for (const [, rows] of [...groups].sort(([a], [b]) => compareText(a, b))) {
    const total = rows.reduce((a, r) => a + r.pct, 0);
    const equal = total / rows.length;
    for (const r of rows) {
      const { key, ids, via } = resolveKey(r.task_key);
      keyVia.set(key, via);
      const s = usageIntensity(r.pct, equal, params.usage);
      for (const id of ids) {
        const m = perTask.get(id) ?? new Map<string, ReleaseUsage>();
        const prev = m.get(r.release);
        m.set(r.release, { s: Math.max(prev?.s ?? 0, s), pct: Math.max(prev?.pct ?? 0, r.pct) });
        perTask.set(id, m);
      }
    }
  }
  return { releases, perTask, keyVia };
}

/** Each observed task's usage signal: the recency-weighted level plus the nowcast trend. */
function usageSignals(
  perTask: ReadonlyMap<number, ReadonlyMap<string, ReleaseUsage>>,
  releases: readonly string[],
  years: readonly number[],
  weights: readonly number[],
  params: ModelParamsSeed,
): Map<number, UsageSignal> {
  const usage = new Map<number, UsageSignal>();
  for (const [id, byRelease] of perTask) {
    const s = releases.map((r) => byRelease.get(r)?.s ?? 0);
    const level = s.reduce((a, v, i) => a + v * weights[i]!, 0) / weights.reduce((a, b) => a + b, 0);
    const trend = slope(years, s);
    const latest = [...byRelease.keys()].sort().at(-1)!;
    usage.set(id, {
      intensity: clamp(level + params.usage.nowcast_years.value * trend, 0, 1),
      level,
      trend_per_year: trend,
      latest_pct: byRelease.get(latest)!.pct,
      latest_release: latest,
      releases: [...byRelease.keys()].sort(),
    });
  }
  return usage;
}

/**
 * Is there signal in the usage level and in its change? Tasks observed in the releases compared:
 * the level's rank agreement between the first and the latest release, and the agreement of the
 * changes over two non-overlapping pairs of releases (the oldest two and the newest two).
 */
function usageAgreement(perTask: ReadonlyMap<number, ReadonlyMap<string, ReleaseUsage>>, releases: readonly string[]): Pick<EvidenceReport, 'usage_level_signal' | 'usage_change_signal'> {
  const observedIn = (rs: readonly string[]) => [...perTask.values()].filter((m) => rs.every((r) => m.has(r)));
  const first = releases[0];
  const last = releases.at(-1);
  const levelPair = first !== undefined && last !== undefined && first !== last ? observedIn([first, last]) : [];
  const levelRho = spearman(levelPair.map((m) => m.get(first!)!.s), levelPair.map((m) => m.get(last!)!.s));
  const pairs = releases.length >= 4 ? [releases[0]!, releases[1]!, releases.at(-2)!, releases.at(-1)!] : null;
  const changePair = pairs ? observedIn(pairs) : [];
  const change = (m: ReadonlyMap<string, { s: number }>, a: string, b: string) => m.get(b)!.s - m.get(a)!.s;
  const changeRho = pairs ? spearman(changePair.map((m) => change(m, pairs[0]!, pairs[1]!)), changePair.map((m) => change(m, pairs[2]!, pairs[3]!))) : null;
  return {
    usage_level_signal: { releases: first !== undefined && last !== undefined && first !== last ? [first, last] : [], tasks: levelPair.length, spearman: levelRho === null ? null : round(levelRho, 3) },
    usage_change_signal: { releases: pairs ?? [], tasks: changePair.length, spearman: changeRho === null ? null : round(changeRho, 3) },
  };
}

/** Automation share = (directive + feedback loop) / classified, recency- and coverage-weighted; with the collaboration keys seen and matched. */
function automationShares(bundle: ModelInputs, resolveKey: (raw: string) => Resolved, releases: readonly string[], weights: readonly number[], lastYear: number, params: ModelParamsSeed) {
  const keys = new Set<string>();
  const matched = new Set<string>();
  const acc = new Map<number, { s: number; w: number }>();
  const weightOf = new Map(releases.map((r, i) => [r, weights[i]!]));
  for (const c of bundle.aei_collaboration as AeiCollaboration[]) {
    const { key, ids } = resolveKey(c.task_key);
    keys.add(key);
    const classified = c.directive + c.feedback_loop + c.task_iteration + c.validation + c.learning;
    if (ids.length > 0) matched.add(key);
    if (classified <= 0) continue;
    const share = (c.directive + c.feedback_loop) / classified;
    const w = (weightOf.get(c.release) ?? recencyWeight(c.release, lastYear, params)) * classified;
    for (const id of ids) {
      const a = acc.get(id) ?? { s: 0, w: 0 };
      a.s += share * w;
      a.w += w;
      acc.set(id, a);
    }
  }
  const share = new Map<number, number>();
  for (const [id, a] of acc) if (a.w > 0) share.set(id, clamp(a.s / a.w, 0, 1));
  return { share, keys, matched };
}

function recencyWeight(release: string, lastYear: number, params: ModelParamsSeed): number {
  return 0.5 ** (Math.max(0, lastYear - releaseYears(release)) / params.usage.half_life_years.value);
}
