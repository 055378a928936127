// Releases: the summary of one published release's scores (kept in the repository under releases/,
// one file per release, so that a clean build knows the release before it) and the changes between
// the previous release and this one (GET /api/v1/changes, /downloads/changes.csv, the occupation
// page). Pure and bundle-safe: the build reads the files, this compares them.
import { z } from 'zod';
import type { ModelOutput, OccupationRecord } from '../model/record-schemas.ts';
import { RiskTier } from '../model/record-schemas.ts';
import { OnetSocCode } from '../model/inputs.ts';
import { ModelVersionField } from './site-schemas.ts';

/**
 * The steps of the score, in the order the model takes them, each with the recorded figure that
 * stands for it. A moved score is explained by the first step whose figure moved.
 */
export const SCORE_STEPS = [
  { key: 'exposure_score', step: 'exposure', text: 'exposure (share of work time AI can do)' },
  { key: 'task_exposure', step: 'substitution', text: 'substitution (time-weighted task risk)' },
  { key: 'complementarity', step: 'complementarity', text: 'complementarity (theta)' },
  { key: 'protective_moderation', step: 'protective_moderation', text: 'protective moderation (the complementarity multiplier)' },
  { key: 'label_coverage', step: 'label_coverage', text: 'label coverage (the shrinkage towards the median)' },
] as const;
export type ComponentKey = (typeof SCORE_STEPS)[number]['key'];
/** After the recorded steps: the shrinkage and scale (a parameter or the median moved), and the tier thresholds. */
export const STEP_NAMES = ['exposure', 'substitution', 'complementarity', 'protective_moderation', 'label_coverage', 'scaling', 'tier_thresholds'] as const;

/** One occupation of a release: its score, tier and the component figures behind the score. */
export const ReleaseOccupation = z.strictObject({
  soc_code: OnetSocCode,
  title: z.string(),
  final_score: z.number().min(0).max(100),
  risk_tier: RiskTier,
  exposure_score: z.number().min(0).max(100),
  task_exposure: z.number().min(0).max(100),
  complementarity: z.number().min(0).max(1),
  protective_moderation: z.number().min(0).max(1),
  label_coverage: z.number().min(0).max(1),
  score_low: z.number().min(0).max(100),
  score_high: z.number().min(0).max(100),
});
export type ReleaseOccupation = z.infer<typeof ReleaseOccupation>;

/** What identifies a release: its data version and the versions of what it is made of. */
export const ReleaseVersions = z.strictObject({
  data_version: z.string().describe('The release: source versions and model version, e.g. onet-29.3+oews-may-2025+model-2.0.0.'),
  model_version: z.string(),
  onet_version: z.string(),
  oews_period: z.string(),
  projections_period: z.string(),
});
export type ReleaseVersions = z.infer<typeof ReleaseVersions>;

export const ReleaseSummary = ReleaseVersions.extend({
  occupation_count: z.number().int().min(0),
  /** Sorted by soc_code. */
  occupations: z.array(ReleaseOccupation),
}).strict();
export type ReleaseSummary = z.infer<typeof ReleaseSummary>;

export const releaseVersions = (s: ReleaseVersions): ReleaseVersions => ({
  data_version: s.data_version,
  model_version: s.model_version,
  onet_version: s.onet_version,
  oews_period: s.oews_period,
  projections_period: s.projections_period,
});

function releaseOccupation(o: OccupationRecord): ReleaseOccupation {
  const r = o.risk_score;
  return {
    soc_code: o.soc_code,
    title: o.title,
    final_score: r.final_score,
    risk_tier: r.risk_tier,
    exposure_score: r.exposure_score,
    task_exposure: r.task_exposure,
    complementarity: r.complementarity,
    protective_moderation: r.protective_moderation,
    label_coverage: r.label_coverage,
    score_low: r.score_low,
    score_high: r.score_high,
  };
}

/** This build's release summary (the same in every interface shape). */
export function releaseSummary(model: ModelOutput): ReleaseSummary {
  const occupations = model.occupations.map(releaseOccupation).sort((a, b) => (a.soc_code < b.soc_code ? -1 : a.soc_code > b.soc_code ? 1 : 0));
  return { ...releaseVersions(model.meta), occupation_count: occupations.length, occupations };
}

/** The summary as a file: pretty at the top, one occupation per line (a release's diff is one line per occupation). */
export function releaseSummaryJson(s: ReleaseSummary): string {
  const { occupations, ...head } = s;
  const top = JSON.stringify(head, null, 2).slice(0, -2);
  return `${top},\n  "occupations": [\n${occupations.map((o) => `    ${JSON.stringify(o)}`).join(',\n')}\n  ]\n}\n`;
}

// --- Comparing two releases ---

export const ChangeStatus = z.enum(['unchanged', 'changed', 'added', 'removed']);

export const OccupationChange = z.strictObject({
  soc_code: OnetSocCode,
  title: z.string(),
  status: ChangeStatus.describe('changed: the score or tier moved; unchanged: neither moved; added or removed: in one release only.'),
  previous_final_score: z.number().nullable(),
  previous_risk_tier: RiskTier.nullable(),
  final_score: z.number().nullable(),
  risk_tier: RiskTier.nullable(),
  difference: z.number().nullable().describe('final_score - previous_final_score (1 decimal); null for an added or removed occupation.'),
  tier_changed: z.boolean(),
  cause: z.array(z.enum(['data', 'model'])).describe('What differs between the two releases: the source data, the model, both; empty for the same release.'),
  step: z.enum(STEP_NAMES).nullable().describe('The first step of the score whose figure moved (exposure, substitution, complementarity, protective_moderation, label_coverage), else scaling, or tier_thresholds when only the tier moved; null when unchanged, added or removed.'),
  components: z
    .record(z.string(), z.strictObject({ previous: z.number(), current: z.number(), difference: z.number() }))
    .describe('Each component figure that moved, previous and current.'),
  reason: z.string().describe('One line: why it moved, or "unchanged".'),
});
export type OccupationChange = z.infer<typeof OccupationChange>;

export const ChangesBody = z.strictObject({
  previous: ReleaseVersions.nullable().describe('The previous published release (null when none is recorded). While this is the first recorded release, it is compared with its own record.'),
  current: ReleaseVersions,
  counts: z.strictObject({
    occupations: z.number().int().min(0),
    changed: z.number().int().min(0),
    unchanged: z.number().int().min(0),
    added: z.number().int().min(0),
    removed: z.number().int().min(0),
    tier_changed: z.number().int().min(0),
  }),
  data: z.array(OccupationChange).describe('Every occupation of either release, by soc_code.'),
});
export const ChangesResponse = ChangesBody.extend({ model_version: ModelVersionField }).strict();
export type Changes = z.infer<typeof ChangesBody>;

const round1 = (x: number) => Math.round(x * 10) / 10;
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
const signed = (x: number) => `${x > 0 ? '+' : ''}${x}`;

/** What differs between two releases, in words: 'model 2.0.0 -> 2.1.0', 'O*NET 29.3 -> 30.0'. */
function releaseDifferences(prev: ReleaseVersions, cur: ReleaseVersions): { cause: Array<'data' | 'model'>; words: string[] } {
  const data: string[] = [];
  if (prev.onet_version !== cur.onet_version) data.push(`O*NET ${prev.onet_version} -> ${cur.onet_version}`);
  if (prev.oews_period !== cur.oews_period) data.push(`OEWS ${prev.oews_period} -> ${cur.oews_period}`);
  if (prev.projections_period !== cur.projections_period) data.push(`projections ${prev.projections_period} -> ${cur.projections_period}`);
  const model = prev.model_version !== cur.model_version ? [`model ${prev.model_version} -> ${cur.model_version}`] : [];
  // The data version names sources beyond the three above (exposure labels...): a change there is a data change too.
  const other = data.length === 0 && prev.data_version.replace(/\+model-[^+]*$/, '') !== cur.data_version.replace(/\+model-[^+]*$/, '') ? [`data ${prev.data_version} -> ${cur.data_version}`] : [];
  const words = [...data, ...other, ...model];
  const cause: Array<'data' | 'model'> = [];
  if (data.length + other.length > 0) cause.push('data');
  if (model.length > 0) cause.push('model');
  return { cause, words };
}

/** One occupation in both releases. */
function compareOne(p: ReleaseOccupation, c: ReleaseOccupation, release: { cause: Array<'data' | 'model'>; words: string[] }): OccupationChange {
  const difference = round1(c.final_score - p.final_score);
  const tierChanged = p.risk_tier !== c.risk_tier;
  const components: OccupationChange['components'] = {};
  for (const s of SCORE_STEPS) {
    if (p[s.key] !== c[s.key]) components[s.key] = { previous: p[s.key], current: c[s.key], difference: s.key === 'exposure_score' || s.key === 'task_exposure' ? round1(c[s.key] - p[s.key]) : round4(c[s.key] - p[s.key]) };
  }
  const moved = difference !== 0 || tierChanged;
  const base = { soc_code: c.soc_code, title: c.title, previous_final_score: p.final_score, previous_risk_tier: p.risk_tier, final_score: c.final_score, risk_tier: c.risk_tier, difference, tier_changed: tierChanged, cause: moved ? release.cause : [], components };
  if (!moved) return { ...base, status: 'unchanged', step: null, reason: 'unchanged' };
  const first = SCORE_STEPS.find((s) => components[s.key]);
  const step: OccupationChange['step'] = first ? first.step : difference !== 0 ? 'scaling' : 'tier_thresholds';
  const stepText = first
    ? `${first.text} ${p[first.key]} -> ${c[first.key]}`
    : difference !== 0
      ? 'the shrinkage and scale of the score (its components unchanged)'
      : `the tier thresholds (${p.risk_tier} -> ${c.risk_tier} at the same score)`;
  const by = release.words.length > 0 ? release.words.join(', ') : 'a rebuild of the same release';
  const tier = tierChanged && first ? `; tier ${p.risk_tier} -> ${c.risk_tier}` : '';
  return { ...base, status: 'changed', step, reason: `${signed(difference)}: ${by}; first moved at ${stepText}${tier}` };
}

const byCode = (a: { soc_code: string }, b: { soc_code: string }) => (a.soc_code < b.soc_code ? -1 : a.soc_code > b.soc_code ? 1 : 0);

/** Every occupation of either release, compared; `previous` null: every occupation is added. */
export function compareReleases(previous: ReleaseSummary | null, current: ReleaseSummary): Changes {
  const prevBy = new Map((previous?.occupations ?? []).map((o) => [o.soc_code, o]));
  const curCodes = new Set(current.occupations.map((o) => o.soc_code));
  const release = previous ? releaseDifferences(previous, current) : { cause: [], words: [] };
  const data: OccupationChange[] = [];
  for (const c of current.occupations) {
    const p = prevBy.get(c.soc_code);
    if (p) data.push(compareOne(p, c, release));
    else
      data.push({
        soc_code: c.soc_code, title: c.title, status: 'added', previous_final_score: null, previous_risk_tier: null, final_score: c.final_score, risk_tier: c.risk_tier,
        difference: null, tier_changed: false, cause: release.cause, step: null, components: {},
        reason: previous ? `added in ${current.data_version} (not in ${previous.data_version})` : 'added: no previous release is recorded',
      });
  }
  for (const p of previous?.occupations ?? []) {
    if (curCodes.has(p.soc_code)) continue;
    data.push({
      soc_code: p.soc_code, title: p.title, status: 'removed', previous_final_score: p.final_score, previous_risk_tier: p.risk_tier, final_score: null, risk_tier: null,
      difference: null, tier_changed: false, cause: release.cause, step: null, components: {},
      reason: `removed in ${current.data_version} (scored in ${previous!.data_version})`,
    });
  }
  data.sort(byCode);
  const n = (s: OccupationChange['status']) => data.filter((d) => d.status === s).length;
  return {
    previous: previous ? releaseVersions(previous) : null,
    current: releaseVersions(current),
    counts: { occupations: data.length, changed: n('changed'), unchanged: n('unchanged'), added: n('added'), removed: n('removed'), tier_changed: data.filter((d) => d.tier_changed).length },
    data,
  };
}

/** The numeric form of a model version for ordering ('2.10.0' after '2.9.1'). */
export function versionKey(v: string): number[] {
  return v.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : 0));
}
const cmpVersions = (a: string, b: string) => {
  const x = versionKey(a);
  const y = versionKey(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};

/**
 * The release a build compares with, among the recorded ones: the latest other release (by model
 * version, then data version) not newer than this build's model; while this release is the only
 * one recorded, its own record (every difference 0); none recorded, null.
 */
export function previousRelease(recorded: readonly ReleaseSummary[], current: ReleaseVersions): ReleaseSummary | null {
  const older = recorded
    .filter((r) => r.data_version !== current.data_version && cmpVersions(r.model_version, current.model_version) <= 0)
    .sort((a, b) => cmpVersions(a.model_version, b.model_version) || (a.data_version < b.data_version ? -1 : a.data_version > b.data_version ? 1 : 0));
  return older.at(-1) ?? recorded.find((r) => r.data_version === current.data_version) ?? null;
}

/** The occupation page's line, only when the score or tier moved: 'Changed since model 2.0.0: +1.2, because ...'. */
export function changeLine(c: OccupationChange | undefined, previous: ReleaseVersions | null): string | null {
  if (!c || c.status !== 'changed' || !previous) return null;
  return `Changed since model ${previous.model_version} (${previous.data_version}): ${signed(c.difference!)}, because ${c.reason.replace(/^[^:]*: /, '')}.`;
}
