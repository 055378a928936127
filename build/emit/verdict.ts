// The verdict at the top of an occupation page (issue 46): in a few plain sentences, what the score
// means for this job, how settled it is, what is happening to the job and the best next step.
// Pure: made from the risk response the API serves for the occupation (GET .../risk), so that the
// page and the API cannot tell two stories; a contract test reads both over HTTP and compares.
import type { OccupationRisk } from '../contract/response-schemas.ts';
import type { RiskTier } from '../model/record-schemas.ts';
import { payWords } from '../model/transitions.ts';
import { grouped, pct, scoreText } from './numbers.ts';
import { TIER_WORDS } from './tier-words.ts';

/** Plain text, a link to another occupation's page (by slug), or a link to a part of this page (by id). */
export type Segment = string | { text: string; slug: string } | { text: string; anchor: string };

export type VerdictKey = 'score' | 'confidence' | 'evidence' | 'stay' | 'step';

export interface Verdict {
  /** At most five short sentences, in order: score, confidence, evidence, (staying,) next step. */
  sentences: Array<{ key: VerdictKey; parts: Segment[] }>;
  /** The API's own reason when no next step passes the rules (guidance.next_step_note); else null. */
  reason: string | null;
}

/** The confidence cuts of seeds/model-params.json (confidence.*.value): what each input must reach. */
export type ConfidenceCuts = Record<'tier_share' | 'label_agreement' | 'label_coverage', { high: number; medium: number }>;

/** What the verdict reads of the risk response. */
export type VerdictInput = Pick<OccupationRisk, 'risk_score' | 'guidance' | 'evidence' | 'transition_options'>;
type Risk = VerdictInput;
type Option = OccupationRisk['transition_options'][number];

const CONFIDENCE: Record<RiskTier, string> = { low: 'Low confidence', medium: 'Medium confidence', high: 'High confidence' };

const signed = (x: number) => (x > 0 ? `+${x}%` : `${x}%`);

/** Employment change in words: under 1% either way is "little change", as BLS's own wording has it. */
export function changeWords(change: number): string {
  if (change >= 1) return `grow ${change}%`;
  if (change <= -1) return `fall ${-change}%`;
  return `change little (${signed(change)})`;
}

function scoreSentence(r: Risk['risk_score']): Segment[] {
  return [`${TIER_WORDS[r.risk_tier]} to AI doing its tasks: ${scoreText(r.final_score)} of 100 (${scoreText(r.score_low)}–${scoreText(r.score_high)} depending on modelling choices).`];
}

/**
 * The confidence word with its reason: the inputs that kept it from the next word up (for high,
 * the two that carry it). The word says the weakest part of the evidence (uncertainty.ts).
 */
function confidenceSentence(r: Risk['risk_score'], cuts: ConfidenceCuts): Segment[] {
  const share = r.tier_shares[r.risk_tier];
  const said = {
    tier_share: `the ${r.risk_tier} tier holds in ${pct(share)} of modelling alternatives`,
    label_agreement: `human and GPT-4 raters agree on ${pct(r.label_agreement)} of the labelled work time`,
    label_coverage: `${pct(r.label_coverage)} of the work time has an exposure label`,
  };
  const values = { tier_share: share, label_agreement: r.label_agreement, label_coverage: r.label_coverage };
  const keys = ['tier_share', 'label_agreement', 'label_coverage'] as const;
  const bar = r.confidence === 'low' ? 'medium' : 'high';
  const limiting = r.confidence === 'high' ? (['tier_share', 'label_agreement'] as const).slice() : keys.filter((k) => values[k] < cuts[k][bar]);
  const reasons = limiting.map((k) => said[k]);
  // The served tier is the score's; the alternatives may favour another (tier_shares are not probabilities).
  const tiers = (Object.keys(r.tier_shares) as RiskTier[]).filter((t) => r.tier_shares[t] > share);
  if (tiers.length > 0) {
    const other = tiers.sort((a, b) => r.tier_shares[b] - r.tier_shares[a])[0]!;
    reasons.unshift(`most modelling alternatives (${pct(r.tier_shares[other])}) put it in the ${other} tier instead`);
  }
  if (reasons.length === 0) reasons.push(said.tier_share);
  return [{ text: CONFIDENCE[r.confidence], anchor: 'confidence' }, `: ${join(reasons)}.`];
}

function evidenceSentence(e: Risk['evidence'], cut: Risk['guidance']['technology_cut']): Segment[] {
  const p = e.projection;
  const projected =
    p.code === null || p.change_pct === null
      ? 'BLS publishes no 2024-34 projection for this job'
      : `BLS projects employment to ${changeWords(p.change_pct)} over ${p.period}${p.openings_annual === null ? '' : `, with ${grouped(p.openings_annual)} openings a year`}`;
  let notes = '';
  if (cut.cut) notes = cut.basis === 'total' || cut.share === null ? "; it names technology or AI as cutting the job's share of employment across industries" : `; it names technology or AI as cutting the job's share of employment in industries with ${pct(cut.share)} of its jobs`;
  else {
    const rises = e.bls_statements.filter((s) => s.share === 'rises').length;
    const falls = e.bls_statements.length - rises;
    const parts = [rises > 0 ? `rises in ${industries(rises)}` : '', falls > 0 ? `falls in ${industries(falls)}` : ''].filter(Boolean);
    if (parts.length > 0) notes = `; in its industry notes, the job's share of employment ${parts.join(' and ')}`;
  }
  return [`${projected}${notes}.`];
}

const industries = (n: number) => `${n} ${n === 1 ? 'industry' : 'industries'}`;
const join = (xs: readonly string[]) => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/** "a bachelor's degree", "an associate's degree", "some college, no degree": BLS's entry level after "needs". */
export function entryWords(education: string): string {
  const e = education.toLowerCase();
  if (/^(no |some )/.test(e)) return e;
  return `${/^[aeiou]/.test(e) ? 'an' : 'a'} ${e}`;
}

/** The option's own numbers in words: "scores 13 (low exposure), needs ... to enter and pays ...; BLS projects ...". */
function optionWords(o: Option, entry: boolean, desirable: number): string {
  const bits = [`scores ${scoreText(o.final_score)} (${TIER_WORDS[o.risk_tier].toLowerCase()})`];
  if (entry && o.entry_education) bits.push(`needs ${entryWords(o.entry_education)} to enter`);
  // The pay wording of the option's own reason (the API's), so the verdict and the list say it alike.
  if (o.wage_ratio !== null) bits.push(payWords(o.wage_ratio, desirable));
  const outlook =
    o.projected_employment_change_pct === null
      ? ''
      : `; BLS projects it to ${changeWords(o.projected_employment_change_pct)}${o.projected_openings_annual === null ? '' : `, with ${grouped(o.projected_openings_annual)} openings a year`}`;
  return `${join(bits)}${outlook}`;
}

/** "the 5 tasks where AI exposure stays lowest (about 21% of the work time)", linked to the list. */
function focusWords(g: Risk['guidance']): Segment {
  const n = g.focus.tasks.length;
  const time = Math.round(100 * g.focus.tasks.reduce((a, t) => a + t.time_fraction, 0));
  return { text: `${n === 1 ? 'the one task' : `the ${n} tasks`} where AI exposure stays lowest (about ${time}% of the work time)`, anchor: 'focus' };
}

function stepSentences(risk: Risk, desirable: number): Array<{ key: VerdictKey; parts: Segment[] }> {
  const g = risk.guidance;
  const s = g.next_step;
  const option = (list: readonly Option[]) => {
    const o = list.find((t) => t.soc_code === s.soc_code);
    if (!o) throw new Error(`next step ${s.kind} ${s.soc_code} is not among its ${s.kind === 'move' ? 'transition options' : 'routes'}`);
    return o;
  };
  const focus = g.focus.tasks.length > 0;
  const stay: Array<{ key: VerdictKey; parts: Segment[] }> =
    g.stay === null ? [] : [{ key: s.kind === 'stay' ? 'step' : 'stay', parts: focus ? ['Staying is the advice, since the job is growing and outside the high tier: put weight on ', focusWords(g), '.'] : ['Staying is the advice, since the job is growing and outside the high tier.'] }];
  switch (s.kind) {
    case 'move': {
      const o = option(risk.transition_options);
      return [...stay, { key: 'step', parts: ['Best next step: move to ', { text: o.title, slug: o.slug }, `, a similar job that ${optionWords(o, false, desirable)}.`] }];
    }
    case 'route': {
      const o = option(g.routes);
      return [...stay, { key: 'step', parts: [g.stay === null ? 'Best next step, a longer one: ' : 'A longer step: ', { text: o.title, slug: o.slug }, `, which ${optionWords(o, true, desirable)}.`] }];
    }
    case 'stay':
      return stay;
    case 'focus':
      return [{ key: 'step', parts: ['Best next step: no move or route passes the rules, so put weight on ', focusWords(g), '.'] }];
    case 'none': {
      const focusText = g.focus.tasks.length === 0 ? 'no focus task' : g.focus.tasks.length === 1 ? 'only one focus task' : `${g.focus.tasks.length} focus tasks`;
      return [{ key: 'step', parts: [`No next step passes the rules for this job: no move, no route and ${focusText}. `, { text: 'Your situation', anchor: 'assess' }, ' shows how your own mix of tasks scores.'] }];
    }
  }
}

/**
 * The verdict of one occupation from its risk response; cuts and desirable (the share of current pay
 * a move's reason calls "keeps", skill_gaps.desirable_wage_ratio) are the seeds' model parameters.
 */
export function verdict(risk: Risk, cuts: ConfidenceCuts, desirable: number): Verdict {
  const r = risk.risk_score;
  return {
    sentences: [
      { key: 'score', parts: scoreSentence(r) },
      { key: 'confidence', parts: confidenceSentence(r, cuts) },
      { key: 'evidence', parts: evidenceSentence(risk.evidence, risk.guidance.technology_cut) },
      ...stepSentences(risk, desirable),
    ],
    reason: risk.guidance.next_step.kind === 'none' ? risk.guidance.next_step_note : null,
  };
}

/** The verdict as plain text, one sentence after another (the page's meta description, the tests). */
export const verdictText = (v: Verdict): string => v.sentences.map((s) => s.parts.map((p) => (typeof p === 'string' ? p : p.text)).join('')).join(' ');
