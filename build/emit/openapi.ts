// OpenAPI 3.1 document generated from the route table and the response schemas (zod 4's JSON
// Schema output is draft 2020-12, which is OpenAPI 3.1's dialect). Pure.
import { z } from 'zod';
import { AssessRequest, ProblemSchema, responseSchemas } from '../model/api-schemas.ts';
import { routesFor, notFoundKind, CACHE_CONTROL, CONTENT_TYPE, type RouteBody, type RouteDef } from '../model/routes.ts';

const BODY_DESCRIPTION: Record<Exclude<RouteBody, 'json'>, string> = {
  html: 'Embeddable HTML card',
  page: 'HTML page',
  js: 'JavaScript',
  csv: 'CSV download; lines starting with # are the header (versions, licenses)',
  gzip: 'gzip-compressed JSON Lines download; the first line is the header (versions, licenses)',
};
import type { Shape } from '../model/records.ts';
import { VOTE_CHOICES, VOTE_POLICY } from '../model/votes.ts';
import { ASSESS_MAX_BODY_BYTES } from '../model/limits.ts';
import { MODEL_VERSION } from '../model/version.ts';

/** The body of POST .../votes, as JSON or as the card's form (vote=<choice>). */
const VoteRequest = z.looseObject({ vote: z.enum(VOTE_CHOICES) }).meta({ description: 'One vote on the occupation\'s score. Other fields are ignored.' });

/** POST /occupations/{soc_code}/votes: its own operation beside the GET of the same path. */
function voteOperation(route: RouteDef, shape: Shape) {
  const body = { schema: { $ref: '#/components/schemas/VoteRequest' } };
  return {
    operationId: 'occupation-vote',
    summary: 'Record one community vote on the occupation\'s score (timeline shape).',
    description:
      `One vote per client (IP address; IPv6 by /64) per occupation per 24 hours; at most ${VOTE_POLICY.defaultBudget} votes per client per hour ` +
      'across occupations (configurable per deployment). Only a keyed hash of the address is stored, under a salt rotated daily. ' +
      'Votes are shown beside the score, never blended into it. A form post (application/x-www-form-urlencoded, as the embed card sends) ' +
      'is answered with 303 back to the card, whose fragment names the outcome (#voted, #vote-repeat, #vote-limit, #vote-off).',
    parameters: [{ name: 'soc_code', in: 'path', required: true, schema: { type: 'string' } }],
    requestBody: { required: true, content: { 'application/json': body, 'application/x-www-form-urlencoded': body } },
    responses: {
      '201': { description: 'Recorded; the updated vote statistics', headers: { 'Cache-Control': { schema: { type: 'string', const: CACHE_CONTROL['no-store'] } } }, content: { 'application/json': { schema: { $ref: `#/components/schemas/${route.schema}` } } } },
      '303': { description: 'Form post: back to the card (Location /embed/{slug}#state)', headers: { Location: { schema: { type: 'string' } } } },
      '400': problemResponse('Invalid JSON or UTF-8, or no usable client address'),
      '404': problemResponse('Unknown occupation'),
      '405': problemResponse('Method not allowed'),
      '409': problemResponse('This client already voted on this occupation in the last 24 hours; nothing changed'),
      '413': problemResponse(`Body larger than ${VOTE_POLICY.maxBodyBytes} bytes`),
      '415': problemResponse('Content-Type is neither application/json nor application/x-www-form-urlencoded'),
      '422': problemResponse('Missing or unknown vote; errors name the allowed values'),
      '429': { ...problemResponse('Vote budget of this client used up'), headers: { 'Retry-After': { description: 'Seconds until the next vote is accepted', schema: { type: 'integer', minimum: 1 } } } },
      '503': problemResponse('Voting is not enabled on this deployment (no vote database)'),
    },
    'x-served-by': route.serve,
    'x-shape': shape,
  };
}

const toSchema = (s: z.core.$ZodType) => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

function operation(route: RouteDef, shape: Shape) {
  const params = [...route.pattern.matchAll(/:([a-z_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  const query = Object.entries(route.query ?? {}).map(([name, p]) => ({
    name,
    in: 'query',
    required: false,
    description: p.description,
    schema:
      p.kind === 'string'
        ? { type: 'string', minLength: 1, maxLength: p.maxLength }
        : p.kind === 'enum'
          ? { type: 'integer', enum: [...p.values] }
          : { type: 'integer', minimum: p.min, ...(p.max < Number.MAX_SAFE_INTEGER ? { maximum: p.max } : {}), ...(p.default !== undefined ? { default: p.default } : {}) },
  }));
  const cacheHeader = { 'Cache-Control': { schema: { type: 'string', const: CACHE_CONTROL[route.cache] } } };
  const mediaType = CONTENT_TYPE[route.body].split(';')[0]!;
  const ok =
    route.body === 'json'
      ? { description: 'OK', headers: cacheHeader, content: { 'application/json': { schema: { $ref: `#/components/schemas/${route.schema}` } } } }
      : { description: BODY_DESCRIPTION[route.body], headers: cacheHeader, content: { [mediaType]: { schema: { type: 'string' } } } };
  // Outside /api/ an unknown path gets an HTML not-found page (card-sized under /embed/); every
  // method error is problem+json whatever the route.
  const notFound =
    notFoundKind(route.pattern) === 'problem'
      ? problemResponse('Unknown resource')
      : { description: 'Unknown resource: an HTML not-found page', content: { 'text/html': { schema: { type: 'string' } } } };
  const responses: Record<string, unknown> = { '200': ok, '404': notFound, '405': problemResponse('Method not allowed; errors lists the allowed methods') };
  if (route.query) responses['400'] = problemResponse('Invalid query parameter; errors name each parameter');
  if (route.id === 'assess') {
    Object.assign(responses, {
      '400': problemResponse('Invalid JSON or request fields'),
      '413': problemResponse(`Body larger than ${ASSESS_MAX_BODY_BYTES} bytes`),
      '415': problemResponse('Content-Type is not application/json'),
      '422': problemResponse('Unknown personal factor or option; errors name the allowed values'),
    });
  }
  return {
    operationId: route.id,
    summary: route.summary,
    ...(params.length + query.length ? { parameters: [...params, ...query] } : {}),
    ...(route.id === 'assess'
      ? { requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/AssessRequest' } } } } }
      : {}),
    responses,
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
    for (const m of r.methods) ops[m.toLowerCase()] = r.id === 'occupation-votes' && m === 'POST' ? voteOperation(r, shape) : operation(r, shape);
    paths[path] = ops;
  }
  const components: Record<string, unknown> = {};
  // Every schema the routes name is defined, the document's own ('openapi') included: a dangling
  // $ref makes strict validators reject the whole document.
  for (const [name, s] of Object.entries(schemas)) components[name] = toSchema(s);
  components.AssessRequest = toSchema(AssessRequest);
  if (routesFor(shape).some((r) => r.id === 'occupation-votes')) components.VoteRequest = toSchema(VoteRequest);
  components.Problem = toSchema(ProblemSchema);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Occupation Displacement Risk API',
      version: dataVersion,
      description: `Interface shape: ${shape}. Every response carries Access-Control-Allow-Origin: *; errors are RFC 9457 application/problem+json.`,
    },
    servers: [{ url: '/' }],
    paths,
    components: { schemas: components },
    // The OpenAPI root admits only x- extensions beside its own fields: the model version every
    // other body carries as `model_version` is here under the extension name.
    'x-model-version': MODEL_VERSION,
  };
}
