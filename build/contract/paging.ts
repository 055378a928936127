// Query-string validation and page maths for the list endpoints. Pure: the function uses it to
// answer requests, the build uses the same constants to cut page shards, the tests check both.
import type { ProblemError } from './problem.ts';
import { LIST_SORTS, LIST_TIERS } from './list-orders.ts';
import { SOC_MAJOR_GROUPS } from './soc-major-groups.ts';

export const LIST_LIMIT = { min: 1, max: 200, default: 50 } as const;
/**
 * Occupations per page shard. A search's top items lie scattered over the list, and a cold search
 * parses every shard it takes one from: at 50 a first page reads well under half the item bytes it
 * would at 200, in about one shard more. A largest list page (LIST_LIMIT.max) spans at most 5
 * shards.
 */
export const PAGE_SHARD_SIZE = 50;
/** Longest accepted search query; longer ones are a client error, not a slow scan. */
export const MAX_QUERY_LENGTH = 100;

export type ParamSpec =
  | { kind: 'int'; min: number; max: number; default?: number; description: string }
  | { kind: 'string'; maxLength: number; description: string }
  | { kind: 'enum'; values: readonly number[]; description: string }
  | { kind: 'choice'; values: readonly string[]; description: string };

export type QuerySpec = Record<string, ParamSpec>;
export type QueryValues = Record<string, number | string | undefined>;
export type QueryOutcome = { ok: true; values: QueryValues } | { ok: false; errors: ProblemError[] };

// Canonical non-negative decimal only: "+5", "1e2", "05", " 5" and "5.0" are all rejected. Any
// number of digits: a value past the parameter's maximum is refused as out of range, naming it.
const CANONICAL_INT = /^(0|[1-9][0-9]*)$/;

/** The largest offset: past every list, and said as the OpenAPI maximum (MAX_SAFE_INTEGER was refused as not "plain decimal digits"). */
export const MAX_OFFSET = 1_000_000_000;

const NON_ASCII = /[^\x00-\x7f]/;

/** Each spec's entries, listed once (the function parses a query per request). */
const specEntries = new WeakMap<QuerySpec, Array<[string, ParamSpec]>>();

/**
 * The name/value pairs of a URL's query (its text after the "?") as URL.searchParams gives them.
 * Plain ASCII is split here as the form-urlencoded parser splits it, each name and value with "+"
 * or "%" decoded by decodeURIComponent ("+" a space first), which gives the parser's text for
 * every well-formed escape of UTF-8; anything else (an escape it refuses, non-ASCII text) goes
 * through URLSearchParams, which turns what it cannot decode into U+FFFD. The parser is JavaScript
 * on Node, and its first use was a good part of a cold search's parsing.
 */
export function queryPairs(query: string): Iterable<[string, string]> {
  // URLSearchParams drops one leading "?" of its argument; a query may itself start with one.
  if (NON_ASCII.test(query)) return new URLSearchParams(`?${query}`);
  const pairs: Array<[string, string]> = [];
  try {
    for (const part of query.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      pairs.push(eq < 0 ? [formDecode(part), ''] : [formDecode(part.slice(0, eq)), formDecode(part.slice(eq + 1))]);
    }
  } catch {
    // A malformed escape (URIError): the parser's own answer.
    return new URLSearchParams(`?${query}`);
  }
  return pairs;
}

const formDecode = (s: string): string => (s.includes('%') || s.includes('+') ? decodeURIComponent(s.replaceAll('+', ' ')) : s);

/**
 * Every parameter problem is collected (unknown, repeated, empty, malformed, out of range), each
 * naming the parameter, so one 400 response tells the client everything.
 */
export function parseQuery(params: Iterable<[string, string]>, spec: QuerySpec): QueryOutcome {
  const errors: ProblemError[] = [];
  const values: QueryValues = {};
  const seen = new Map<string, string[]>();
  // Indexed loops, not destructuring ones (their iterator protocol is much code to compile on a
  // cold instance's first request, and to run uncompiled).
  const pairs = Array.isArray(params) ? (params as Array<[string, string]>) : [...params];
  for (let i = 0; i < pairs.length; i++) {
    const name = pairs[i]![0];
    const list = seen.get(name);
    if (list) list.push(pairs[i]![1]);
    else seen.set(name, [pairs[i]![1]]);
  }

  let unknown: string[] | null = null;
  for (const name of seen.keys()) if (!Object.hasOwn(spec, name)) (unknown ??= []).push(name);
  for (const name of unknown?.sort() ?? []) {
    errors.push({ location: `query.${name}`, message: `unknown parameter "${name}"`, allowed: Object.keys(spec) });
  }
  let entries = specEntries.get(spec);
  if (!entries) specEntries.set(spec, (entries = Object.entries(spec)));
  for (let e = 0; e < entries.length; e++) {
    const name = entries[e]![0];
    const p = entries[e]![1];
    const raw = seen.get(name);
    if (raw === undefined) {
      values[name] = p.kind === 'int' ? p.default : undefined;
      continue;
    }
    const v = raw[0]!;
    if (raw.length === 1 && validParam(v, p)) values[name] = p.kind === 'int' || p.kind === 'enum' ? Number(v) : v;
    else errors.push(paramError(name, p, raw));
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, values };
}

/**
 * Whether a parameter's one value is good. The message saying what is wrong is made apart
 * (paramError), on an error only: a cold instance compiles a function whole on its first call,
 * and the messages were most of parseQuery's code.
 */
function validParam(v: string, p: ParamSpec): boolean {
  // URLSearchParams turns malformed percent-encoding or invalid UTF-8 into U+FFFD instead of
  // failing; a search for garbled text would silently match something else.
  if (v.includes('\uFFFD') || v.length === 0) return false;
  if (p.kind === 'choice') return p.values.includes(v);
  if (p.kind === 'string') return v.trim().length > 0 && v.length <= p.maxLength;
  if (!CANONICAL_INT.test(v)) return false;
  const n = Number(v);
  return p.kind === 'enum' ? p.values.includes(n) : n >= p.min && n <= p.max;
}

/** What is wrong with a parameter given `raw` (validParam said it is not good), naming it. */
function paramError(name: string, p: ParamSpec, raw: string[]): ProblemError {
  const location = `query.${name}`;
  if (raw.length > 1) return { location, message: `parameter "${name}" given ${raw.length} times; give it once` };
  const v = raw[0]!;
  if (v.includes('\uFFFD')) return { location, message: `parameter "${name}" is not valid percent-encoded UTF-8` };
  if (v.length === 0) return { location, message: `parameter "${name}" is empty` };
  if (p.kind === 'choice') return { location, message: `parameter "${name}" must be one of ${p.values.join(', ')}, got "${v}"`, allowed: [...p.values] };
  if (p.kind === 'string') return { location, message: v.trim().length === 0 ? `parameter "${name}" is blank` : `parameter "${name}" is longer than ${p.maxLength} characters` };
  if (!CANONICAL_INT.test(v)) {
    const range = p.kind === 'enum' ? `one of ${p.values.join(', ')}` : p.max === Number.MAX_SAFE_INTEGER ? `an integer >= ${p.min}` : `an integer from ${p.min} to ${p.max}`;
    return { location, message: `parameter "${name}" must be ${range} in plain decimal digits, got "${v}"` };
  }
  const n = Number(v);
  if (p.kind === 'enum') return { location, message: `parameter "${name}" must be one of ${p.values.join(', ')}`, allowed: p.values.map(String) };
  return { location, message: `parameter "${name}" must be between ${p.min} and ${p.max}, got ${n}` };
}

export const OCCUPATION_LIST_QUERY: QuerySpec = {
  q: { kind: 'string', maxLength: MAX_QUERY_LENGTH, description: 'Case-insensitive title search; results are ranked, not alphabetical.' },
  limit: { kind: 'int', min: LIST_LIMIT.min, max: LIST_LIMIT.max, default: LIST_LIMIT.default, description: 'Results per page.' },
  offset: { kind: 'int', min: 0, max: MAX_OFFSET, default: 0, description: 'Number of results to skip.' },
  sort: {
    kind: 'choice',
    values: LIST_SORTS,
    description: 'Order of the results: score (lowest final_score first), -score (highest first), title (A to Z), employment (most workers first; none published last). Ties keep SOC-code order. Default: SOC-code order, or search rank with q.',
  },
  tier: { kind: 'choice', values: LIST_TIERS, description: 'Only occupations of this risk_tier.' },
  major_group: { kind: 'enum', values: Object.keys(SOC_MAJOR_GROUPS).map(Number), description: 'Only occupations of this SOC 2018 major group (the first two digits of soc_code, e.g. 29 Healthcare Practitioners and Technical).' },
};

export const ISCO_LIST_QUERY: QuerySpec = {
  q: { kind: 'string', maxLength: MAX_QUERY_LENGTH, description: 'Case-insensitive search of the ISCO-08 titles and of the linked U.S. occupations\' titles; results are ranked, not in code order.' },
  major: { kind: 'enum', values: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], description: 'ISCO-08 major group (first digit of the code): 0 armed forces, 1 managers ... 9 elementary occupations.' },
  limit: OCCUPATION_LIST_QUERY.limit!,
  offset: OCCUPATION_LIST_QUERY.offset!,
};

export const INDUSTRY_LIST_QUERY: QuerySpec = {
  level: { kind: 'enum', values: [2, 3, 4], description: 'NAICS level: 2 sector, 3 subsector, 4 industry group.' },
};

/** The half-open window [start, end) of a page over `total` items; empty past the end. */
export function pageWindow(total: number, limit: number, offset: number): { start: number; end: number } {
  const start = Math.min(offset, total);
  return { start, end: Math.min(total, start + limit) };
}

/** The page shard that holds list position `position`. */
export const shardOf = (position: number, shardSize: number): number => Math.floor(position / shardSize);

/** The name of page shard `n` (it holds list positions from n * shardSize). */
export const pageShardName = (n: number): `pages/${number}` => `pages/${n}`;

export function shardCount(total: number, shardSize: number): number {
  return Math.ceil(total / shardSize);
}
