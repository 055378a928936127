// The declared outcome tests (build/validation/declared-tests/vN.json): each test's outcome,
// named source years, sample rule, keyword lists, controls and statistic are read from the
// committed declaration, never chosen here, and every test is run beside the same baselines
// (-log wage, the complementarity multiplier only, exposure only, the Eloundou et al. beta, the
// final score) with the score's effect beyond wage. Pure: build/validate.ts loads the inputs.
import { spearman } from '../model/num.ts';
import type { ModelOutput, OccupationRecord } from '../model/record-schemas.ts';
import { growthByGroup } from './outcomes.ts';
import type { OewsYear } from './oews-history.ts';
import { aiStatementsBySoc } from './refs.ts';
import { bootstrap, ols, rankAuc, standardize, type Interval } from './stats.ts';

export interface DeclaredTest {
  id: string;
  role: 'decision' | 'held-out';
  outcome: string;
  sources: {
    employment?: Array<{ year: string; file: string; use: string }>;
    log_wage?: { year: string; file: string; why: string };
    statements?: string;
    rule?: string;
  };
  sample: string;
  controls: string[];
  statistic: string;
  expected_sign: string;
  what_it_measures?: string;
  why_decision?: string;
}

/** A model choice a declaration decides (v2 on): its candidates and the rule, applied in model-choice.ts. */
export interface ModelChoice {
  id: string;
  question: string;
  candidates: Array<{ id: string; description: string; weight?: number }>;
  decision_test: string;
  figure: string;
  rule: string;
  held_out: string;
}

export interface Declaration {
  version: number;
  declared: string;
  predictors: Array<{ id: PredictorId; label: string; field: string }>;
  ai_terms: { primary: string[]; other_words: string[] };
  technology_other_than_ai_terms: { primary: string[]; narrow: string[]; primary_reading: string; narrow_reading: string };
  tests: DeclaredTest[];
  /** Model choices decided on the decision test (v2 on); see model-choice.ts. */
  model_choices?: ModelChoice[];
}

export type PredictorId = 'final_score' | 'exposure' | 'complementarity' | 'eloundou_beta' | 'neg_log_wage';
const PREDICTORS: readonly PredictorId[] = ['neg_log_wage', 'complementarity', 'exposure', 'eloundou_beta', 'final_score'];
const TEST_IDS = ['OEWS-2022-25', 'T112-TECH', 'T112-AI'] as const;

/** Parse a declaration and check what the code relies on: known predictors and tests, exactly one decision test, compilable patterns. */
export function parseDeclaration(text: string): Declaration {
  const d = JSON.parse(text) as Declaration;
  const fail = (why: string): never => {
    throw new Error(`declared tests v${d.version}: ${why}`);
  };
  if (!Number.isInteger(d.version)) fail('no integer version');
  for (const p of PREDICTORS) if (!d.predictors.some((x) => x.id === p)) fail(`predictor ${p} not declared`);
  for (const t of TEST_IDS) if (!d.tests.some((x) => x.id === t)) fail(`test ${t} not declared`);
  if (d.tests.filter((t) => t.role === 'decision').length !== 1) fail('exactly one decision test');
  for (const p of [...d.ai_terms.primary, ...d.ai_terms.other_words, ...d.technology_other_than_ai_terms.primary, ...d.technology_other_than_ai_terms.narrow]) new RegExp(p, 'i');
  const oews = d.tests.find((t) => t.id === 'OEWS-2022-25')!;
  if ((oews.sources.employment ?? []).length !== 3) fail('OEWS-2022-25 names three years (pre-trend start, window start, window end)');
  return d;
}

const anyOf = (patterns: readonly string[]) => {
  const res = patterns.map((p) => new RegExp(p, 'i'));
  return (s: string) => res.some((r) => r.test(s));
};

/**
 * T112-TECH sample: 'reduces' codes have a 'share decreases' statement naming a technology of the
 * list and no AI term; 'raises' codes have only 'share increases' statements; codes with any
 * statement naming AI (either list) are in neither group.
 */
export function techStatementsBySoc(
  rows: ReadonlyArray<{ soc: string; statement: string }>,
  aiTerms: { primary: readonly string[]; other_words: readonly string[] },
  techTerms: readonly string[],
): Map<string, 'reduces' | 'raises'> {
  const ai = anyOf([...aiTerms.primary, ...aiTerms.other_words]);
  const tech = anyOf(techTerms);
  const bySoc = new Map<string, string[]>();
  for (const r of rows) if (r.soc) bySoc.set(r.soc, [...(bySoc.get(r.soc) ?? []), r.statement]);
  const out = new Map<string, 'reduces' | 'raises'>();
  for (const [soc, sts] of [...bySoc].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (sts.some(ai)) continue;
    if (sts.some((s) => /share decreases/i.test(s) && tech(s))) out.set(soc, 'reduces');
    else if (sts.every((s) => /share increases/i.test(s))) out.set(soc, 'raises');
  }
  return out;
}

export interface PredictorRow {
  predictor: PredictorId;
  label: string;
  n: number;
  /** AUC (binary tests) or coefficient per SD with fixed effects and pre-trend (OEWS). */
  statistic: Interval;
  /** Coefficient per SD with log wage controlled (null for -log wage itself). */
  beyond_wage: Interval | null;
}

export interface DeclaredResult {
  id: string;
  role: 'decision' | 'held-out';
  title: string;
  statistic: string;
  beyond: string;
  /** Why the test could not be run, or null. */
  unavailable: string | null;
  counts: string;
  rows: PredictorRow[];
}

const NONE: Interval = { value: null, low: null, high: null };
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** One predictor value per O*NET occupation (null when the occupation has none). */
function occupationValue(p: PredictorId, eloundou: ReadonlyMap<string, number>): (o: OccupationRecord) => number | null {
  switch (p) {
    case 'final_score':
      return (o) => o.risk_score.final_score;
    case 'exposure':
      return (o) => o.risk_score.exposure_score;
    case 'complementarity':
      return (o) => o.risk_score.protective_moderation;
    case 'eloundou_beta':
      return (o) => eloundou.get(o.soc_code) ?? null;
    case 'neg_log_wage':
      return () => null;
  }
}

/** Occupations under a list of codes: by SOC 2018 prefix, else by the OEWS code they take their labor data from. */
function occupationsUnder(occ: readonly OccupationRecord[], codes: readonly string[]): OccupationRecord[] {
  const set = new Set(codes);
  const direct = occ.filter((o) => set.has(o.soc_code.slice(0, 7)));
  return direct.length ? direct : occ.filter((o) => o.labor_data.oews_code !== null && set.has(o.labor_data.oews_code));
}

/** Mean log wage over the codes (or, when none has one, over the OEWS codes of their occupations). */
function logWage(wage: ReadonlyMap<string, number>, codes: readonly string[], under: readonly OccupationRecord[]): number | null {
  let ws = codes.flatMap((c) => (wage.has(c) ? [Math.log(wage.get(c)!)] : []));
  if (!ws.length) ws = [...new Set(under.flatMap((o) => (o.labor_data.oews_code ? [o.labor_data.oews_code] : [])))].flatMap((c) => (wage.has(c) ? [Math.log(wage.get(c)!)] : []));
  return ws.length ? mean(ws) : null;
}

interface Unit {
  key: string;
  codes: string[];
  under: OccupationRecord[];
  logWage: number | null;
}

function unitValue(u: Unit, p: PredictorId, eloundou: ReadonlyMap<string, number>): number | null {
  if (p === 'neg_log_wage') return u.logWage === null ? null : -u.logWage;
  const f = occupationValue(p, eloundou);
  const xs = u.under.flatMap((o) => {
    const v = f(o);
    return v === null ? [] : [v];
  });
  return xs.length ? mean(xs) : null;
}

export const BOOT = { reps: 1000, seed: 20240601 };

/** Binary test: AUC and the linear-probability coefficient per SD with log wage, both bootstrapped within outcome groups. */
export function binaryRow(units: ReadonlyArray<{ y: 0 | 1; x: number; logWage: number }>, withWage: boolean): { n: number; auc: Interval; beyond: Interval | null } {
  const pos = units.filter((u) => u.y === 1).map((u) => u.x);
  const neg = units.filter((u) => u.y === 0).map((u) => u.x);
  const auc = bootstrap([pos, neg], ([a, b]) => rankAuc(a!, b!), BOOT.reps, BOOT.seed);
  let beyond: Interval | null = null;
  if (withWage) {
    const z = standardize(units.map((u) => u.x));
    if (z) {
      const rows = units.map((u, i) => ({ y: u.y, z: z[i]!, w: u.logWage }));
      const stat = (gs: ReadonlyArray<readonly (typeof rows)[number][]>) => {
        const all = gs.flat();
        const b = ols(all.map((r) => r.y), all.map((r) => [r.z, r.w]));
        return b ? b[0]! : null;
      };
      beyond = bootstrap([rows.filter((r) => r.y === 1), rows.filter((r) => r.y === 0)], stat, BOOT.reps, BOOT.seed);
    } else beyond = NONE;
  }
  return { n: units.length, auc, beyond };
}

/** OEWS test: coefficient per SD with major-group fixed effects and the pre-trend, and with log wage added; pairs bootstrap. */
export function growthRow(units: ReadonlyArray<{ y: number; x: number; trend: number; logWage: number; group: string }>, withWage: boolean): { n: number; stat: Interval; beyond: Interval | null } {
  const z = standardize(units.map((u) => u.x));
  if (!z) return { n: units.length, stat: NONE, beyond: withWage ? NONE : null };
  const rows = units.map((u, i) => ({ ...u, z: z[i]! }));
  const fit = (wage: boolean) => ([g]: ReadonlyArray<readonly (typeof rows)[number][]>) => {
    const b = ols(g!.map((r) => r.y), g!.map((r) => (wage ? [r.z, r.trend, r.logWage] : [r.z, r.trend])), g!.map((r) => r.group));
    return b ? b[0]! : null;
  };
  return {
    n: rows.length,
    stat: bootstrap([rows], fit(false), BOOT.reps, BOOT.seed),
    beyond: withWage ? bootstrap([rows], fit(true), BOOT.reps, BOOT.seed) : null,
  };
}

const label = (d: Declaration, p: PredictorId) => d.predictors.find((x) => x.id === p)!.label;

/** Table 1.12 test over SOC 2018 codes: a complete-case sample per predictor (the code needs the predictor and a wage). */
function table112Test(
  d: Declaration,
  test: DeclaredTest,
  title: string,
  statements: ReadonlyMap<string, 'reduces' | 'raises'>,
  occ: readonly OccupationRecord[],
  history: readonly OewsYear[],
  eloundou: ReadonlyMap<string, number>,
): DeclaredResult {
  const wy = test.sources.log_wage!;
  const base = { id: test.id, role: test.role, title, statistic: 'AUC', beyond: 'LPM coef/SD, log wage' };
  const wf = history.find((h) => h.year === wy.year);
  if (!wf) return { ...base, unavailable: `OEWS May ${wy.year} (${wy.file}) not found`, counts: '', rows: [] };
  const units: Array<Unit & { y: 0 | 1 }> = [];
  let notServed = 0;
  for (const [soc, dir] of [...statements].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const under = occ.filter((o) => o.soc_code.slice(0, 7) === soc);
    if (!under.length) {
      notServed++;
      continue;
    }
    units.push({ key: soc, codes: [soc], under, logWage: logWage(wf.wage, [soc], under), y: dir === 'reduces' ? 1 : 0 });
  }
  const rows = PREDICTORS.map((p): PredictorRow => {
    const us = units.flatMap((u) => {
      const x = unitValue(u, p, eloundou);
      return x === null || u.logWage === null ? [] : [{ y: u.y, x, logWage: u.logWage }];
    });
    const r = binaryRow(us, p !== 'neg_log_wage');
    return { predictor: p, label: label(d, p), n: r.n, statistic: r.auc, beyond_wage: r.beyond };
  });
  const pos = units.filter((u) => u.y === 1).length;
  const noWage = units.filter((u) => u.logWage === null).length;
  return { ...base, unavailable: null, counts: `${pos} share-cut vs ${units.length - pos} share-rise codes; ${notServed} codes not served, ${noWage} without a May ${wy.year} wage (${wy.file})`, rows };
}

/** One OEWS code group of the OEWS test's sample, with the served occupations under it. */
export interface OewsUnit extends Unit {
  y: number;
  trend: number;
  group: string;
}

/**
 * The OEWS test's code groups (the declared years, exactly): shared by the test and by the paired
 * comparison of model choices (model-choice.ts), so both read the same sample.
 */
export function oewsSample(test: DeclaredTest, occ: readonly OccupationRecord[], history: readonly OewsYear[]): { unavailable: string } | { unavailable: null; units: OewsUnit[]; counts: string } {
  const [y0, y1, y2] = test.sources.employment!;
  const missing = [y0!, y1!, y2!].filter((y) => !history.some((h) => h.year === y.year));
  if (missing.length) return { unavailable: `not found: ${missing.map((y) => `OEWS May ${y.year} (${y.file})`).join(', ')}; no other year is used instead` };
  const misnamed = [y0!, y1!, y2!].filter((y) => history.find((h) => h.year === y.year)!.file.toLowerCase() !== y.file.toLowerCase());
  if (misnamed.length) return { unavailable: `the May ${misnamed[0]!.year} file is not ${misnamed[0]!.file}` };
  const g = growthByGroup(history, y0!.year, y1!.year, y2!.year)!;
  const wage = history.find((h) => h.year === y1!.year)!.wage;
  const units = g.groups.flatMap((x): OewsUnit[] => {
    const under = occupationsUnder(occ, x.codes);
    if (!under.length) return [];
    const codes = [...x.codes].sort();
    return [{ key: codes.join('+'), codes, under, logWage: logWage(wage, codes, []), y: 100 * x.after, trend: 100 * x.before, group: codes[0]!.slice(0, 2) }];
  });
  const noWage = units.filter((u) => u.logWage === null).length;
  const counts = `${g.groups.length} code groups with employment in all three years (${g.match.direct} codes matched directly, ${g.match.aggregated} broad-group aggregates); ${g.groups.length - units.length} without a served occupation, ${noWage} without a May ${y1!.year} wage; files ${[y0!, y1!, y2!].map((y) => y.file).join(', ')}; outcome and trend in log points x 100 per year`;
  return { unavailable: null, units, counts };
}

function oewsTest(d: Declaration, test: DeclaredTest, occ: readonly OccupationRecord[], history: readonly OewsYear[], eloundou: ReadonlyMap<string, number>): DeclaredResult {
  const [y0, y1, y2] = test.sources.employment!;
  const title = `OEWS employment growth May ${y1!.year} -> May ${y2!.year} (pre-trend May ${y0!.year} -> May ${y1!.year})`;
  const base = { id: test.id, role: test.role, title, statistic: 'coef/SD: FE + trend', beyond: 'coef/SD: + log wage' };
  const sample = oewsSample(test, occ, history);
  if (sample.unavailable !== null) return { ...base, unavailable: sample.unavailable, counts: '', rows: [] };
  const { units, counts } = sample;
  const rows = PREDICTORS.map((p): PredictorRow => {
    const us = units.flatMap((u) => {
      const x = unitValue(u, p, eloundou);
      return x === null || u.logWage === null ? [] : [{ y: u.y, x, trend: u.trend, logWage: u.logWage, group: u.group }];
    });
    const r = growthRow(us, p !== 'neg_log_wage');
    return { predictor: p, label: label(d, p), n: r.n, statistic: r.stat, beyond_wage: r.beyond };
  });
  return { ...base, unavailable: null, counts, rows };
}

export function computeDeclared(
  d: Declaration,
  model: ModelOutput,
  epRows: ReadonlyArray<{ soc: string; statement: string }>,
  history: readonly OewsYear[],
  eloundouOcc: ReadonlyMap<string, { gpt4_beta: number | null }>,
): DeclaredResult[] {
  const occ = model.occupations;
  const eloundou = new Map([...eloundouOcc].flatMap(([k, v]) => (v.gpt4_beta === null ? [] : [[k, v.gpt4_beta] as const])));
  const t = (id: string) => d.tests.find((x) => x.id === id)!;
  const tech = d.technology_other_than_ai_terms;
  const techTest = t('T112-TECH');
  return [
    oewsTest(d, t('OEWS-2022-25'), occ, history, eloundou),
    table112Test(d, techTest, 'Table 1.12: technology other than AI cuts the share (vs only share increases)', techStatementsBySoc(epRows, d.ai_terms, tech.primary), occ, history, eloundou),
    table112Test(d, { ...techTest, id: 'T112-TECH-NARROW' }, 'Table 1.12 sensitivity: the same, narrow technology list (software, online, automated, computer, e-commerce, self-service)', techStatementsBySoc(epRows, d.ai_terms, tech.narrow), occ, history, eloundou),
    table112Test(d, t('T112-AI'), 'Table 1.12: AI cuts the share (vs AI raises it)', aiStatementsBySoc(epRows), occ, history, eloundou),
  ];
}

const f = (x: number | null, dp: number) => (x === null ? '?' : x.toFixed(dp));
export const fmt = (i: Interval | null, dp: number) => (i === null ? '-' : i.value === null ? 'n/a' : `${f(i.value, dp)} [${f(i.low, dp)}, ${f(i.high, dp)}]`);

/** The table: one row per test and predictor. */
export function formatDeclared(results: readonly DeclaredResult[], version: number): string {
  const lines = [
    `Declared tests v${version} (build/validation/declared-tests/v${version}.json). 95% percentile-bootstrap intervals, 1,000 resamples, seed 20240601. Predictors oriented so that higher = more risk and standardized over each row's sample. OEWS: OLS of annualized log employment growth (log points x 100 per year) on the predictor per SD, with major-group fixed effects and the pre-trend; 'beyond wage' adds log median wage. Table 1.12: rank AUC; 'beyond wage' is the linear-probability coefficient per SD (probability points) with log wage.`,
    '',
    '| Test | Role | Predictor | Statistic | Value [95% CI] | Beyond wage [95% CI] | N |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    if (r.unavailable) {
      lines.push(`| ${r.id} | ${r.role} | - | - | not run: ${r.unavailable} | - | 0 |`);
      continue;
    }
    const dp = r.id.startsWith('OEWS') ? 2 : 3;
    for (const p of r.rows) lines.push(`| ${r.id} | ${r.role} | ${p.label} | ${r.statistic} | ${fmt(p.statistic, dp)} | ${p.beyond_wage === null ? '- (the control)' : fmt(p.beyond_wage, dp)} | ${p.n} |`);
  }
  lines.push('', ...results.map((r) => `- ${r.id}: ${r.title}${r.unavailable ? ` (not run: ${r.unavailable})` : `; ${r.counts}`}.`));
  return lines.join('\n');
}

const excludes0 = (i: Interval | null) => i !== null && i.low !== null && i.high !== null && (i.low > 0 || i.high < 0);
const excludesHalf = (i: Interval) => i.low !== null && i.high !== null && (i.low > 0.5 || i.high < 0.5);

/**
 * A short reading generated from the figures (so it cannot outlive them): for each test, what the
 * score shows, whether its interval excludes no effect, and how it compares with the baselines.
 */
export function readDeclared(results: readonly DeclaredResult[], withoutLabels: { all: number | null; codes: number | null; n: number; auc: number | null } | null): string {
  const out: string[] = [];
  for (const r of results) {
    if (r.unavailable) {
      out.push(`- ${r.id} was not run: ${r.unavailable}.`);
      continue;
    }
    const row = (p: PredictorId) => r.rows.find((x) => x.predictor === p)!;
    const s = row('final_score');
    const oews = r.id.startsWith('OEWS');
    const dp = oews ? 2 : 3;
    const best = [...r.rows].filter((x) => x.statistic.value !== null).sort((a, b) => (oews ? a.statistic.value! - b.statistic.value! : b.statistic.value! - a.statistic.value!))[0];
    const beyond = s.beyond_wage;
    const beyondText = beyond && beyond.value !== null
      ? `with log wage controlled the score's coefficient is ${fmt(beyond, dp)} per SD, ${excludes0(beyond) ? 'an interval that excludes 0' : 'an interval that includes 0: no effect beyond wage is shown'}`
      : 'no figure beyond wage';
    if (oews) {
      out.push(`- ${r.id} (${r.role}): final_score ${fmt(s.statistic, dp)} log points x 100 per year per SD with major-group effects and the pre-trend (${excludes0(s.statistic) ? 'interval excludes 0' : 'interval includes 0'}); ${beyondText}. The strongest baseline on the same controls is ${best?.label} (${fmt(best?.statistic ?? null, dp)}).`);
    } else {
      out.push(`- ${r.id} (${r.role}): final_score AUC ${fmt(s.statistic, dp)} (${excludesHalf(s.statistic) ? 'interval excludes 0.5' : 'interval includes 0.5'}) over N = ${s.n}; the best single predictor is ${best?.label} (${fmt(best?.statistic ?? null, dp)}); ${beyondText}.`);
    }
  }
  const ai = results.find((r) => r.id === 'T112-AI' && !r.unavailable);
  if (withoutLabels && withoutLabels.codes !== null && withoutLabels.all !== null && ai) {
    const c = ai.rows.find((x) => x.predictor === 'complementarity')!;
    out.push(
      `- The "without labels" variant's Table 1.12 AUC (${withoutLabels.auc ?? 'n/a'}, table below) is not evidence that AEI usage carries substitution signal: on the ${withoutLabels.n} Table 1.12 AI codes its final_score has Spearman ${withoutLabels.codes.toFixed(2)} with the complementarity multiplier (${withoutLabels.all.toFixed(2)} over all occupations), and the complementarity multiplier alone scores AUC ${fmt(c.statistic, 3)} there.`,
    );
  }
  return out.join('\n');
}

/**
 * Spearman of one model's final_score with another's complementarity multiplier: over all shared
 * O*NET occupations, and over the given SOC 2018 codes (mean per code).
 */
export function scoreVsComplementarity(a: ModelOutput, b: ModelOutput, codes: Iterable<string>): { all: number | null; codes: number | null; n: number } {
  const m = new Map(b.occupations.map((o) => [o.soc_code, o.risk_score.protective_moderation]));
  const keys = a.occupations.filter((o) => m.has(o.soc_code));
  const bySoc = (occ: readonly OccupationRecord[], v: (o: OccupationRecord) => number) => {
    const acc = new Map<string, number[]>();
    for (const o of occ) acc.set(o.soc_code.slice(0, 7), [...(acc.get(o.soc_code.slice(0, 7)) ?? []), v(o)]);
    return new Map([...acc].map(([k, xs]) => [k, mean(xs)]));
  };
  const sa = bySoc(a.occupations, (o) => o.risk_score.final_score);
  const sb = bySoc(b.occupations, (o) => o.risk_score.protective_moderation);
  const cs = [...new Set(codes)].filter((c) => sa.has(c) && sb.has(c)).sort();
  return {
    all: spearman(keys.map((o) => o.risk_score.final_score), keys.map((o) => m.get(o.soc_code)!)),
    codes: spearman(cs.map((c) => sa.get(c)!), cs.map((c) => sb.get(c)!)),
    n: cs.length,
  };
}
