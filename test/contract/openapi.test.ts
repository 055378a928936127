// The served OpenAPI document is valid for a maintained OpenAPI 3.1 validator (every $ref
// resolves), and the built site keeps its promises: for every documented path and method, a real
// request's status is documented, its Content-Type is the documented one, and its JSON body
// validates (ajv, draft 2020-12) against the documented schema. Errors too: 404 on an unknown
// parameter value, 405 on a method the path does not take, 400 on a bad query.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHAPES, TARGET, discard, isLargeFile, postJson, useSites, type Site } from './setup.ts';

const sites = useSites();

type Doc = {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
  components: { schemas: Record<string, object> };
};

/** A real value for each path parameter, taken from the site itself; and one that names nothing. */
async function paramValues(site: Site): Promise<{ good: Record<string, string>; bad: Record<string, string> }> {
  const occ = (await site.json('/api/v1/occupations?limit=1')).data[0];
  const ind = (await site.json('/api/v1/industries')).data[0];
  const isco = (await site.json('/api/v1/isco?limit=1')).data[0];
  return {
    good: { soc_code: occ.soc_code, naics_code: ind.naics_code, slug: occ.slug, isco_code: isco.isco_code, isco_slug: isco.slug, problem: 'not-found' },
    bad: { soc_code: '99-9999.99', naics_code: '99', slug: 'no-such-occupation', isco_code: '9999', isco_slug: 'no-such-unit-group', problem: 'no-such-problem' },
  };
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{([a-z_]+)\}/g, (_, n: string) => values[n]!);

describe.each(SHAPES)('OpenAPI document (%s)', (shape) => {
  it('passes a strict OpenAPI 3.1 validator', async () => {
    const doc = await sites[shape].json('/api/v1/openapi.json');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('every documented operation answers as documented, errors included', async () => {
    const site = sites[shape];
    const doc = (await site.json('/api/v1/openapi.json')) as Doc;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'openapi.json', components: doc.components });
    const { good, bad } = await paramValues(site);
    const checked: string[] = [];
    // One compiled validator per schema, not one per response.
    const validators = new Map<string, ReturnType<typeof ajv.compile>>();
    const validator = (name: string) => validators.get(name) ?? validators.set(name, ajv.compile({ $ref: `openapi.json#/components/schemas/${name}` })).get(name)!;

    async function check(label: string, res: Response, op: Doc['paths'][string][string], bodiless = false) {
      const status = String(res.status);
      const documented = op.responses[status];
      expect(documented, `${label}: status ${status} is not documented`).toBeDefined();
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
      const content = documented!.content ?? {};
      expect(Object.keys(content), `${label}: ${status} content type`).toContain(type);
      if (bodiless) expect(await res.arrayBuffer(), `${label}: HEAD sent a body`).toHaveProperty('byteLength', 0);
      else if (type.endsWith('json')) {
        const validate = validator(refName(content[type]!.schema));
        const ok = validate(JSON.parse(await res.text()));
        expect(ok ? [] : validate.errors, `${label}: body does not match its schema`).toEqual([]);
      } else await discard(res);
      checked.push(`${label} ${status}`);
    }

    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const path = fill(template, good);
        // A large download's headers are read with HEAD (as getHeaders does); downloads.test.ts reads its bytes.
        const bodiless = method === 'get' && isLargeFile(site, path);
        const res = method === 'post' ? await postTo(site, path, good.soc_code!) : await site.get(path, { method: bodiless ? 'HEAD' : method.toUpperCase() });
        await check(`${bodiless ? 'HEAD' : method.toUpperCase()} ${path}`, res, op, bodiless);
        if (template.includes('{')) {
          const missing = fill(template, bad);
          await check(`GET ${missing}`, await site.get(missing), op);
        }
        if (op.parameters?.some((p) => p.in === 'query' && p.name === 'limit')) await check(`GET ${path}?limit=0`, await site.get(`${path}?limit=0`), op);
        if (op.parameters?.some((p) => p.in === 'query' && p.name === 'level')) await check(`GET ${path}?level=9`, await site.get(`${path}?level=9`), op);
        await check(`DELETE ${path}`, await site.get(path, { method: 'DELETE' }), op);
      }
    }
    if (doc.paths['/api/v1/displacement/assess']) {
      const op = doc.paths['/api/v1/displacement/assess'].post!;
      await check('POST assess (bad JSON)', await postJson(site, '{'), op);
      await check('POST assess (text/plain)', await postJson(site, '{}', { 'Content-Type': 'text/plain' }), op);
      await check('POST assess (unknown factor)', await postJson(site, { soc_code: good.soc_code, personal_factors: { star_sign: 'leo' } }), op);
      await check('POST assess (unknown occupation)', await postJson(site, { soc_code: bad.soc_code }), op);
    }
    expect(checked.length).toBeGreaterThan(Object.keys(doc.paths).length * 2);
  });

  // Reads the built files from disk, not the runtime's answers: once (on the local server's run) is enough.
  it.runIf(TARGET === 'node')("every occupation's built risk response (with its explanation) validates against the document", async () => {
    const site = sites[shape];
    const doc = (await site.json('/api/v1/openapi.json')) as Doc;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'openapi.json', components: doc.components });
    const template = '/api/v1/occupations/{soc_code}/risk';
    const schema = doc.paths[template]!.get!.responses['200']!.content!['application/json']!.schema;
    const validate = ajv.compile({ $ref: `openapi.json#/components/schemas/${refName(schema)}` });
    const root = path.join(site.dir, 'api', 'v1', 'occupations');
    const socs = readdirSync(root).filter((d) => existsSync(path.join(root, d, 'risk', 'index.json')));
    const failures: string[] = [];
    for (const soc of socs) {
      const body = JSON.parse(readFileSync(path.join(root, soc, 'risk', 'index.json'), 'utf8'));
      if (!validate(body)) failures.push(`${soc}: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
      if (!body.explanation) failures.push(`${soc}: no explanation`);
    }
    expect(failures).toEqual([]);
    // Every served occupation (the list's count), not a sample.
    expect(socs.length).toBe((await site.json('/api/v1/occupations?limit=1')).count);
  });
});

/**
 * A valid POST to each POST path: an assessment, or a vote from a documentation-range address of
 * its own (local server: trusted X-Forwarded-For; Cloudflare: CF-Connecting-IP).
 */
function postTo(site: Site, path: string, soc: string): Promise<Response> {
  if (path === '/api/v1/displacement/assess') return postJson(site, { soc_code: soc });
  return site.get(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '192.0.2.201', 'CF-Connecting-IP': '192.0.2.201' },
    body: JSON.stringify({ vote: 'agree' }),
  });
}

function refName(schema: object): string {
  const ref = (schema as { $ref?: string }).$ref;
  if (!ref?.startsWith('#/components/schemas/')) throw new Error(`JSON response without a component $ref: ${JSON.stringify(schema)}`);
  return ref.slice('#/components/schemas/'.length);
}
