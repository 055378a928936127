// The MCP tools: each a JSON Schema input, a run over the function's own answers (api-client.ts),
// and a structured result with a short text a model can quote. The descriptions carry the score's
// scope (build/model/scope.ts) so a model quoting it cannot claim more than it measures.
import { SCOPE } from '../../build/model/scope.ts';
import { PARAM_PATTERNS, urlFor } from '../../build/contract/routes.ts';
import { MAX_QUERY_LENGTH } from '../../build/contract/paging.ts';
import { apiJson, fileJson, ToolError, type ToolContext } from './api-client.ts';

type Json = Record<string, unknown>;

export interface ToolResult {
  text: string;
  structured: Json;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: Json & { type: 'object' };
  /** false: the arguments go to the API unchecked here, so its own validation and errors answer (assess). */
  checkInput?: false;
  run(args: Json, ctx: ToolContext): Promise<ToolResult>;
}

/** What every score tool says the number is and is not. */
const MEASURES = `${SCOPE.sentence} It is a model estimate of exposure, not a forecast of job loss for any one person; score_low..score_high is the ${SCOPE.range}, not a probability interval.`;

const SOC = { type: 'string', pattern: PARAM_PATTERNS.soc_code!.source, description: 'O*NET-SOC code, e.g. 15-1252.00 (find one with find_occupation).' } as const;
const ISCO = { type: 'string', pattern: PARAM_PATTERNS.isco_code!.source, description: 'ISCO-08 unit group code: 4 digits, e.g. 2512.' } as const;

/** An occupation's risk response (the static file GET /api/v1/occupations/{soc}/risk serves). */
const riskOf = (ctx: ToolContext, soc: string) => fileJson<Json & { title: string; soc_code: string; risk_score: Json }>(ctx, urlFor('occupation-risk', { soc_code: soc }));

const num = (v: unknown) => (typeof v === 'number' ? String(Math.round(v * 1000) / 1000) : 'n/a');
const tierShare = (r: Json) => {
  const shares = r.tier_shares as Record<string, number> | undefined;
  const tier = String(r.risk_tier);
  return shares && typeof shares[tier] === 'number' ? ` (${Math.round(shares[tier] * 100)}% of modelling alternatives agree on the tier)` : '';
};
const scoreLine = (o: { title: string; soc_code: string; risk_score: Json }) =>
  `${o.title} (${o.soc_code}): score ${num(o.risk_score.final_score)} (${SCOPE.range} ${num(o.risk_score.score_low)} to ${num(o.risk_score.score_high)}), tier ${String(o.risk_score.risk_tier)}${tierShare(o.risk_score)}.`;

/** The score part of a risk response, with the scope sentence beside it. */
function scoreOf(risk: Json & { title: string; soc_code: string; risk_score: Json }): Json {
  const out: Json = { soc_code: risk.soc_code, title: risk.title, risk_score: risk.risk_score, explanation: risk.explanation, scope: SCOPE.sentence, model_version: risk.model_version };
  if ('evidence' in risk) out.evidence = risk.evidence;
  return out;
}

const findOccupation: ToolDef = {
  name: 'find_occupation',
  title: 'Find an occupation by title',
  description:
    'Find occupations by job title: U.S. O*NET-SOC occupations and ISCO-08 unit groups (international titles), typo-tolerant and ranked. Returns codes to pass to the other tools, with each occupation\'s score. ' +
    'When nothing matches, says which titles come closest and which occupations the model does not score (and why).',
  inputSchema: {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH, description: 'A job title in the person\'s own words, e.g. "nurse", "sofware developer".' },
      limit: { type: 'integer', minimum: 1, maximum: 20, default: 5, description: 'Matches per classification.' },
    },
    required: ['title'],
    additionalProperties: false,
  },
  async run(args, ctx) {
    const q = encodeURIComponent(String(args.title));
    const limit = typeof args.limit === 'number' ? args.limit : 5;
    const occupations = await apiJson<Json & { data: Array<Json & { title: string; soc_code: string }>; count: number }>(ctx, 'GET', `${urlFor('occupation-list')}?q=${q}&limit=${limit}`);
    const isco = await apiJson<Json & { data: Array<Json & { title: string; isco_code: string }>; count: number }>(ctx, 'GET', `${urlFor('isco-list')}?q=${q}&limit=${limit}`);
    const names = occupations.data.map((o) => `${o.title} (${o.soc_code})`);
    const units = isco.data.map((u) => `${u.title} (ISCO ${u.isco_code})`);
    const text = names.length || units.length
      ? `U.S. occupations: ${names.join('; ') || 'none'}. ISCO-08 unit groups: ${units.join('; ') || 'none'}.`
      : `No occupation matches "${String(args.title)}".${Array.isArray(occupations.suggestions) && occupations.suggestions.length ? ` Closest titles: ${(occupations.suggestions as Array<{ title: string }>).map((s) => s.title).join('; ')}.` : ''}`;
    return { text, structured: { occupations, isco } };
  },
};

const occupationScore: ToolDef = {
  name: 'occupation_score',
  title: "An occupation's displacement risk score",
  description: `The displacement risk score of one U.S. occupation (O*NET-SOC): the score, its range over modelling choices, the tier with the share of modelling alternatives that give it, the explanation (task exposure, complementarity, evidence) and what the score leaves out. ${MEASURES}`,
  inputSchema: { type: 'object', properties: { soc_code: SOC }, required: ['soc_code'], additionalProperties: false },
  async run(args, ctx) {
    const risk = await riskOf(ctx, String(args.soc_code));
    return { text: `${scoreLine(risk)} ${SCOPE.sentence}`, structured: scoreOf(risk) };
  },
};

const occupationGuidance: ToolDef = {
  name: 'occupation_guidance',
  title: "Guidance for someone in an occupation",
  description:
    'What a person in one U.S. occupation can do: the best next step, moves to related occupations with lower scores, longer routes (what each takes), focus within the job (tasks whose AI exposure stays lowest) and the skill gaps for the moves. ' +
    `Built on the same score, so it shares its scope: ${SCOPE.sentence}`,
  inputSchema: { type: 'object', properties: { soc_code: SOC }, required: ['soc_code'], additionalProperties: false },
  async run(args, ctx) {
    const risk = await riskOf(ctx, String(args.soc_code));
    const guidance = risk.guidance as Json & { next_step?: unknown };
    const moves = (risk.transition_options as Array<{ title?: string }>).map((t) => t.title).filter(Boolean);
    const text = `${scoreLine(risk)} Moves: ${moves.join('; ') || String(risk.transition_note ?? 'none listed')}.`;
    return {
      text,
      structured: { soc_code: risk.soc_code, title: risk.title, guidance, transition_options: risk.transition_options, transition_note: risk.transition_note, skill_gaps: risk.skill_gaps, scope: SCOPE.sentence, model_version: risk.model_version },
    };
  },
};

const assessTasks: ToolDef = {
  name: 'assess_my_tasks',
  title: 'Assess a person\'s own job',
  description:
    "A person's own score: the occupation's score adjusted for personal factors (names and options from GET /api/v1/displacement/factors) and for the tasks the person actually does (task_id from GET /api/v1/occupations/{soc_code}/tasks, share = relative time). " +
    `Same checks and errors as POST /api/v1/displacement/assess. ${MEASURES}`,
  inputSchema: {
    type: 'object',
    properties: {
      soc_code: SOC,
      personal_factors: { type: 'object', additionalProperties: { type: 'string' }, description: 'Factor name -> option, e.g. {"ai_proficiency": "advanced"}.' },
      tasks: { type: 'array', items: { type: 'object', properties: { task_id: { type: 'integer' }, share: { type: 'number', exclusiveMinimum: 0 } }, required: ['task_id', 'share'] }, description: 'The tasks the person does and their relative time.' },
      other_share: { type: 'number', minimum: 0, description: 'Time on work outside the listed tasks (with tasks only).' },
    },
    required: ['soc_code'],
  },
  checkInput: false,
  async run(args, ctx) {
    const result = await apiJson<Json & { final_score?: number; adjusted_score?: number }>(ctx, 'POST', urlFor('assess'), args);
    const score = result.final_score ?? result.adjusted_score;
    return { text: `Personal score for ${String(args.soc_code)}: ${num(score)}. ${SCOPE.sentence}`, structured: result };
  },
};

const compareOccupations: ToolDef = {
  name: 'compare_occupations',
  title: 'Compare two occupations',
  description: `Two U.S. occupations side by side: each one's score, range and tier, and the difference of their scores (b minus a). ${MEASURES}`,
  inputSchema: { type: 'object', properties: { soc_code_a: SOC, soc_code_b: SOC }, required: ['soc_code_a', 'soc_code_b'], additionalProperties: false },
  async run(args, ctx) {
    const [a, b] = await Promise.all([riskOf(ctx, String(args.soc_code_a)), riskOf(ctx, String(args.soc_code_b))]);
    const diff = Number(b.risk_score.final_score) - Number(a.risk_score.final_score);
    const overlap = Number(a.risk_score.score_low) <= Number(b.risk_score.score_high) && Number(b.risk_score.score_low) <= Number(a.risk_score.score_high);
    const text = `${scoreLine(a)} ${scoreLine(b)} Difference ${num(diff)}${overlap ? ': the ranges overlap, so the order is not settled.' : '.'}`;
    return { text, structured: { a: scoreOf(a), b: scoreOf(b), difference: diff, ranges_overlap: overlap, scope: SCOPE.sentence } };
  },
};

const iscoUnitGroup: ToolDef = {
  name: 'isco_unit_group',
  title: 'An ISCO-08 unit group',
  description: `One ISCO-08 unit group (the international classification): its score and range, carried over from the linked U.S. occupations with their weights, and what the mapping assumes. ${MEASURES}`,
  inputSchema: { type: 'object', properties: { isco_code: ISCO }, required: ['isco_code'], additionalProperties: false },
  async run(args, ctx) {
    const unit = await fileJson<Json & { title: string; isco_code: string }>(ctx, urlFor('isco-detail', { isco_code: String(args.isco_code) }));
    const score = (unit.risk_score ?? unit) as Json;
    return { text: `${unit.title} (ISCO-08 ${unit.isco_code}): score ${num(score.final_score ?? unit.score)}. ${SCOPE.sentence}`, structured: unit };
  },
};

export const TOOLS: readonly ToolDef[] = [findOccupation, occupationScore, occupationGuidance, assessTasks, compareOccupations, iscoUnitGroup];

export { ToolError };
