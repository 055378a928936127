// Schemas of every published response, per interface shape, and of the function's shards.
// The build validates each emitted file against these; the OpenAPI document is generated from
// them; the contract tests parse HTTP responses with them. Strict objects: a field leaking from
// the records into a response is a build failure, not a silent interface change.
import { z } from 'zod';
import { ShardMeta } from './request-schemas.ts';
import { SEARCH_PART_SHARDS, SLUGS_SHARD, TASK_SHARD_PREFIX, UNSCORED_SHARD } from './dist-layout.ts';
import { packedProblem, type PackedIndex } from './search-pack.ts';
import { pageHashes } from './content-hash.ts';
import { MAX_PROBLEM_ERRORS } from './problem.ts';
import {
  Explanation,
  FactorsTable,
  Guidance,
  IndustryOccupation,
  IscoRecord,
  IscoUnscored,
  LaborData,
  RiskScoreRecord,
  JobEvidence,
  RiskTier,
  SkillGap,
  TaskBasis,
  TaskRecord,
  TaskScale,
  TierTable,
  TransitionOption,
  UnscoredOccupation,
  VoteStats,
  type Shape,
} from '../model/record-schemas.ts';
import { OnetSocCode } from '../model/inputs.ts';
import { LIST_ORDERS_SHARD, LIST_SORTS, type ListSort } from './list-orders.ts';
import { SCOPE } from '../model/scope.ts';
import { ApiIndex, Meta, ModelVersionField } from './site-schemas.ts';
import { ChangesResponse, ReleaseSummary } from './releases.ts';

export const OccupationListItem = z.strictObject({
  id: z.number().int(),
  soc_code: OnetSocCode,
  title: z.string(),
  slug: z.string(),
  job_zone: z.number().int(),
  description: z.string(),
  // Additive: what a list is sorted and filtered by (sort, tier, major_group), so a client
  // picking from a list need not fetch each occupation's risk.
  final_score: RiskScoreRecord.shape.final_score,
  risk_tier: RiskTier,
  major_group: z.string().regex(/^\d{2}$/).describe('SOC 2018 major group: the first two digits of soc_code ("29" is Healthcare Practitioners and Technical).'),
});

/** An occupation the model leaves out (the model's own record of it), as a search names it. */
export const NotScoredItem = UnscoredOccupation.strict();

export const OccupationList = z.strictObject({
  data: z.array(OccupationListItem).describe('This page of occupations: SOC-code order, or search rank with q.'),
  count: z.number().int().min(0).describe('Total number of matches (all occupations without q), not the size of this page.'),
  limit: z.number().int().min(1).max(200).describe('Page size used (1..200, default 50).'),
  offset: z.number().int().min(0).describe('Number of matches skipped before this page.'),
  suggestions: z
    .array(OccupationListItem)
    .optional()
    .describe('Only with q and no match at all: up to 5 occupations whose titles look most like q (none when not_scored names some).'),
  not_scored: z
    .array(NotScoredItem)
    .optional()
    .describe(
      'Only with q: up to 5 occupations that q names but the model does not score (O*NET has no task statements for them: the military, the "All Other" groups), with the reason. They are in no list. Given when nothing matches (then with suggestions), and beside the matches when q holds the words of an unscored occupation\'s official title and of no served occupation\'s ("military": served occupations match it only by alternate titles such as "Military Lawyer").',
    ),
  model_version: ModelVersionField,
});

const PercentileRiskScore = RiskScoreRecord.omit({ displacement_year_low: true, displacement_year_high: true }).strict();
const TimelineRiskScore = RiskScoreRecord.omit({ risk_percentile: true, percentile_low: true, percentile_high: true }).strict();
const ProtectiveFactors = z
  .record(z.string(), z.number())
  .describe(
    'O*NET descriptors (0..1, each a weighted mean of O*NET Skills, Abilities, Work Activities and Knowledge elements: seeds/protective-factors.json), kept beside the explanation as the interface requires. Of these, complex_judgment, leadership, physical_presence, manual_dexterity, social_intelligence and technology enter the score through the complementarity theta (explanation.complementarity_parts); creativity and any other key do not enter the score.',
  );

/**
 * An occupation's tasks, the same in every shape: one schema object, so that a build emitting both
 * shapes checks each tasks file once (build/emit/files.ts, shape-free files).
 */
const TasksBody = z.strictObject({ soc_code: OnetSocCode, title: z.string(), tasks: z.array(TaskRecord.strict()) });
const TasksResponse = TasksBody.extend({ model_version: ModelVersionField });

/**
 * The occupation responses of one shape: each body as its presenter (present.ts) returns it, and the
 * response, the body with the model version every JSON answer carries.
 */
function shapeSchemas<R extends typeof PercentileRiskScore | typeof TimelineRiskScore>(riskScore: R) {
  const bodies = {
    detail: z.strictObject({
      id: z.number().int(),
      soc_code: OnetSocCode,
      title: z.string(),
      labor_data: LaborData.strict(),
      risk_score: riskScore,
      protective_factors: ProtectiveFactors,
    }),
    tasks: TasksBody,
    risk: z.strictObject({
      soc_code: OnetSocCode,
      title: z.string(),
      risk_score: riskScore,
      explanation: Explanation,
      protective_factors: ProtectiveFactors,
      skill_gaps: z.array(SkillGap.strict()),
      transition_options: z.array(TransitionOption.strict()),
      /** Why fewer than two options are listed; null when two or more are. */
      transition_note: z.string().nullable(),
      // Model 3.1 (issue 43), additive: routes, focus within the job and the one best next step.
      guidance: Guidance.strict().describe(
        'Guidance beside transition_options (model 3.1): routes (longer steps, each with what it takes and the share of model alternatives under which it is lower), focus within the job (tasks whose AI exposure stays lowest; never points off the score), the one best next step, and for a growing occupation outside the high tier the plain statement that staying is the advice.',
      ),
      // Model 3.1 (issue 44), additive: what is actually happening to the job, never a score input.
      evidence: JobEvidence.strict().describe(
        'What is actually happening to the job, beside the score and never an input to it (model 3.1): every BLS Employment Projections Table 1.12 statement about the occupation (text, industry, whether its share rises or falls; none is not the same as unaffected), its OEWS national employment for each year the sources hold (May 2019, hybrid codes, and 2021-25; May 2020 missing; BLS cautions OEWS is not a time series), and the BLS 2024-34 projection with annual openings.',
      ),
    }),
  };
  const versioned = { model_version: ModelVersionField };
  return {
    bodies,
    detail: bodies.detail.extend(versioned),
    tasks: TasksResponse,
    risk: bodies.risk.extend(versioned),
  };
}

export const IndustryListItem = z.strictObject({
  id: z.number().int(),
  naics_code: z.string(),
  title: z.string(),
  level: z.union([z.literal(2), z.literal(3), z.literal(4)]),
});
const IndustryListBody = z.strictObject({ data: z.array(IndustryListItem), count: z.number().int().min(0).describe('Number of industries listed (after the level filter).') });
export const IndustryList = IndustryListBody.extend({ model_version: ModelVersionField });
const IndustryDetailBody = z.strictObject({
  id: z.number().int(),
  naics_code: z.string(),
  title: z.string(),
  level: z.union([z.literal(2), z.literal(3), z.literal(4)]),
  employment: z.number().int().min(0),
  weighted_risk_score: z.number().nullable(),
  occupations_source: z.strictObject({ naics_level: z.number().int(), naics_codes: z.array(z.string()), note: z.string() }),
  occupations: z.array(IndustryOccupation.strict()),
});
export const IndustryDetail = IndustryDetailBody.extend({ model_version: ModelVersionField });

const isco = IscoRecord.shape;
/** An ISCO-08 unit group as GET /isco lists it. */
export const IscoListItem = z.strictObject({
  isco_code: isco.isco_code,
  title: isco.title,
  slug: isco.slug.describe('The unit group\'s page is /isco/{slug}, its card /embed/isco/{slug}.'),
  major_group: isco.major_group,
  final_score: isco.final_score,
  risk_tier: isco.risk_tier,
});
const IscoListBody = z.strictObject({
  data: z.array(IscoListItem).describe('This page of unit groups: ISCO-08 code order, or search rank with q.'),
  count: z.number().int().min(0).describe('Total number of unit groups matching (after q and major), not the size of this page.'),
  limit: z.number().int().min(1).max(200).describe('Page size used (1..200, default 50).'),
  offset: z.number().int().min(0).describe('Number of matches skipped before this page.'),
});
export const IscoList = IscoListBody.extend({ model_version: ModelVersionField });
const IscoDetailBody = z.strictObject({
  isco_code: isco.isco_code,
  title: isco.title,
  risk_score: z.strictObject({
    final_score: isco.final_score.describe(`U.S.-employment-weighted mean of the linked O*NET occupations' final scores. ${SCOPE.sentence}`),
    risk_tier: isco.risk_tier,
    score_low: isco.score_low.describe('Lowest score_low among the linked occupations with weight (covers their spread and their own intervals).'),
    score_high: isco.score_high.describe('Highest score_high among the linked occupations with weight.'),
    confidence: isco.confidence,
  }),
  us_occupations: z
    .array(z.strictObject({ soc_code: OnetSocCode, title: z.string(), weight: z.number().min(0).max(1).describe('Share of the unit group\'s score (U.S. employment share); the weights add up to 1.') }))
    .min(1),
  mapping: isco.mapping.strict(),
});
export const IscoDetail = IscoDetailBody.extend({ model_version: ModelVersionField });
/**
 * The body of a 308 from a code people have to the resource it names: a six-digit SOC code or a
 * slug to its O*NET occupation (Location), an ISCO-08 unit group's slug to its code.
 */
const CodeRedirectBodyOnly = z.strictObject({
  requested: z.string().describe('The code or slug of the path asked for.'),
  location: z.string().describe('Where it redirects: the same as the Location header.'),
  detail: z.string().describe('In words: what the code names, and where the others under it are.'),
  occupations: z
    .array(z.strictObject({ soc_code: OnetSocCode, title: z.string(), href: z.string() }))
    .optional()
    .describe('For a six-digit SOC code: every scored O*NET occupation under it (the ".00" one first, then its specialties), in code order.'),
});
export const CodeRedirectBody = CodeRedirectBodyOnly.extend({ model_version: ModelVersionField });
export type CodeRedirect = z.infer<typeof CodeRedirectBodyOnly>;
export type IscoListItem = z.infer<typeof IscoListItem>;
/** A page of GET /isco without the envelope's model_version. */
export type IscoListPage = z.infer<typeof IscoListBody>;
export type IscoDetail = z.infer<typeof IscoDetailBody>;

export const FactorsResponse = z.strictObject({
  factors: FactorsTable,
  notes: z
    .record(z.string(), z.string())
    .describe('One note per factor of `factors` (3.1.0): why its options adjust the score as they do, citing the evidence; most adjust by 0 because no study measures a displacement difference by them.'),
  model_version: ModelVersionField,
});

export const AssessResult = z.strictObject({
  soc_code: OnetSocCode,
  title: z.string(),
  base_score: z.number(),
  personalized_score: z.number(),
  total_adjustment: z.number(),
  adjustments: z
    .record(z.string(), z.number())
    .describe('Points applied per personal factor (names of /displacement/factors), and under `tasks` (not a factor) the task path: the score from the tasks sent minus base_score.'),
  risk_tier: RiskTier,
  exposure_score: z.number().min(0).max(100).describe("Share of work time AI can do (0..100): the person's, from their tasks, when tasks were sent; else the occupation's."),
  personalized_low: z.number().min(0).max(100).describe('Personal interval: the task-based score (else the base score) under every alternative of the interval, moved by the factors.'),
  personalized_high: z.number().min(0).max(100).describe('Upper end of the personal interval.'),
  model_version: ModelVersionField,
});

export const ProblemSchema = z.strictObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string(),
  errors: z
    .array(
      z.strictObject({
        location: z.string(),
        message: z.string(),
        allowed: z.array(z.string()).optional().describe('The allowed names or values, given on the first error they apply to only.'),
      }),
    )
    .max(MAX_PROBLEM_ERRORS)
    .optional()
    .describe(`Each error found, in order, the first ${MAX_PROBLEM_ERRORS} at most.`),
  errors_omitted: z.number().int().positive().optional().describe(`RFC 9457 extension member: how many errors past the first ${MAX_PROBLEM_ERRORS} are not listed; absent when all are.`),
  model_version: ModelVersionField.describe('RFC 9457 extension member: the model version, as in every other body.'),
});

export const VotesResponse = VoteStats.extend({ model_version: ModelVersionField }).strict();

export const ProblemTypeDocSchema = z.strictObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  description: z.string().min(1),
  model_version: ModelVersionField,
});

/** /downloads/datapackage.json: a Frictionless Tabular Data Package (the suite checks it against the specification's structure). */
export const DataPackageDoc = z.looseObject({
  profile: z.literal('tabular-data-package'),
  name: z.string(),
  version: z.string(),
  licenses: z.array(z.looseObject({ name: z.string(), title: z.string() })).min(1),
  resources: z.array(z.looseObject({ name: z.string(), path: z.string(), schema: z.looseObject({ fields: z.array(z.looseObject({ name: z.string(), type: z.string() })).min(1) }) })).min(1),
});

/** /downloads/metadata.json: Datasette's metadata for the SQLite download. */
export const DatasetteMetadataDoc = z.looseObject({
  title: z.string(),
  license: z.string(),
  source: z.string(),
  databases: z.record(z.string(), z.looseObject({ tables: z.record(z.string(), z.looseObject({})), queries: z.record(z.string(), z.strictObject({ title: z.string(), sql: z.string() })) })),
});

/** What POST /mcp answers: JSON-RPC 2.0 responses (the MCP SDK makes them; tools/list describes the tools). */
const JsonRpcResponse = z.looseObject({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number(), z.null()]), result: z.optional(z.looseObject({})), error: z.optional(z.looseObject({ code: z.number().int(), message: z.string() })) });
const McpResponse = z.union([JsonRpcResponse, z.array(JsonRpcResponse)]).describe('A JSON-RPC 2.0 response of the Model Context Protocol, or an array of them for a batch.');

const byShape = { percentile: shapeSchemas(PercentileRiskScore), timeline: shapeSchemas(TimelineRiskScore) };

/** The response schema of each JSON endpoint in one shape; the route table names these keys. */
export function responseSchemas(shape: Shape) {
  return {
    occupationList: OccupationList,
    occupationDetail: byShape[shape].detail,
    occupationTasks: byShape[shape].tasks,
    occupationRisk: byShape[shape].risk,
    occupationVotes: VotesResponse,
    industryList: IndustryList,
    industryDetail: IndustryDetail,
    iscoList: IscoList,
    iscoDetail: IscoDetail,
    factors: FactorsResponse,
    assessResult: AssessResult,
    problemType: ProblemTypeDocSchema,
    openapi: z.looseObject({ openapi: z.literal('3.1.0') }),
    registeredFile: z.looseObject({ registered: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), model_version: z.string() }).describe('A file registered on the record (releases/ in the repository), served byte for byte as committed: a forecast or a head-to-head.'),
    apiIndex: ApiIndex,
    meta: Meta,
    changes: ChangesResponse,
    releaseSummary: ReleaseSummary,
    dataPackage: DataPackageDoc,
    datasetteMetadata: DatasetteMetadataDoc,
    mcpResponse: McpResponse,
  } as const;
}
export type ResponseSchemaKey = keyof ReturnType<typeof responseSchemas>;

// --- Function shards: what the build prepares so the function never recomputes the model ---

/**
 * A value's JSON text as JSON.stringify writes it (what a response holds byte for byte), whose
 * value conforms to `schema`: a shard holds what the function copies into bodies unparsed.
 */
const JsonTextOf = (schema: z.ZodType) =>
  z.string().superRefine((text, ctx) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not JSON' });
      return;
    }
    const r = schema.safeParse(value);
    if (!r.success) for (const i of r.error.issues) ctx.addIssue({ code: 'custom', message: `${i.path.join('.') || '(value)'}: ${i.message}` });
    else if (JSON.stringify(value) !== text) ctx.addIssue({ code: 'custom', message: 'not as JSON.stringify writes it' });
  });
const Packed = z.string().regex(/^[-0-9A-Za-z_]*$/);
/**
 * A page of the list: its items' JSON as the list and search bodies hold it, one string each: a
 * page body is then the strings copied, not objects parsed and serialized again, and a string is
 * far cheaper for a cold instance to parse than the object it holds.
 */
export const PageShard = z
  .strictObject({
    offset: z.number().int().min(0),
    items: z.array(JsonTextOf(OccupationListItem)),
    /** Each item's hash53, packed, one after another, and the shard's (of its offset and items joined by commas): the ETags' parts (content-hash.ts). */
    item_hashes: Packed,
    hash: z.string().regex(/^[0-9a-f]+$/),
  })
  .superRefine((s, ctx) => {
    const want = pageHashes(s.offset, s.items);
    if (s.item_hashes !== want.item_hashes || s.hash !== want.hash) ctx.addIssue({ code: 'custom', message: 'item_hashes or hash is not what content-hash.ts makes of the items' });
  });
/** Words joined by single spaces. */
const Words = z.string().regex(/^([a-z0-9]+( [a-z0-9]+)*)?$/);
const SearchIndexBody = z.strictObject({
  titles: z.array(z.string()),
  prior: z.array(z.number().min(0).max(1)),
  /** Sorted words joined by single spaces (search-words.ts). */
  vocab: Words,
  /** Each word's length, a digit each, and where every WORD_AT_STEP-th word begins, packed (search-words.ts). */
  word_len: Packed,
  word_at: Packed,
  width: z.number().int().min(1).max(5),
  alt_end: z.array(z.number().int().min(0)),
  by_length: Packed,
  /** Posting buckets; in the function's shard of the served occupations' index, none (each a shard of its own: SearchPostingsShard). */
  postings: z.array(Packed),
  /** The typo index's shards (search-typos.ts), two characters each, sorted, joined by single spaces; absent from the ISCO-08 index (it scans by_length). */
  typo_shards: z.string().regex(/^([a-z0-9]{2}( [a-z0-9]{2})*)?$/).optional(),
});
/** The packed numbers checked whole (packedProblem); a zod issue naming what is wrong. */
const fullIndex = (s: z.infer<typeof SearchIndexBody>, ctx: z.RefinementCtx) => issueOf(packedProblem(s), ctx);
/** An index in its shard whose postings are shards of their own (SearchPostingsShard); its titles and ids by length, when there. */
const splitIndex = (s: PackedIndex, ctx: z.RefinementCtx) => issueOf(packedProblem(s, true), ctx);
const issueOf = (problem: string | null, ctx: z.RefinementCtx) => {
  if (problem) ctx.addIssue({ code: 'custom', message: `search index: ${problem}` });
};
/**
 * The index of the occupations served, with what a search reads of the unscored ones before it
 * needs their index, which is a shard of its own (UnscoredSearchShard; search-words.ts). Its titles
 * and ids by length are shards of their own too (SearchTitlesShard, SearchByLengthShard).
 */
export const SearchShard = SearchIndexBody.omit({ titles: true, by_length: true }).extend({
  /** The unscored occupations' words that the served vocabulary lacks, sorted, joined by single spaces. */
  unscored_words: Words,
  /** The words of each unscored occupation's own title (search-words.ts: words()), joined by single spaces. */
  unscored_titles: z.array(Words),
})
  .superRefine(splitIndex)
  .superRefine((s, ctx) => {
    const served = new Set(s.vocab.split(' '));
    const extra = s.unscored_words === '' ? [] : s.unscored_words.split(' ');
    for (let k = 0; k < extra.length; k++) {
      if (served.has(extra[k]!) || (k > 0 && !(extra[k - 1]! < extra[k]!))) return issueOf(`unscored_words ${k} is a served word or not after the word before it`, ctx);
    }
  });
/** The occupations the model does not score, and their own index, its postings shards of their own too (dist-layout.ts: UNSCORED_SHARD). */
export const UnscoredSearchShard = z
  .strictObject({ occupations: z.array(NotScoredItem), index: SearchIndexBody.superRefine(splitIndex) })
  .refine((u) => u.occupations.length === u.index.titles.length, { message: 'unscored occupations and their index disagree in length' });
/** One bucket of the postings of the served occupations' index or of the unscored ones' (search-words.ts, postingShardName). */
export const SearchPostingsShard = z.strictObject({ postings: Packed });
/** One shard of the typo index of the served occupations' index or of the unscored ones' (search-typos.ts: packTypoShard): " key:ids" per deletion key, ids packed. */
export const SearchTyposShard = z.strictObject({ typos: z.string().regex(/^( [a-z0-9]{2,}:[-0-9A-Za-z_]+)+$/) });
/** The served occupations' own titles (dist-layout.ts: SEARCH_PART_SHARDS): read for suggestions when nothing is found. */
export const SearchTitlesShard = z.strictObject({ titles: z.array(z.string()) });
/** The served occupations' vocabulary ids by word length (dist-layout.ts: SEARCH_PART_SHARDS): read by the typo scan. */
export const SearchByLengthShard = z.strictObject({ by_length: Packed });
export const AssessShard = z.strictObject({
  factors: FactorsTable,
  tiers: TierTable,
  /** soc_code -> [title, base_score, exposure_score, score_low, score_high]: tuples keep the shard small. */
  occupations: z.record(OnetSocCode, z.tuple([z.string(), z.number(), z.number(), z.number(), z.number()])),
  task_scale: TaskScale,
});
/** One occupation's task basis (shard tasks/<soc_code>), loaded only by an assessment that sends tasks. */
export const TaskShard = TaskBasis;
/** The industries without the envelope's model version: the function filters and versions them. */
export const IndustriesShard = IndustryListBody;
/** Timeline shape: soc_code -> [card slug, agree, too_high, too_low] (the build's votes.csv counts). */
export const VotesShard = z.strictObject({
  occupations: z.record(OnetSocCode, z.tuple([z.string(), z.number().int().min(0), z.number().int().min(0), z.number().int().min(0)])),
});

/** The ISCO-08 list (code order) and the unit groups that reach no scored occupation, with why. */
export const IscoShard = z.strictObject({ items: z.array(IscoListItem), unscored: z.array(IscoUnscored.strict()) });
/** The ISCO-08 search index: titles, with the linked U.S. occupations' titles as alternate names. */
export const IscoSearchShard = SearchIndexBody.superRefine(fullIndex);

/** The list's sort orders and filter keys (list-orders.ts), each order a permutation of the list positions. */
const ListOrdersShard = z.strictObject({
  orders: z.strictObject(Object.fromEntries(LIST_SORTS.map((s) => [s, z.array(z.number().int().min(0))])) as Record<ListSort, z.ZodArray<z.ZodNumber>>),
  tiers: z.string().regex(/^[lmh]*$/),
  groups: z.string().regex(/^(\d\d)*$/),
});

export const SHARD_SCHEMAS = {
  [SLUGS_SHARD]: z.strictObject({ slugs: z.record(z.string(), OnetSocCode) }),
  [LIST_ORDERS_SHARD]: ListOrdersShard,
  meta: ShardMeta,
  search: SearchShard,
  [UNSCORED_SHARD]: UnscoredSearchShard,
  assess: AssessShard,
  industries: IndustriesShard,
  votes: VotesShard,
  isco: IscoShard,
  'isco-search': IscoSearchShard,
  [SEARCH_PART_SHARDS.titles]: SearchTitlesShard,
  [SEARCH_PART_SHARDS.by_length]: SearchByLengthShard,
} as const;
/** The posting buckets' shards (search-words.ts: postingShardName) of both indexes. */
const POSTING_SHARD = new RegExp(`^(search|${UNSCORED_SHARD})/postings/\\d+$`);
/** The typo index's shards (search-typos.ts: typoShardName) of both indexes. */
const TYPO_SHARD = new RegExp(`^(search|${UNSCORED_SHARD})/typos/[a-z0-9]{2}$`);
export const shardSchemaFor = (name: string) =>
  name.startsWith('pages/') ? PageShard : name.startsWith(TASK_SHARD_PREFIX) ? TaskShard : POSTING_SHARD.test(name) ? SearchPostingsShard : TYPO_SHARD.test(name) ? SearchTyposShard : SHARD_SCHEMAS[name as keyof typeof SHARD_SCHEMAS];

export type OccupationListItem = z.infer<typeof OccupationListItem>;
export type OccupationList = z.infer<typeof OccupationList>;
/** The occupation bodies of one shape (of either, by default), without the envelope's model_version: what present.ts returns. */
type Bodies<S extends Shape> = (typeof byShape)[S]['bodies'];
export type OccupationDetail<S extends Shape = Shape> = z.infer<Bodies<S>['detail']>;
export type OccupationTasks = z.infer<Bodies<Shape>['tasks']>;
export type OccupationRisk<S extends Shape = Shape> = z.infer<Bodies<S>['risk']>;
export type RiskScore<S extends Shape = Shape> = OccupationRisk<S>['risk_score'];
export type NotScoredItem = z.infer<typeof NotScoredItem>;
export type IndustryListItem = z.infer<typeof IndustryListItem>;
export type IndustryList = z.infer<typeof IndustryListBody>;
/** A record cut, without the envelope's model_version (downloads reuse it). */
export type IndustryDetail = z.infer<typeof IndustryDetailBody>;
export type PageShard = z.infer<typeof PageShard>;
export type SearchShard = z.infer<typeof SearchShard>;
export type SearchPostingsShard = z.infer<typeof SearchPostingsShard>;
export type SearchTyposShard = z.infer<typeof SearchTyposShard>;
export type SearchTitlesShard = z.infer<typeof SearchTitlesShard>;
export type SearchByLengthShard = z.infer<typeof SearchByLengthShard>;
export type UnscoredSearchShard = z.infer<typeof UnscoredSearchShard>;
export type AssessShard = z.infer<typeof AssessShard>;
export type TaskShard = z.infer<typeof TaskShard>;
export type VotesShard = z.infer<typeof VotesShard>;
export type IscoShard = z.infer<typeof IscoShard>;
export type IscoSearchShard = z.infer<typeof IscoSearchShard>;
