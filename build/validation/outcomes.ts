// Non-circular validation of model 2: independent references (BLS EP Table 1.12 AI statements,
// OEWS employment growth before and after late 2022), exposure references (Felten, Microsoft,
// AEI labor-market impacts), held-out model variants, and bootstrap intervals for every figure.
// Pure: the CLI (build/validate.ts) loads the inputs.
import { round, spearman } from '../model/num.ts';
import type { ModelOutput, OccupationRecord } from '../model/record-schemas.ts';
import { aiStatementAuc, scoresBySoc2018, type AiDirection } from './figures.ts';
import { matchToCurrent, type OewsYear } from './oews-history.ts';
import { iloToSoc2018, type IloMatch } from './ilo.ts';
import { aiStatementsBySoc, table112Breakdown, toSoc2018, type AiRule, type Table112Breakdown, type ValidationRefs } from './refs.ts';
import { bootstrap, type Interval } from './stats.ts';

export interface NamedModel {
  name: string;
  /** What the variant leaves out, for the table. */
  description: string;
  model: ModelOutput;
}

export interface ReferenceRow {
  reference: string;
  /** Is the reference (or its source data) a model input? Stated next to every figure. */
  status: string;
  statistic: 'AUC' | 'Spearman';
  /** Variant name (and 'exposure layer') -> value with 95% bootstrap interval, and n. */
  values: Array<{ column: string; n: number; value: Interval }>;
}

export interface GrowthCheck {
  years: { before: [string, string]; after: [string, string] } | null;
  groups: number;
  match: { direct: number; aggregated: number; unmatched_old: number; unmatched_current: number; skipped_no_middle_year: number };
  /** Mean annualized acceleration (after minus before, log points per year) by score quintile of the full model. */
  quintiles: Array<{ quintile: number; n: number; mean_acceleration: Interval }>;
}

export interface IloCheck {
  /** Why the comparison was not made, or null. */
  unavailable: string | null;
  counts: IloMatch['counts'] | null;
  /** Our SOC 2018 codes (served occupations), and how many of them have an ILO score. */
  our_codes: number;
  matched: number;
  /** Our SOC 2018 codes without an ILO score. */
  unmatched: string[];
  max_within_code_spread: number;
  rows_skipped: number;
}

export const T112_REFERENCE = "BLS EP 2024-34 Table 1.12: AI reduces (vs raises) the occupation's share";
/** Sensitivity of the Table 1.12 rule (row titles; keys of the 1.0.0 column too). Never chosen by their AUC. */
export const T112_SENSITIVITY: ReadonlyArray<{ reference: string; rule: AiRule }> = [
  { reference: 'Table 1.12 sensitivity: statements where AI only offsets a rising share left out', rule: { withoutOffsets: true } },
  { reference: 'Table 1.12 sensitivity: also statements naming AI in other words (machine learning, chatbots, LLMs)', rule: { otherWords: true } },
];

/** Row titles of the ILO comparison (also the keys of the 1.0.0 column in baseline-1.0.0.json). */
export const ILO_REFERENCE = 'ILO 2025 generative-AI exposure (Gmyrek et al., WP 140): mean task score, ISCO-08 -> SOC 2010 -> SOC 2018';
export const ILO_REFERENCE_SINGLE = 'ILO 2025, only SOC codes reached from one ISCO-08 code (no averaging)';
export const ILO_REFERENCE_ISCO = 'ILO 2025 at the ISCO-08 level: our ISCO-08 unit group scores (GET /api/v1/isco) against mean_score_2025 of the same unit group';
const ILO_STATUS = 'independent: not a model input (validation only; the build never reads it)';

const r3 = (i: Interval): Interval => ({ value: i.value === null ? null : round(i.value, 3), low: i.low === null ? null : round(i.low, 3), high: i.high === null ? null : round(i.high, 3) });

/** Spearman rho over the shared keys with a pairs bootstrap. */
export function rhoWithCi(ours: ReadonlyMap<string, number>, theirs: ReadonlyMap<string, number>): { n: number; value: Interval } {
  const keys = [...ours.keys()].filter((k) => theirs.has(k)).sort();
  const pairs = keys.map((k) => [ours.get(k)!, theirs.get(k)!] as const);
  const ci = bootstrap([pairs], ([g]) => spearman(g!.map((x) => x[0]), g!.map((x) => x[1])));
  return { n: pairs.length, value: r3(ci) };
}

const score = (o: OccupationRecord) => o.risk_score.final_score;
const exposure = (o: OccupationRecord) => o.risk_score.exposure_score;

/** Growth per matched code group: annualized log growth before and after the middle year. */
export function growthByGroup(years: ReadonlyArray<Pick<OewsYear, 'year' | 'employment'>>, before: string, middle: string, after: string) {
  const y = (name: string) => years.find((x) => x.year === name)?.employment;
  const e0 = y(before);
  const e1 = y(middle);
  const e2 = y(after);
  if (!e0 || !e1 || !e2) return null;
  const match = matchToCurrent(e0, e2);
  const out: Array<{ codes: string[]; before: number; after: number }> = [];
  let skipped = 0;
  const span = (a: string, b: string) => Number(b) - Number(a);
  for (const g of match.groups) {
    const sum = (m: ReadonlyMap<string, number>, cs: string[]) => (cs.every((c) => m.has(c)) ? cs.reduce((a, c) => a + m.get(c)!, 0) : null);
    const a = sum(e0, g.old);
    const b = sum(e1, g.current);
    const c = sum(e2, g.current);
    if (a === null || b === null || c === null || a <= 0 || b <= 0 || c <= 0) {
      skipped++;
      continue;
    }
    out.push({ codes: g.current, before: Math.log(b / a) / span(before, middle), after: Math.log(c / b) / span(middle, after) });
  }
  return { groups: out, match: { ...match, groups: undefined, skipped_no_middle_year: skipped } };
}

/** Mean score of the O*NET occupations under a group of SOC codes (OEWS codes may be aggregates). */
function groupScores(occ: readonly OccupationRecord[], groups: ReadonlyArray<{ codes: string[] }>, value: (o: OccupationRecord) => number) {
  const bySoc = scoresBySoc2018(occ, value);
  const byOews = new Map<string, number[]>();
  for (const o of occ) if (o.labor_data.oews_code) byOews.set(o.labor_data.oews_code, [...(byOews.get(o.labor_data.oews_code) ?? []), value(o)]);
  return groups.map((g) => {
    const xs = g.codes.flatMap((c) => (bySoc.has(c) ? [bySoc.get(c)!] : (byOews.get(c) ?? [])));
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  });
}

export function computeOutcomes(
  models: readonly NamedModel[],
  refs: ValidationRefs,
  msft: ReadonlyMap<string, number>,
  aeiJobExposure: ReadonlyMap<string, number>,
  history: readonly OewsYear[],
): { rows: ReferenceRow[]; growth: GrowthCheck; ilo: IloCheck; table_1_12: Table112Breakdown } {
  const full = models[0]!;
  const rows: ReferenceRow[] = [];
  const cols = (fn: (m: NamedModel, value: (o: OccupationRecord) => number) => { n: number; value: Interval }, withExposure: boolean) => [
    ...(withExposure ? [{ column: 'exposure layer', ...fn(full, exposure) }] : []),
    ...models.map((m) => ({ column: m.name, ...fn(m, score) })),
  ];

  const t112 = (reference: string, status: string, statements: ReadonlyMap<string, AiDirection>) =>
    rows.push({
      reference,
      status,
      statistic: 'AUC',
      values: cols((m, v) => {
        const a = aiStatementAuc(scoresBySoc2018(m.model.occupations, v), statements);
        return { n: a.reduces.length + a.raises.length, value: a.auc };
      }, true),
    });
  t112(T112_REFERENCE, 'independent: never an input', refs.ai_statements);
  for (const { reference, rule } of T112_SENSITIVITY) t112(reference, 'independent: never an input; a check on the counting rule, not a replacement', aiStatementsBySoc(refs.ep_factor_rows, rule));

  // OEWS: acceleration of employment growth after late 2022, by score.
  const names = history.map((h) => h.year);
  const [before, middle, after] = [names.includes('2019') ? '2019' : names[0], names.includes('2022') ? '2022' : undefined, names.at(-1)];
  const g = before && middle && after ? growthByGroup(history, before, middle, after) : null;
  let growth: GrowthCheck = { years: null, groups: 0, match: { direct: 0, aggregated: 0, unmatched_old: 0, unmatched_current: 0, skipped_no_middle_year: 0 }, quintiles: [] };
  if (g) {
    const accel = g.groups.map((x) => x.after - x.before);
    const rho = (m: NamedModel, v: (o: OccupationRecord) => number) => {
      const s = groupScores(m.model.occupations, g.groups, v);
      const ours = new Map<string, number>();
      const theirs = new Map<string, number>();
      s.forEach((x, i) => {
        if (x !== null) [ours.set(String(i), x), theirs.set(String(i), accel[i]!)];
      });
      return rhoWithCi(ours, theirs);
    };
    rows.push({
      reference: `OEWS employment: growth May ${middle}-${after} minus May ${before}-${middle} (log points per year)`,
      status: 'independent: OEWS history is never an input; confounded by COVID (2019-2022) and OEWS three-year panels',
      statistic: 'Spearman',
      values: cols(rho, true),
    });
    const s = groupScores(full.model.occupations, g.groups, score);
    const pairs = s.flatMap((x, i) => (x === null ? [] : [[x, accel[i]!] as const])).sort((a, b) => a[0] - b[0]);
    const quintiles = [0, 1, 2, 3, 4].map((q) => {
      const part = pairs.slice(Math.floor((q * pairs.length) / 5), Math.floor(((q + 1) * pairs.length) / 5)).map((x) => x[1]);
      const ci = bootstrap([part], ([xs]) => (xs!.length ? xs!.reduce((a, b) => a + b, 0) / xs!.length : null));
      return { quintile: q + 1, n: part.length, mean_acceleration: r3(ci) };
    });
    growth = { years: { before: [before!, middle!], after: [middle!, after!] }, groups: g.groups.length, match: g.match, quintiles };
  }

  const x = (m: Map<string, number>) => toSoc2018(m, refs.crosswalk);
  const exposureRef = (reference: string, status: string, theirs: ReadonlyMap<string, number>) =>
    rows.push({ reference, status, statistic: 'Spearman', values: cols((m, v) => rhoWithCi(scoresBySoc2018(m.model.occupations, v), theirs), true) });
  exposureRef('AEI labor-market impacts: observed exposure (Anthropic 2026)', 'not independent: built from AEI conversations, which are an input (usage, automation share)', aeiJobExposure);
  exposureRef('Felten-Raj-Seamans AIOE (2021)', 'exposure reference: never an input', x(refs.soc2010.felten_aioe));
  exposureRef('Felten-Raj-Seamans language-modeling AIOE (2023)', 'exposure reference: never an input', x(refs.soc2010.felten_lm_aioe));
  exposureRef('Microsoft AI applicability (Tomlinson et al. 2025)', 'exposure reference: the score is never an input (their IWA weights are, as time weights)', msft);

  const ours = scoresBySoc2018(full.model.occupations, score);
  let ilo: IloCheck = { unavailable: refs.ilo.unavailable, counts: null, our_codes: ours.size, matched: 0, unmatched: [], max_within_code_spread: refs.ilo.max_within_code_spread, rows_skipped: refs.ilo.rows_skipped };
  if (refs.ilo.unavailable === null) {
    const m = iloToSoc2018(refs.ilo, refs.crosswalk);
    exposureRef(ILO_REFERENCE, ILO_STATUS, m.values);
    exposureRef(ILO_REFERENCE_SINGLE, ILO_STATUS, m.single);
    // At the ISCO-08 level itself: no crosswalk on the ILO side, our scores carried to ISCO-08 (model/isco.ts).
    rows.push({
      reference: ILO_REFERENCE_ISCO,
      status: ILO_STATUS,
      statistic: 'Spearman',
      values: cols((nm) => rhoWithCi(new Map(nm.model.isco.units.map((u) => [u.isco_code, u.final_score])), refs.ilo.scores), false),
    });
    ilo = { ...ilo, counts: m.counts, matched: [...ours.keys()].filter((k) => m.values.has(k)).length, unmatched: [...ours.keys()].filter((k) => !m.values.has(k)).sort() };
  }
  return { rows, growth, ilo, table_1_12: table112Breakdown(refs.ep_factor_rows) };
}

const fmtI = (i: Interval) => (i.value === null ? 'n/a' : `${i.value} [${i.low ?? '?'}, ${i.high ?? '?'}]`);

/**
 * @param baseline final_score of model 1.0.0 per reference (measured with computeOutcomes on the
 *   1.0.0 model, stored in baseline-1.0.0.json), shown as the first column.
 */
export function formatOutcomes(
  o: { rows: ReferenceRow[]; growth: GrowthCheck; ilo: IloCheck; table_1_12: Table112Breakdown },
  models: readonly NamedModel[],
  baseline: Readonly<Record<string, { n: number; value: Interval }>> = {},
): string {
  const columns = ['1.0.0', 'exposure layer', ...models.map((m) => m.name)];
  const cell = (r: ReferenceRow, c: string): Interval =>
    c === '1.0.0' ? (baseline[r.reference]?.value ?? { value: null, low: null, high: null }) : (r.values.find((v) => v.column === c)?.value ?? { value: null, low: null, high: null });
  const lines = [
    'Values with 95% percentile-bootstrap intervals (1,000 resamples, fixed seed). Columns: final_score of model 1.0.0 (measured on commit 9ada6c3 by the same function), the exposure layer (exposure_score) of 2.0.0, and final_score of the full model and of held-out variants:',
    ...models.map((m) => `- ${m.name}: ${m.description}`),
    '',
    `| Reference | Input? | Statistic | n | ${columns.join(' | ')} |`,
    `|---|---|---|---|${columns.map(() => '---').join('|')}|`,
    ...o.rows.map((r) => {
      const n = r.values.find((v) => v.column === models[0]!.name)?.n ?? 0;
      return `| ${r.reference} | ${r.status} | ${r.statistic} | ${n} | ${columns.map((c) => fmtI(cell(r, c))).join(' | ')} |`;
    }),
  ];
  lines.push('', formatTable112(o.table_1_12));
  const g = o.growth;
  if (g.years) {
    lines.push(
      '',
      `OEWS growth check: ${g.groups} SOC code groups; codes matched May ${g.years.before[0]} -> May ${g.years.after[1]}: ${g.match.direct} directly, ${g.match.aggregated} broad-group aggregates of transitional codes; ${g.match.unmatched_old} old and ${g.match.unmatched_current} current codes unmatched; ${g.match.skipped_no_middle_year} groups skipped (a year without the code). Acceleration = annualized log growth May ${g.years.after[0]}-${g.years.after[1]} minus May ${g.years.before[0]}-${g.years.before[1]}. COVID (2020-2021) and OEWS's three-year rolling panels confound it: read the sign, not the size.`,
      '',
      '| Score quintile (1 = lowest) | n | Mean acceleration [95% CI] |',
      '|---|---|---|',
      ...g.quintiles.map((q) => `| ${q.quintile} | ${q.n} | ${fmtI(q.mean_acceleration)} |`),
    );
  } else lines.push('', 'OEWS growth check: not possible (needs May 2019, May 2022 and a newer national file).');
  lines.push('', formatIlo(o.ilo));
  return lines.join('\n');
}

/** The ILO paragraph: what was matched, by which rule, and what it is not. */
export function formatIlo(i: IloCheck): string {
  if (i.unavailable !== null || i.counts === null) return `ILO 2025 check (Gmyrek et al. 2025): not possible: ${i.unavailable ?? 'no data'}. No score is shown rather than one through a guessed mapping.`;
  const c = i.counts;
  return [
    `ILO 2025 check (Gmyrek et al. 2025, ILO Working Paper 140; not a model input): the reference is mean_score_2025, the unweighted mean of each ISCO-08 unit group's task scores (0-1).`,
    `${c.isco_scored} ISCO-08 codes scored; ${c.isco_linked} linked by the BLS ISCO-08 -> SOC 2010 crosswalk (${c.isco_unlinked} not; ${c.minor_group_links} links name a 3-digit minor group and stand for its scored unit groups); they reach ${c.soc2010_reached} SOC 2010 and ${c.soc2018_reached} SOC 2018 codes.`,
    `${i.matched} of our ${i.our_codes} SOC 2018 codes have an ILO score, ${i.our_codes - i.matched} do not (${i.unmatched.join(', ') || 'none'}: no ISCO-08 link to their SOC 2010 parents); ${c.soc2018_single_isco} SOC 2018 codes are reached from a single ISCO-08 code (second ILO row).`,
    `Rule: both crosswalks are many-to-many; each SOC 2010 code takes the unweighted mean of its ISCO-08 codes' scores, each SOC 2018 code the mean of its SOC 2010 parents.`,
    `Unweighted because neither crosswalk carries shares (the BLS "part" marker says a link covers part of an occupation, not how much) and there is no US employment by ISCO-08 x SOC cell: a weight would be our assumption, not data.`,
    `Checks: mean_score_2025 varies by at most ${Math.round(i.max_within_code_spread * 1e6) / 1e6} within an ISCO-08 code; ${i.rows_skipped} rows skipped for an unreadable code or score.`,
  ].join(' ');
}

/** How Table 1.12 rows become the counted occupations, next to the AUC. */
export function formatTable112(b: Table112Breakdown): string {
  const other = b.other_word_codes.map((c) => `${c.soc} ${c.direction ?? 'no direction'}`).join(', ') || 'none';
  return [
    `Table 1.12 count and rule: of ${b.rows} statement rows, ${b.rows_naming_ai.reduces + b.rows_naming_ai.raises} name AI ("artificial intelligence" or the word AI) with a direction (${b.rows_naming_ai.reduces} share decreases, ${b.rows_naming_ai.raises} increases).`,
    `They cover ${b.codes.reduces + b.codes.raises + b.codes.both} detailed SOC codes: ${b.codes_with_several_rows} codes have several rows (the same occupation in several industries, ${b.extra_rows} extra rows), counted once, since the score is per occupation and one occupation's rows are not independent observations.`,
    `Counted: ${b.codes.reduces} reduces, ${b.codes.raises} raises (${b.codes.both} with both directions, left out). Direction is the statement's own ("share decreases/increases").`,
    `Sensitivity rows above: ${b.offset_codes.length} of the raises (${b.offset_codes.join(', ') || 'none'}) say the share rises and name AI only as a partial offset; statements naming AI in other words add ${b.other_word_codes.length} codes (${other}).`,
    'The primary rule is the one the issue and the 1.0.0 baseline use, kept so that 1.0.0 and 2.0.0 are measured alike; the sensitivity rules are shown beside it, never picked by their AUC.',
  ].join(' ');
}
