// A six-digit SOC code under /api/v1/occupations is a 308 to its ".00" occupation, a slug to its
// code, subpaths and
// query kept, over HTTP in both interface shapes (the local server; workerd in the cloudflare
// project); what is no such code is still a 404.
import { describe, expect, it } from 'vitest';
import { SHAPES, useSites } from './setup.ts';

const sites = useSites();

describe.each(SHAPES)('SOC redirects (%s)', (shape) => {
  it.each([
    ['/api/v1/occupations/29-1141', '/api/v1/occupations/29-1141.00'],
    ['/api/v1/occupations/29-1141/risk', '/api/v1/occupations/29-1141.00/risk'],
    ['/api/v1/occupations/15-1252/tasks?x=1', '/api/v1/occupations/15-1252.00/tasks?x=1'],
    ['/api/v1/occupations/registered-nurses', '/api/v1/occupations/29-1141.00'],
    ['/api/v1/occupations/software-developers/risk', '/api/v1/occupations/15-1252.00/risk'],
  ])('%s -> 308 %s, which answers 200', async (from, to) => {
    const r = await sites[shape].get(from, { redirect: 'manual' });
    expect(r.status).toBe(308);
    expect(new URL(r.headers.get('location')!, sites[shape].url).pathname + new URL(r.headers.get('location')!, sites[shape].url).search).toBe(to);
    await r.body?.cancel();
    const target = await sites[shape].get(to.split('?')[0]!);
    expect(target.status).toBe(200);
    expect((await target.json()).soc_code).toBe(to.split('/')[4]!.split('?')[0]);
  });

  it.each(['/api/v1/occupations/29-114', '/api/v1/occupations/29-1141/nope', '/api/v1/occupations/29-1141.0', '/api/v1/occupations/no-such-occupation', '/api/v1/occupations/registered-nurses/nope'])('%s is a 404, no redirect', async (p) => {
    const r = await sites[shape].get(p, { redirect: 'manual' });
    expect(r.status).toBe(404);
    await r.body?.cancel();
  });
});
