// POST /api/v1/displacement/assess: the request body checked, the occupation's shard read, the
// pure model's assess() run. It never recomputes the model: the build's scores are in the shard.
import { assess, type AssessIssue } from '../../build/model/assess.ts';
import type { AssessShard, TaskShard } from '../../build/contract/response-schemas.ts';
import { AssessRequest, OPTION_NOT_STRING, TASK_FIELDS } from '../../build/contract/request-schemas.ts';
import { taskShardName } from '../../build/contract/dist-layout.ts';
import { routeById, urlFor } from '../../build/contract/routes.ts';
import { noOccupation, type ProblemError } from '../../build/contract/problem.ts';
import { ASSESS_MAX_BODY_BYTES as MAX_BODY_BYTES } from '../../build/contract/limits.ts';
import { json, problemResponse, type Reply, type RequestLike } from '../http.ts';
import { encodedBody, readCapped, utf8 } from '../body.ts';
import type { RouteHandler } from '../route-handler.ts';
import type { ShardStore } from '../shard-store.ts';
import { notScored } from './not-found.ts';

export function assessHandler({ shards }: { shards: ShardStore }): RouteHandler {
  return async (req, _query, { route }) => {
    const body = await readJson(req);
    if ('status' in body) return body;
    const parsed = AssessRequest.safeParse(body.value);
    if (!parsed.success) {
      const errors: ProblemError[] = parsed.error.issues.map((i) => ({
        location: ['body', ...i.path.map(String)].join('.'),
        message: i.message,
      }));
      // A body whose only faults are task shares or ids names work that cannot be scored: 422.
      const taskOnly = parsed.error.issues.every((i) => i.path.length > 0 && TASK_FIELDS.includes(String(i.path[0])));
      if (taskOnly) return problemResponse(req, 422, `Invalid tasks or shares: each task is {task_id, share > 0} from GET ${routeById('occupation-tasks').pattern}; other_share is a number >= 0.`, errors);
      return problemResponse(req, 400, 'The request body does not match the assessment request schema.', errors);
    }
    const { tasks, other_share: otherShare, soc_code: soc } = parsed.data;
    if (otherShare !== undefined && tasks === undefined) {
      return problemResponse(req, 422, 'other_share is a share beside tasks; send it with tasks.', [{ location: 'body.other_share', message: 'only with tasks' }]);
    }
    const data = await shards.load<AssessShard>('assess');
    const occ = Object.hasOwn(data.occupations, soc) ? data.occupations[soc] : undefined;
    if (!occ) {
      const unscored = await notScored(shards, soc);
      return problemResponse(req, 404, unscored ?? noOccupation(soc), [{ location: 'body.soc_code', message: unscored ? 'occupation not scored' : 'unknown occupation' }]);
    }
    const personal = factorEntries((body.value as { personal_factors?: object }).personal_factors);
    if (!(personal instanceof Map)) return problemResponse(req, 400, 'The request body does not match the assessment request schema.', [personal]);
    // Only an assessment with tasks loads the occupation's task basis (one small shard).
    const taskPath = tasks && { tasks, other_share: otherShare ?? 0, basis: await shards.load<TaskShard>(taskShardName(soc)), scale: data.task_scale };
    const occupation = { soc_code: soc, title: occ[0], base_score: occ[1], exposure_score: occ[2], score_low: occ[3], score_high: occ[4] };
    const outcome = assess(occupation, personal, data.factors, data.tiers, taskPath);
    if (!outcome.ok) {
      const errors: ProblemError[] = outcome.issues.map((i) => assessError(i));
      const onTasks = outcome.issues.some((i) => i.kind.endsWith('_task') || i.kind === 'too_many_tasks');
      const detail = onTasks ? `Unknown or repeated task, or more tasks than the occupation has; see GET ${urlFor('occupation-tasks', { soc_code: soc })}.` : `Unknown personal factor or option; see GET ${urlFor('factors')}.`;
      return problemResponse(req, 422, detail, errors);
    }
    return json(req, outcome.result, route.cache);
  };
}

/** The body parsed as JSON, or the problem with it (media type, content coding, size, syntax). */
async function readJson(req: RequestLike): Promise<{ value: unknown } | Reply> {
  const type = (req.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    return problemResponse(req, 415, 'Send the request body as JSON with Content-Type: application/json.', [
      { location: 'header.Content-Type', message: type ? `unsupported media type "${type}"` : 'missing', allowed: ['application/json'] },
    ]);
  }
  const encoded = encodedBody(req);
  if (encoded) return encoded;
  const declared = req.headers.get('Content-Length');
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) return tooLarge(req);
  const bytes = await readCapped(req, MAX_BODY_BYTES);
  if (bytes === null) return tooLarge(req);
  try {
    const text = utf8(bytes);
    if (text === null) throw new Error('not UTF-8');
    return { value: JSON.parse(text) as unknown };
  } catch {
    return problemResponse(req, 400, 'The request body is not valid UTF-8 JSON.', [{ location: 'body', message: 'invalid JSON' }]);
  }
}

function assessError(i: AssessIssue): ProblemError {
  switch (i.kind) {
    case 'unknown_factor':
      return { location: `body.personal_factors.${i.factor}`, message: `unknown factor "${i.factor}"`, allowed: i.allowed };
    case 'unknown_option':
      return { location: `body.personal_factors.${i.factor}`, message: `unknown option "${i.value}" for ${i.factor}`, allowed: i.allowed };
    case 'unknown_task':
      return { location: `body.tasks.${i.index}.task_id`, message: `task ${i.task_id} is not among this occupation's tasks`, allowed: i.allowed.map(String) };
    case 'duplicate_task':
      return { location: `body.tasks.${i.index}.task_id`, message: `task ${i.task_id} is listed more than once` };
    case 'too_many_tasks':
      return { location: 'body.tasks', message: `${i.count} entries, but the occupation has ${i.max} tasks` };
  }
}

/**
 * The factor map as the client sent it (the schema has checked it is an object), or the error in
 * it. Zod's record skips a `__proto__` key, neither checking nor keeping it, so the names come
 * from the raw JSON object into a Map, where such a key is an ordinary, unknown factor (a 422),
 * and its value is checked here as zod checks the others (`{"__proto__":{}}` made String() throw:
 * a 500).
 */
function factorEntries(raw: object | undefined): Map<string, string> | ProblemError {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(raw ?? {})) {
    if (typeof value !== 'string') return { location: `body.personal_factors.${name}`, message: OPTION_NOT_STRING };
    out.set(name, value);
  }
  return out;
}

const tooLarge = (req: RequestLike): Reply =>
  problemResponse(req, 413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`, [{ location: 'body', message: `at most ${MAX_BODY_BYTES} bytes` }]);
