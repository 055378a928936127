// The published occupation records: ranks across occupations (employment-weighted percentiles,
// tiers, slugs), the adoption window, transitions and skill gaps (these need every score), votes.
import type { AnchorIndex } from './level-anchors.ts';
import { tierFor } from './assess.ts';
import { complementarityMultiplier } from './complementarity.ts';
import type { Draft } from './draft.ts';
import { releaseYears } from './evidence.ts';
import { explainScore, explanationBaseline } from './explanation.ts';
import { allocateMoves, moveOption, skillGaps, transitionChoice, transitionNote, type EligibleMove, type MoveGuide, type ScoredRef, type TransitionFilterCounts } from './transitions.ts';
import { focusTasks, nextStep, nextStepNote, routeChoice, stayNote } from './advice.ts';
import { industryEmployment, table112BySoc, technologyCut, type Table112Statement, type TechnologyCut } from './ep-factors.ts';
import type { EpFactorRow, OewsIndustryRow, Projection } from './inputs.ts';
import { jobEvidence, missingYears, type EmploymentYears } from './job-evidence.ts';
import type { TaskBasis } from './record-schemas.ts';
import { assignSlugs, occupationId } from './ids.ts';
import type { RelatedOccupation, VoteRow } from './inputs.ts';
import { employmentWeights, type LaborIndex } from './labor.ts';
import { round } from './num.ts';
import type { Seeds } from './params.ts';
import type { DescriptorIndex } from './protective.ts';
import type { OccupationRecord, TierTable } from './record-schemas.ts';
import type { OccupationScores } from './occupation-scores.ts';
import { employmentPercentiles } from './percentiles.ts';
import { buildProfiles, profileOf, similaritiesAtLeast, unitZ } from './similarity.ts';
import { adoptionYears } from './displacement-years.ts';
import { voteStats } from './vote-stats.ts';
import { confidenceFromEvidence, percentileRanges, tierShares } from './uncertainty.ts';

export interface RecordContext {
  seeds: Seeds;
  tiers: TierTable;
  labor: LaborIndex;
  descriptors: DescriptorIndex;
  /** O*NET Level Scale Anchors by element (the skill gaps' plain words). */
  levelAnchors: AnchorIndex;
  /** AEI releases, oldest first (the adoption window's observed points). */
  releases: readonly string[];
  skillRelease: (soc: string) => string;
  knowledgeRelease: string;
  votes: readonly VoteRow[] | null;
  /** O*NET Related Occupations (each occupation's list, with its tiers). */
  related: readonly RelatedOccupation[];
  /** Whether the AEI usage level agrees across releases enough to set the adoption level (evidence report). */
  usageLevelSignal: boolean;
  /** BLS EP Table 1.12 rows and OEWS industry rows: guidance only (moves, routes, focus), never the score. */
  epFactors: readonly EpFactorRow[];
  oewsIndustry: readonly OewsIndustryRow[];
  /** OEWS national employment by year, oldest first, and the projections rows: evidence beside the score (job-evidence.ts), never read by it. */
  employmentYears?: readonly EmploymentYears[];
  projections?: readonly Projection[];
  /** Each occupation's task basis (the focus rule reads its per-alternative task risks). */
  taskBases: ReadonlyMap<string, TaskBasis>;
  /** Moves by the 3.0 rules only (no 3.1 rules, no capacity, no routes or focus): the validation's 'before'. */
  moveRules30?: boolean;
}

/** Job pools: occupations sharing an OEWS code or a projections code are one pool (union-find). */
export function jobPools(socs: readonly string[], labor: Pick<LaborIndex, 'oewsCode' | 'projectionCode'>): (soc: string) => string {
  const parent = new Map(socs.map((s) => [s, s]));
  const find = (s: string): string => {
    let r = s;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(s, r);
    return r;
  };
  const firstOf = new Map<string, string>();
  for (const soc of socs) {
    for (const key of [`o:${labor.oewsCode.get(soc) ?? soc}`, `p:${labor.projectionCode.get(soc) ?? soc}`]) {
      const other = firstOf.get(key);
      if (other === undefined) firstOf.set(key, soc);
      else {
        const [a, b] = [find(soc), find(other)].sort();
        parent.set(b!, a!);
      }
    }
  }
  return (soc) => (parent.has(soc) ? find(soc) : soc);
}

const routeNoteText = (a: Seeds['advice']): string => {
  const r = a.routes;
  return (
    `No route: no O*NET related occupation passes the route rules (similarity >= ${r.min_similarity.value}, at most ${r.max_education_step.value} education levels up, ` +
    `growing and paying >= ${Math.round(100 * r.min_wage_ratio.value)}% of pay (out of a growing occupation: paying and growing more), >= 10,000 jobs, ` +
    `>= ${r.min_points.value} points lower, lower under >= ${Math.round(100 * r.min_share_lower.value)}% of the model alternatives, not named by BLS Table 1.12 as cut by technology or AI).`
  );
};

/** The 3.1 guide: Table 1.12's cut rule per occupation, job pools, the advice seed. */
export function moveGuide(refs: readonly ScoredRef[], ctx: Pick<RecordContext, 'seeds' | 'labor' | 'epFactors' | 'oewsIndustry'>) {
  const socs = refs.map((r) => r.soc_code);
  const statements = table112BySoc(ctx.epFactors, ctx.seeds.ep_causes, socs);
  const jobs = industryEmployment(ctx.oewsIndustry);
  const material = ctx.seeds.advice.moves.material_industry_share.value;
  const cuts = new Map<string, TechnologyCut>(socs.map((s) => [s, technologyCut(statements.get(s), jobs.get(ctx.labor.oewsCode.get(s) ?? s.slice(0, 7)), material)]));
  const pool = jobPools(socs, ctx.labor);
  const guide: MoveGuide = { advice: ctx.seeds.advice, cut: (soc) => cuts.get(soc)?.cut ?? false, pool };
  return { guide, statements, cuts };
}

/** Every served occupation as a reference other occupations' transitions can point to. */
export function scoredRefs(scores: OccupationScores, ctx: Pick<RecordContext, 'labor' | 'tiers'> & { seeds?: Pick<Seeds, 'entry_corrections'> }): ScoredRef[] {
  // Entry rules stricter than Table 1.2 (seeds/entry-corrections.json): what moves and routes read.
  const corrected = new Map((ctx.seeds?.entry_corrections.corrections ?? []).map((c) => [c.soc, c]));
  const slugs = assignSlugs(scores.scored.map(({ d }) => ({ soc_code: d.soc, title: d.title })));
  return scores.scored.map(({ d, score, alternatives }) => {
    const labor = ctx.labor.data.get(d.soc)!;
    return {
      soc_code: d.soc,
      title: d.title,
      slug: slugs.get(d.soc)!,
      final_score: score,
      risk_tier: tierFor(score, ctx.tiers),
      job_zone: d.job_zone,
      median_annual_wage: labor.median_annual_wage,
      alternatives,
      entry_education: corrected.get(d.soc.slice(0, 7))?.entry_education ?? labor.entry_education,
      related_experience: corrected.get(d.soc.slice(0, 7))?.related_experience ?? labor.related_experience,
      on_the_job_training: corrected.get(d.soc.slice(0, 7))?.on_the_job_training ?? labor.on_the_job_training,
      employment: labor.employment,
      projected_change_pct: labor.projected_employment_change_pct,
      projected_openings_annual: labor.projected_openings_annual,
    };
  });
}

export function occupationRecords(scores: OccupationScores, refs: readonly ScoredRef[], ctx: RecordContext) {
  const inputs = recordInputs(scores, refs, ctx);
  const occupations: OccupationRecord[] = scores.scored.map((x, i) => occupationRecord(x, i, inputs));
  return { occupations, counts: inputs.counts };
}

/** The tallies the evidence report prints of the records (moves removed by each rule, routes, focus...). */
function newCounts(statements: number) {
  return {
    skill_gaps_empty: 0, transitions_empty: 0, transitions_short: 0, year_basis: { aei_level: 0, published_range: 0, negligible: 0, one_year_windows: 0 },
    moves_removed: { low_similarity: 0, not_safer: 0, same_tier: 0, job_zone: 0, education_or_licence: 0, demand: 0, pay: 0, cut_by_technology: 0, growing_origin: 0, ladder: 0, step_down: 0, same_pool: 0, capacity: 0 },
    table_1_12: { statements, occupations_with_statements: 0, occupations_cut: 0, cut_by_total: 0, cut_by_industries: 0 },
    routes: { occupations_with_route: 0, routes: 0, sideways_not_route: 0, ladder: 0 },
    focus: { occupations_with_two: 0, occupations_none: 0, removed_by_cut_title: 0 },
  };
}
type RecordCounts = ReturnType<typeof newCounts>;

/** What every occupation's record reads: ranks, similarity, the move rules' choices, and the tallies it adds to. */
interface RecordInputs {
  ctx: RecordContext;
  p: Seeds['params'];
  scores: OccupationScores;
  refs: readonly ScoredRef[];
  refBySoc: Map<string, ScoredRef>;
  empWeight: Map<string, number | null>;
  percentiles: number[];
  percentileRange: ReturnType<typeof percentileRanges>;
  /** Who shares each OEWS code (the labor numbers are the code's, not the occupation's). */
  pool: Map<string, string[]>;
  relatedOf: Map<string, Map<string, string>>;
  sims: (soc: string) => (picked: readonly number[], atLeast: number) => ReturnType<typeof similaritiesAtLeast>;
  tY: number[];
  meanUsage: number;
  votes: Map<string, VoteRow>;
  baseline: ReturnType<typeof explanationBaseline>;
  steps: Parameters<typeof explainScore>[2];
  guide: MoveGuide;
  statements: ReturnType<typeof moveGuide>['statements'];
  cuts: Map<string, TechnologyCut>;
  choices: Map<string, { eligible: EligibleMove[]; removed: TransitionFilterCounts }>;
  allocation: ReturnType<typeof allocateMoves>;
  years: readonly EmploymentYears[];
  missing: number[];
  projectionOf: Map<string, Projection>;
  counts: RecordCounts;
}

function recordInputs(scores: OccupationScores, refs: readonly ScoredRef[], ctx: RecordContext): RecordInputs {
  const p = ctx.seeds.params;
  const { scored, thetaMin, kappa } = scores;
  const drafts: Draft[] = scored.map((x) => x.d);
  const empWeight = employmentWeights(ctx.labor);
  const percentiles = employmentPercentiles(scored.map(({ d, score }) => ({ score, employment: empWeight.get(d.soc) ?? null })));
  // alternatives[0] is the base model's score: the ranges and shares are over the sampled alternatives.
  const percentileRange = percentileRanges(
    percentiles,
    scored.map((x) => x.alternatives.slice(1)),
    scored.map(({ d }) => empWeight.get(d.soc) ?? null),
    p.interval.quantile.value,
  );
  const refBySoc = new Map(refs.map((r) => [r.soc_code, r]));
  const pool = new Map<string, string[]>();
  for (const { d } of scored) {
    const code = ctx.labor.data.get(d.soc)!.oews_code;
    if (code !== null) pool.set(code, [...(pool.get(code) ?? []), d.soc]);
  }
  // Similarity profiles: O*NET descriptors, plus each occupation's IWA time shares.
  const profiles = buildProfiles(drafts.map((d) => d.soc), ctx.descriptors, ctx.seeds.protective.importance_exponent.value);
  profiles.sets.push(unitZ(new Map(drafts.map((d) => [d.soc, d.iwa_profile])), true));
  // Aligned with refs, the candidates of every transition.
  const refProfiles = refs.map((r) => profileOf(profiles, r.soc_code));
  const sims = (soc: string) => {
    const own = profileOf(profiles, soc);
    return (picked: readonly number[], atLeast: number) => similaritiesAtLeast(own, picked.map((i) => refProfiles[i]!), atLeast);
  };
  const relatedOf = new Map<string, Map<string, string>>();
  for (const r of ctx.related) {
    const m = relatedOf.get(r.soc_code) ?? new Map<string, string>();
    if (!m.has(r.related_soc_code)) m.set(r.related_soc_code, r.tier);
    relatedOf.set(r.soc_code, m);
  }
  const counts = newCounts(ctx.epFactors.length);
  const { guide, statements, cuts } = moveGuide(refs, ctx);
  for (const c of cuts.values()) {
    if (c.statements.length > 0 || c.cut) counts.table_1_12.occupations_with_statements++;
    if (c.cut) counts.table_1_12.occupations_cut++;
    if (c.basis === 'total') counts.table_1_12.cut_by_total++;
    if (c.basis === 'industries') counts.table_1_12.cut_by_industries++;
  }
  const { choices, allocation } = chooseMoves(scored, refs, refBySoc, empWeight, sims, relatedOf, guide, ctx);
  counts.moves_removed.capacity = allocation.blocked;
  return {
    ctx, p, scores, refs, refBySoc, empWeight, percentiles, percentileRange, pool, relatedOf, sims,
    tY: ctx.releases.map(releaseYears),
    meanUsage: drafts.reduce((a, d) => a + d.adoption.usage, 0) / Math.max(1, drafts.length),
    votes: new Map((ctx.votes ?? []).map((v) => [v.soc_code, v])),
    baseline: explanationBaseline(drafts.map((d) => ({ layers: d.base, parts: d.parts }))),
    steps: { thetaMin, kappa, prior: scores.prior, priorTasks: p.scale.prior_tasks.value, halfSaturation: p.scale.half_saturation.value },
    guide, statements, cuts, choices, allocation,
    years: ctx.employmentYears ?? [],
    missing: missingYears(ctx.employmentYears ?? []),
    projectionOf: new Map((ctx.projections ?? []).filter((r) => r.occupation_type === 'Line item').map((r) => [r.soc, r])),
    counts,
  };
}

/** Every origin's eligible moves first (capacity is a rule over all origins together), then the moves each gets. */
function chooseMoves(
  scored: OccupationScores['scored'],
  refs: readonly ScoredRef[],
  refBySoc: ReadonlyMap<string, ScoredRef>,
  empWeight: ReadonlyMap<string, number | null>,
  sims: RecordInputs['sims'],
  relatedOf: RecordInputs['relatedOf'],
  guide: MoveGuide,
  ctx: RecordContext,
) {
  const p = ctx.seeds.params;
  const choices = new Map<string, { eligible: EligibleMove[]; removed: TransitionFilterCounts }>();
  for (const { d } of scored) {
    const { eligible, removed } = transitionChoice(refBySoc.get(d.soc)!, refs, sims(d.soc), p, relatedOf.get(d.soc), ctx.moveRules30 ? undefined : guide);
    choices.set(d.soc, { eligible, removed });
  }
  const openingsOfPool = new Map<string, number>();
  for (const r of refs) {
    const k = guide.pool(r.soc_code);
    openingsOfPool.set(k, Math.max(openingsOfPool.get(k) ?? 0, r.projected_openings_annual ?? 0));
  }
  const allocation = allocateMoves(
    scored.map(({ d }) => ({ soc: d.soc, workers: empWeight.get(d.soc) ?? 0, eligible: choices.get(d.soc)!.eligible })),
    ctx.moveRules30 ? Infinity : ctx.seeds.advice.moves.capacity_workers_per_opening.value,
    ctx.moveRules30 ? (soc: string) => soc : guide.pool,
    (k) => openingsOfPool.get(k) ?? null,
    p.skill_gaps.max_transitions.value,
  );
  return { choices, allocation };
}

/** One occupation's published record. */
function occupationRecord({ d, score, low, high, alternatives }: OccupationScores['scored'][number], i: number, inp: RecordInputs): OccupationRecord {
  const { ctx, p, counts } = inp;
  const window = adoptionYears({ usage_index: inp.meanUsage > 0 ? d.adoption.usage / inp.meanUsage : 0, level_signal: ctx.usageLevelSignal, t_latest: inp.tY.at(-1) ?? 0 }, score, p);
  counts.year_basis[window.basis]++;
  if (window.negligible) counts.year_basis.negligible++;
  if (window.low === window.high) counts.year_basis.one_year_windows++;
  const origin = inp.refBySoc.get(d.soc)!;
  const { removed, eligible } = inp.choices.get(d.soc)!;
  const transitions = inp.allocation.chosen.get(d.soc)!.map((m) => moveOption(origin, m, p));
  for (const k of Object.keys(counts.moves_removed) as Array<keyof typeof counts.moves_removed>) if (k !== 'capacity') counts.moves_removed[k] += removed[k];
  const note = transitionNote(transitions.length, removed, p);
  const guidance = guidanceOf(d, origin, transitions, eligible, inp);
  if (note !== null) counts.transitions_short++;
  const gaps = skillGaps(
    { skills: ctx.descriptors.skills.get(d.soc), knowledge: ctx.descriptors.knowledge.get(d.soc) },
    [...transitions, ...guidance.routes].map((t) => ({ soc_code: t.soc_code, title: t.title, skills: ctx.descriptors.skills.get(t.soc_code), knowledge: ctx.descriptors.knowledge.get(t.soc_code) })),
    p,
    { skills: ctx.skillRelease(d.soc), knowledge: ctx.knowledgeRelease },
    ctx.levelAnchors,
  );
  if (gaps.length === 0) counts.skill_gaps_empty++;
  if (transitions.length === 0) counts.transitions_empty++;
  const empWeight = inp.empWeight.get(d.soc);
  return {
    id: occupationId(d.soc),
    soc_code: d.soc,
    title: d.title,
    slug: origin.slug,
    job_zone: d.job_zone,
    description: d.description,
    labor_data: ((l) => ({
      ...l,
      employment_shared_with: l.oews_code === null ? [] : inp.pool.get(l.oews_code)!.filter((s) => s !== d.soc),
      employment_own_share: empWeight === undefined || empWeight === null ? null : round(empWeight, 1),
    }))(ctx.labor.data.get(d.soc)!),
    risk_score: riskScore(d, score, low, high, alternatives, i, origin.risk_tier, window, inp),
    explanation: explainScore({ layers: d.base, terms: d.terms, tasks: d.input_tasks, parts: d.parts, theta: d.theta }, inp.baseline, inp.steps, score, d.title),
    protective_factors: d.protective,
    tasks: d.tasks,
    skill_gaps: gaps,
    transition_options: transitions,
    transition_note: note,
    guidance,
    evidence: jobEvidence(
      inp.statements.get(d.soc) ?? [],
      ctx.labor.data.get(d.soc)!.oews_code,
      inp.years,
      inp.missing,
      inp.projectionOf.get(ctx.labor.projectionCode.get(d.soc) ?? '') ?? null,
    ),
    votes: voteStats(inp.votes.get(d.soc) ?? { agree: 0, too_high: 0, too_low: 0 }),
  };
}

/** The score, its rank and range, the adoption window and the evidence behind the confidence. */
function riskScore(
  d: Draft,
  score: number,
  low: number,
  high: number,
  alternatives: readonly number[],
  i: number,
  tier: OccupationRecord['risk_score']['risk_tier'],
  window: ReturnType<typeof adoptionYears>,
  inp: RecordInputs,
): OccupationRecord['risk_score'] {
  const { ctx, p } = inp;
  const multiplier = complementarityMultiplier(d.theta, inp.scores.thetaMin, inp.scores.kappa);
  const shares = tierShares(alternatives.slice(1), ctx.tiers);
  const agreement = round(d.agreement, 4);
  const coverage = round(d.base.coverage, 4);
  const confidence = confidenceFromEvidence({ tier_share: shares[tier], label_agreement: agreement, label_coverage: coverage }, p);
  return {
    final_score: score,
    risk_tier: tier,
    confidence,
    risk_percentile: inp.percentiles[i]!,
    percentile_low: inp.percentileRange[i]!.low,
    percentile_high: inp.percentileRange[i]!.high,
    displacement_year_low: window.low,
    displacement_year_high: window.high,
    task_exposure: round(100 * d.base.substitution_exposure, 1),
    protective_moderation: round(multiplier, 4),
    label_coverage: coverage,
    label_agreement: agreement,
    exposure_score: round(100 * d.base.exposure, 1),
    complementarity: round(d.theta, 4),
    score_low: round(low, 1),
    score_high: round(high, 1),
    interval_crosses_tier: tierFor(round(low, 1), ctx.tiers) !== tierFor(round(high, 1), ctx.tiers),
    tier_shares: shares,
    time_weight_source: d.time_source,
    model_version: p.model_version,
  };
}

/** The 3.1 guidance: stay, routes, focus tasks, the next step, Table 1.12's cut, the job pool. */
function guidanceOf(d: Draft, origin: ScoredRef, transitions: OccupationRecord['transition_options'], eligible: readonly EligibleMove[], inp: RecordInputs): OccupationRecord['guidance'] {
  const { ctx, p, counts, guide } = inp;
  const stay = stayNote(origin);
  const cut = inp.cuts.get(d.soc)!;
  const { routes, weighed } = ctx.moveRules30
    ? { routes: [], weighed: [] }
    : routeChoice(origin, inp.refs, inp.sims(d.soc), p, inp.relatedOf.get(d.soc) ?? new Map(), guide, transitions, eligible.map((m) => m.c.soc_code));
  if (routes.length > 0) counts.routes.occupations_with_route++;
  // What the 3.1 route rules of this review removed: candidates failing only the entry rule, or only the ladder rule.
  for (const w of weighed) if (w.fails.length === 1 && w.fails[0]!.startsWith('its entry asks no more')) counts.routes.sideways_not_route++;
  for (const w of weighed) if (w.fails.length === 1 && w.fails[0]!.startsWith('asks ')) counts.routes.ladder++;
  counts.routes.routes += routes.length;
  const focus = focusOf(d, inp);
  const routeNote = routes.length > 0 ? null : routeNoteText(ctx.seeds.advice);
  // Moves that passed every rule but capacity: the pools not listed.
  const listedPools = new Set(transitions.map((t) => guide.pool(t.soc_code)));
  const full = [...new Map(eligible.filter((m) => !listedPools.has(guide.pool(m.c.soc_code))).map((m) => [guide.pool(m.c.soc_code), m.c])).values()].map((c) => ({ title: c.title, openings: c.projected_openings_annual ?? null }));
  const stepNote = ctx.moveRules30 ? null : nextStepNote(origin, transitions, routes, focus, full, weighed, ctx.seeds.advice.moves.capacity_workers_per_opening.value, ctx.seeds.advice.routes.min_similarity.value, ctx.seeds.params.skill_gaps.desirable_wage_ratio.value);
  return {
    next_step: nextStep(transitions, routes, focus, stay, stepNote),
    next_step_note: stepNote,
    stay,
    routes,
    route_note: routeNote,
    focus: { tasks: focus.tasks, summary: focus.summary, method: focus.method },
    technology_cut: { cut: cut.cut, basis: cut.basis, share: cut.share === null ? null : round(cut.share, 3), statements: cut.statements.length },
    job_pool: guide.pool(d.soc),
  };
}

/** The tasks to focus on, leaving out any naming the subject of a related occupation Table 1.12 names as cut. */
function focusOf(d: Draft, inp: RecordInputs) {
  const { ctx, counts } = inp;
  const basis = ctx.taskBases.get(d.soc);
  // Titles of the O*NET related occupations of its major group that Table 1.12 names as cut by technology or AI (a focus task naming their subject is left out).
  const cutTitles = () => [...(inp.relatedOf.get(d.soc)?.keys() ?? [])].filter((r) => r !== d.soc && r.slice(0, 2) === d.soc.slice(0, 2) && inp.cuts.get(r)?.cut && inp.refBySoc.has(r)).map((r) => inp.refBySoc.get(r)!.title);
  const focus = basis && !ctx.moveRules30
    ? focusTasks(d.tasks, basis, inp.statements.get(d.soc) ?? ([] as Table112Statement[]), ctx.seeds.advice, cutTitles())
    : { tasks: [], summary: 'No focus task: the occupation has no task basis.', method: '', removed_by_title: 0 };
  counts.focus.removed_by_cut_title += focus.removed_by_title;
  if (focus.tasks.length >= 2) counts.focus.occupations_with_two++;
  if (focus.tasks.length === 0) counts.focus.occupations_none++;
  return focus;
}
