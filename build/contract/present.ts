// Cuts each published response out of the model records for one interface shape. Pure. Each
// presenter returns the type its response schema infers (response-schemas.ts), so a field missing
// or extra is a compile error. Object literals here fix the key order of every response, which
// keeps dist/ byte-stable.
import type { IndustryRecord, IscoRecord, OccupationRecord, RiskScoreRecord, Shape, VoteStats } from '../model/record-schemas.ts';
import type {
  IndustryDetail,
  IndustryList,
  IndustryListItem,
  IscoDetail,
  IscoListItem,
  IscoListPage,
  NotScoredItem,
  OccupationDetail,
  OccupationList,
  OccupationListItem,
  OccupationRisk,
  OccupationTasks,
  RiskScore,
} from './response-schemas.ts';
import { MODEL_VERSION, VERSION_MEMBER } from '../model/version.ts';
import type { Changes } from './releases.ts';

/** The SOC major group of a code: its first two digits. */
export const majorGroupOf = (socCode: string): string => socCode.slice(0, 2);

export function listItem(r: OccupationRecord): OccupationListItem {
  return {
    id: r.id,
    soc_code: r.soc_code,
    title: r.title,
    slug: r.slug,
    job_zone: r.job_zone,
    description: r.description,
    final_score: r.risk_score.final_score,
    risk_tier: r.risk_score.risk_tier,
    major_group: majorGroupOf(r.soc_code),
  };
}

/**
 * What a search page carries besides its items. With no match at all: the closest titles and the
 * unscored occupations q names (both, possibly empty). With matches: those unscored occupations
 * alone, when q names them by their official titles and no served occupation by its own.
 */
export interface SearchNotes {
  suggestions?: OccupationListItem[];
  not_scored?: NotScoredItem[];
}
/** The same, each item already serialized. */
export type SearchNotesJson = { [K in keyof SearchNotes]: string[] };

export function listPage(items: OccupationListItem[], count: number, limit: number, offset: number, notes: SearchNotes = {}): OccupationList {
  return {
    data: items,
    count,
    limit,
    offset,
    ...(notes.suggestions ? { suggestions: notes.suggestions } : {}),
    ...(notes.not_scored ? { not_scored: notes.not_scored } : {}),
    model_version: MODEL_VERSION,
  };
}


/**
 * JSON.stringify(listPage(...)) from items already serialized: the function serializes each item
 * once per instance and joins pages from those strings (serializing a page's items per request was
 * much of its time). Same bytes; a unit test holds the two together.
 */
export function listPageJson(itemJson: string[], count: number, limit: number, offset: number, notes: SearchNotesJson = {}): string {
  return `${LIST_PAGE_HEAD}${itemJson.join(',')}${listPageTail(count, limit, offset, notes)}`;
}

/** What precedes the comma-separated items of a list page (the function writes item bytes between head and tail). */
export const LIST_PAGE_HEAD = '{"data":[';

/** What follows the items of a list page: listPageJson is head + items + tail. */
export function listPageTail(count: number, limit: number, offset: number, notes: SearchNotesJson = {}): string {
  const extra = `${notes.suggestions ? `,"suggestions":[${notes.suggestions.join(',')}]` : ''}${notes.not_scored ? `,"not_scored":[${notes.not_scored.join(',')}]` : ''}`;
  return `],"count":${count},"limit":${limit},"offset":${offset}${extra}${VERSION_MEMBER}}`;
}

/** The shape decides which fields of the risk score are published; the rest stays as recorded. */
export function riskScore(s: RiskScoreRecord, shape: Shape): RiskScore {
  return shape === 'percentile' ? percentileRiskScore(s) : timelineRiskScore(s);
}

function percentileRiskScore(s: RiskScoreRecord): RiskScore<'percentile'> {
  const { final_score, risk_tier, confidence, risk_percentile, percentile_low, percentile_high, displacement_year_low: _, displacement_year_high: _h, ...rest } = s;
  return { final_score, risk_tier, confidence, risk_percentile, percentile_low, percentile_high, ...rest };
}

function timelineRiskScore(s: RiskScoreRecord): RiskScore<'timeline'> {
  const { final_score, risk_tier, confidence, displacement_year_low, displacement_year_high, risk_percentile: _, percentile_low: _l, percentile_high: _h, ...rest } = s;
  return { final_score, risk_tier, confidence, displacement_year_low, displacement_year_high, ...rest };
}

/**
 * A body of either shape with the risk score of one: its other fields are listed once (below), and
 * the whole is still the body of that shape (so a field missing or extra is a compile error).
 */
type WithRiskScore<B, R extends RiskScore> = Omit<B, 'risk_score'> & { risk_score: R };

export function occupationDetail(r: OccupationRecord, shape: Shape): OccupationDetail {
  return shape === 'percentile' ? detailBody(r, percentileRiskScore(r.risk_score)) : detailBody(r, timelineRiskScore(r.risk_score));
}

function detailBody<R extends RiskScore>(r: OccupationRecord, risk_score: R): WithRiskScore<OccupationDetail, R> {
  return {
    id: r.id,
    soc_code: r.soc_code,
    title: r.title,
    labor_data: r.labor_data,
    risk_score,
    protective_factors: r.protective_factors,
  };
}

export function occupationTasks(r: OccupationRecord): OccupationTasks {
  return {
    soc_code: r.soc_code,
    title: r.title,
    tasks: r.tasks.map((t) => ({
      task_id: t.task_id,
      description: t.description,
      task_type: t.task_type,
      task_category: t.task_category,
      category_source: t.category_source,
      ai_capability_score: t.ai_capability_score,
      automation_propensity: t.automation_propensity,
      task_risk_score: t.task_risk_score,
      time_fraction: t.time_fraction,
      evidence: t.evidence,
    })),
  };
}

export function occupationRisk(r: OccupationRecord, shape: Shape): OccupationRisk {
  return shape === 'percentile' ? riskBody(r, percentileRiskScore(r.risk_score)) : riskBody(r, timelineRiskScore(r.risk_score));
}

function riskBody<R extends RiskScore>(r: OccupationRecord, risk_score: R): WithRiskScore<OccupationRisk, R> {
  return {
    soc_code: r.soc_code,
    title: r.title,
    risk_score,
    explanation: r.explanation,
    protective_factors: r.protective_factors,
    skill_gaps: r.skill_gaps,
    transition_options: r.transition_options,
    transition_note: r.transition_note,
    guidance: r.guidance,
    evidence: r.evidence,
  };
}

export function occupationVotes(r: OccupationRecord): VoteStats {
  const v = r.votes;
  return {
    total: v.total,
    agree: v.agree,
    too_high: v.too_high,
    too_low: v.too_low,
    agree_pct: v.agree_pct,
    too_high_pct: v.too_high_pct,
    too_low_pct: v.too_low_pct,
  };
}

export function industryListItem(r: IndustryRecord): IndustryListItem {
  return { id: r.id, naics_code: r.naics_code, title: r.title, level: r.level };
}

/** GET /industries, optionally one level: the file (every level) and the function (?level=) both answer with it. */
export function industryList(items: IndustryListItem[], level?: number): IndustryList {
  const data = level === undefined ? items : items.filter((i) => i.level === level);
  return { data, count: data.length };
}

/** The served occupations by SOC code, for industryDetail (made once per model). */
export const occupationsBySoc = (records: readonly OccupationRecord[]): ReadonlyMap<string, OccupationRecord> => new Map(records.map((o) => [o.soc_code, o]));

/** An industry with its occupations, each joined with its own record (title, slug, score, tier). */
export function industryDetail(r: IndustryRecord, bySoc: ReadonlyMap<string, OccupationRecord>): IndustryDetail {
  return {
    id: r.id,
    naics_code: r.naics_code,
    title: r.title,
    level: r.level,
    employment: r.employment,
    weighted_risk_score: r.weighted_risk_score,
    occupations_source: r.occupations_source,
    occupations: r.occupations.map((o) => {
      const x = bySoc.get(o.soc_code);
      if (!x) throw new Error(`industry ${r.naics_code} lists ${o.soc_code}, which is not a served occupation`);
      return { soc_code: o.soc_code, title: x.title, slug: x.slug, employment: o.employment, share: o.share, final_score: x.risk_score.final_score, risk_tier: x.risk_score.risk_tier };
    }),
  };
}

export function iscoListItem(r: IscoRecord): IscoListItem {
  return { isco_code: r.isco_code, title: r.title, slug: r.slug, major_group: r.major_group, final_score: r.final_score, risk_tier: r.risk_tier };
}

/** GET /isco: one page of unit groups (the file's first page and the function's every page), before the model version is added. */
export function iscoListPage(items: IscoListItem[], count: number, limit: number, offset: number): IscoListPage {
  return { data: items, count, limit, offset };
}

/** GET /isco/{isco_code}: the same in both interface shapes (no percentile or years: those are U.S. figures). */
export function iscoDetail(r: IscoRecord): IscoDetail {
  return {
    isco_code: r.isco_code,
    title: r.title,
    risk_score: { final_score: r.final_score, risk_tier: r.risk_tier, score_low: r.score_low, score_high: r.score_high, confidence: r.confidence },
    us_occupations: r.us_occupations.map((o) => ({ soc_code: o.soc_code, title: o.title, weight: o.weight })),
    mapping: { soc_codes: r.mapping.soc_codes, partial: r.mapping.partial, minor_group_links: r.mapping.minor_group_links, note: r.mapping.note },
  };
}

/** Why an ISCO-08 code of the crosswalk has no score, in words (the isco-not-scored problem's detail). */
export const iscoNotScored = (u: { isco_code: string; title: string; soc_codes: readonly string[]; reason: string }): string =>
  `ISCO-08 ${u.isco_code} (${u.title}) is in the BLS crosswalk but has no score: ${u.reason} It is in no list.`;

/** GET /changes: the comparison of the previous release with this one, as the build made it. */
export function changes(c: Changes): Changes {
  return { previous: c.previous, current: c.current, counts: c.counts, data: c.data };
}
