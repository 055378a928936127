// The score interval's alternatives (model 3.0.0; kappa 0 added in 3.1.0): the modelling choices a reviewer would try,
// combined rather than one at a time. Each dimension lists its levels, the base model's first; an
// alternative takes one level of every dimension, drawn independently with a seeded Mulberry32 (the
// base model's level with probability base_weight, else one of the others, each as likely), so the
// same seeds give the same alternatives. The published interval is a central
// quantile range of an occupation's scores over the construction set; a disjoint held-out set
// (another seed) measures how much of what was not used to make it the interval covers.
// A sensitivity range over modelling choices, not a probability interval: the levels are the
// published alternatives, none estimated, and their draw probabilities are a choice (base_weight).
import { BASE, type Variant } from './displacement.ts';
import { clamp, prng } from './num.ts';
import type { ModelParamsSeed } from './params.ts';

export interface IntervalDimension {
  name: string;
  /** The choices of this dimension, the base model's first (each a change to the base variant). */
  levels: ReadonlyArray<Partial<Variant>>;
}

/** Every dimension of the interval, in a fixed order (the sampling draws in this order). */
export function intervalDimensions(p: ModelParamsSeed): IntervalDimension[] {
  const s = p.interval.parameter_spread.value;
  const moved = (key: 'usage_weight' | 't_weight' | 'default_raw' | 'floor' | 'kappa' | 'prior_tasks', value: number, unit: boolean): IntervalDimension => ({
    name: key,
    levels: [{}, { [key]: unit ? clamp(value * (1 - s), 0, 1) : value * (1 - s) }, { [key]: unit ? clamp(value * (1 + s), 0, 1) : value * (1 + s) }],
  });
  return [
    { name: 'e2_weight', levels: [{}, ...p.interval.e2_values.value.map((e2) => ({ e2 }))] },
    { name: 'category_factors', levels: [{}, { category_factors: 'flat' }] },
    { name: 'time_weights', levels: [{}, { weights: 'type' }, { weights: 'tilt_up' }, { weights: 'tilt_down' }] },
    moved('prior_tasks', p.scale.prior_tasks.value, false),
    { name: 'aei_usage', levels: [{}, { usage: false }] },
    { name: 'aei_collaboration', levels: [{}, { aei: false }] },
    { name: 'gpt4_automation_levels', levels: [{}, { tlevel: false }] },
    { name: 'raters', levels: [{}, { raters: 'human' }, { raters: 'gpt4' }] },
    { name: 'unlabelled_tasks', levels: [{}, { unlabelled: 0 }, { unlabelled: 1 }] },
    moved('usage_weight', p.capability.usage_weight.value, true),
    moved('t_weight', p.propensity.t_weight.value, true),
    // kappa 0 (no complementarity) as well as kappa moved: the declared tests cannot tell the two apart (3.1.0).
    { name: 'kappa', levels: [...moved('kappa', p.complementarity.kappa.value, false).levels, { kappa: 0 }] },
    moved('default_raw', p.propensity.default_raw.value, true),
    moved('floor', p.propensity.floor.value, true),
  ];
}

/** A sampled alternative and the level it took in each dimension (index into that dimension's levels). */
export interface Alternative extends Variant {
  levels: Record<string, number>;
}

export type AlternativeSet = 'construction' | 'held_out';

/**
 * THE interval's alternatives: `set` construction (what the published interval is made of) or
 * held_out (a disjoint draw, for its coverage). `fixed` keeps one dimension at the base model's
 * level (the leave-one-dimension-out check); the other draws stay the same.
 */
export function intervalAlternatives(p: ModelParamsSeed, set: AlternativeSet = 'construction', fixed?: string): Alternative[] {
  const { count, seed } = p.interval[set].value;
  const dims = intervalDimensions(p);
  if (fixed !== undefined && !dims.some((d) => d.name === fixed)) throw new Error(`no interval dimension ${fixed}`);
  const baseWeight = p.interval.base_weight.value;
  const rand = prng(seed);
  const out: Alternative[] = [];
  for (let i = 0; i < count; i++) {
    let v: Variant = { ...BASE, name: `${set}_${i + 1}` };
    const levels: Record<string, number> = {};
    for (const d of dims) {
      // Always draw, so that fixing one dimension leaves every other dimension's draws unchanged.
      const r = rand();
      const drawn = r < baseWeight ? 0 : 1 + Math.min(d.levels.length - 2, Math.floor(((r - baseWeight) / (1 - baseWeight)) * (d.levels.length - 1)));
      const at = d.name === fixed ? 0 : drawn;
      levels[d.name] = at;
      v = { ...v, ...d.levels[at] };
    }
    // Every alternative with every field, in one order: one object shape for the hot loops.
    out.push({
      name: v.name,
      usage: v.usage,
      aei: v.aei,
      tlevel: v.tlevel,
      wwai: v.wwai,
      raters: v.raters,
      weights: v.weights,
      unlabelled: v.unlabelled,
      usage_weight: v.usage_weight,
      t_weight: v.t_weight,
      floor: v.floor,
      default_raw: v.default_raw,
      kappa: v.kappa,
      prior_tasks: v.prior_tasks,
      e2: v.e2,
      category_factors: v.category_factors,
      levels,
    });
  }
  return out;
}
