// Headers from the route table on every kind of response: CORS (errors too), content types,
// cache policy, ETag/304, compression, HEAD, preflight, embed CSP; and the route enumeration.
import { describe, expect, it } from 'vitest';
import { CACHE_CONTROL, CONTENT_TYPE, EMBED_CSP, PAGE_CSP } from '../../build/contract/http-policy.ts';
import { PARAM_EXAMPLES, routesFor } from '../../build/contract/routes.ts';
import { fileFor } from '../../build/contract/dist-layout.ts';
import { SHAPES, TARGET, discard, getHeaders, manifestOf, postJson, useSites } from './setup.ts';

const sites = useSites();

describe.each(SHAPES)('headers (%s)', (shape) => {
  it('every route of the table answers with its declared type, cache policy and CORS', async () => {
    const site = sites[shape];
    const occ = (await site.json('/api/v1/occupations?limit=1')).data[0];
    const ind = (await site.json('/api/v1/industries')).data[0];
    const isco = (await site.json('/api/v1/isco?limit=1')).data[0];
    const params: Record<string, string> = { soc_code: occ.soc_code, naics_code: ind.naics_code, slug: occ.slug, isco_code: isco.isco_code, isco_slug: isco.slug, problem: 'not-found', registered_file: PARAM_EXAMPLES.registered_file!.example };
    for (const route of routesFor(shape)) {
      const p = route.pattern.replace(/:([a-z_]+)/g, (_, n: string) => params[n]!);
      const res = route.methods.includes('GET') ? await getHeaders(site, p) : await postJson(site, { soc_code: occ.soc_code });
      expect(res.status, p).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), p).toBe('*');
      expect(res.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(res.headers.get('cache-control'), p).toBe(CACHE_CONTROL[route.cache]);
      expect(res.headers.get('content-type'), p).toBe(CONTENT_TYPE[route.body]);
      if (route.body === 'html') {
        expect(res.headers.get('content-security-policy')).toBe(EMBED_CSP);
        expect(res.headers.get('x-frame-options')).toBeNull();
      }
      if (route.body === 'page') expect(res.headers.get('content-security-policy'), p).toBe(PAGE_CSP);
      await discard(res);
    }
  });

  it('every static file in the manifest is reachable at its route path', async () => {
    const site = sites[shape];
    const files = new Set(Object.keys(manifestOf(site).files));
    const pages = [...files].filter((f) => /^(api\/v1|embed)\/.+\/index\.(json|html)$/.test(f) || f === 'embed/index.html');
    expect(pages.length).toBeGreaterThan(5);
    for (const f of pages.filter((_, i) => i % 97 === 0)) {
      const urlPath = f === 'embed/index.html' ? '/embed/' : '/' + f.replace(/\/index\.(json|html)$/, '');
      expect(fileFor(urlPath, f.endsWith('.html') ? 'html' : 'json')).toBe(f);
      const r = await site.get(urlPath);
      expect(r.status, urlPath).toBe(200);
      await r.arrayBuffer();
    }
  });

  it('errors carry CORS, problem+json and no long caching', async () => {
    const site = sites[shape];
    for (const [p, status] of [['/api/v1/nope', 404], ['/api/v1/occupations/99-9999.99', 404], ['/api/v1/occupations?limit=0', 400], ['/api/v1/nope/', 404], ['/api', 404]] as const) {
      const r = await site.get(p);
      expect(r.status, p).toBe(status);
      expect(r.headers.get('access-control-allow-origin'), p).toBe('*');
      expect(r.headers.get('content-type'), p).toBe('application/problem+json; charset=utf-8');
      expect(r.headers.get('cache-control'), p).toBe('no-store');
      expect(await r.json()).toMatchObject({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
    }
    const del = await site.get('/api/v1/occupations', { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    // The path as requested, not the route pattern; errors lists what the path accepts.
    const soc = (await site.json('/api/v1/occupations?limit=1')).data[0].soc_code;
    const put = await site.get(`/api/v1/occupations/${soc}`, { method: 'PUT' });
    expect(put.status).toBe(405);
    const body = await put.json();
    expect(body.detail).toBe(`PUT is not allowed on /api/v1/occupations/${soc}.`);
    expect(body.errors).toEqual([{ location: 'method', message: 'PUT is not allowed here', allowed: ['GET', 'HEAD', 'OPTIONS'] }]);
  });

  it('unknown embed slugs get the HTML 404 card with the embed headers', async () => {
    const r = await sites[shape].get('/embed/no-such-occupation');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toBe(EMBED_CSP);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(await r.text()).toMatch(/<html/i);
  });

  it('ETag and 304, static and function', async () => {
    const site = sites[shape];
    for (const p of ['/api/v1/displacement/factors', '/api/v1/occupations?q=nurse']) {
      const a = await site.get(p);
      const etag = a.headers.get('etag');
      expect(etag, p).toMatch(/^"[^"]+"$/);
      const first = await a.text();
      const b = await site.get(p, { headers: { 'If-None-Match': etag! } });
      expect(b.status, p).toBe(304);
      expect(b.headers.get('access-control-allow-origin')).toBe('*');
      expect(await b.text()).toBe('');
      // Asked again (the function keeps search pages it has built): the same bytes and tag.
      const c = await site.get(p, { headers: { 'If-None-Match': '"other"' } });
      expect(c.status).toBe(200);
      expect(c.headers.get('etag'), p).toBe(etag);
      expect(await c.text(), p).toBe(first);
      const head = await site.get(p, { method: 'HEAD' });
      expect(head.status, p).toBe(200);
      expect(head.headers.get('etag'), p).toBe(etag);
      expect(await head.text()).toBe('');
    }
  });

  it('HEAD, compression and preflight', async () => {
    const site = sites[shape];
    const head = await site.get('/api/v1/openapi.json', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const http = await import('node:http');
    const encodings = await new Promise<string[]>((resolve, reject) => {
      const out: string[] = [];
      let pending = 2;
      for (const enc of ['br', 'gzip']) {
        http.get(`${site.url}/api/v1/openapi.json`, { headers: { 'Accept-Encoding': enc } }, (res) => {
          out.push(`${res.headers['content-encoding']}|${res.headers.vary}`);
          res.resume();
          if (--pending === 0) resolve(out.sort());
        }).on('error', reject);
      }
    });
    // The local server compresses itself and says so in Vary; on Cloudflare the platform
    // compresses (wrangler's dev server does not add Vary; the edge manages its own cache keys).
    if (TARGET === 'node') expect(encodings).toEqual(['br|Accept-Encoding', 'gzip|Accept-Encoding']);
    else expect(encodings.map((e) => e.split('|')[0])).toEqual(['br', 'gzip']);
    const pre = await site.get('/api/v1/displacement/assess', { method: 'OPTIONS', headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    expect(Number(pre.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  });
});

describe.skipIf(TARGET !== 'node')('local server and the Host header', () => {
  it('a malformed or path-like Host header neither fails (5xx) nor reroutes the request', async () => {
    const http = await import('node:http');
    const site = sites.percentile;
    const { port } = new URL(site.url);
    for (const host of ['a b', '[::1', 'x/y', 'evil.example:99999']) {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: '/api/v1/occupations?q=nurse&limit=1', headers: { Host: host } }, (res) => {
            let body = '';
            res.on('data', (d) => (body += d)).on('end', () => resolve({ status: res.statusCode!, body }));
          })
          .on('error', reject);
      });
      expect(status, host).toBe(200);
      expect(JSON.parse(body).data).toHaveLength(1);
    }
  });
});
