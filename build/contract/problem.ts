// RFC 9457 problem details: the one error shape of the whole API (static 404s, function errors).
// Pure, so the build (404 files), the function and the local server produce identical bodies.
import { ASSESS_MAX_BODY_BYTES } from './limits.ts';
import { VOTE_POLICY } from './votes.ts';
import { MODEL_VERSION } from '../model/version.ts';

export interface ProblemError {
  /** Where the problem is: a query parameter name, a JSON pointer into the body, or a header. */
  location: string;
  message: string;
  /** The allowed names or values, on the first error they apply to only (problem()). */
  allowed?: string[];
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: ProblemError[];
  /** RFC 9457 extension member: how many errors past the first MAX_PROBLEM_ERRORS are not listed. */
  errors_omitted?: number;
  /** RFC 9457 extension member: the model version, as in every other body of the API. */
  model_version: typeof MODEL_VERSION;
}

/**
 * Errors a problem lists at most, in the order found; `errors_omitted` counts the rest. A bad
 * request's answer stays small whatever it holds: listing every error made a 422 grow with the
 * number of unknown names sent (each error repeated the allowed list).
 */
export const MAX_PROBLEM_ERRORS = 20;

/** How `errors` is bounded, in the words of the problem types' documentation. */
const ERRORS_NOTE = `the first ${MAX_PROBLEM_ERRORS} errors, \`errors_omitted\` counting any others; each allowed list on the first error it applies to only`;

/**
 * Stable identifiers for each kind of failure; relative URIs resolved against the site. Each
 * type is dereferenceable: GET on it returns its documentation (problemTypeDoc), as RFC 9457
 * recommends.
 */
export const PROBLEM_TYPES = {
  400: { type: '/api/v1/problems/bad-request', title: 'Bad Request', description: `A query parameter or the request body is invalid. \`errors\` names each offending location (for example \`query.limit\` or \`body.soc_code\`) and, where the values are a fixed list, the allowed ones (${ERRORS_NOTE}).` },
  404: { type: '/api/v1/problems/not-found', title: 'Not Found', description: 'No resource at this path: an unknown SOC code, NAICS code, embed slug or API path, the votes endpoint in the percentile interface shape, or an unknown soc_code in an assessment. For an O*NET occupation that the model does not score (the military, the "All Other" groups), `detail` names it and says why.' },
  403: { type: '/api/v1/problems/forbidden', title: 'Forbidden', description: 'A browser request from another site: a vote whose `Origin` names another host than the one it was sent to, or whose `Sec-Fetch-Site` is cross-site. Votes are taken only from the site\'s own pages (the embed card posts from its own origin), same-site pages, and clients that are not browsers (no `Origin` or `Sec-Fetch-Site` header); nothing was recorded.' },
  405: { type: '/api/v1/problems/method-not-allowed', title: 'Method Not Allowed', description: 'The path exists but does not accept this HTTP method; the Allow header and `errors` list the methods it does accept.' },
  408: { type: '/api/v1/problems/request-timeout', title: 'Request Timeout', description: 'The request (its headers, or its body) did not arrive in time; the connection is closed. Send it again.' },
  409: { type: '/api/v1/problems/conflict', title: 'Conflict', description: 'This client already voted on this occupation within the last 24 hours; the vote was not recorded and nothing changed.' },
  413: { type: '/api/v1/problems/payload-too-large', title: 'Payload Too Large', description: `The request body is too large: at most ${ASSESS_MAX_BODY_BYTES} bytes for an assessment, ${VOTE_POLICY.maxBodyBytes} bytes for a vote.` },
  417: { type: '/api/v1/problems/expectation-failed', title: 'Expectation Failed', description: 'The request has an Expect header other than 100-continue, the only expectation this service meets.' },
  415: { type: '/api/v1/problems/unsupported-media-type', title: 'Unsupported Media Type', description: 'The request body must be JSON sent with Content-Type: application/json (a vote may also be a form post, application/x-www-form-urlencoded), without a Content-Encoding: a compressed body is not accepted.' },
  431: { type: '/api/v1/problems/request-header-fields-too-large', title: 'Request Header Fields Too Large', description: 'The request line and headers together are larger than the server accepts; the connection is closed.' },
  422: { type: '/api/v1/problems/unprocessable-content', title: 'Unprocessable Content', description: `The request names a value that does not exist or cannot be scored: an unknown personal factor or option in an assessment; in its \`tasks\`, a task_id not among the occupation's tasks, a repeated task_id, a share that is not a positive number, an empty list or more entries than the occupation has tasks (or a negative \`other_share\`, or one without tasks); or a missing or unknown \`vote\`. \`errors\` lists each one with the allowed names or values (${ERRORS_NOTE}).` },
  429: { type: '/api/v1/problems/too-many-requests', title: 'Too Many Requests', description: 'This client has used its vote budget (by default 30 votes per hour across occupations). Retry-After says how many seconds until the next vote is accepted.' },
  500: { type: '/api/v1/problems/internal-error', title: 'Internal Server Error', description: 'The service could not answer because of a fault on our side, never because of the request. Retry later.' },
  501: { type: '/api/v1/problems/not-implemented', title: 'Not Implemented', description: 'The request asks for something this service does not do: CONNECT (it is not a proxy).' },
  503: { type: '/api/v1/problems/service-unavailable', title: 'Service Unavailable', description: 'Voting is not enabled on this deployment (it has no vote database); GET still returns the published vote counts.' },
} as const;

/**
 * Types of their own for a cause that shares its status with another one but needs another
 * remedy: a client tells them apart by `type`, as RFC 9457 intends.
 */
export const PROBLEM_VARIANTS = {
  'vote-secret-missing': {
    status: 503,
    type: '/api/v1/problems/vote-secret-missing',
    title: 'Vote Secret Not Configured',
    description:
      'This deployment has a vote database but no VOTE_SECRET, so it refuses votes: without the secret, whoever holds the database could map every stored client key back to its IP address. A setting is missing, not anything in the request; the operator sets the secret (on Cloudflare Pages: `npx wrangler pages secret put VOTE_SECRET`). GET still returns the vote counts.',
  },
  'isco-not-scored': {
    status: 404,
    type: '/api/v1/problems/isco-not-scored',
    title: 'ISCO-08 Unit Group Not Scored',
    description:
      'The code is an ISCO-08 unit group of the BLS ISCO-08 / SOC crosswalk, but every U.S. occupation the crosswalk links it to is one the model does not score (military occupations and "All Other" residual groups have no O*NET task statements), so no score can be carried over. `detail` names the unit group, its linked SOC 2010 codes and the reason. It is in no list.',
  },
} as const;

export type ProblemStatus = keyof typeof PROBLEM_TYPES;

/**
 * What the local server (npm start) answers to any request before it reaches a route, from
 * Node's parser and request timer (functions/adapters/node/server.ts): any operation may get
 * them, so the OpenAPI document lists them on each. A CDN's edge answers these itself.
 */
export const CONNECTION_PROBLEMS = {
  408: 'The request (its headers or its body) did not arrive within the request timeout; the connection is closed',
  417: 'An Expect header other than 100-continue',
  431: 'The request line and headers are larger than the server accepts; the connection is closed',
} as const satisfies Partial<Record<ProblemStatus, string>>;
export type ProblemVariant = keyof typeof PROBLEM_VARIANTS;

/**
 * `kind`: a status (its general type), or a variant with a type of its own. `errors`: every error
 * found; the problem lists the first MAX_PROBLEM_ERRORS and counts the rest in `errors_omitted`,
 * and an `allowed` list is given once, on the first error it applies to (later errors with the
 * same allowed values leave it out).
 */
export function problem(kind: ProblemStatus | ProblemVariant, detail: string, errors?: ProblemError[]): Problem {
  const { type, title } = typeof kind === 'number' ? PROBLEM_TYPES[kind] : PROBLEM_VARIANTS[kind];
  const status = typeof kind === 'number' ? kind : PROBLEM_VARIANTS[kind].status;
  // Key order fixed here: bodies are byte-stable across build, function and server.
  if (!errors || errors.length === 0) return { type, title, status, detail, model_version: MODEL_VERSION };
  const listed = onceEach(errors.slice(0, MAX_PROBLEM_ERRORS));
  const omitted = errors.length - listed.length;
  return omitted > 0 ? { type, title, status, detail, errors: listed, errors_omitted: omitted, model_version: MODEL_VERSION } : { type, title, status, detail, errors: listed, model_version: MODEL_VERSION };
}

/** The errors with each allowed list on its first error only. */
function onceEach(errors: ProblemError[]): ProblemError[] {
  const given = new Set<string>();
  return errors.map((e) => {
    if (!e.allowed) return e;
    const key = JSON.stringify(e.allowed);
    if (given.has(key)) return { location: e.location, message: e.message };
    given.add(key);
    return e;
  });
}

/** The plain 404 details: nothing at a path, no served occupation with a code. */
export const noResourceAt = (path: string): string => `No resource at ${path}.`;
/** A path with a dot segment is never resolved into another path: it is named as sent. */
export const noResourceAtDotted = (path: string): string =>
  `No resource at ${path}: a path with a "." or ".." segment (percent-encoded or not) names no resource here, and is not resolved into another path.`;
export const noOccupation = (soc: string): string => `No occupation with soc_code ${soc}.`;
export const noIscoUnit = (code: string): string => `No ISCO-08 unit group with code ${code}.`;

export const notFound = (path: string): Problem => problem(404, noResourceAt(path));

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export interface ProblemTypeDoc {
  type: string;
  title: string;
  status: number;
  description: string;
  model_version: typeof MODEL_VERSION;
}

/** The document served at each problem type URI, keyed by its last path segment. */
export function problemTypeDocs(): Array<{ name: string; doc: ProblemTypeDoc }> {
  const all = [...Object.entries(PROBLEM_TYPES).map(([status, t]) => ({ ...t, status: Number(status) })), ...Object.values(PROBLEM_VARIANTS)];
  return all.map((t) => ({
    name: t.type.slice(t.type.lastIndexOf('/') + 1),
    doc: { type: t.type, title: t.title, status: t.status, description: t.description, model_version: MODEL_VERSION },
  }));
}
