// Occupation similarity over O*NET Skills, Knowledge, Abilities, Work Activities and the
// occupation's detailed activities (time share of its tasks per IWA, from Tasks to DWAs), after Nesta's
// Mapping Career Causeways (Kanders, Djumalieva, Sleeman and Orlik 2020): each descriptor set
// gives one similarity and the sets count equally. An element's value is the importance-level
// combination of the protective factors ((IM-1)/4)^a (LV/7)^(1-a); each element is centred and
// scaled across occupations (z-scores), so similarity measures a shared profile rather than the
// fact that every job needs some reading and speaking; per set, similarity is the cosine of the
// z-vectors, in -1..1; the occupation similarity is the mean over the sets both occupations have.
// The IWA set gives every occupation with task statements a profile, including the 29 that O*NET
// has not rated on any descriptor.
import type { ElementRating } from './inputs.ts';
import { elementValue, type DescriptorIndex } from './protective.ts';
import type { DescriptorSource } from './params.ts';

export const SIMILARITY_SETS: DescriptorSource[] = ['skills', 'knowledge', 'abilities', 'work_activities'];

export interface ProfileIndex {
  /** Per set: occupation -> unit-length z-vector (null when the occupation has no ratings in it). */
  sets: Array<Map<string, Float64Array>>;
}

/** Unit z-vectors per set for the given occupations. */
export function buildProfiles(
  socs: readonly string[],
  idx: Pick<DescriptorIndex, DescriptorSource>,
  a: number,
  sets: readonly DescriptorSource[] = SIMILARITY_SETS,
): ProfileIndex {
  return {
    sets: sets.map((set) => {
      const values = new Map<string, Map<string, number>>();
      for (const s of socs) {
        const m = idx[set].get(s);
        if (!m || m.size === 0) continue;
        const v = new Map<string, number>();
        for (const [id, r] of m) {
          const x = elementValue(r as ElementRating, a);
          if (x !== null) v.set(id, x);
        }
        values.set(s, v);
      }
      return unitZ(values, false);
    }),
  };
}

/**
 * Unit-length z-vectors of sparse profiles. An element an occupation has no value for sits at the
 * mean (z = 0) when `absentIsZero` is false (unrated), or counts as 0 when true (the occupation
 * does not perform that activity).
 */
export function unitZ(values: ReadonlyMap<string, ReadonlyMap<string, number>>, absentIsZero: boolean): Map<string, Float64Array> {
  const ids = [...new Set([...values.values()].flatMap((m) => [...m.keys()]))].sort();
  const socs = [...values.keys()];
  // Each column's values once, in occupation order (the sums below keep that order).
  const cols: number[][] = ids.map(() => []);
  for (const s of socs) {
    const m = values.get(s)!;
    for (let j = 0; j < ids.length; j++) {
      const x = m.get(ids[j]!) ?? (absentIsZero ? 0 : null);
      if (x !== null) cols[j]!.push(x);
    }
  }
  const mean = cols.map(avg);
  const sd = cols.map((c, j) => Math.sqrt(avg(c.map((x) => (x - mean[j]!) ** 2))));
  const out = new Map<string, Float64Array>();
  for (const s of socs) {
    const m = values.get(s)!;
    const z = new Float64Array(ids.length);
    let norm = 0;
    ids.forEach((id, j) => {
      const x = m.get(id) ?? (absentIsZero ? 0 : null);
      const zj = x === null || sd[j]! === 0 ? 0 : (x - mean[j]!) / sd[j]!;
      z[j] = zj;
      norm += zj * zj;
    });
    if (norm === 0) continue;
    const n = Math.sqrt(norm);
    for (let j = 0; j < z.length; j++) z[j]! /= n;
    out.set(s, z);
  }
  return out;
}

const avg = (xs: number[]) => (xs.length ? xs.reduce((p, q) => p + q, 0) / xs.length : 0);

/** Mean over the sets both occupations have of the cosine of their z-vectors; null if none shared. */
export function similarity(profiles: ProfileIndex, a: string, b: string): number | null {
  return similarityAtLeast(profiles.sets.map((set) => set.get(a)), profiles.sets.map((set) => set.get(b)), -Infinity);
}

/**
 * An occupation's z-vectors, one per set in the index's order (undefined where it has none): looked
 * up once per occupation rather than once per pair and set.
 */
export const profileOf = (profiles: ProfileIndex, soc: string): Array<Float64Array | undefined> => profiles.sets.map((set) => set.get(soc));

/**
 * The cosine of a unit vector with another is at most 1; rounding can add a few units in the last
 * place (about n * 1.1e-16 for n terms), so the bound leaves a wide margin.
 */
const MAX_COSINE = 1 + 1e-9;

/**
 * similarity() of two profiles, or null when they share no set or when the similarity is
 * certainly below `min`. Transitions only want candidates above a threshold, and most pairs of
 * occupations are far below it: after each set, the sets still to come are assumed to add their
 * largest possible cosine, and the pair is dropped once even that cannot reach `min`. The sum is
 * taken in the same order as always, so a similarity that is returned is the same number, bit for
 * bit (floating-point addition and division are monotonic, so the bound is never below the sum).
 */
export function similarityAtLeast(x: ReadonlyArray<Float64Array | undefined>, y: ReadonlyArray<Float64Array | undefined>, min: number): number | null {
  let n = 0;
  for (let k = 0; k < x.length; k++) if (x[k] && y[k]) n++;
  if (n === 0) return null;
  let s = 0;
  let left = n;
  for (let k = 0; k < x.length; k++) {
    const xs = x[k];
    const ys = y[k];
    if (!xs || !ys) continue;
    let dot = 0;
    for (let j = 0; j < xs.length; j++) dot += xs[j]! * ys[j]!;
    s += dot;
    left--;
    let bound = s;
    for (let r = 0; r < left; r++) bound += MAX_COSINE;
    if (bound / n < min) return null;
  }
  return s / n;
}
