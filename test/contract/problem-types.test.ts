// Problem `type` URIs are dereferenceable (RFC 9457): each error response's type, fetched from
// the same site, documents that problem with the same title and status.
import { describe, expect, it } from 'vitest';
import { SHAPES, postJson, useSites } from './setup.ts';

const sites = useSites();

describe.each(SHAPES)('problem types (%s)', (shape) => {
  it('the type of every kind of error response resolves to its documentation', async () => {
    const site = sites[shape];
    const errors: Array<Promise<Response>> = [
      site.get('/api/v1/occupations?limit=0'), // 400
      site.get('/api/v1/occupations/99-9999.99'), // 404
      site.get('/api/v1/displacement/assess'), // 405
      postJson(site, JSON.stringify({ soc_code: '15-1252.00', pad: 'x'.repeat(17_000) })), // 413
      postJson(site, '{}', { 'Content-Type': 'text/plain' }), // 415
      postJson(site, { soc_code: '15-1252.00', personal_factors: { star_sign: 'leo' } }), // 422
    ];
    const seen = new Set<number>();
    for (const res of await Promise.all(errors)) {
      const p = await res.json();
      seen.add(p.status);
      expect(p.type).toMatch(/^\/api\/v1\/problems\/[a-z-]+$/);
      const doc = await site.get(p.type);
      expect(doc.status, p.type).toBe(200);
      expect(doc.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body = await doc.json();
      expect(body).toMatchObject({ type: p.type, title: p.title, status: p.status });
      expect(body.description.length).toBeGreaterThan(20);
    }
    expect([...seen].sort()).toEqual([400, 404, 405, 413, 415, 422]);
  });

  it('an unknown problem type is a 404 like any unknown path', async () => {
    const res = await sites[shape].get('/api/v1/problems/no-such-problem');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  });
});
