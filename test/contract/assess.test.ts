// POST /displacement/assess and GET /displacement/factors, through the bundled function.
import { describe, expect, it } from 'vitest';
import { AssessResult, FactorsResponse, ProblemSchema } from '../../build/contract/response-schemas.ts';
import { ASSESS_MAX_BODY_BYTES } from '../../build/contract/limits.ts';
import { MAX_PROBLEM_ERRORS } from '../../build/contract/problem.ts';
import { SHAPES, postJson, tenths, useSites } from './setup.ts';

const sites = useSites();

const rawNumber = (text: string, key: string) => new RegExp(`"${key}":(-?[0-9.]+)`).exec(text)![1]!;

describe.each(SHAPES)('assess (%s)', (shape) => {
  it('identities hold exactly as serialized, for every option of every factor', async () => {
    const site = sites[shape];
    const { factors } = FactorsResponse.parse(await site.json('/api/v1/displacement/factors'));
    expect(Object.keys(factors)).toEqual(expect.arrayContaining(['ai_proficiency', 'years_experience', 'client_relationship_depth'].filter((f) => f in factors)));
    const soc = (await site.json('/api/v1/occupations?limit=1')).data[0].soc_code as string;
    const names = Object.keys(factors);
    const depth = Math.max(...names.map((n) => factors[n]!.length));
    for (let k = 0; k < depth; k++) {
      const personal = Object.fromEntries(names.map((n) => [n, factors[n]![k % factors[n]!.length]!.value]));
      const res = await postJson(site, { soc_code: soc, personal_factors: personal });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const text = await res.text();
      const body = AssessResult.parse(JSON.parse(text));
      const adjTexts = /"adjustments":\{([^}]*)\}/.exec(text)![1]!.split(',').filter(Boolean).map((kv) => kv.split(':')[1]!);
      const base = tenths(rawNumber(text, 'base_score'));
      const total = tenths(rawNumber(text, 'total_adjustment'));
      expect(tenths(rawNumber(text, 'personalized_score'))).toBe(base + total);
      expect(adjTexts.reduce((s, a) => s + tenths(a), 0)).toBe(total);
      expect(Object.keys(body.adjustments).sort()).toEqual([...names].sort());
    }
  });

  it('no personal factors gives the base score', async () => {
    const site = sites[shape];
    const o = (await site.json('/api/v1/occupations?limit=1')).data[0];
    const detail = await site.json(`/api/v1/occupations/${o.soc_code}`);
    const body = AssessResult.parse(await (await postJson(site, { soc_code: o.soc_code })).json());
    expect(body).toMatchObject({ soc_code: o.soc_code, title: o.title, base_score: detail.risk_score.final_score, personalized_score: detail.risk_score.final_score, total_adjustment: 0, adjustments: {} });
  });

  it('a body that is not UTF-8 is a 400, and the next body decodes as usual', async () => {
    const site = sites[shape];
    const bad = await site.get('/api/v1/displacement/assess', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: new Uint8Array([0x7b, 0x22, 0x73, 0xff, 0x22, 0x7d]), // {"s\xff"}
    });
    expect(bad.status).toBe(400);
    expect(ProblemSchema.parse(await bad.json()).errors?.map((e) => e.location)).toEqual(['body']);
    const good = await postJson(site, { soc_code: '15-1252.00', personal_factors: { ai_proficiency: 'advanced' } });
    expect(good.status).toBe(200);
    expect(AssessResult.parse(await good.json()).soc_code).toBe('15-1252.00');
  });

  it('a body sent in chunks (no Content-Length) is read whole', async () => {
    const text = JSON.stringify({ soc_code: '15-1252.00', personal_factors: { ai_proficiency: 'advanced' } });
    const half = Math.floor(text.length / 2);
    const stream = new ReadableStream<Uint8Array>({
      async pull(c) {
        c.enqueue(new TextEncoder().encode(text.slice(0, half)));
        await new Promise((r) => setTimeout(r, 20)); // the second part arrives after the function asked
        c.enqueue(new TextEncoder().encode(text.slice(half)));
        c.close();
      },
    });
    const res = await sites[shape].get('/api/v1/displacement/assess', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(200);
    expect(AssessResult.parse(await res.json()).soc_code).toBe('15-1252.00');
  });

  const cases: Array<[string, () => Promise<Response>, number, string?]> = [
    ['invalid JSON', () => postJson(sites[shape], '{"soc_code":'), 400, 'body'],
    ['missing soc_code', () => postJson(sites[shape], { personal_factors: {} }), 400, 'body.soc_code'],
    ['malformed soc_code', () => postJson(sites[shape], { soc_code: '151252' }), 400, 'body.soc_code'],
    ['non-object body', () => postJson(sites[shape], '[1,2]'), 400],
    ['non-string option', () => postJson(sites[shape], { soc_code: '15-1252.00', personal_factors: { ai_proficiency: 3 } }), 400],
    ['unknown occupation', () => postJson(sites[shape], { soc_code: '99-9999.99' }), 404, 'body.soc_code'],
    ['unscored occupation', () => postJson(sites[shape], { soc_code: '55-3016.00' }), 404, 'body.soc_code'],
    ['unknown factor', () => postJson(sites[shape], { soc_code: '15-1251.00', personal_factors: { star_sign: 'leo' } }), 422, 'body.personal_factors.star_sign'],
    ['unknown option', () => postJson(sites[shape], { soc_code: '15-1251.00', personal_factors: { ai_proficiency: 'wizard' } }), 422, 'body.personal_factors.ai_proficiency'],
    // Sent as raw text: a JS object literal would turn "__proto__" into a prototype, not a key.
    ['__proto__ as a factor name', () => postJson(sites[shape], '{"soc_code":"15-1251.00","personal_factors":{"__proto__":"x"}}'), 422, 'body.personal_factors.__proto__'],
    ['__proto__ as a top-level field', () => postJson(sites[shape], '{"soc_code":"15-1251.00","__proto__":{"x":1}}'), 400],
    ['text/plain', () => postJson(sites[shape], '{}', { 'Content-Type': 'text/plain' }), 415, 'header.Content-Type'],
    ['declared too large', () => postJson(sites[shape], JSON.stringify({ soc_code: '15-1251.00', pad: 'x'.repeat(17000) })), 413],
    ['chunked too large (no Content-Length)', () => sites[shape].get('/api/v1/displacement/assess', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: new Blob(['x'.repeat(20000)]).stream(), duplex: 'half' } as RequestInit), 413],
  ];
  it.each(cases)('%s -> problem', async (_name, send, status, location) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const p = ProblemSchema.parse(await res.json());
    expect(p.status).toBe(status);
    if (location) expect(p.errors?.map((e) => e.location)).toContain(location);
  });

  it('an unscored occupation is named with the reason, an unknown code is not', async () => {
    const unscored = ProblemSchema.parse(await (await postJson(sites[shape], { soc_code: '55-3016.00' })).json());
    expect(unscored.detail).toMatch(/^55-3016\.00 \(Infantry\) is an O\*NET occupation that the model does not score/);
    expect(unscored.errors).toEqual([{ location: 'body.soc_code', message: 'occupation not scored' }]);
    const unknown = ProblemSchema.parse(await (await postJson(sites[shape], { soc_code: '99-9999.99' })).json());
    expect(unknown.detail).toBe('No occupation with soc_code 99-9999.99.');
  });

  it('422 names the allowed values', async () => {
    const { factors } = FactorsResponse.parse(await sites[shape].json('/api/v1/displacement/factors'));
    const p = ProblemSchema.parse(await (await postJson(sites[shape], { soc_code: '15-1251.00', personal_factors: { ai_proficiency: 'wizard', star_sign: 'leo' } })).json());
    expect(p.errors).toContainEqual(expect.objectContaining({ location: 'body.personal_factors.ai_proficiency', allowed: factors.ai_proficiency!.map((o) => o.value) }));
    expect(p.errors).toContainEqual(expect.objectContaining({ location: 'body.personal_factors.star_sign', allowed: Object.keys(factors).sort() }));
  });

  it('a body of thousands of bad names gets a small problem: the first errors, a count of the rest, each allowed list once', async () => {
    const { factors } = FactorsResponse.parse(await sites[shape].json('/api/v1/displacement/factors'));
    // 1,800 unknown factor names (and one unknown option) in under 16 KB: the 422 was 376 KB.
    const names = Array.from({ length: 1800 }, (_, i) => i.toString(36));
    const body = `{"soc_code":"15-1252.00","personal_factors":{"ai_proficiency":"wizard",${names.map((n) => `"${n}":""`).join(',')}}}`;
    expect(body.length).toBeLessThan(ASSESS_MAX_BODY_BYTES);
    const res = await postJson(sites[shape], body);
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(new TextEncoder().encode(text).length).toBeLessThan(8 * 1024);
    const p = ProblemSchema.parse(JSON.parse(text));
    expect(p.errors).toHaveLength(MAX_PROBLEM_ERRORS);
    expect(p.errors_omitted).toBe(1801 - MAX_PROBLEM_ERRORS);
    // The option of a known factor first, then the unknown names in name order.
    expect(p.errors!.map((e) => e.location)).toEqual(['body.personal_factors.ai_proficiency', ...[...names].sort().slice(0, MAX_PROBLEM_ERRORS - 1).map((n) => `body.personal_factors.${n}`)]);
    expect(p.errors!.filter((e) => e.allowed).map((e) => e.allowed)).toEqual([factors.ai_proficiency!.map((o) => o.value), Object.keys(factors).sort()]);
    expect(text.split('"ai_proficiency"').length - 1).toBe(1); // the factor names are listed once

    // The same bound for the schema's 400s: thousands of non-string options, or of unknown fields.
    for (const bad of [
      `{"soc_code":"15-1252.00","personal_factors":{${names.map((n) => `"${n}":0`).join(',')}}}`,
      `{"soc_code":"15-1252.00",${names.map((n) => `"${n}":0`).join(',')}}`,
    ]) {
      const r = await postJson(sites[shape], bad);
      expect(r.status).toBe(400);
      const t = await r.text();
      expect(new TextEncoder().encode(t).length).toBeLessThan(8 * 1024);
      expect(ProblemSchema.parse(JSON.parse(t)).errors!.length).toBeLessThanOrEqual(MAX_PROBLEM_ERRORS);
    }
  });

  it('other methods are 405 with Allow', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await sites[shape].get('/api/v1/displacement/assess', { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });
});
