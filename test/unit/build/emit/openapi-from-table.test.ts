// The OpenAPI document is derived from the route table alone: every operation's parameters,
// request body, success and error statuses come from the table entry of its route and method.
import { describe, expect, it } from 'vitest';
import { MODEL_VERSION } from '../../../../build/model/version.ts';
import { buildOpenApi } from '../../../../build/emit/openapi.ts';
import { PARAM_PATTERNS, routesFor } from '../../../../build/contract/routes.ts';

type Op = { operationId: string; parameters?: Array<{ name: string; in: string; schema: { type: string; pattern?: string } }>; requestBody?: { content: Record<string, unknown> }; responses: Record<string, { headers?: Record<string, unknown> }> };
const doc = buildOpenApi('timeline', 'test') as { paths: Record<string, Record<string, Op>>; 'x-model-version': string };

describe('OpenAPI from the route table', () => {
  it('every path parameter is a string with its pattern from the table', () => {
    const params = Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((op) => (op.parameters ?? []).filter((p) => p.in === 'path')));
    expect(params.length).toBeGreaterThan(5);
    for (const p of params) expect(p.schema, p.name).toEqual({ type: 'string', pattern: PARAM_PATTERNS[p.name]!.source });
  });
  it('one operation per method of each route, with the statuses the table declares', () => {
    for (const r of routesFor('timeline')) {
      const path = r.pattern.replace(/:([a-z_]+)/g, '{$1}');
      expect(Object.keys(doc.paths[path]!).sort(), r.id).toEqual(r.methods.map((m) => m.toLowerCase()).sort());
      for (const m of r.methods) {
        const op = doc.paths[path]![m.toLowerCase()]!;
        const declared = Object.keys(r.ops[m]!.errors ?? {});
        expect(Object.keys(op.responses), `${r.id} ${m}`).toEqual(expect.arrayContaining([String(r.ops[m]!.status ?? 200), '404', '405', ...declared]));
        expect('500' in op.responses, `${r.id} ${m}`).toBe(r.serve === 'function');
        expect(op.requestBody ? Object.keys(op.requestBody.content) : [], `${r.id} ${m}`).toEqual(r.ops[m]!.request ? [...r.ops[m]!.request!.media] : []);
      }
    }
  });
  it('the vote is its own operation (201, form redirect, Retry-After on 429); 405 names Allow', () => {
    const vote = doc.paths['/api/v1/occupations/{soc_code}/votes']!.post!;
    expect(vote.operationId).toBe('occupation-vote');
    expect(Object.keys(vote.responses)).toEqual(['201', '303', '400', '403', '404', '405', '408', '409', '413', '415', '417', '422', '429', '431', '500', '503']);
    expect(vote.responses['429']!.headers).toHaveProperty('Retry-After');
    expect(doc.paths['/api/v1/meta']!.get!.responses['405']!.headers).toHaveProperty('Allow');
    expect(doc['x-model-version']).toBe(MODEL_VERSION);
  });
  it.each(['percentile', 'timeline'] as const)('%s: every component is referenced, and every reference names a component', (shape) => {
    const d = buildOpenApi(shape, 'test') as { components: { schemas: Record<string, unknown> } };
    const refs = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === '$ref' && typeof x === 'string' ? refs.add(x) : walk(x);
    };
    walk(d);
    const defined = Object.keys(d.components.schemas).map((n) => `#/components/schemas/${n}`);
    expect([...refs].sort()).toEqual(defined.sort());
  });
  it('every operation lists what the server answers before routing (408, 417, 431: issue 42, item 11), as problem+json; a POST\'s 415 names Content-Encoding', () => {
    const ops = Object.values(doc.paths).flatMap((o) => Object.entries(o));
    expect(ops.length).toBeGreaterThan(10);
    for (const [method, op] of ops) {
      for (const status of ['408', '417', '431']) {
        const r = op.responses[status] as { content?: Record<string, unknown> } | undefined;
        expect(Object.keys(r?.content ?? {}), `${op.operationId} ${status}`).toEqual(['application/problem+json']);
      }
      if (method === 'post') expect((op.responses['415'] as { description: string }).description, op.operationId).toMatch(/Content-Encoding/);
    }
    expect((doc as unknown as { info: { description: string } }).info.description).toMatch(/CONNECT.*501/);
  });
  it('says it is public (no security scheme applies) and names its license', () => {
    const d = doc as unknown as { security: unknown[]; info: { license: { name: string; identifier: string } } };
    expect(d.security).toEqual([]);
    expect(d.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });
});
