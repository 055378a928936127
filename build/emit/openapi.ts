// OpenAPI 3.1 document generated from the route table and the response schemas (zod 4's JSON
// Schema output is draft 2020-12, which is OpenAPI 3.1's dialect). Pure.
import { z } from 'zod';
import { ProblemSchema, responseSchemas } from '../contract/response-schemas.ts';
import { routesFor, PARAM_PATTERNS, type Method, type Operation, type RouteDef } from '../contract/routes.ts';
import { notFoundKind } from '../contract/route-match.ts';
import { CACHE_CONTROL, CONTENT_TYPE, type RouteBody } from '../contract/http-policy.ts';
import type { Shape } from '../model/record-schemas.ts';
import { MODEL_VERSION } from '../model/version.ts';
import { CODE_LICENSE, SERVICE_NAME } from './meta.ts';
import { CONNECTION_PROBLEMS } from '../contract/problem.ts';

const BODY_DESCRIPTION: Record<Exclude<RouteBody, 'json'>, string> = {
  html: 'Embeddable HTML card',
  page: 'HTML page',
  js: 'JavaScript',
  csv: 'CSV download; the first line is the header row (column names). datapackage.json describes the columns; README.txt and LICENSE.txt give the versions, sources, licenses and attribution',
  text: 'Plain text: the downloads\' README (versions, files, how to read them) or LICENSE (licenses and the attribution to reproduce)',
  gzip: 'gzip-compressed JSON Lines download; the first line is the header (versions, licenses)',
  sqlite: 'SQLite 3 database download (every table of the downloads)',
};

const toSchema = (s: z.core.$ZodType) => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const constHeader = (value: string) => ({ schema: { type: 'string', const: value } });

/** Headers some statuses always carry, whatever the route. */
const STATUS_HEADERS: Partial<Record<string, Record<string, unknown>>> = {
  '405': { Allow: { description: 'The methods this path accepts', schema: { type: 'string' } } },
  '429': { 'Retry-After': { description: 'Seconds until the next vote is accepted', schema: { type: 'integer', minimum: 1 } } },
};

/** One method of a route, entirely from its table entry: parameters, body, success and every error. */
function operation(route: RouteDef, method: Method, op: Operation, shape: Shape) {
  const params = [...route.pattern.matchAll(/:([a-z_]+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: PARAM_PATTERNS[m[1]!]!.source },
  }));
  const query = Object.entries(method === 'GET' ? (route.query ?? {}) : {}).map(([name, p]) => ({
    name,
    in: 'query',
    required: false,
    description: p.description,
    schema:
      p.kind === 'string'
        ? { type: 'string', minLength: 1, maxLength: p.maxLength }
        : p.kind === 'enum'
          ? { type: 'integer', enum: [...p.values] }
          : p.kind === 'choice'
            ? { type: 'string', enum: [...p.values] }
          : { type: 'integer', minimum: p.min, ...(p.max < Number.MAX_SAFE_INTEGER ? { maximum: p.max } : {}), ...(p.default !== undefined ? { default: p.default } : {}) },
  }));
  const cacheHeader = { 'Cache-Control': constHeader(CACHE_CONTROL[op.cache ?? route.cache]) };
  const mediaType = CONTENT_TYPE[route.body].split(';')[0]!;
  const okStatus = String(op.status ?? 200);
  const ok =
    route.body === 'json'
      ? { description: op.okDescription ?? 'OK', headers: cacheHeader, content: { 'application/json': { schema: { $ref: `#/components/schemas/${route.schema}` } } } }
      : { description: BODY_DESCRIPTION[route.body], headers: cacheHeader, content: { [mediaType]: { schema: { type: 'string' } } } };
  // Outside /api/ an unknown path gets an HTML not-found page (card-sized under /embed/); every
  // method error is problem+json whatever the route.
  const notFound =
    notFoundKind(route.pattern) === 'problem'
      ? problemResponse(op.request ? 'Unknown occupation' : 'Unknown resource')
      : { description: 'Unknown resource: an HTML not-found page', content: { 'text/html': { schema: { type: 'string' } } } };
  const responses: Record<string, unknown> = { [okStatus]: ok };
  if (op.formRedirect) responses['303'] = { description: op.formRedirect, headers: { Location: { schema: { type: 'string' } } } };
  const errors: Record<string, string> = { ...CONNECTION_PROBLEMS, ...op.errors, 405: 'Method not allowed; errors lists the allowed methods' };
  // Only the function can fail on its own side (a missing shard); files cannot.
  if (op.handler) errors[500] = 'The server could not answer (a fault on our side, never the request); retry later';
  responses['404'] = notFound;
  for (const [status, description] of Object.entries(errors)) {
    const headers = STATUS_HEADERS[status];
    responses[status] = headers ? { ...problemResponse(description), headers } : problemResponse(description);
  }
  // /mcp answers its own input faults as JSON-RPC error objects (the protocol's), not problem+json.
  if (route.id === 'mcp') for (const status of ['400', '413']) responses[status] = { description: errors[Number(status) as 400]!, content: { 'application/json': { schema: { $ref: `#/components/schemas/${route.schema}` } } } };
  const body = op.request && { schema: { $ref: `#/components/schemas/${op.request.name}` } };
  return {
    operationId: op.operationId ?? route.id,
    summary: op.summary ?? route.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(params.length + query.length ? { parameters: [...params, ...query] } : {}),
    ...(op.request ? { requestBody: { required: true, description: op.request.description, content: Object.fromEntries(op.request.media.map((m) => [m, body])) } } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
    'x-served-by': route.serve,
    'x-shape': shape,
  };
}

export function buildOpenApi(shape: Shape, dataVersion: string): object {
  const schemas = responseSchemas(shape);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routesFor(shape)) {
    const path = r.pattern.replace(/:([a-z_]+)/g, '{$1}');
    const ops: Record<string, unknown> = {};
    for (const m of r.methods) ops[m.toLowerCase()] = operation(r, m, r.ops[m]!, shape);
    paths[path] = ops;
  }
  const components: Record<string, unknown> = {};
  // Exactly the schemas this shape's routes name, the document's own ('openapi') included: a
  // dangling $ref makes strict validators reject the whole document, and linters flag a component
  // nothing uses (the votes' schema in the percentile shape, which has no votes).
  const named = new Set<string>(routesFor(shape).flatMap((r) => (r.schema ? [r.schema] : [])));
  for (const [name, s] of Object.entries(schemas)) if (named.has(name)) components[name] = toSchema(s);
  for (const r of routesFor(shape)) for (const op of Object.values(r.ops)) if (op.request) components[op.request.name] = toSchema(op.request.schema);
  components.Problem = toSchema(ProblemSchema);
  return {
    openapi: '3.1.0',
    info: {
      title: SERVICE_NAME,
      version: dataVersion,
      description: `Interface shape: ${shape}. Every response carries Access-Control-Allow-Origin: *; errors are RFC 9457 application/problem+json (CONNECT, a method no path takes, is answered 501 by the local server: it is not a proxy). The code is under the ${CODE_LICENSE} license; each data source keeps its own, named with its attribution in /api/v1/meta.`,
      // The code's license (an SPDX id); the data's sources keep theirs, named in /api/v1/meta.
      license: { name: CODE_LICENSE, identifier: CODE_LICENSE },
    },
    servers: [{ url: '/' }],
    // A public API: no operation asks for credentials (the vote limits go by client address).
    security: [],
    paths,
    components: { schemas: components },
    // The OpenAPI root admits only x- extensions beside its own fields: the model version every
    // other body carries as `model_version` is here under the extension name.
    'x-model-version': MODEL_VERSION,
  };
}
