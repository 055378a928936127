// Model choices decided by the declared decision test (declared-tests/v2.json `model_choices`):
// every candidate's model runs every declared test; the decision figure is the OEWS test's
// 'beyond wage' coefficient of final_score, compared with the current model's ('none') on the same
// bootstrap resamples (paired), and the declared rule is applied to that difference. The other
// tests are printed beside it as held out. Pure: build/validate.ts computes the candidates' models.
import type { ModelOutput } from '../model/record-schemas.ts';
import { BOOT, computeDeclared, fmt, oewsSample, type Declaration, type DeclaredResult, type ModelChoice } from './declared.ts';
import type { OewsYear } from './oews-history.ts';
import { bootstrap, ols, standardize, type Interval } from './stats.ts';

export interface CandidateResult {
  id: string;
  description: string;
  /** Every declared test on this candidate's model. */
  tests: DeclaredResult[];
  /** The decision figure: OEWS-2022-25 beyond-wage coefficient of final_score. */
  b: Interval;
  /** b - b(none) on the same resamples; null for 'none' itself. */
  difference: Interval | null;
  /** The declared rule: the difference's 95% interval lies entirely below 0. */
  meets_rule: boolean;
}

export interface ChoiceResult {
  id: string;
  question: string;
  rule: string;
  /** Why the decision test could not be run, or null. */
  unavailable: string | null;
  n: number;
  candidates: CandidateResult[];
  /** The candidate the rule keeps: the qualifying one with the most negative difference, else 'none'. */
  adopted: string;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Paired beyond-wage difference of two models' final_score on the OEWS test's sample: each score
 * standardized once over the groups both score, then the same pairs resamples for both fits.
 */
export function pairedBeyondWage(
  units: ReadonlyArray<{ y: number; trend: number; logWage: number; group: string; base: number; cand: number }>,
): { n: number; difference: Interval } {
  const zb = standardize(units.map((u) => u.base));
  const zc = standardize(units.map((u) => u.cand));
  if (!zb || !zc) return { n: units.length, difference: { value: null, low: null, high: null } };
  const rows = units.map((u, i) => ({ ...u, zb: zb[i]!, zc: zc[i]! }));
  const coef = (g: readonly (typeof rows)[number][], z: 'zb' | 'zc') => ols(g.map((r) => r.y), g.map((r) => [r[z], r.trend, r.logWage]), g.map((r) => r.group))?.[0] ?? null;
  const stat = ([g]: ReadonlyArray<readonly (typeof rows)[number][]>) => {
    const c = coef(g!, 'zc');
    const b = coef(g!, 'zb');
    return c === null || b === null ? null : c - b;
  };
  return { n: rows.length, difference: bootstrap([rows], stat, BOOT.reps, BOOT.seed) };
}

const below0 = (i: Interval | null) => i !== null && i.high !== null && i.high < 0;

export function computeChoice(
  d: Declaration,
  choice: ModelChoice,
  models: ReadonlyMap<string, ModelOutput>,
  epRows: ReadonlyArray<{ soc: string; statement: string }>,
  history: readonly OewsYear[],
  eloundouOcc: ReadonlyMap<string, { gpt4_beta: number | null }>,
): ChoiceResult {
  const modelOf = (id: string) => {
    const m = models.get(id);
    if (!m) throw new Error(`model choice ${choice.id}: no model for candidate ${id}`);
    return m;
  };
  const none = modelOf('none');
  const test = d.tests.find((t) => t.id === choice.decision_test);
  if (!test) throw new Error(`model choice ${choice.id}: decision test ${choice.decision_test} is not declared`);
  const sample = oewsSample(test, none.occupations, history);
  const scoreOf = (m: ModelOutput) => new Map(m.occupations.map((o) => [o.soc_code, o.risk_score.final_score]));
  const baseScore = scoreOf(none);
  const candidates = choice.candidates.map((c): CandidateResult => {
    const m = modelOf(c.id);
    const tests = computeDeclared(d, m, epRows, history, eloundouOcc);
    const oews = tests.find((t) => t.id === choice.decision_test);
    const b = oews?.rows.find((r) => r.predictor === 'final_score')?.beyond_wage ?? { value: null, low: null, high: null };
    let difference: Interval | null = null;
    if (c.id !== 'none' && sample.unavailable === null) {
      const candScore = scoreOf(m);
      const units = sample.units.flatMap((u) => {
        const bs = u.under.flatMap((o) => (baseScore.has(o.soc_code) ? [baseScore.get(o.soc_code)!] : []));
        const cs = u.under.flatMap((o) => (candScore.has(o.soc_code) ? [candScore.get(o.soc_code)!] : []));
        return u.logWage === null || !bs.length || !cs.length ? [] : [{ y: u.y, trend: u.trend, logWage: u.logWage, group: u.group, base: mean(bs), cand: mean(cs) }];
      });
      difference = pairedBeyondWage(units).difference;
    }
    return { id: c.id, description: c.description, tests, b, difference, meets_rule: below0(difference) };
  });
  const qualifying = candidates.filter((c) => c.meets_rule).sort((a, b) => a.difference!.value! - b.difference!.value!);
  const n = sample.unavailable === null ? sample.units.filter((u) => u.logWage !== null).length : 0;
  return { id: choice.id, question: choice.question, rule: choice.rule, unavailable: sample.unavailable, n, candidates, adopted: qualifying[0]?.id ?? 'none' };
}

/** The comparison table: the decision figure, the paired difference, and every held-out test, per candidate. */
export function formatChoice(r: ChoiceResult, version: number): string {
  const heldOut = ['T112-TECH', 'T112-TECH-NARROW', 'T112-AI'];
  const lines = [
    `Model choice \`${r.id}\` (declared tests v${version}): ${r.question}`,
    '',
    `Rule: ${r.rule}`,
    '',
    `| Candidate | OEWS-2022-25 beyond wage, coef/SD [95% CI] (decides) | Difference vs none [95% CI] | Meets rule | ${heldOut.map((h) => `${h} AUC; beyond wage (held out)`).join(' | ')} |`,
    `|---|---|---|---|${heldOut.map(() => '---').join('|')}|`,
  ];
  for (const c of r.candidates) {
    const held = heldOut.map((id) => {
      const t = c.tests.find((x) => x.id === id);
      const s = t?.rows.find((x) => x.predictor === 'final_score');
      return !t || t.unavailable || !s ? 'not run' : `${fmt(s.statistic, 3)}; ${fmt(s.beyond_wage, 3)}`;
    });
    lines.push(`| ${c.id} | ${fmt(c.b, 3)} | ${c.difference === null ? '- (the current model)' : fmt(c.difference, 3)} | ${c.id === 'none' ? '-' : c.meets_rule ? 'yes' : 'no'} | ${held.join(' | ')} |`);
  }
  lines.push('');
  if (r.unavailable) lines.push(`The decision test was not run: ${r.unavailable}; the current model stays.`);
  else {
    const others = r.candidates.filter((c) => c.id !== 'none');
    lines.push(
      `Decision (generated from the figures): ${r.adopted === 'none' ? `no candidate's paired difference lies entirely below 0 (${others.map((c) => `${c.id} ${fmt(c.difference, 3)}`).join('; ')}), so the current model ('none') stays and the candidates are reported as held-out variants.` : `${r.adopted} is adopted: its paired difference ${fmt(r.candidates.find((c) => c.id === r.adopted)!.difference, 3)} lies entirely below 0.`} N = ${r.n} code groups.`,
    );
    lines.push('', ...r.candidates.map((c) => `- ${c.id}: ${c.description}`));
  }
  return lines.join('\n');
}
