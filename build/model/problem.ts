// RFC 9457 problem details: the one error shape of the whole API (static 404s, function errors).
// Pure, so the build (404 files), the function and the local server produce identical bodies.
export interface ProblemError {
  /** Where the problem is: a query parameter name, a JSON pointer into the body, or a header. */
  location: string;
  message: string;
  allowed?: string[];
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: ProblemError[];
}

/** Stable identifiers for each kind of failure; relative URIs resolved against the API base. */
export const PROBLEM_TYPES = {
  400: { type: '/api/v1/problems/bad-request', title: 'Bad Request' },
  404: { type: '/api/v1/problems/not-found', title: 'Not Found' },
  405: { type: '/api/v1/problems/method-not-allowed', title: 'Method Not Allowed' },
  413: { type: '/api/v1/problems/payload-too-large', title: 'Payload Too Large' },
  415: { type: '/api/v1/problems/unsupported-media-type', title: 'Unsupported Media Type' },
  422: { type: '/api/v1/problems/unprocessable-content', title: 'Unprocessable Content' },
  500: { type: '/api/v1/problems/internal-error', title: 'Internal Server Error' },
} as const;

export type ProblemStatus = keyof typeof PROBLEM_TYPES;

export function problem(status: ProblemStatus, detail: string, errors?: ProblemError[]): Problem {
  const { type, title } = PROBLEM_TYPES[status];
  // Key order fixed here: bodies are byte-stable across build, function and server.
  const p: Problem = { type, title, status, detail };
  if (errors && errors.length > 0) p.errors = errors;
  return p;
}

export const notFound = (path: string): Problem => problem(404, `No resource at ${path}.`);

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';
