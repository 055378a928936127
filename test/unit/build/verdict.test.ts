// The verdict at the top of an occupation page (build/emit/verdict.ts) on hand-written risk
// responses: an invented occupation, its numbers chosen here, the sentences written from them.
import { describe, expect, it } from 'vitest';
import { changeWords, entryWords, verdict, verdictText, type ConfidenceCuts, type VerdictInput } from '../../../build/emit/verdict.ts';

/** The share of current pay a move's reason calls "keeps" (skill_gaps.desirable_wage_ratio), chosen here. */
const DESIRABLE = 0.75;
const CUTS: ConfidenceCuts = { tier_share: { high: 0.8, medium: 0.6 }, label_agreement: { high: 0.75, medium: 0.65 }, label_coverage: { high: 0.95, medium: 0.8 } };

type Option = VerdictInput['transition_options'][number];
type Route = VerdictInput['guidance']['routes'][number];

const option = (over: Partial<Option> = {}): Option => ({
  soc_code: '11-1111.00',
  title: 'Harbour Pilots',
  slug: 'harbour-pilots',
  final_score: 20.4,
  risk_tier: 'low',
  similarity: 0.6,
  wage_ratio: 1.2,
  job_zone: 3,
  safer_by: { low: 15, high: 25 },
  related_tier: 'Primary-Short',
  entry_education: "Associate's degree",
  education_step: 1,
  related_experience: 'None',
  on_the_job_training: 'None',
  employment: 40000,
  projected_employment_change_pct: 6.5,
  projected_openings_annual: 3100,
  reason: 'Fixture reason.',
  ...over,
});

const route = (over: Partial<Route> = {}): Route => ({ ...option({ soc_code: '22-2222.00', title: 'Lock Keepers', slug: 'lock-keepers', final_score: 12.6, entry_education: "Master's degree", wage_ratio: 2.04, projected_employment_change_pct: 3, projected_openings_annual: 1200 }), kind: 'route', share_lower: 0.9, ...over });

const focusTask = (id: number, time: number) => ({ task_id: id, description: `Task ${id}`, time_fraction: time, task_category: 'non_routine_interpersonal' as const, share_lowest_third: 1 });

/** A boatman in the medium tier, 41.6 (30.4 to 52.5), growing 3.2%: no move, no route, two focus tasks. */
function input(): VerdictInput {
  return {
    risk_score: {
      final_score: 41.6,
      risk_tier: 'medium',
      confidence: 'medium',
      risk_percentile: 50,
      percentile_low: 40,
      percentile_high: 61,
      task_exposure: 30,
      protective_moderation: 0.8,
      label_coverage: 1,
      label_agreement: 0.9,
      exposure_score: 40,
      complementarity: 0.5,
      score_low: 30.4,
      score_high: 52.5,
      interval_crosses_tier: true,
      tier_shares: { low: 0.05, medium: 0.7, high: 0.25 },
      time_weight_source: 'task_ratings',
      model_version: '3.1.0',
    },
    guidance: {
      next_step: { kind: 'focus', soc_code: null, text: 'Put weight on: Task 7 / Task 9' },
      stay: null,
      routes: [],
      next_step_note: null,
      route_note: 'No route: fixture.',
      focus: { tasks: [focusTask(7, 0.104), focusTask(9, 0.052)], summary: '2 tasks', method: 'Fixture method.' },
      technology_cut: { cut: false, basis: null, share: null, statements: 0 },
      job_pool: '33-3333.00',
    },
    evidence: {
      about: 'Fixture.',
      bls_statements: [
        { code: '33-3333', industry_code: '483000', industry_title: 'Water transportation', statement: 'Share increases.', share: 'rises' },
        { code: '33-3333', industry_code: '487000', industry_title: 'Scenic transportation', statement: 'Share increases.', share: 'rises' },
        { code: '33-3330', industry_code: '488000', industry_title: 'Support activities', statement: 'Share decreases.', share: 'falls' },
      ],
      bls_statements_note: 'Fixture.',
      employment_history: { oews_code: null, years: [], missing_years: [], caution: 'Fixture.' },
      projection: { period: '2024-34', code: '33-3333', employment_2024: 52000, employment_2034: 53664, change_pct: 3.2, openings_annual: 4850 },
    },
    transition_options: [],
  };
}

const sentences = (v: ReturnType<typeof verdict>) => v.sentences.map((s) => ({ key: s.key, text: s.parts.map((p) => (typeof p === 'string' ? p : p.text)).join('') }));

describe('the verdict of an occupation page', () => {
  it('says the score as exposure with its range, the confidence with its reason, the outlook and the focus', () => {
    const v = verdict(input(), CUTS, DESIRABLE);
    expect(sentences(v)).toEqual([
      { key: 'score', text: 'Medium exposure to AI doing its tasks: 42 of 100 (30–53 depending on modelling choices).' },
      // 0.7 of the alternatives is under the 0.8 needed for high: that is the reason.
      { key: 'confidence', text: 'Medium confidence: the medium tier holds in 70% of modelling alternatives.' },
      { key: 'evidence', text: "BLS projects employment to grow 3.2% over 2024-34, with 4,850 openings a year; in its industry notes, the job's share of employment rises in 2 industries and falls in 1 industry." },
      // 10.4% + 5.2% = 15.6%, about 16%.
      { key: 'step', text: 'Best next step: no move or route passes the rules, so put weight on the 2 tasks where AI exposure stays lowest (about 16% of the work time).' },
    ]);
    expect(v.reason).toBeNull();
    // The links: the confidence word to its definition, the focus to its list.
    expect(v.sentences[1]!.parts[0]).toEqual({ text: 'Medium confidence', anchor: 'confidence' });
    expect(v.sentences[3]!.parts[1]).toMatchObject({ anchor: 'focus' });
  });

  it('never calls the score a probability of losing the job', () => {
    expect(verdictText(verdict(input(), CUTS, DESIRABLE))).not.toMatch(/probab|chance|likel|lose|loss/i);
  });

  it('a move names the occupation with its score, pay and outlook, linked by slug', () => {
    const i = input();
    i.transition_options = [option()];
    i.guidance.next_step = { kind: 'move', soc_code: '11-1111.00', text: 'Move to Harbour Pilots: ...' };
    const v = verdict(i, CUTS, DESIRABLE);
    expect(sentences(v).at(-1)).toEqual({ key: 'step', text: 'Best next step: move to Harbour Pilots, a similar job that scores 20 (low exposure) and pays 20% more; BLS projects it to grow 6.5%, with 3,100 openings a year.' });
    expect(v.sentences.at(-1)!.parts[1]).toEqual({ text: 'Harbour Pilots', slug: 'harbour-pilots' });
  });

  it('a move that pays less never says more: the share kept, or under the desirable share what it pays', () => {
    const i = input();
    i.guidance.next_step = { kind: 'move', soc_code: '11-1111.00', text: 'Move to Harbour Pilots: ...' };
    i.transition_options = [option({ wage_ratio: 0.9 })];
    expect(sentences(verdict(i, CUTS, DESIRABLE)).at(-1)!.text).toContain('scores 20 (low exposure) and keeps 90% of pay;');
    i.transition_options = [option({ wage_ratio: 0.62 })];
    expect(sentences(verdict(i, CUTS, DESIRABLE)).at(-1)!.text).toContain('scores 20 (low exposure) and pays 62% of current pay;');
  });

  it('a route says its entry; beside staying it is the longer step, after the advice to stay', () => {
    const i = input();
    i.guidance.routes = [route()];
    i.guidance.next_step = { kind: 'route', soc_code: '22-2222.00', text: 'Route to Lock Keepers: ...' };
    const routeOnly = sentences(verdict(i, CUTS, DESIRABLE)).at(-1)!;
    expect(routeOnly.text).toBe("Best next step, a longer one: Lock Keepers, which scores 13 (low exposure), needs a master's degree to enter and pays 104% more; BLS projects it to grow 3%, with 1,200 openings a year.");
    i.guidance.stay = 'Staying is the advice: ...';
    const both = sentences(verdict(i, CUTS, DESIRABLE));
    expect(both.map((s) => s.key)).toEqual(['score', 'confidence', 'evidence', 'stay', 'step']);
    expect(both[3]!.text).toBe('Staying is the advice, since the job is growing and outside the high tier: put weight on the 2 tasks where AI exposure stays lowest (about 16% of the work time).');
    expect(both[4]!.text).toMatch(/^A longer step: Lock Keepers, which scores 13/);
  });

  it('staying alone is the step', () => {
    const i = input();
    i.guidance.stay = 'Staying is the advice: ...';
    i.guidance.next_step = { kind: 'stay', soc_code: null, text: 'Staying is the advice: ...' };
    expect(sentences(verdict(i, CUTS, DESIRABLE)).at(-1)).toEqual({ key: 'step', text: 'Staying is the advice, since the job is growing and outside the high tier: put weight on the 2 tasks where AI exposure stays lowest (about 16% of the work time).' });
  });

  it('with no next step it says so, keeps the API reason whole, and points at Your situation', () => {
    const i = input();
    i.guidance.focus.tasks = [];
    i.guidance.next_step = { kind: 'none', soc_code: null, text: 'No next step: the reason.' };
    i.guidance.next_step_note = 'No next step: the reason.';
    const v = verdict(i, CUTS, DESIRABLE);
    expect(sentences(v).at(-1)).toEqual({ key: 'step', text: 'No next step passes the rules for this job: no move, no route and no focus task. Your situation shows how your own mix of tasks scores.' });
    expect(v.sentences.at(-1)!.parts[1]).toEqual({ text: 'Your situation', anchor: 'assess' });
    expect(v.reason).toBe('No next step: the reason.');
  });

  it('low confidence names the inputs under the medium cut, and a tier most alternatives do not give', () => {
    const i = input();
    Object.assign(i.risk_score, { confidence: 'low', label_agreement: 0.5, label_coverage: 0.78, tier_shares: { low: 0, medium: 0.45, high: 0.55 } });
    expect(sentences(verdict(i, CUTS, DESIRABLE))[1]!.text).toBe(
      'Low confidence: most modelling alternatives (55%) put it in the high tier instead, the medium tier holds in 45% of modelling alternatives, human and GPT-4 raters agree on 50% of the labelled work time and 78% of the work time has an exposure label.',
    );
  });

  it('high confidence gives the tier share and the agreement that carry it', () => {
    const i = input();
    Object.assign(i.risk_score, { confidence: 'high', tier_shares: { low: 0.1, medium: 0.9, high: 0 } });
    expect(sentences(verdict(i, CUTS, DESIRABLE))[1]!.text).toBe('High confidence: the medium tier holds in 90% of modelling alternatives and human and GPT-4 raters agree on 90% of the labelled work time.');
  });

  it('a technology cut and a missing projection are said as such', () => {
    const i = input();
    i.guidance.technology_cut = { cut: true, basis: 'industries', share: 0.62, statements: 3 };
    i.evidence.projection = { period: '2024-34', code: null, employment_2024: null, employment_2034: null, change_pct: null, openings_annual: null };
    expect(sentences(verdict(i, CUTS, DESIRABLE))[2]!.text).toBe("BLS publishes no 2024-34 projection for this job; it names technology or AI as cutting the job's share of employment in industries with 62% of its jobs.");
  });

  it('a next step the lists do not hold is an error, not a quiet guess', () => {
    const i = input();
    i.guidance.next_step = { kind: 'move', soc_code: '44-4444.00', text: 'Move to nowhere' };
    expect(() => verdict(i, CUTS, DESIRABLE)).toThrow(/44-4444\.00/);
  });
});

describe('words for numbers', () => {
  it('employment change, with under 1% either way as little change', () => {
    expect([changeWords(4.9), changeWords(-5.8), changeWords(0.2), changeWords(-0.4)]).toEqual(['grow 4.9%', 'fall 5.8%', 'change little (+0.2%)', 'change little (-0.4%)']);
  });
  it('entry education with its article', () => {
    expect([entryWords("Bachelor's degree"), entryWords("Associate's degree"), entryWords('Some college, no degree'), entryWords('No formal educational credential')]).toEqual(["a bachelor's degree", "an associate's degree", 'some college, no degree', 'no formal educational credential']);
  });
});
