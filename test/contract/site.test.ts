// The site around the API: the API index (/api/v1), /api/v1/meta, the pages' 404, and the slash
// redirects, on every target (local server and Cloudflare's runtime).
import { describe, expect, it } from 'vitest';
import { PAGE_CSP } from '../../build/contract/http-policy.ts';
import { PARAM_EXAMPLES, routesFor } from '../../build/contract/routes.ts';
import { ApiIndex, Meta } from '../../build/contract/site-schemas.ts';
import { SHAPES, manifestOf, useSites } from './setup.ts';

const sites = useSites();

describe.each(SHAPES)('site (%s)', (shape) => {
  it('/api/v1 lists every JSON API route (and /mcp) with a URL that answers', async () => {
    const site = sites[shape];
    const index = ApiIndex.parse(await site.json('/api/v1'));
    const expected = routesFor(shape).filter((r) => r.body === 'json' && (r.pattern.startsWith('/api/v1/') || r.pattern === '/mcp')).map((r) => r.id);
    expect(expected).toContain('mcp');
    expect(Object.keys(index.resources).sort()).toEqual([...expected].sort());
    const occ = (await site.json('/api/v1/occupations?limit=1')).data[0];
    const ind = (await site.json('/api/v1/industries')).data[0];
    const isco = (await site.json('/api/v1/isco?limit=1')).data[0];
    const values: Record<string, string> = { soc_code: occ.soc_code, naics_code: ind.naics_code, isco_code: isco.isco_code, problem: 'not-found', registered_file: PARAM_EXAMPLES.registered_file!.example };
    for (const [id, r] of Object.entries(index.resources)) {
      const path = r.href.replace(/\{([a-z_]+)\}/g, (_, n: string) => values[n]!);
      // A POST asks what each answers: an assessment, or an MCP ping.
      const body = id === 'mcp' ? { jsonrpc: '2.0', id: 1, method: 'ping' } : { soc_code: occ.soc_code };
      const res = await site.get(path, r.methods.includes('GET') ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, `${id} ${path}`).toBe(200);
      await res.arrayBuffer();
    }
    expect((await site.get(index.openapi)).status).toBe(200);
  });

  it('/api/v1/meta: versions, build id, sources with licenses, and counts equal to the API', async () => {
    const site = sites[shape];
    const meta = Meta.parse(await site.json('/api/v1/meta'));
    expect(meta.shape).toBe(shape);
    expect(meta.data_version).toBe(manifestOf(site).data_version);
    expect(meta.data_version).toContain(meta.model_version);
    expect(meta.counts.occupations).toBe((await site.json('/api/v1/occupations?limit=1')).count);
    expect(meta.counts.industries).toBe((await site.json('/api/v1/industries')).count);
    const soc = (await site.json('/api/v1/occupations?limit=1')).data[0].soc_code;
    expect(meta.counts.tasks).toBeGreaterThan((await site.json(`/api/v1/occupations/${soc}/tasks`)).tasks.length);
    expect(meta.sources.length).toBeGreaterThan(5);
    for (const s of meta.sources) expect(s.license.length, s.id).toBeGreaterThan(2);
    expect(meta.sources.find((s) => s.id === 'onet-db-text')?.license).toMatch(/CC BY 4\.0/);
    expect(meta.attribution.join(' ')).toMatch(/O\*NET/);
    // The MCP endpoint: the index's, answering a ping; its docs page served.
    expect(meta.mcp.url).toBe(ApiIndex.parse(await site.json('/api/v1')).resources.mcp!.href);
    const ping = await site.get(meta.mcp.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }) });
    expect(await ping.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    const docs = await site.get(meta.mcp.docs);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('mcpServers');
  });

  it('the home page and an occupation page are same-site HTML with the pages CSP', async () => {
    const site = sites[shape];
    const occ = (await site.json('/api/v1/occupations?q=nurse&limit=1')).data[0];
    for (const p of ['/', `/occupations/${occ.slug}`, '/embed/']) {
      const res = await site.get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-security-policy'), p).toBe(PAGE_CSP);
      const html = await res.text();
      expect(html, p).not.toMatch(/<[a-z][^>]*\s(?:src|href)="https?:\/\//);
    }
    // The card's "Full data" link opens the occupation page.
    const card = await (await site.get(`/embed/${occ.slug}`)).text();
    expect(card).toContain(`href="/occupations/${occ.slug}"`);
    expect(await (await site.get(`/occupations/${occ.slug}`)).text()).toContain(`<h1>${occ.title}</h1>`);
  });

  it('unknown pages get an HTML 404 page; unknown API paths stay problem+json', async () => {
    const site = sites[shape];
    for (const p of ['/occupations/no-such-occupation', '/no-such-page']) {
      const res = await site.get(p);
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type'), p).toBe('text/html; charset=utf-8');
      expect(await res.text(), p).toContain('Page not found');
    }
    const api = await site.get('/api/v1/no-such');
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  });

  it('slash variants redirect to the page that exists', async () => {
    const site = sites[shape];
    const slug = (await site.json('/api/v1/occupations?limit=1')).data[0].slug;
    const pairs: Array<[string, string]> = [['/embed', '/embed/'], [`/embed/${slug}/`, `/embed/${slug}`], [`/occupations/${slug}/`, `/occupations/${slug}`], ['/api/v1/', '/api/v1']];
    for (const [from, to] of pairs) {
      const res = await site.get(from, { redirect: 'manual' });
      expect([301, 308], from).toContain(res.status);
      expect(new URL(res.headers.get('location')!, site.url).pathname, from).toBe(to);
      const followed = await site.get(from);
      expect(followed.status, from).toBe(200);
      await followed.arrayBuffer();
    }
  });
});
