// Autor-Levy-Murnane task categories. A task's DWAs vote through their generalized work
// activity (GWA); each vote weighs the occupation's importance of that GWA, so a nurse's
// "caring" DWA outweighs a generic "getting information" one. Keywords only where a task
// has no DWA link at all.
import type { TaskCategory } from './record-schemas.ts';
import type { TaskCategoriesSeed } from './params.ts';

/** GWA element id of a DWA id: '4.A.2.a.4.I09.D03' -> '4.A.2.a.4'. */
export const gwaOfDwa = (dwaId: string): string => {
  // The text before the fifth '.' (all of it with fewer), without the three arrays of split, slice and join.
  let at = -1;
  for (let n = 0; n < 5; n++) {
    at = dwaId.indexOf('.', at + 1);
    if (at < 0) return dwaId;
  }
  return dwaId.slice(0, at);
};

/**
 * Importance-weighted vote; ties broken by the seed's tie_break_order. Returns null when none
 * of the GWAs is in the rule table (the caller then counts the task as unmapped).
 */
export function voteCategory(
  gwas: readonly string[],
  importance: (gwa: string) => number,
  seed: TaskCategoriesSeed,
): TaskCategory | null {
  const totals = new Map<TaskCategory, number>();
  for (const g of gwas) {
    const rule = seed.gwas[g];
    if (!rule) continue;
    totals.set(rule.category, (totals.get(rule.category) ?? 0) + importance(g));
  }
  if (totals.size === 0) return null;
  const order = seed.tie_break_order.value;
  // Compare with a tolerance: importance sums of equal votes can differ in the last bit.
  let best: TaskCategory | null = null;
  for (const c of order) {
    const v = totals.get(c);
    if (v === undefined) continue;
    if (best === null || v > totals.get(best)! + 1e-9) best = c;
  }
  return best;
}

const tokens = (text: string): string[] => text.toLowerCase().split(/[^a-z]+/).filter(Boolean);

/** A token matches a rule word exactly or with a regular inflection (s, es, d, ed, ing). */
const inflections = (word: string): string[] => {
  const stem = word.endsWith('e') ? word.slice(0, -1) : word;
  return [word, `${word}s`, `${word}es`, `${word}d`, `${word}ed`, `${stem}ing`, `${word}ing`];
};
type KeywordRule = TaskCategoriesSeed['keyword_rules'][number];
/** Every form of a rule's words, made once per rule (every task without a DWA vote is checked against every rule). */
const ruleForms = new WeakMap<KeywordRule, ReadonlySet<string>>();
const formsOf = (rule: KeywordRule): ReadonlySet<string> => {
  let forms = ruleForms.get(rule);
  if (!forms) ruleForms.set(rule, (forms = new Set(rule.words.flatMap(inflections))));
  return forms;
};

/**
 * The task statement's leading verb decides first (O*NET tasks start with their verb); if it
 * matches no rule, the first rule with any matching word wins. null when nothing matches.
 */
export function keywordCategory(text: string, seed: TaskCategoriesSeed): TaskCategory | null {
  const ts = tokens(text);
  const lead = ts[0];
  if (lead !== undefined) {
    for (const rule of seed.keyword_rules) if (formsOf(rule).has(lead)) return rule.category;
  }
  for (const rule of seed.keyword_rules) {
    const forms = formsOf(rule);
    if (ts.some((t) => forms.has(t))) return rule.category;
  }
  return null;
}

/** Time-weighted majority category (ties by tie_break_order); null for an empty list. */
export function majorityCategory(
  items: ReadonlyArray<{ category: TaskCategory; weight: number }>,
  seed: TaskCategoriesSeed,
): TaskCategory | null {
  const totals = new Map<TaskCategory, number>();
  for (const it of items) totals.set(it.category, (totals.get(it.category) ?? 0) + it.weight);
  let best: TaskCategory | null = null;
  for (const c of seed.tie_break_order.value) {
    const v = totals.get(c);
    if (v === undefined) continue;
    if (best === null || v > totals.get(best)! + 1e-9) best = c;
  }
  return best;
}
