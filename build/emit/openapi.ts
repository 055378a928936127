// OpenAPI 3.1 document generated from the route table and the response schemas (zod 4's JSON
// Schema output is draft 2020-12, which is OpenAPI 3.1's dialect). Pure.
import { z } from 'zod';
import { AssessRequest, ProblemSchema, responseSchemas } from '../model/api-schemas.ts';
import { routesFor, CACHE_CONTROL, type RouteDef } from '../model/routes.ts';
import type { Shape } from '../model/records.ts';

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
  const ok =
    route.body === 'html'
      ? { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } }
      : { description: 'OK', headers: { 'Cache-Control': { schema: { type: 'string', const: CACHE_CONTROL[route.cache] } } }, content: { 'application/json': { schema: { $ref: `#/components/schemas/${route.schema}` } } } };
  const responses: Record<string, unknown> = { '200': ok, '404': problemResponse('Unknown resource'), '405': problemResponse('Method not allowed') };
  if (route.query) responses['400'] = problemResponse('Invalid query parameter; errors name each parameter');
  if (route.id === 'assess') {
    Object.assign(responses, {
      '400': problemResponse('Invalid JSON or request fields'),
      '413': problemResponse('Body larger than 16 KB'),
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
    for (const m of r.methods) ops[m.toLowerCase()] = operation(r, shape);
    paths[path] = ops;
  }
  const components: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(schemas)) if (name !== 'openapi') components[name] = toSchema(s);
  components.AssessRequest = toSchema(AssessRequest);
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
  };
}
