// Occupation-level layers of model 2: exposure (share of work time AI can do), substitution-
// weighted exposure, the complementarity adjustment, shrinkage toward the prior and the scale;
// and the evidence variants (leave one source out, parameter perturbation) whose spread is the
// published interval. Pure arithmetic on per-task inputs prepared by index.ts.
import { clamp, round } from './num.ts';
import type { ModelParamsSeed } from './params.ts';

/** Everything the occupation formulas need about one task, before any choice of variant. */
export interface TaskInputs {
  /** Beta values (E0 0, E1 1, E2 0.5) of the human and GPT-4 labels; null when absent. */
  human: number | null;
  gpt4: number | null;
  /** Whether each label is E2 (exposed only with software built on the model): alternatives weight E2 at 0.25 or 0.75. */
  human_e2: boolean;
  gpt4_e2: boolean;
  /** AEI usage intensity U (0 when the task was never observed). */
  usage: number;
  /** AEI automation share (directive + feedback loop among classified); null when absent. */
  aei: number | null;
  /** GPT-4 automation level T0..T4 as 0..1; null when absent. */
  t: number | null;
  /** Working with AI AI-action share of the task's IWAs (wwai.ts); null or absent when none has one. */
  wwai?: number | null;
  category_factor: number;
  /** Time weight from the best evidence (Task Ratings, IWA weights, GWA importance). */
  weight: number;
  /** Time weight from Task Type only (the 1.0.0 weights). */
  type_weight: number;
}

/** Which evidence a computation uses: the base model, or one source left out / one parameter moved. */
export interface Variant {
  name: string;
  usage: boolean;
  aei: boolean;
  tlevel: boolean;
  /** Working with AI AI-action shares (used only when params.propensity.wwai.weight > 0). */
  wwai: boolean;
  raters: 'both' | 'human' | 'gpt4';
  weights: 'best' | 'type' | 'tilt_up' | 'tilt_down';
  /** Label value of unlabelled tasks: the occupation's mean (base), or a bound. */
  unlabelled: 'mean' | 0 | 1;
  usage_weight?: number;
  t_weight?: number;
  floor?: number;
  default_raw?: number;
  kappa?: number;
  prior_tasks?: number;
  /** Label value of E2 (Eloundou et al. alpha 0, beta 0.5, gamma 1; the interval tries 0.25 and 0.75); absent: the seeded value. */
  e2?: number;
  /** Task-category factors as seeded, or all 1 (capability and propensity alone). */
  category_factors?: 'seeded' | 'flat';
}

export const BASE: Variant = { name: 'base', usage: true, aei: true, tlevel: true, wwai: true, raters: 'both', weights: 'best', unlabelled: 'mean' };

export interface OccupationLayers {
  /** Share of work time AI can do: sum tf * capability (0..1). */
  exposure: number;
  /** Time-weighted task risk: sum tf * capability * propensity * category factor (0..1). */
  substitution_exposure: number;
  /** Share of labelled time. */
  coverage: number;
  /** Number of labelled tasks (the evidence count of the shrinkage). */
  labelled_tasks: number;
}

export function labelValue(human: number | null, gpt4: number | null, raters: Variant['raters']): number | null {
  if (raters === 'human') return human ?? gpt4;
  if (raters === 'gpt4') return gpt4 ?? human;
  // The mean of the labels present, without an array per call (this runs for every task under every variant).
  return human !== null && gpt4 !== null ? (human + gpt4) / 2 : human ?? gpt4;
}

export interface PropensityParams {
  t_weight: number;
  floor: number;
  default_raw: number;
  /** Weight of the Working with AI AI-action share W; 0 or absent: W is not used. */
  wwai_weight?: number;
}

/**
 * Substitution propensity of AI use on a task: floor + (1 - floor) * raw, raw = t_weight * T +
 * (1 - t_weight) * A with both, whichever exists, else default_raw. With a Working with AI weight
 * w > 0 and W present: raw = (1 - w) * raw + w * W, or W alone when neither T nor A exists.
 */
export function propensity(t: number | null, aei: number | null, p: PropensityParams, wwai: number | null = null): number {
  let raw: number;
  if (t !== null && aei !== null) raw = p.t_weight * t + (1 - p.t_weight) * aei;
  else if (t !== null) raw = t;
  else if (aei !== null) raw = aei;
  else raw = p.default_raw;
  const w = p.wwai_weight ?? 0;
  if (wwai !== null && w > 0) raw = t === null && aei === null ? wwai : (1 - w) * raw + w * wwai;
  return clamp(p.floor + (1 - p.floor) * raw, 0, 1);
}

/** Time fractions of one variant: best or Task Type weights, optionally tilted toward (away from) exposed tasks. */
export function variantFractions(tasks: readonly TaskInputs[], caps: ArrayLike<number>, v: Variant, tilt: number): Float64Array {
  const n = tasks.length;
  const w = new Float64Array(n);
  const type = v.weights === 'type';
  for (let i = 0; i < n; i++) w[i] = type ? tasks[i]!.type_weight : tasks[i]!.weight;
  if (v.weights === 'tilt_up' || v.weights === 'tilt_down') {
    const sign = v.weights === 'tilt_up' ? 1 : -1;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += w[i]!;
    const total = sum || 1;
    let mean = 0;
    for (let i = 0; i < n; i++) mean += (caps[i]! * w[i]!) / total;
    for (let i = 0; i < n; i++) w[i] = w[i]! * Math.max(0.05, 1 + sign * tilt * (caps[i]! - mean));
  }
  let total = 0;
  for (let i = 0; i < n; i++) total += w[i]!;
  for (let i = 0; i < n; i++) w[i] = total > 0 ? w[i]! / total : 1 / n;
  return w;
}

/** The fields occupationLayers reads: variants that differ from the base only elsewhere (kappa, prior_tasks) have the base's layers. */
const LAYER_FIELDS = ['usage', 'aei', 'tlevel', 'wwai', 'raters', 'weights', 'unlabelled', 'usage_weight', 't_weight', 'floor', 'default_raw', 'e2', 'category_factors'] as const;
export const sameLayers = (a: Variant, b: Variant): boolean => LAYER_FIELDS.every((f) => a[f] === b[f]);

/** A variant's layers before the propensities: which tasks are labelled, capabilities, time fractions. */
interface LayerBasis {
  labelled: Uint8Array;
  count: number;
  caps: Float64Array;
  tf: Float64Array;
}

/** The variant fields a LayerBasis depends on (the propensity fields, kappa and prior_tasks come later). */
const basisKey = (v: Variant): string => `${v.raters}|${v.unlabelled}|${v.usage}|${v.usage_weight ?? ''}|${v.weights}|${v.e2 ?? ''}`;

function layerBasis(tasks: readonly TaskInputs[], v: Variant, p: ModelParamsSeed, tilt: number): LayerBasis {
  const uw = v.usage_weight ?? p.capability.usage_weight.value;
  // Plain loops over typed arrays: this runs for every occupation under most variants.
  const n = tasks.length;
  const labels = new Float64Array(n);
  const labelled = new Uint8Array(n);
  // Unlabelled tasks: the occupation's (type-weighted) mean label, or a bound in the coverage variants.
  let ls = 0;
  let lw = 0;
  let count = 0;
  const e2 = v.e2;
  for (let i = 0; i < n; i++) {
    const t = tasks[i]!;
    const l = e2 === undefined ? labelValue(t.human, t.gpt4, v.raters) : labelValue(t.human_e2 ? e2 : t.human, t.gpt4_e2 ? e2 : t.gpt4, v.raters);
    if (l === null) continue;
    labels[i] = l;
    labelled[i] = 1;
    count++;
    ls = ls + l * t.weight;
    lw = lw + t.weight;
  }
  const fill = v.unlabelled === 'mean' ? (lw > 0 ? ls / lw : 0) : v.unlabelled;
  const caps = new Float64Array(n);
  const usage = v.usage;
  for (let i = 0; i < n; i++) {
    const L = labelled[i] ? labels[i]! : fill;
    caps[i] = clamp(L + uw * (usage ? tasks[i]!.usage : 0) * (1 - L), 0, 1);
  }
  return { labelled, count, caps, tf: variantFractions(tasks, caps, v, tilt) };
}

/** Each task's terms of the layer sums (the explanation shares the score among tasks with them). */
export interface TaskTerms {
  /** Time fraction tf. */
  time: Float64Array;
  /** tf * capability: the task's part of exposure. */
  exposure: Float64Array;
  /** tf * capability * propensity * category factor: the task's part of substitution_exposure. */
  substitution: Float64Array;
}

/** A variant's propensity parameters (one place: the layer sums and the task path read the same). */
const propensityParams = (v: Variant, p: ModelParamsSeed): PropensityParams => ({
  t_weight: v.t_weight ?? p.propensity.t_weight.value,
  floor: v.floor ?? p.propensity.floor.value,
  default_raw: v.default_raw ?? p.propensity.default_raw.value,
  wwai_weight: p.propensity.wwai.value.weight,
});

/** A task's risk per unit of capability under a variant: its propensity (the evidence sources the variant leaves on) times its category factor (1 in the flat-factors alternatives). */
const taskRiskFactor = (t: TaskInputs, v: Variant, pp: PropensityParams): number =>
  propensity(v.tlevel ? t.t : null, v.aei ? t.aei : null, pp, v.wwai ? (t.wwai ?? null) : null) * (v.category_factors === 'flat' ? 1 : t.category_factor);

function layerSums(tasks: readonly TaskInputs[], v: Variant, p: ModelParamsSeed, b: LayerBasis, terms?: TaskTerms): OccupationLayers {
  const pp = propensityParams(v, p);
  const { labelled, caps, tf } = b;
  const flat = v.category_factors === 'flat';
  let exposure = 0;
  let sub = 0;
  let coverage = 0;
  // The variant's fields read once: alternatives differ in which fields they set, so reading them per task is a megamorphic load.
  const tlevel = v.tlevel;
  const aei = v.aei;
  const wwai = v.wwai;
  for (let i = 0; i < tasks.length; i++) {
    const t = tasks[i]!;
    const prop = propensity(tlevel ? t.t : null, aei ? t.aei : null, pp, wwai ? (t.wwai ?? null) : null);
    const e = tf[i]! * caps[i]!;
    const x = e * prop * (flat ? 1 : t.category_factor);
    exposure += e;
    sub += x;
    if (terms) [terms.time[i], terms.exposure[i], terms.substitution[i]] = [tf[i]!, e, x];
    if (labelled[i]) coverage += tf[i]!;
  }
  return { exposure, substitution_exposure: sub, coverage, labelled_tasks: b.count };
}

/** Exposure and substitution-weighted exposure of one occupation under one variant. */
export function occupationLayers(tasks: readonly TaskInputs[], v: Variant, p: ModelParamsSeed, tilt: number): OccupationLayers {
  return layerSums(tasks, v, p, layerBasis(tasks, v, p, tilt));
}

/** Per-task figures of one variant (the terms occupationLayers sums): a person's own time shares can then replace tf. */
export interface VariantTasks {
  /** AI capability of each task (its share of the task's time AI can do). */
  caps: Float64Array;
  /** Task risk: capability * propensity * category factor, in the variant's terms. */
  risks: Float64Array;
  /** The variant's time fractions. */
  tf: Float64Array;
  /** Labelled tasks: the shrinkage's evidence count. */
  labelled_tasks: number;
}

export function variantTasks(tasks: readonly TaskInputs[], v: Variant, p: ModelParamsSeed, tilt: number): VariantTasks {
  const b = layerBasis(tasks, v, p, tilt);
  const pp = propensityParams(v, p);
  const risks = new Float64Array(tasks.length);
  for (let i = 0; i < tasks.length; i++) {
    const t = tasks[i]!;
    risks[i] = b.caps[i]! * taskRiskFactor(t, v, pp);
  }
  return { caps: b.caps, risks, tf: b.tf, labelled_tasks: b.count };
}

/** occupationLayers with each task's terms, which add up to the layers' exposure and substitution_exposure. */
export function taskLayers(tasks: readonly TaskInputs[], v: Variant, p: ModelParamsSeed, tilt: number): { layers: OccupationLayers; terms: TaskTerms } {
  const n = tasks.length;
  const terms: TaskTerms = { time: new Float64Array(n), exposure: new Float64Array(n), substitution: new Float64Array(n) };
  return { layers: layerSums(tasks, v, p, layerBasis(tasks, v, p, tilt), terms), terms };
}

/**
 * occupationLayers under each variant. Variants that move only the propensities (AEI
 * collaboration, automation levels, t_weight, default substitution, floor) share the labels,
 * capabilities and time fractions, which are made once for them.
 */
export function variantLayers(tasks: readonly TaskInputs[], variants: readonly Variant[], p: ModelParamsSeed, tilt: number): OccupationLayers[] {
  const bases = new Map<string, LayerBasis>();
  return variants.map((v) => {
    const key = basisKey(v);
    let b = bases.get(key);
    if (!b) bases.set(key, (b = layerBasis(tasks, v, p, tilt)));
    return layerSums(tasks, v, p, b);
  });
}

/**
 * Displacement on the natural scale: substitution-weighted exposure times the Pizzinelli et al.
 * complementarity multiplier, shrunk toward the prior with `prior_tasks` pseudo-tasks:
 *   D = (n * X * C + k * prior) / (n + k)
 * An occupation reaches 0 only with no pseudo-evidence (k = 0); with k > 0, every occupation keeps
 * the share of the prior its few labelled tasks cannot rule out.
 */
export function shrunkDisplacement(x: number, multiplier: number, labelledTasks: number, prior: number, k: number): number {
  const n = Math.max(0, labelledTasks);
  return n + k > 0 ? (n * x * multiplier + k * prior) / (n + k) : 0;
}

/**
 * Score 0..100 from D (0..1): 100 * D / (D + h) * (1 + h), a saturating (Michaelis-Menten) map
 * that is 0 only at D = 0 and 100 only at D = 1 (every hour fully exposed and substituted, no
 * complementarity); h is the half-saturation constant. One decimal.
 */
export function scaleScore(d: number, h: number): number {
  return round(scaleValue(d, h), 1);
}

/** scaleScore before its rounding (the explanation attributes the unrounded score). */
export function scaleValue(d: number, h: number): number {
  const x = clamp(d, 0, 1);
  return (100 * x * (1 + h)) / (x + h);
}

/**
 * The 2.x interval's family, one choice moved at a time (leave one source out, perturb one
 * parameter; the base model is not among them). Since 3.0.0 the interval is made of sampled
 * combinations (interval.ts); this family stays as a check of what it covers.
 */
export function evidenceVariants(p: ModelParamsSeed): Variant[] {
  const q = p.interval;
  const uw = p.capability.usage_weight.value;
  const tw = p.propensity.t_weight.value;
  const k = p.complementarity.kappa.value;
  const d = p.propensity.default_raw.value;
  const f = p.propensity.floor.value;
  const s = q.parameter_spread.value;
  const v = (name: string, o: Partial<Variant>): Variant => ({ ...BASE, name, ...o });
  return [
    v('without_aei_usage', { usage: false }),
    v('without_aei_collaboration', { aei: false }),
    v('without_gpt4_automation_levels', { tlevel: false }),
    v('human_labels_only', { raters: 'human' }),
    v('gpt4_labels_only', { raters: 'gpt4' }),
    v('task_type_time_weights', { weights: 'type' }),
    v('time_weights_tilted_up', { weights: 'tilt_up' }),
    v('time_weights_tilted_down', { weights: 'tilt_down' }),
    v('unlabelled_tasks_unexposed', { unlabelled: 0 }),
    v('unlabelled_tasks_exposed', { unlabelled: 1 }),
    v('usage_weight_low', { usage_weight: clamp(uw * (1 - s), 0, 1) }),
    v('usage_weight_high', { usage_weight: clamp(uw * (1 + s), 0, 1) }),
    v('t_weight_low', { t_weight: clamp(tw * (1 - s), 0, 1) }),
    v('t_weight_high', { t_weight: clamp(tw * (1 + s), 0, 1) }),
    v('kappa_low', { kappa: k * (1 - s) }),
    v('kappa_high', { kappa: k * (1 + s) }),
    v('default_substitution_low', { default_raw: clamp(d * (1 - s), 0, 1) }),
    v('default_substitution_high', { default_raw: clamp(d * (1 + s), 0, 1) }),
    v('floor_low', { floor: clamp(f * (1 - s), 0, 1) }),
    v('floor_high', { floor: clamp(f * (1 + s), 0, 1) }),
    v('prior_tasks_low', { prior_tasks: p.scale.prior_tasks.value * (1 - s) }),
    v('prior_tasks_high', { prior_tasks: p.scale.prior_tasks.value * (1 + s) }),
    // Only when the source is on in the base model: otherwise this variant is the base.
    ...(p.propensity.wwai.value.weight > 0 ? [v('without_wwai', { wwai: false })] : []),
  ];
}

/**
 * Interval width on the arcsine-square-root scale of the score: asin(sqrt(high/100)) -
 * asin(sqrt(low/100)). It is the variance-stabilizing transform of a proportion (Anscombe 1948),
 * so a given width means the same evidence uncertainty at a score of 5 as at 50: in points, low
 * scores would always look certain; in log-odds, they would always look uncertain.
 */
export function intervalWidth(low: number, high: number): number {
  const t = (s: number) => Math.asin(Math.sqrt(clamp(s, 0, 100) / 100));
  return t(high) - t(low);
}

/** Confidence word from the interval's width (arcsine-square-root scale), at the seeded cut points. */
export function confidenceFromWidth(width: number, p: ModelParamsSeed): 'high' | 'medium' | 'low' {
  if (width <= p.interval.high_max_width.value) return 'high';
  if (width <= p.interval.medium_max_width.value) return 'medium';
  return 'low';
}
