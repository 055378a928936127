// The names every JavaScript object inherits ("constructor", "__proto__", "toString"...), sent
// wherever the API takes text from a request: search words, query parameter names and values,
// assessment factor names and options, vote bodies, path segments. Each must be an ordinary word:
// 200 with valid JSON, or a 4xx answer, never a 5xx (issue 26: ?q=constructor answered 500, and
// an object as the value of a "__proto__" factor did too). On Node and on workerd alike.
import { describe, expect, it } from 'vitest';
import { OccupationList, ProblemSchema } from '../../build/contract/response-schemas.ts';
import { CLIENT_HEADER, SHAPES, postJson, useSites, type Site } from './setup.ts';

const sites = useSites();

const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__'])];
/** Search words: each name and its plural ("constructors" stems to "constructor"). */
const WORDS = NAMES.flatMap((n) => [n, `${n}s`]);
const PROBLEM = 'application/problem+json; charset=utf-8';

/** Requests at most in flight at once (the machine runs other suites beside this one). */
const PARALLEL = 8;
async function inBatches<T>(items: T[], send: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL) await Promise.all(items.slice(i, i + PARALLEL).map(send));
}

/** A 4xx answer: problem+json (valid against the schema) under /api, a page elsewhere; never a 5xx. */
async function expectClientError(res: Response, what: string, status?: number): Promise<void> {
  const text = await res.text();
  expect(res.status, `${what}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what}: ${text.slice(0, 300)}`).toBeLessThan(500);
  if (status !== undefined) expect(res.status, what).toBe(status);
  if (new URL(res.url).pathname.startsWith('/api/')) {
    expect(res.headers.get('content-type'), what).toBe(PROBLEM);
    expect(ProblemSchema.parse(JSON.parse(text)).status, what).toBe(res.status);
  }
}

describe.each(SHAPES)('names every object inherits (%s)', (shape) => {
  const site = (): Site => sites[shape];

  it('as search words, alone and beside a real word: 200 with a valid list', async () => {
    const queries = WORDS.flatMap((w) => [w, `nurse ${w}`]);
    await inBatches(queries, async (q) => {
      const res = await site().get(`/api/v1/occupations?q=${encodeURIComponent(q)}&limit=5`);
      const text = await res.text();
      expect(res.status, `q=${q}: ${text.slice(0, 300)}`).toBe(200);
      const list = OccupationList.parse(JSON.parse(text));
      if (q.startsWith('nurse ')) expect(list.count, q).toBeGreaterThan(0);
    });
  });

  it('as query parameter names and values on the list routes: 400 problems naming them', async () => {
    const requests = NAMES.flatMap((n) => [
      [`/api/v1/occupations?${encodeURIComponent(n)}=1`, `query.${n}`],
      [`/api/v1/occupations?q=nurse&${encodeURIComponent(n)}=x`, `query.${n}`],
      [`/api/v1/industries?${encodeURIComponent(n)}=2`, `query.${n}`],
      [`/api/v1/occupations?limit=${encodeURIComponent(n)}`, 'query.limit'],
      [`/api/v1/industries?level=${encodeURIComponent(n)}`, 'query.level'],
    ]);
    await inBatches(requests, async ([path, location]) => {
      const res = await site().get(path!);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type'), path).toBe(PROBLEM);
      expect(ProblemSchema.parse(await res.json()).errors?.map((e) => e.location), path).toContain(location);
    });
  });

  it('as factor names, options and fields of an assessment: 4xx problems', async () => {
    const soc = '15-1252.00';
    // JSON.stringify with computed keys: "__proto__" is then an ordinary key of the text sent.
    const bodies: Array<[string, number]> = NAMES.flatMap((n): Array<[string, number]> => [
      [JSON.stringify({ soc_code: soc, personal_factors: { [n]: 'x' } }), 422],
      [JSON.stringify({ soc_code: soc, personal_factors: { ai_proficiency: 'advanced', [n]: n } }), 422],
      [JSON.stringify({ soc_code: soc, personal_factors: { ai_proficiency: n } }), 422],
      [JSON.stringify({ soc_code: soc, [n]: 1 }), 400],
      [JSON.stringify({ soc_code: n }), 400],
    ]);
    // A "__proto__" factor's value is not checked by the schema library: an object there made
    // String() throw (500).
    for (const value of ['{}', '{"toString":1}', '{"valueOf":{}}', 'null', '5', '[]', 'true']) {
      bodies.push([`{"soc_code":"${soc}","personal_factors":{"__proto__":${value}}}`, 400]);
      bodies.push([`{"soc_code":"${soc}","personal_factors":{"constructor":${value}}}`, 400]);
    }
    bodies.push([`{"soc_code":"${soc}","personal_factors":{"__proto__":"x","constructor":"y"}}`, 422]);
    bodies.push([`{"soc_code":"${soc}","__proto__":{"soc_code":"15-1252.00"}}`, 400]);
    bodies.push([`{"__proto__":{"soc_code":"${soc}"}}`, 400]);
    await inBatches(bodies, async ([body, status]) => {
      const res = await postJson(site(), body);
      await expectClientError(res, body, status);
    });
    // And a factor named like one is reported by its name.
    const p = ProblemSchema.parse(await (await postJson(site(), `{"soc_code":"${soc}","personal_factors":{"__proto__":"x"}}`)).json());
    expect(p.errors?.map((e) => e.location)).toEqual(['body.personal_factors.__proto__']);
  });

  it('as path segments: 404 (or 405), never a 5xx', async () => {
    const soc = '15-1252.00';
    const paths = NAMES.flatMap((n) => {
      const s = encodeURIComponent(n);
      return [`/api/v1/occupations/${s}`, `/api/v1/occupations/${soc}/${s}`, `/api/v1/industries/${s}`, `/api/v1/problems/${s}`, `/api/v1/${s}`, `/embed/${s}`, `/occupations/${s}`, `/${s}`];
    });
    await inBatches(paths, async (path) => {
      for (const method of ['GET', 'POST']) {
        const res = await site().get(path, method === 'POST' ? { method, headers: { 'Content-Type': 'application/json' }, body: '{}' } : undefined);
        await expectClientError(res, `${method} ${path}`);
      }
    });
  });

  it.runIf(shape === 'timeline')('as vote bodies and vote paths: 4xx problems, nothing counted', async () => {
    const soc = '15-1252.00';
    const before = await site().json(`/api/v1/occupations/${soc}/votes`);
    const send = (path: string, body: string, type = 'application/json') =>
      site().get(path, { method: 'POST', headers: { 'Content-Type': type, [CLIENT_HEADER]: '10.26.0.1' }, body, redirect: 'manual' });
    const requests: Array<[string, string, string?]> = NAMES.flatMap((n): Array<[string, string, string?]> => [
      [`/api/v1/occupations/${soc}/votes`, JSON.stringify({ vote: n })],
      [`/api/v1/occupations/${soc}/votes`, JSON.stringify({ [n]: 'agree' })],
      [`/api/v1/occupations/${encodeURIComponent(n)}/votes`, JSON.stringify({ vote: 'agree' })],
    ]);
    requests.push([`/api/v1/occupations/${soc}/votes`, '{"__proto__":{"vote":"agree"}}']);
    await inBatches(requests, async ([path, body]) => expectClientError(await send(path, body), `${path} ${body}`));
    expect(await site().json(`/api/v1/occupations/${soc}/votes`)).toEqual(before);
  });
});
