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
  const idSet = new Set<string>();
  for (const m of values.values()) for (const id of m.keys()) idSet.add(id);
  const ids = [...idSet].sort();
  const column = new Map(ids.map((id, j) => [id, j]));
  const socs = [...values.keys()];
  const width = ids.length;
  // One dense row per occupation, filled from its sparse map (one pass over its entries instead of
  // a lookup per element); `has` marks the values that count (every cell when absent is zero).
  const cells = new Float64Array(socs.length * width);
  const has = new Uint8Array(socs.length * width).fill(absentIsZero ? 1 : 0);
  socs.forEach((s, i) => {
    for (const [id, x] of values.get(s)!) {
      const at = i * width + column.get(id)!;
      cells[at] = x;
      has[at] = 1;
    }
  });
  // Column means and standard deviations, summed in occupation order.
  const mean = new Float64Array(width);
  const sd = new Float64Array(width);
  for (let j = 0; j < width; j++) {
    let sum = 0;
    let count = 0;
    for (let at = j; at < cells.length; at += width) {
      if (has[at]) {
        sum += cells[at]!;
        count++;
      }
    }
    const m = count ? sum / count : 0;
    let squares = 0;
    for (let at = j; at < cells.length; at += width) if (has[at]) squares += (cells[at]! - m) ** 2;
    mean[j] = m;
    sd[j] = Math.sqrt(count ? squares / count : 0);
  }
  const out = new Map<string, Float64Array>();
  socs.forEach((s, i) => {
    const z = new Float64Array(width);
    let norm = 0;
    for (let j = 0; j < width; j++) {
      const at = i * width + j;
      const zj = !has[at] || sd[j] === 0 ? 0 : (cells[at]! - mean[j]!) / sd[j]!;
      z[j] = zj;
      norm += zj * zj;
    }
    if (norm === 0) return;
    const n = Math.sqrt(norm);
    for (let j = 0; j < width; j++) z[j]! /= n;
    out.set(s, z);
  });
  return out;
}

/** An occupation's z-vectors, one per set in the index's order (undefined where it has none). */
export type Profile = ReadonlyArray<Float64Array | undefined>;

/** Looked up once per occupation rather than once per pair and set. */
export const profileOf = (profiles: ProfileIndex, soc: string): Profile => profiles.sets.map((set) => set.get(soc));

/** Mean over the sets both occupations have of the cosine of their z-vectors; null if none shared. */
export function similarity(profiles: ProfileIndex, a: string, b: string): number | null {
  return similaritiesAtLeast(profileOf(profiles, a), [profileOf(profiles, b)], -Infinity)[0]!;
}

/**
 * The cosine of a unit vector with another is at most 1; rounding can add a few units in the last
 * place (about n * 1.1e-16 for n terms), so the bound leaves a wide margin.
 */
const MAX_COSINE = 1 + 1e-9;

/**
 * similarity() of one profile with each of `others`, or null where they share no set or where the
 * similarity is certainly below `min`. Transitions only want candidates above a threshold, and
 * most pairs of occupations are far below it: after each set, the sets still to come are assumed
 * to add their largest possible cosine, and a pair is dropped once even that cannot reach `min`.
 * Each pair's sum is taken in the same order as similarity() takes it, so a similarity returned
 * is the same number, bit for bit (floating-point addition and division are monotonic, so the
 * bound is never below the sum).
 */
export function similaritiesAtLeast(x: Profile, others: readonly Profile[], min: number): Array<number | null> {
  // Typed arrays and in-place compaction: this runs for some 200,000 pairs per build.
  const count = others.length;
  const shared = new Uint8Array(count);
  const alive = new Int32Array(count);
  let nAlive = 0;
  for (let i = 0; i < count; i++) {
    const y = others[i]!;
    let n = 0;
    for (let k = 0; k < x.length; k++) if (x[k] !== undefined && y[k] !== undefined) n++;
    shared[i] = n;
    if (n > 0) alive[nAlive++] = i;
  }
  const sum = new Float64Array(count);
  const left = shared.slice();
  const pairs = new Int32Array(count);
  const dot = new Float64Array(count);
  const ys: Float64Array[] = [];
  for (let k = 0; k < x.length && nAlive > 0; k++) {
    const xs = x[k];
    if (xs === undefined) continue;
    // The pairs still in the running that have this set (a subsequence of `alive`).
    let nPairs = 0;
    ys.length = 0;
    for (let a = 0; a < nAlive; a++) {
      const y = others[alive[a]!]![k];
      if (y === undefined) continue;
      pairs[nPairs++] = alive[a]!;
      ys.push(y);
    }
    dots(xs, ys, dot);
    let kept = 0;
    for (let a = 0, at = 0; a < nAlive; a++) {
      const i = alive[a]!;
      if (at < nPairs && pairs[at] === i) {
        sum[i]! += dot[at++]!;
        left[i]!--;
        let bound = sum[i]!;
        for (let r = 0; r < left[i]!; r++) bound += MAX_COSINE;
        if (bound / shared[i]! < min) continue;
      }
      alive[kept++] = i;
    }
    nAlive = kept;
  }
  const out = new Array<number | null>(count).fill(null);
  for (let a = 0; a < nAlive; a++) out[alive[a]!] = sum[alive[a]!]! / shared[alive[a]!]!;
  return out;
}

/**
 * x . y for each y into `out`, four at a time. Each dot product is summed in index order, as one loop would;
 * a single sum waits for its previous addition at every step, four independent ones keep the
 * processor busy meanwhile.
 */
function dots(x: Float64Array, ys: readonly Float64Array[], out: Float64Array): void {
  const n = x.length;
  let i = 0;
  for (; i + 4 <= ys.length; i += 4) {
    const a = ys[i]!;
    const b = ys[i + 1]!;
    const c = ys[i + 2]!;
    const d = ys[i + 3]!;
    let sa = 0;
    let sb = 0;
    let sc = 0;
    let sd = 0;
    for (let j = 0; j < n; j++) {
      const xj = x[j]!;
      sa += xj * a[j]!;
      sb += xj * b[j]!;
      sc += xj * c[j]!;
      sd += xj * d[j]!;
    }
    out[i] = sa;
    out[i + 1] = sb;
    out[i + 2] = sc;
    out[i + 3] = sd;
  }
  for (; i < ys.length; i++) {
    const y = ys[i]!;
    let s = 0;
    for (let j = 0; j < n; j++) s += x[j]! * y[j]!;
    out[i] = s;
  }
}
