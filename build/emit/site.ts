// The site's pages for people: home, one page per occupation, the site-wide 404 page, and the
// pages' one script. Rendered at build time from eta templates (templates/site/) with the card's
// engine; pure apart from reading templates and seeds once, so the same model gives the same bytes.
// Fields are rendered generically where they can grow (risk score, labor data): a field the model
// adds later is shown with a humanised name instead of being dropped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FactorsSeed } from '../model/seeds.ts';
import { ModelParamsSeed } from '../model/params.ts';
import type { ModelOutput, OccupationRecord, Shape, TierTable } from '../model/record-schemas.ts';
import { tierFor } from '../model/assess.ts';
import type { Meta } from '../contract/site-schemas.ts';
import { majorGroup } from './soc-groups.ts';
import { releaseUrlFor, routeById, routesFor, urlFor } from '../contract/routes.ts';
import { buildDownloads, startArchive, type Download } from './downloads.ts';
import { attributeText, factorLabel, ordinal, templates } from './embed.ts';
import { TIER_WORDS } from './tier-words.ts';
import { SCOPE } from '../model/scope.ts';
import { evidenceView } from './evidence-view.ts';
import { modalTier } from '../model/uncertainty.ts';
import { REPO_ROOT } from '../repo-root.ts';
import { changeLine } from '../contract/releases.ts';
import { EXAMPLE_QUERIES, SQLITE_NAME } from './sqlite.ts';
import { DATABASE_TABLES } from './download-tables.ts';
import { TOOL_EXAMPLES } from './download-examples.ts';
import type { ReleaseContext } from '../releases/load.ts';
import { grouped, pct, scoreText } from './numbers.ts';
import { verdict, type ConfidenceCuts } from './verdict.ts';
import { occupationRisk } from '../contract/present.ts';
import { citeView } from './citation.ts';

/** The pages' script, served verbatim at /assets/site.js. */
export const SITE_SCRIPT_PATH = join(REPO_ROOT, 'templates', 'site', 'site.js');

export interface SitePages {
  home: string;
  /**
   * The bulk downloads and their page, made when called: the archive is compressed on libuv's
   * thread pool from renderSite on, while the rest is emitted; the other files (the database, the
   * CSV texts) are made when the emit reaches them and held only until they are written.
   */
  downloads: () => Promise<{ page: string; files: Download[] }>;
  notFound: string;
  /** One page per occupation, each rendered only when it is reached. */
  occupations: Iterable<{ slug: string; html: string }>;
  script: string;
}

/**
 * "Job zone 4 of 5 (considerable preparation needed)": the zone with its place on O*NET's scale and
 * O*NET's own name for it (Job Zone Reference), so the number says what it means. Without the
 * reference file (an optional source, reported missing by the build) only "Job zone 4".
 */
export function jobZoneText(zone: number, names: ReadonlyArray<{ job_zone: number; name: string }>): string {
  const named = names.find((n) => n.job_zone === zone);
  if (!named) return `Job zone ${zone}`;
  const top = Math.max(...names.map((n) => n.job_zone));
  const words = named.name.replace(/^[^:]*:\s*/, '');
  return `Job zone ${zone} of ${top} (${words.charAt(0).toLowerCase()}${words.slice(1).toLowerCase()})`;
}

/** Words for a key no label table knows: "task_exposure" -> "Task exposure". */
export function humanize(key: string): string {
  const words = key.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}


const round = (x: number, d: number) => Number(x.toFixed(d));

const SCORE_LABELS: Record<string, string> = {
  final_score: 'Final score (0 to 100)',
  risk_tier: 'Tier',
  confidence: 'Confidence',
  risk_percentile: 'Percentile among U.S. workers (employment-weighted)',
  displacement_year_low: 'Adoption window, earliest year',
  displacement_year_high: 'Adoption window, latest year',
  task_exposure: 'Task exposure before protective factors (0 to 100)',
  protective_moderation: 'Protective moderation (multiplier)',
  label_coverage: 'Share of time with exposure labels',
  label_agreement: 'Share of labelled time where human and GPT-4 labels agree',
  tier_shares: 'Share of modelling alternatives in each tier (not probabilities)',
  percentile_low: 'Percentile range over modelling alternatives, low end',
  percentile_high: 'Percentile range over modelling alternatives, high end',
  model_version: 'Model version',
};

const WAGE_STATUS: Record<string, string> = {
  reported: '',
  top_coded: ' (at or above the ceiling BLS publishes)',
  from_hourly: ' (hourly median times 2,080 hours)',
  projections_table: ' (from the BLS projections table)',
  broad_group: ' (of the broader SOC group the occupation belongs to, not its own)',
  unavailable: '',
};

function fieldValue(v: unknown): string {
  if (v === null || v === undefined) return 'Not available';
  if (typeof v === 'number') return grouped(v);
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** Every field of the published risk score, in its order, known ones with their label. */
function scoreFields(score: Record<string, unknown>) {
  return Object.entries(score).map(([k, v]) => ({ label: SCORE_LABELS[k] ?? humanize(k), value: fieldValue(v) }));
}

function laborFields(labor: Record<string, unknown>, titleOf: (soc: string) => string) {
  const out: Array<{ label: string; value: string }> = [];
  const status = String(labor.median_annual_wage_status ?? 'reported');
  for (const [k, v] of Object.entries(labor)) {
    if (k === 'median_annual_wage_status') continue;
    if (k === 'median_annual_wage') out.push({ label: 'Median annual wage', value: typeof v === 'number' ? `$${grouped(v)}${WAGE_STATUS[status] ?? ''}` : 'Not published' });
    else if (k === 'median_hourly_wage') out.push({ label: 'Median hourly wage', value: typeof v === 'number' ? `$${v.toFixed(2)}` : 'Not published' });
    else if (k === 'employment') out.push({ label: 'Employment', value: typeof v === 'number' ? grouped(v) : 'Not published' });
    else if (k === 'oews_code') out.push({ label: 'OEWS code', value: fieldValue(v) });
    else if (k === 'reference_period') out.push({ label: 'Wage and employment period', value: fieldValue(v) });
    else if (k === 'projected_employment_change_pct') out.push({ label: 'Projected employment change', value: typeof v === 'number' ? `${v > 0 ? '+' : ''}${v}%` : 'Not published' });
    else if (k === 'projected_openings_annual') out.push({ label: 'Projected openings per year', value: typeof v === 'number' ? grouped(v) : 'Not published' });
    else if (k === 'projections_period') out.push({ label: 'Projections period', value: fieldValue(v) });
    else if (k === 'employment_shared_with')
      out.push({
        label: 'Job pool',
        value: Array.isArray(v) && v.length > 0
          ? `The employment above is its OEWS code's, shared with ${v.map((s) => `${titleOf(String(s))} (${String(s)})`).join(', ')}: one pool of workers, counted once in every total.`
          : 'Its OEWS code is its own.',
      });
    else if (k === 'employment_own_share') out.push({ label: 'Its share of the pool (split equally, counted in totals)', value: typeof v === 'number' ? grouped(Math.round(v)) : 'Not published' });
    else out.push({ label: humanize(k), value: fieldValue(v) });
  }
  return out;
}

/**
 * The score's sensitivity range over modelling choices when the model publishes one
 * (score_low/score_high), and the two tiers it spans when it crosses a tier cut; else null.
 */
function scoreRange(score: Record<string, unknown>, tiers: TierTable): { text: string; between: string | null } | null {
  const lo = score.score_low;
  const hi = score.score_high;
  if (typeof lo !== 'number' || typeof hi !== 'number') return null;
  const [a, b] = [tierFor(lo, tiers), tierFor(hi, tiers)];
  return { text: `${scoreText(lo)}–${scoreText(hi)}`, between: score.interval_crosses_tier === true && a !== b ? `${a} and ${b}` : null };
}

const WATERFALL_W = 100;

/**
 * The explanation's waterfall: each step's bar runs from the running total before it to the one
 * after (the baseline and the final score from 0), on a 0..100 axis.
 */
function waterfall(o: OccupationRecord) {
  const x = (v: number) => round(Math.min(100, Math.max(0, v)) * (WATERFALL_W / 100), 2);
  let run = 0;
  const signed = (p: number) => (p > 0 ? `+${p.toFixed(1)}` : p < 0 ? `−${(-p).toFixed(1)}` : '0.0');
  const rows = o.explanation.contributions.map((c) => {
    const from = c.key === 'baseline' ? 0 : run;
    run = round(run + c.points, 1);
    const [a, b] = [x(Math.min(from, run)), x(Math.max(from, run))];
    return { label: c.label, points: c.key === 'baseline' ? c.points.toFixed(1) : signed(c.points), kind: c.key === 'baseline' ? 'base' : c.points > 0 ? 'up' : c.points < 0 ? 'down' : 'zero', x: a, width: round(Math.max(b - a, 0.4), 2) };
  });
  rows.push({ label: 'Final score', points: o.risk_score.final_score.toFixed(1), kind: 'final', x: 0, width: x(o.risk_score.final_score) });
  return {
    w: WATERFALL_W,
    rows,
    parts: o.explanation.complementarity_parts.map((p) => ({ label: p.label, points: signed(p.points) })),
    tasks: o.explanation.top_tasks.map((t) => ({ description: t.description, points: signed(t.points), kind: t.points > 0 ? 'up' : 'down' })),
  };
}

const GROUP_CHART = { w: 640, h: 84, left: 28, right: 604, axis: 48 };

/** Where the occupation's score stands among its SOC major group: a strip of the group's scores, its own marked. */
function groupChart(o: OccupationRecord, group: { name: string }, scores: readonly number[]) {
  const x = (v: number) => round(GROUP_CHART.left + (v / 100) * (GROUP_CHART.right - GROUP_CHART.left), 1);
  const own = o.risk_score.final_score;
  const rank = 1 + scores.filter((v) => v > own).length;
  const sorted = [...scores].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const med = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const text =
    `${ordinal(rank)} highest of ${scores.length} occupations in ${group.name}` +
    ` (their scores run from ${scoreText(sorted[0]!)} to ${scoreText(sorted.at(-1)!)}, median ${scoreText(round(med, 1))}).`;
  return {
    ...GROUP_CHART,
    text,
    ticks: [0, 25, 50, 75, 100].map((v) => ({ at: x(v), label: String(v) })),
    // One mark per distinct score (ties drawn once), the occupation's own drawn last.
    others: [...new Set(scores.filter((v) => v !== own))].sort((a, b) => a - b).map((v) => x(v)),
    own: x(own),
  };
}

const CHART = { w: 640, h: 340, left: 70, right: 620, top: 14, bottom: 286 };

/** Scatter of the tasks: AI capability (x, 0..1) against time share (y, 0..max rounded up to 5%). */
function taskChart(o: OccupationRecord) {
  if (o.tasks.length === 0) return null;
  const maxShare = Math.max(...o.tasks.map((t) => t.time_fraction));
  // Ticks at whole percents: every 1% up to 5%, every 5% up to 25%, else every 10%.
  const step = maxShare <= 0.05 ? 0.01 : maxShare <= 0.25 ? 0.05 : 0.1;
  const ySteps = Math.max(1, Math.ceil(round(maxShare / step, 6)));
  const yMax = ySteps * step;
  const x = (v: number) => round(CHART.left + v * (CHART.right - CHART.left), 1);
  const y = (v: number) => round(CHART.bottom - (v / yMax) * (CHART.bottom - CHART.top), 1);
  return {
    ...CHART,
    title: `${o.tasks.length} tasks of ${o.title}: share of working time against AI capability`,
    xTicks: [0, 0.25, 0.5, 0.75, 1].map((v) => ({ at: x(v), label: String(v) })),
    yTicks: Array.from({ length: ySteps + 1 }, (_, i) => round(i * step, 4)).map((v) => ({ at: y(v), label: pct(v) })),
    dots: o.tasks.map((t) => ({
      cx: x(t.ai_capability_score),
      cy: y(t.time_fraction),
      label: `${t.description} (time ${pct(t.time_fraction)}, AI capability ${t.ai_capability_score})`,
    })),
  };
}

let factorSeed: FactorsSeed | undefined;
function personalFactorLabels(): Record<string, string> {
  factorSeed ??= FactorsSeed.parse(JSON.parse(readFileSync(join(REPO_ROOT, 'seeds', 'factors.json'), 'utf8')));
  return Object.fromEntries(Object.entries(factorSeed.factors).map(([k, f]) => [k, f.label]));
}

let paramsSeed: ModelParamsSeed | undefined;
const modelParams = () => (paramsSeed ??= ModelParamsSeed.parse(JSON.parse(readFileSync(join(REPO_ROOT, 'seeds', 'model-params.json'), 'utf8'))));

/** The cuts the model's confidence word was made with, for the verdict's reason. */
function confidenceCuts(): ConfidenceCuts {
  const c = modelParams().confidence;
  return { tier_share: c.tier_share.value, label_agreement: c.label_agreement.value, label_coverage: c.label_coverage.value };
}

/** What the score range is, in the numbers of the seeds the model used (not repeated in the template). */
function rangeNote(): string {
  const iv = modelParams().interval;
  return `The range is where the score lands under ${grouped(iv.construction.value.count)} combinations of other reasonable modelling choices (how E2 labels and task categories count, time weights, which evidence is used, parameters moved): ${round(100 * (1 - 2 * iv.quantile.value), 1)}% of them fall inside it. It shows how much the score depends on those choices; it is not a probability.`;
}

/** Every major group's final scores (by group code). */
function groupScores(model: ModelOutput): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const o of model.occupations) {
    const code = majorGroup(o.soc_code).code;
    m.set(code, [...(m.get(code) ?? []), o.risk_score.final_score]);
  }
  return m;
}

/** What every occupation page of a shape shares: worked out once per build, not once per page. */
/**
 * The form's "how much of your time" steps for a task marked as done, and the relative share each
 * sends as the task's `share` (the API normalizes shares with `other_share`): each step doubles the
 * one before. A task left unmarked is left out (share 0).
 */
const TASK_TIME_LEVELS = [
  { label: 'A little', share: 1 },
  { label: 'Some', share: 2 },
  { label: 'A lot', share: 4 },
  { label: 'Most of it', share: 8 },
] as const;
/** The step a task starts at when it is marked (1-based, the slider's value): "Some". */
const TASK_TIME_DEFAULT = 2;

type FactorOption = ModelOutput['factors'][string][number];
/** What an answer can do to the score, in words from the factor's options (only options that move it). */
function factorHint(options: FactorOption[]): string {
  const moving = options.filter((o) => o.adjustment !== 0);
  const points = moving.map((o) => `${o.label} (${o.adjustment > 0 ? '+' : ''}${o.adjustment} points)`).join(', ');
  const floors = [...new Set(moving.map((o) => o.min_exposure).filter((m): m is number => m !== undefined))];
  const floor = floors.length === 1 ? `, and only where AI can do at least ${floors[0]}% of the work time (yours, from the tasks you mark, or else the occupation's)` : '';
  return `Only ${points} moves the score${floor}; every other answer adds 0.`;
}

function pageContext(model: ModelOutput, shape: Shape) {
  const labels = personalFactorLabels();
  const routes = routesFor(shape);
  return {
    jsonLinks: [
      { id: 'occupation-detail', text: 'labor data, risk score, protective factors' },
      { id: 'occupation-tasks', text: 'every task with its evidence' },
      { id: 'occupation-risk', text: 'risk score, skill gaps, transition options' },
      { id: 'occupation-votes', text: 'community votes' },
    ].filter((l) => routes.some((rt) => rt.id === l.id)),
    groupScores: groupScores(model),
    factors: Object.keys(model.factors)
      .sort()
      .map((name) => ({ name, label: labels[name] ?? humanize(name), options: model.factors[name]!, note: model.factor_notes[name] ?? null, hint: factorHint(model.factors[name]!) })),
    tiers: JSON.stringify(model.tiers.map((t) => ({ tier: t.tier, min: t.min }))),
    levels: JSON.stringify(TASK_TIME_LEVELS),
    confidenceCuts: confidenceCuts(),
    desirableWageRatio: modelParams().skill_gaps.desirable_wage_ratio.value,
  };
}

function occupationView(o: OccupationRecord, model: ModelOutput, shape: Shape, page: ReturnType<typeof pageContext>) {
  const r = o.risk_score;
  const published = Object.fromEntries(
    Object.entries(r).filter(([k]) => (shape === 'percentile' ? !k.startsWith('displacement_year') : k !== 'risk_percentile')),
  );
  const outlook =
    shape === 'timeline'
      ? {
          // What the years are, on the page itself: not job loss.
          label: 'Half of its AI-exposed work could be done with AI by (not a job-loss date)',
          value: r.displacement_year_low === r.displacement_year_high ? String(r.displacement_year_low) : `${r.displacement_year_low}–${r.displacement_year_high}`,
        }
      : { label: 'Percentile among U.S. workers', value: ordinal(r.risk_percentile) };
  const group = majorGroup(o.soc_code);
  const jsonLinks = page.jsonLinks.map((l) => ({ href: urlFor(l.id, { soc_code: o.soc_code }), text: l.text }));
  return {
    meta: model.meta,
    title: o.title,
    titleAttr: attributeText(o.title),
    soc: o.soc_code,
    slug: o.slug,
    jobZone: jobZoneText(o.job_zone, model.job_zone_names),
    description: o.description,
    group,
    // Issue 46: the answer first, from the same risk response the API serves for this occupation.
    verdict: verdict(occupationRisk(o, shape), page.confidenceCuts, page.desirableWageRatio),
    score: {
      value: scoreText(r.final_score),
      range: scoreRange(r as Record<string, unknown>, model.tiers),
      rangeNote: rangeNote(),
      rangeWord: SCOPE.range,
      scope: SCOPE.sentence,
      plain: SCOPE.plain,
      tier: r.risk_tier,
      tierWords: TIER_WORDS[r.risk_tier],
      tierShare: pct(r.tier_shares[r.risk_tier]),
      agreement: pct(r.label_agreement),
      coverage: pct(r.label_coverage),
      // tier_shares are sensitivity shares: say so when the served tier is not the most common one.
      notMode:
        modalTier(r.tier_shares) === r.risk_tier
          ? null
          : `The score sits in the ${r.risk_tier} tier, but most modelling alternatives (${pct(r.tier_shares[modalTier(r.tier_shares)])}) put it in the ${modalTier(r.tier_shares)} tier.`,
      confidence: humanize(r.confidence),
      outlook,
      // What the percentile is (percentiles.ts: employment-weighted mid-rank).
      percentileNote:
        shape === 'percentile'
          ? `The ${ordinal(r.risk_percentile)} percentile is a share of U.S. workers, not of occupations: about ${r.risk_percentile}% of U.S. employment is in occupations that score lower (half of those with the same score counted). Over the modelling alternatives it runs from the ${ordinal(r.percentile_low)} to the ${ordinal(r.percentile_high)}.`
          : null,
    },
    explanation: { summary: o.explanation.summary, ...waterfall(o) },
    groupChart: groupChart(o, group, page.groupScores.get(group.code) ?? [o.risk_score.final_score]),
    scoreFields: scoreFields(published),
    chart: taskChart(o),
    tasks: [...o.tasks]
      .sort((a, b) => b.time_fraction - a.time_fraction || a.task_id - b.task_id)
      .map((t) => ({ id: t.task_id, description: t.description, category: humanize(t.task_category), time: pct(t.time_fraction), capability: t.ai_capability_score.toFixed(2), risk: t.task_risk_score.toFixed(2) })),
    protective: Object.keys(o.protective_factors)
      .sort()
      .map((k) => ({ label: factorLabel(k), value: o.protective_factors[k]!.toFixed(2), pct: round(o.protective_factors[k]! * 100, 1) })),
    labor: laborFields(o.labor_data as Record<string, unknown>, (soc) => model.occupations.find((x) => x.soc_code === soc)?.title ?? soc),
    // Issue 44: what is happening to the job, beside the score (never an input to it).
    evidence: evidenceView(o.evidence, o.title, o.labor_data.employment_shared_with, grouped),
    // Plain words first (O*NET's level anchors), the numbers beside them.
    gaps: o.skill_gaps.map((g) => ({
      name: g.name,
      kind: g.kind === 'knowledge' ? 'knowledge area' : 'skill',
      current: String(g.current_level),
      target: String(g.target_level),
      currentWords: g.current_anchor,
      targetWords: g.target_anchor,
      importance: String(g.importance),
      neededBy: g.needed_by.join(', '),
    })),
    transitions: o.transition_options.map((t) => ({
      slug: t.slug,
      title: t.title,
      score: scoreText(t.final_score),
      tier: t.risk_tier,
      tierWords: TIER_WORDS[t.risk_tier],
      saferBy: `${t.safer_by.low} to ${t.safer_by.high}`,
      reason: t.reason,
    })),
    transitionNote: o.transition_note,
    // Model 3.1 guidance (issue 43): the next step, staying, routes and focus within the job.
    nextStep: o.guidance.next_step.text,
    // Why the next step is weak (one move only), unless the next step's text already says it (kind 'none').
    stepNote: o.guidance.next_step.kind === 'none' ? null : o.guidance.next_step_note,
    stay: o.guidance.stay,
    routes: o.guidance.routes.map((t) => ({ slug: t.slug, title: t.title, score: scoreText(t.final_score), tier: t.risk_tier, tierWords: TIER_WORDS[t.risk_tier], share: `${Math.round(100 * t.share_lower)}%`, reason: t.reason })),
    routeNote: o.guidance.route_note,
    focus: { tasks: o.guidance.focus.tasks.map((t) => ({ description: t.description, time: pct(t.time_fraction) })), summary: o.guidance.focus.summary, method: o.guidance.focus.method },
    // Issue 44 item 5: only what can move the score is asked; the others adjust by 0 for every
    // answer (their notes say why: /displacement/factors) and are named as not asked.
    assess: {
      factors: page.factors.filter((f) => f.options.some((o) => o.adjustment !== 0)),
      notAsked: page.factors.filter((f) => f.options.every((o) => o.adjustment === 0)).map((f) => f.label.charAt(0).toLowerCase() + f.label.slice(1)),
      levels: TASK_TIME_LEVELS,
      levelsJson: page.levels,
      defaultLevel: TASK_TIME_DEFAULT,
      tiers: page.tiers,
      // The occupation's own numbers, which the result is drawn against (the API's, one decimal).
      score: r.final_score,
      low: r.score_low,
      high: r.score_high,
      exposure: r.exposure_score,
    },
    /** The no-JavaScript text: the assessment call with this occupation's first two tasks as an example. */
    assessExample: JSON.stringify({
      soc_code: o.soc_code,
      tasks: [...o.tasks].sort((a, b) => a.task_id - b.task_id).slice(0, 2).map((t, i) => ({ task_id: t.task_id, share: TASK_TIME_LEVELS[i === 0 ? 2 : 1].share })),
      personal_factors: { years_experience: '6_10' },
    }),
    jsonLinks,
  };
}

function homeView(model: ModelOutput) {
  const byScore = [...model.occupations].sort((a, b) => b.risk_score.final_score - a.risk_score.final_score || (a.soc_code < b.soc_code ? -1 : 1));
  const item = (o: OccupationRecord) => ({ slug: o.slug, title: o.title, score: scoreText(o.risk_score.final_score), tier: o.risk_score.risk_tier });
  return {
    meta: model.meta,
    count: model.occupations.length,
    most: byScore.slice(0, 10).map(item),
    least: byScore.slice(-10).reverse().map(item),
    tiers: model.tiers.map((t, i) => ({ tier: t.tier, words: TIER_WORDS[t.tier], min: t.min, last: i === model.tiers.length - 1 })),
    cite: citeView(),
  };
}

/** `scratch`: a folder for the downloads kept on disk until written (the database, the archive), the caller's to remove. */
export function renderSite(model: ModelOutput, shape: Shape, meta: Meta, releases: ReleaseContext, scratch: string): SitePages {
  const eta = templates();
  const archive = startArchive(model, shape, meta, scratch);
  const downloads = () => buildDownloads(model, shape, meta, releases, scratch, archive).then((files) => ({
    files,
    page: eta.render('@site/downloads', {
      meta: model.meta,
      shape,
      cite: citeView(),
      toolExamples: TOOL_EXAMPLES,
      sqlite: { name: SQLITE_NAME, tables: DATABASE_TABLES.map((t) => t.name).join(', '), examples: EXAMPLE_QUERIES },
      files: files.map((d) => {
        const bytes = d.bytes;
        const release = routeById(d.routeId).release ? releaseUrlFor(d.routeId, model.meta.data_version) : null;
        const releaseName = release ? { releaseHref: release, releaseName: release.slice(release.lastIndexOf('/') + 1) } : { releaseHref: null, releaseName: null };
        return { name: d.name, href: urlFor(d.routeId), ...releaseName, description: d.description, rows: d.rows === null ? '' : grouped(d.rows), size: bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`, bytes: grouped(bytes), sha256: d.sha256 };
      }),
    }),
  }));
  const occupations = (function* () {
    const page = pageContext(model, shape);
    const changed = new Map(releases.changes.data.filter((c) => c.status === 'changed').map((c) => [c.soc_code, c]));
    for (const o of model.occupations) {
      const change = changeLine(changed.get(o.soc_code), releases.changes.previous);
      yield { slug: o.slug, html: eta.render('@site/occupation', { ...occupationView(o, model, shape, page), change }) };
    }
  })();
  return {
    home: eta.render('@site/home', homeView(model)),
    downloads,
    notFound: eta.render('@site/not-found', { meta: model.meta }),
    occupations,
    script: readFileSync(SITE_SCRIPT_PATH, 'utf8'),
  };
}
