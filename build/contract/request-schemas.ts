// What the function checks at run time, in zod/mini so its bundle stays small (full zod with its
// locales was most of it): the assessment request body and the shard metadata. The build uses the
// same schemas (OpenAPI, shard validation), so each fact is written once. Messages are our own:
// zod/mini carries no locale, and a client should read what is wrong in words it can act on.
import * as z from 'zod/mini';
import { ONET_SOC_PATTERN } from '../model/ids.ts';
import { VOTE_CHOICES } from './votes.ts';

const required = (what: string) => (i: { input?: unknown }) => (i.input === undefined ? 'required' : `must be ${what}`);

/** The error of a personal factor whose option is not a string (the function checks a `__proto__` key's itself). */
export const OPTION_NOT_STRING = 'each option must be a string (an option value)';

/** Names in a message: the first few, and how many more (a body may hold thousands). */
const MESSAGE_NAMES = 10;
const someOf = (names: string[]): string =>
  names.length <= MESSAGE_NAMES ? names.join(', ') : `${names.slice(0, MESSAGE_NAMES).join(', ')} and ${names.length - MESSAGE_NAMES} more`;

/** The assessment request's fields. */
export const ASSESS_FIELDS = ['soc_code', 'personal_factors', 'tasks', 'other_share'] as const;
/** Fields whose bad values are a 422 (the request names tasks or shares that cannot be scored), not a 400. */
export const TASK_FIELDS: readonly string[] = ['tasks', 'other_share'];

export const AssessRequest = z.strictObject(
  {
    soc_code: z.string({ error: required('a string') }).check(z.regex(ONET_SOC_PATTERN, { error: 'must be an O*NET-SOC code such as 15-1252.00' })),
    /** Omitted or {} gives the base score unchanged. */
    personal_factors: z.optional(
      z.record(z.string(), z.string({ error: OPTION_NOT_STRING }), { error: 'must be an object mapping factor names to option values' }),
    ),
    /** The task path: relative time on each task of GET /occupations/{soc_code}/tasks (normalized; left out: 0). Not a factor. */
    tasks: z.optional(
      z
        .array(
          z.strictObject(
            {
              task_id: z.number({ error: required('an integer task_id of the occupation') }).check(z.int({ error: 'must be an integer task_id of the occupation' })),
              share: z.number({ error: required('a positive number') }).check(z.positive({ error: 'must be a positive number' })),
            },
            { error: (i) => (i.code === 'unrecognized_keys' ? 'unknown field(s); allowed: task_id, share' : 'each task must be an object with task_id and share') },
          ),
          { error: 'must be an array of {task_id, share}' },
        )
        .check(z.minLength(1, { error: 'must list at least one task (omit tasks for the occupation as a whole)' })),
    ),
    /** Relative time on work outside the occupation's task list, scored at the occupation's average. */
    other_share: z.optional(z.number({ error: 'must be a number >= 0' }).check(z.minimum(0, { error: 'must be a number >= 0' }))),
  },
  {
    error: (i) => (i.code === 'unrecognized_keys' ? `unknown field(s) ${someOf((i as { keys: string[] }).keys)}; allowed: ${ASSESS_FIELDS.join(', ')}` : 'the body must be a JSON object'),
  },
);
export type AssessRequest = z.infer<typeof AssessRequest>;

/** The body of POST .../votes (JSON, or the card's form decoded to the same fields); other fields are ignored. */
export const VoteRequest = z.looseObject({ vote: z.enum(VOTE_CHOICES) });

const SHAPES = ['percentile', 'timeline'] as const;
export const ShardMeta = z.strictObject({
  data_version: z.string(),
  shape: z.enum(SHAPES),
  occupation_count: z.number().check(z.int(), z.minimum(0)),
  page_shard_size: z.number().check(z.int(), z.positive()),
  page_shards: z.number().check(z.int(), z.minimum(0)),
});
export type ShardMeta = z.infer<typeof ShardMeta>;

/**
 * What ShardMeta.safeParse would refuse in the function's metadata shard, or null: the same rules
 * by hand, because every cold request reads the shard, and zod's first parse in an instance cost
 * it about a millisecond of compiling (a test holds the two to the same answers).
 */
export function shardMetaProblem(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'not an object';
  const m = raw as Record<string, unknown>;
  const keys = Object.keys(m);
  const known = ['data_version', 'shape', 'occupation_count', 'page_shard_size', 'page_shards'];
  if (keys.some((k) => !known.includes(k))) return `unknown field(s) ${keys.filter((k) => !known.includes(k)).join(', ')}`;
  if (typeof m.data_version !== 'string') return 'data_version is not a string';
  if (!SHAPES.includes(m.shape as never)) return 'shape is not one of the shapes';
  const whole = (v: unknown, min: number) => typeof v === 'number' && Number.isSafeInteger(v) && v >= min;
  if (!whole(m.occupation_count, 0) || !whole(m.page_shard_size, 1) || !whole(m.page_shards, 0)) return 'a count is not a whole number in range';
  return null;
}

/** A JSON-RPC 2.0 message as /mcp takes it (for the OpenAPI document; the MCP SDK checks each message). */
const JsonRpcMessage = z.looseObject({ jsonrpc: z.literal('2.0'), method: z.optional(z.string()), id: z.optional(z.union([z.string(), z.number()])), params: z.optional(z.looseObject({})) });
export const McpMessage = z.union([JsonRpcMessage, z.array(JsonRpcMessage)]);
