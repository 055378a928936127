// Why an occupation got its score: the score's points attributed to the model's own steps, from a
// baseline (the typical occupation: the median of each factor), by Owen values (Shapley values
// with the task mix's two factors as one group) over the model's step functions themselves, so
// the explanation follows the model when its inputs or formulas change. Pure.
import { complementarityMultiplier, type ComplementarityParts } from './complementarity.ts';
import { scaleValue, shrunkDisplacement, type OccupationLayers, type TaskTerms } from './displacement.ts';
import { median } from './num.ts';

/** The waterfall's steps after the baseline, in order. */
export const STEP_KEYS = ['exposure', 'substitution', 'complementarity', 'shrinkage'] as const;
export type StepKey = (typeof STEP_KEYS)[number];
export type ContributionKey = 'baseline' | StepKey;
export type PartKey = keyof ComplementarityParts;

export const CONTRIBUTION_LABELS: Record<ContributionKey, string> = {
  baseline: 'Typical occupation (the median of each factor)',
  exposure: 'Share of work time AI can do',
  substitution: 'AI replacing rather than assisting that work',
  complementarity: 'Complementarity (education, responsibility, physical, interpersonal and technology work)',
  shrinkage: 'Shrinkage toward the median occupation (limited task evidence)',
};

export const PART_LABELS: Record<PartKey, string> = {
  education_experience: 'Education and experience required',
  responsibility: 'Responsibility (complex judgment, leadership)',
  physical: 'Physical presence and manual dexterity',
  interpersonal: 'Interpersonal work (social intelligence)',
  technology: 'Technology work',
};
const PART_KEYS = Object.keys(PART_LABELS) as PartKey[];

/** The words the summary uses for each step. */
const STEP_WORDS: Record<StepKey, string> = {
  exposure: 'the share of its work time AI can do',
  substitution: 'how much AI use would replace rather than assist its tasks',
  complementarity: 'complementarity (education, responsibility, physical, interpersonal and technology work)',
  shrinkage: 'the shrinkage toward the median occupation (an allowance for limited task evidence)',
};

/** The typical occupation the waterfall starts from: the median of each factor over all scored occupations. */
export interface ExplanationBaseline {
  /** Median exposure E (share of work time AI can do). */
  exposure: number;
  /** Median substitution factor P = X / E over occupations with E > 0. */
  substitution: number;
  /** Median of each complementarity part; theta is their mean, as the model averages the parts. */
  parts: ComplementarityParts;
  theta: number;
}

export function explanationBaseline(items: ReadonlyArray<{ layers: OccupationLayers; parts: ComplementarityParts }>): ExplanationBaseline {
  const parts = Object.fromEntries(PART_KEYS.map((k) => [k, median(items.map((i) => i.parts[k]))])) as unknown as ComplementarityParts;
  return {
    exposure: median(items.map((i) => i.layers.exposure)),
    substitution: median(items.filter((i) => i.layers.exposure > 0).map((i) => i.layers.substitution_exposure / i.layers.exposure)),
    parts,
    theta: PART_KEYS.reduce((a, k) => a + parts[k], 0) / PART_KEYS.length,
  };
}

/** The score's steps as the model runs them, with what each needs beyond the factors. */
export interface ScoreSteps {
  thetaMin: number;
  kappa: number;
  /** Shrinkage target and pseudo-task count. */
  prior: number;
  priorTasks: number;
  halfSaturation: number;
}

export interface ExplainInput {
  layers: OccupationLayers;
  /** Per-task terms of the layers, aligned with tasks. */
  terms: TaskTerms;
  tasks: ReadonlyArray<{ task_id: number; description: string }>;
  parts: ComplementarityParts;
  theta: number;
}

export interface Points<K extends string = string> {
  key: K;
  label: string;
  points: number;
}
export interface TaskPoints {
  task_id: number;
  description: string;
  points: number;
}
export interface Explanation {
  summary: string;
  contributions: Points<ContributionKey>[];
  /** The complementarity step's points shared among its five parts. */
  complementarity_parts: Points<PartKey>[];
  top_tasks: TaskPoints[];
}

const DECIMALS = 1;
/** How many tasks top_tasks names on each side. */
export const TOP_TASKS = 3;

/** Shapley values of an n-player game v(mask), mask bit i set: player i at its actual value. */
export function shapley(n: number, v: (mask: number) => number): number[] {
  const fact = (k: number): number => (k <= 1 ? 1 : k * fact(k - 1));
  const cache = new Map<number, number>();
  const val = (m: number) => {
    let x = cache.get(m);
    if (x === undefined) cache.set(m, (x = v(m)));
    return x;
  };
  const out = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    for (let m = 0; m < 1 << n; m++) {
      if (m & (1 << i)) continue;
      let size = 0;
      for (let b = m; b; b &= b - 1) size++;
      out[i]! += ((fact(size) * fact(n - size - 1)) / fact(n)) * (val(m | (1 << i)) - val(m));
    }
  }
  return out;
}

/**
 * Round to `decimals` so the rounded values add up exactly to `total` (already rounded): floors,
 * then the missing units to the largest remainders (ties to the earlier item), or taken from the
 * smallest when the floors overshoot.
 */
export function roundToTotal(values: readonly number[], total: number, decimals = DECIMALS): number[] {
  const f = 10 ** decimals;
  const scaled = values.map((v) => v * f);
  const out = scaled.map(Math.floor);
  let missing = Math.round(total * f) - out.reduce((a, b) => a + b, 0);
  const order = scaled.map((v, i) => [v - Math.floor(v), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let j = 0; missing !== 0 && order.length > 0; j++) {
    const step = Math.sign(missing);
    const [, i] = step > 0 ? order[j % order.length]! : order[order.length - 1 - (j % order.length)]!;
    out[i]! += step;
    missing -= step;
  }
  return out.map((v) => v / f);
}

const fmt = (x: number) => x.toFixed(DECIMALS);

/**
 * The model's score from its factors: exposure E and substitution factor P (X = E * P; x gives X
 * itself, so the actual occupation's score is computed from the model's own X), complementarity
 * theta, and the shrinkage (on: the model's prior_tasks pseudo-tasks; off: none). Unrounded.
 */
function scoreOf(s: ScoreSteps, labelledTasks: number, x: number, theta: number, shrink: boolean): number {
  const c = complementarityMultiplier(theta, s.thetaMin, s.kappa);
  // With no pseudo-tasks, D = X * C (an occupation without labelled tasks counts as one task here, not as D = 0).
  const d = shrink ? shrunkDisplacement(x, c, labelledTasks, s.prior, s.priorTasks) : shrunkDisplacement(x, c, Math.max(1, labelledTasks), s.prior, 0);
  return scaleValue(d, s.halfSaturation);
}

export function explainScore(o: ExplainInput, base: ExplanationBaseline, s: ScoreSteps, finalScore: number, title: string): Explanation {
  const E = o.layers.exposure;
  const X = o.layers.substitution_exposure;
  const P = E > 0 ? X / E : base.substitution;
  const X0 = base.exposure * base.substitution;
  const n = o.layers.labelled_tasks;
  // The quotient game: task mix X (bit 0), complementarity theta (bit 1), shrinkage (bit 2).
  const game = (xa: number, xb: number, ta = o.theta) => (m: number) => scoreOf(s, n, m & 1 ? xa : xb, m & 2 ? ta : base.theta, (m & 4) !== 0);
  const [mix, comp, shrink] = shapley(3, game(X, X0)) as [number, number, number];
  // Owen values: inside the task-mix group, exposure and substitution share its points by Shapley (two players, half each way).
  const exposure = (shapley(3, game(E * base.substitution, X0))[0]! + shapley(3, game(X, base.exposure * P))[0]!) / 2;
  const substitution = mix - exposure;
  const baseline = scoreOf(s, n, X0, base.theta, false);

  const raw: Record<ContributionKey, number> = { baseline, exposure, substitution, complementarity: comp, shrinkage: shrink };
  const keys: ContributionKey[] = ['baseline', ...STEP_KEYS];
  // The baseline keeps its own rounding (the same for every occupation); the steps share the rest.
  const baselinePoints = round1(baseline);
  const rounded = [baselinePoints, ...roundToTotal(STEP_KEYS.map((k) => raw[k]), round1(finalScore - baselinePoints))];
  const contributions = keys.map((k, i) => ({ key: k, label: CONTRIBUTION_LABELS[k], points: rounded[i]! }));
  const pts = Object.fromEntries(contributions.map((c) => [c.key, c.points])) as Record<ContributionKey, number>;

  // A factor's points per unit of its deviation from the baseline (Shapley's average secant slope; near the baseline, its derivative).
  const EPS = 1e-9;
  const H = 1e-6;
  const slopeX = Math.abs(X - X0) > EPS ? mix / (X - X0) : shapley(3, game(X0 + H, X0))[0]! / H;
  const slopeT = Math.abs(o.theta - base.theta) > EPS ? comp / (o.theta - base.theta) : shapley(3, game(X, X0, base.theta + H))[1]! / H;

  // Parts: theta is their mean, so each part's deviation / 5 adds up to theta's.
  const partRaw = PART_KEYS.map((k) => (slopeT * (o.parts[k] - base.parts[k])) / PART_KEYS.length);
  const partRounded = roundToTotal(partRaw, pts.complementarity);
  const complementarity_parts = PART_KEYS.map((k, i) => ({ key: k, label: PART_LABELS[k], points: partRounded[i]! }));

  // Tasks: each task's substitution-weighted exposure against the baseline's at the same time share; they add up to the task mix's points.
  const taskRaw = o.tasks.map((_, i) => slopeX * (o.terms.substitution[i]! - o.terms.time[i]! * X0));
  const taskRounded = roundToTotal(taskRaw, round1(pts.exposure + pts.substitution));
  const all = o.tasks.map((t, i) => ({ task_id: t.task_id, description: t.description, points: taskRounded[i]!, raw: taskRaw[i]! }));
  const adds = all.filter((t) => t.points > 0).sort((a, b) => b.raw - a.raw || a.task_id - b.task_id).slice(0, TOP_TASKS);
  const protects = all.filter((t) => t.points < 0).sort((a, b) => a.raw - b.raw || a.task_id - b.task_id).slice(0, TOP_TASKS);
  const top_tasks = [...adds, ...protects].map(({ task_id, description, points }) => ({ task_id, description, points }));

  return { summary: summaryOf(title, finalScore, contributions), contributions, complementarity_parts, top_tasks };
}

const round1 = (x: number) => Math.round(x * 10 ** DECIMALS) / 10 ** DECIMALS;

/** One or two sentences from the rounded contributions: the score against the baseline, the step that raises it most and the one that lowers it most. */
export function summaryOf(title: string, finalScore: number, contributions: readonly Points<ContributionKey>[]): string {
  const baseline = contributions.find((c) => c.key === 'baseline')!.points;
  const steps = contributions.filter((c): c is Points<StepKey> => c.key !== 'baseline');
  const up = [...steps].filter((c) => c.points > 0).sort((a, b) => b.points - a.points)[0];
  const down = [...steps].filter((c) => c.points < 0).sort((a, b) => a.points - b.points)[0];
  const diff = round1(finalScore - baseline);
  const rel = diff > 0 ? `${fmt(diff)} points above` : diff < 0 ? `${fmt(-diff)} points below` : 'the same as';
  const first = `${title} scores ${fmt(finalScore)} of 100, ${rel} the typical occupation's ${fmt(baseline)}.`;
  // The larger mover first.
  const parts = [up, down]
    .filter((c): c is Points<StepKey> => c !== undefined)
    .sort((a, b) => Math.abs(b.points) - Math.abs(a.points))
    .map((c) => `${STEP_WORDS[c.key]} ${c.points > 0 ? `raises it most (+${fmt(c.points)})` : `lowers it most (${fmt(c.points)})`}`);
  if (parts.length === 0) return `${first} No step of the model moves it from there.`;
  const second = parts.join('; ');
  return `${first} ${second.charAt(0).toUpperCase()}${second.slice(1)}.`;
}

/**
 * What lowers the score most among the things an occupation can be said to have: a
 * complementarity part, or the task mix (exposure, substitution); never the shrinkage or the
 * baseline. Null when none of them lowers it.
 */
export function mostProtective(e: Pick<Explanation, 'contributions' | 'complementarity_parts'>): Points | null {
  const mix = e.contributions.filter((c) => c.key === 'exposure' || c.key === 'substitution');
  const candidates: Points[] = [...e.complementarity_parts, ...mix];
  const best = candidates.filter((c) => c.points < 0).sort((a, b) => a.points - b.points)[0];
  return best ?? null;
}
