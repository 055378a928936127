// Protective factors (0..1) from named O*NET elements. An occupation O*NET has not rated
// (mostly new or specialty codes) borrows its SOC parent's values (the .00 occupation of the
// same SOC code); failing that, the median over rated occupations. Both fallbacks are counted.
import type { ElementRating, ModelInputs } from './inputs.ts';
import { clamp, median } from './num.ts';
import type { DescriptorSource, ProtectiveFactorsSeed } from './params.ts';

export type DescriptorIndex = Record<DescriptorSource, Map<string, Map<string, ElementRating>>>;

export function indexDescriptors(bundle: ModelInputs): DescriptorIndex {
  const build = (rows: readonly ElementRating[]) => {
    const m = new Map<string, Map<string, ElementRating>>();
    for (const r of rows) {
      const inner = m.get(r.soc_code) ?? new Map<string, ElementRating>();
      inner.set(r.element_id, r);
      m.set(r.soc_code, inner);
    }
    return m;
  };
  return {
    abilities: build(bundle.abilities),
    work_activities: build(bundle.work_activities),
    skills: build(bundle.skills),
    knowledge: build(bundle.knowledge),
  };
}

/** ((IM-1)/4)^a * (LV/7)^(1-a); 0 when O*NET marks the element not relevant; null if unusable. */
export function elementValue(r: ElementRating | undefined, a: number): number | null {
  if (!r || r.recommend_suppress) return null;
  if (r.not_relevant) return 0;
  if (r.importance === null || r.level === null) return null;
  const im = clamp((r.importance - 1) / 4, 0, 1);
  const lv = clamp(r.level / 7, 0, 1);
  return im ** a * lv ** (1 - a);
}

/** Weighted mean of the factor's elements that are available; null if none is. */
export function factorValue(
  soc: string,
  factor: ProtectiveFactorsSeed['factors'][string],
  idx: DescriptorIndex,
  a: number,
): number | null {
  let s = 0;
  let w = 0;
  for (const e of factor.elements) {
    const v = elementValue(idx[e.source].get(soc)?.get(e.element_id), a);
    if (v === null) continue;
    s += v * e.weight;
    w += e.weight;
  }
  return w > 0 ? s / w : null;
}

export interface ProtectiveResult {
  values: Map<string, Record<string, number>>;
  /** Per occupation: how each factor was obtained. */
  source: Map<string, Record<string, 'own' | 'soc_parent' | 'median'>>;
  report: { own: number; soc_parent: number; median: number };
}

export function computeProtective(
  socs: readonly string[],
  idx: DescriptorIndex,
  seed: ProtectiveFactorsSeed,
): ProtectiveResult {
  const a = seed.importance_exponent.value;
  const names = Object.keys(seed.factors).sort();
  // An occupation's factor values (in `names` order), computed once: the served occupations, the
  // medians' occupations and the SOC parents are mostly the same ones.
  const computed = new Map<string, Array<number | null>>();
  const valuesOf = (soc: string): Array<number | null> => {
    let v = computed.get(soc);
    if (!v) computed.set(soc, (v = names.map((n) => factorValue(soc, seed.factors[n]!, idx, a))));
    return v;
  };
  // Medians over every rated occupation in the descriptor files, not only the served ones.
  const allSocs = new Set<string>();
  for (const src of Object.values(idx)) for (const k of src.keys()) allSocs.add(k);
  const medians: Record<string, number> = {};
  names.forEach((n, i) => {
    const xs = [...allSocs].map((s) => valuesOf(s)[i]!).filter((v): v is number => v !== null);
    medians[n] = median(xs);
  });
  const values = new Map<string, Record<string, number>>();
  const source = new Map<string, Record<string, 'own' | 'soc_parent' | 'median'>>();
  const report = { own: 0, soc_parent: 0, median: 0 };
  for (const soc of socs) {
    const rec: Record<string, number> = {};
    const src: Record<string, 'own' | 'soc_parent' | 'median'> = {};
    const parent = `${soc.slice(0, 7)}.00`;
    const mines = valuesOf(soc);
    const parents = parent !== soc ? valuesOf(parent) : null;
    for (const [i, n] of names.entries()) {
      const mine = mines[i];
      const par = parents ? parents[i]! : null;
      if (mine !== null && mine !== undefined) [rec[n], src[n]] = [mine, 'own'];
      else if (par !== null) [rec[n], src[n]] = [par, 'soc_parent'];
      else [rec[n], src[n]] = [medians[n]!, 'median'];
      report[src[n]]++;
    }
    values.set(soc, rec);
    source.set(soc, src);
  }
  return { values, source, report };
}
