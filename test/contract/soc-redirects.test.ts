// The codes people have, over HTTP in both interface shapes (the local server; workerd in the
// cloudflare project): a six-digit SOC code under /api/v1/occupations is a 308 to its ".00"
// occupation whose JSON body lists every scored occupation under the code (checked against the
// list endpoint), subpaths and query kept; a code with only specialties is a 404 naming them; a
// slug is a 308 to its code; an ISCO-08 unit group's slug a 308 to its code, and a group's code of
// 1 to 3 digits a 400 naming the unit groups under it. What is no such code is still a 404.
import { describe, expect, it } from 'vitest';
import { CodeRedirectBody } from '../../build/contract/response-schemas.ts';
import { SHAPES, useSites, type Site } from './setup.ts';

const sites = useSites();

/** The 308's Location (path and query), its parsed body, and the target's status. */
async function follow(site: Site, from: string) {
  const r = await site.get(from, { redirect: 'manual' });
  expect(r.status, from).toBe(308);
  expect(r.headers.get('content-type'), from).toMatch(/^application\/json/);
  const body = CodeRedirectBody.parse(await r.json());
  const loc = new URL(r.headers.get('location')!, site.url);
  expect(body.location, from).toBe(loc.pathname + loc.search);
  return body;
}

/** Scored occupations of a major group with their titles, from the list endpoint. */
async function listed(site: Site, major: string): Promise<Array<{ soc_code: string; title: string }>> {
  const page = await site.json<{ data: Array<{ soc_code: string; title: string }>; count: number }>(`/api/v1/occupations?major_group=${major}&limit=200`);
  expect(page.count).toBe(page.data.length);
  return page.data.map((o) => ({ soc_code: o.soc_code, title: o.title }));
}

describe.each(SHAPES)('code redirects (%s)', (shape) => {
  it.each([
    ['/api/v1/occupations/29-1141', '/api/v1/occupations/29-1141.00'],
    ['/api/v1/occupations/29-1141/risk', '/api/v1/occupations/29-1141.00/risk'],
    ['/api/v1/occupations/15-1252/tasks?x=1', '/api/v1/occupations/15-1252.00/tasks?x=1'],
    ['/api/v1/occupations/registered-nurses', '/api/v1/occupations/29-1141.00'],
    ['/api/v1/occupations/software-developers/risk', '/api/v1/occupations/15-1252.00/risk'],
  ])('%s -> 308 %s, which answers 200', async (from, to) => {
    const body = await follow(sites[shape], from);
    expect(body.location).toBe(to);
    const target = await sites[shape].get(to.split('?')[0]!);
    expect(target.status).toBe(200);
    expect((await target.json()).soc_code).toBe(to.split('/')[4]!.split('?')[0]);
  });

  it.each([
    ['29-1141', '29'],
    ['15-1252', '15'],
  ])('%s: the body lists every scored occupation under the code, the .00 one first, with titles', async (soc, major) => {
    const body = await follow(sites[shape], `/api/v1/occupations/${soc}`);
    const under = (await listed(sites[shape], major)).filter((o) => o.soc_code.startsWith(`${soc}.`)).sort((a, b) => (a.soc_code < b.soc_code ? -1 : 1));
    expect(under[0]!.soc_code).toBe(`${soc}.00`);
    expect(body.occupations!.map((o) => ({ soc_code: o.soc_code, title: o.title }))).toEqual(under);
    for (const o of body.occupations!) expect(o.href).toBe(`/api/v1/occupations/${o.soc_code}`);
    expect(body.detail).toContain(`${soc}.00 (${under[0]!.title})`);
    for (const o of under.slice(1)) expect(body.detail).toContain(`${o.soc_code} (${o.title})`);
  });

  it('a SOC code with specialties but no .00 occupation is a 404 that names them', async () => {
    const under = (await listed(sites[shape], '15')).filter((o) => o.soc_code.startsWith('15-1299.'));
    expect(under.length).toBeGreaterThan(1);
    expect(under.some((o) => o.soc_code === '15-1299.00')).toBe(false);
    const r = await sites[shape].get('/api/v1/occupations/15-1299', { redirect: 'manual' });
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const p = await r.json();
    for (const o of under) expect(p.detail).toContain(`${o.soc_code} (${o.title})`);
  });

  it('a slug names its code in the body', async () => {
    const body = await follow(sites[shape], '/api/v1/occupations/registered-nurses');
    expect(body.requested).toBe('registered-nurses');
    expect(body.detail).toContain('29-1141.00 (Registered Nurses)');
  });

  it('an ISCO-08 unit group slug -> 308 to its code, which answers 200', async () => {
    const [unit] = (await sites[shape].json<{ data: Array<{ isco_code: string; slug: string; title: string }> }>('/api/v1/isco?q=solicitor')).data;
    const body = await follow(sites[shape], `/api/v1/isco/${unit!.slug}`);
    expect(body.location).toBe(`/api/v1/isco/${unit!.isco_code}`);
    expect(body.detail).toContain(`${unit!.isco_code} (${unit!.title})`);
    const target = await sites[shape].json<{ isco_code: string }>(body.location);
    expect(target.isco_code).toBe(unit!.isco_code);
  });

  it('an ISCO-08 minor group code is a 400 naming its scored unit groups', async () => {
    const units = (await sites[shape].json<{ data: Array<{ isco_code: string; title: string }> }>('/api/v1/isco?major=2&limit=200')).data.filter((u) => u.isco_code.startsWith('261'));
    expect(units.length).toBeGreaterThan(0);
    const r = await sites[shape].get('/api/v1/isco/261');
    expect(r.status).toBe(400);
    const p = await r.json();
    for (const u of units) expect(p.detail).toContain(`${u.isco_code} (${u.title})`);
  });

  it.each(['/api/v1/occupations/29-114', '/api/v1/occupations/29-1141/nope', '/api/v1/occupations/29-1141.0', '/api/v1/occupations/no-such-occupation', '/api/v1/occupations/registered-nurses/nope'])('%s is a 404, no redirect', async (p) => {
    const r = await sites[shape].get(p, { redirect: 'manual' });
    expect(r.status).toBe(404);
    await r.arrayBuffer();
  });

  it('an unknown ISCO-08 slug is still a 400', async () => {
    const r = await sites[shape].get('/api/v1/isco/no-such-unit-group', { redirect: 'manual' });
    expect(r.status).toBe(400);
    await r.arrayBuffer();
  });
});
