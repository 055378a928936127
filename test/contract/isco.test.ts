// GET /api/v1/isco and /api/v1/isco/{isco_code} over HTTP, in both interface shapes (the local
// server with the function bundle, and workerd in the cloudflare project): list, paging, search,
// the major filter, the detail with weights adding up to 1, every 4-digit code of the BLS
// crosswalk (read here from the source file itself) answering 200 or the documented 404, errors.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IscoDetail, IscoList, ProblemSchema } from '../../build/contract/response-schemas.ts';
import { baseName, listSourceFiles } from '../../build/sources/discover.ts';
import { resolveSourceDir } from '../../build/sources/locate.ts';
import { readXls } from '../../build/sources/xls-read.ts';
import { REPO_ROOT, SHAPES, TARGET, useSites } from './setup.ts';

const sites = useSites();

/** The unit groups the issue names as reaching no scored occupation (military and "All Other" links only). */
const NOT_SCORED = ['0110', '0210', '3413', '4213', '7133', '8155', '8159', '9613'];

/** Every 4-digit ISCO-08 code of the BLS crosswalk's "ISCO-08 to 2010 SOC" sheet, straight from the file. */
async function crosswalkCodes(): Promise<string[]> {
  const dir = resolveSourceDir({ repoRoot: REPO_ROOT, env: process.env });
  const rel = (await listSourceFiles(dir)).find((f) => baseName(f).toLowerCase() === 'isco_soc_crosswalk.xls');
  if (!rel) throw new Error(`no isco_soc_crosswalk.xls under ${dir}`);
  const sheet = (await readXls(path.join(dir, rel))).find((s) => s.sheet === 'ISCO-08 to 2010 SOC')!;
  const header = sheet.data.findIndex((r) => r[0] === 'ISCO-08 Code');
  return [...new Set(sheet.data.slice(header + 1).map((r) => String(r[0] ?? '')).filter((c) => /^\d{4}$/.test(c)))].sort();
}

const isProblem = (r: Response) => expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);

describe.each(SHAPES)('ISCO-08 (%s)', (shape) => {
  it('lists every scored unit group in code order, paged; pages put together give the whole list once', async () => {
    const first = IscoList.parse(await sites[shape].json('/api/v1/isco'));
    expect(first).toMatchObject({ count: 428, limit: 50, offset: 0 });
    expect(first.data).toHaveLength(50);
    const all = [];
    for (let offset = 0; offset < first.count; offset += 200) {
      const page = IscoList.parse(await sites[shape].json(`/api/v1/isco?limit=200&offset=${offset}`));
      expect(page.count).toBe(first.count);
      all.push(...page.data);
    }
    const codes = all.map((i) => i.isco_code);
    expect(codes).toHaveLength(428);
    expect(new Set(codes).size).toBe(428);
    expect(codes).toEqual([...codes].sort());
    expect(all.slice(0, 50)).toEqual(first.data);
    for (const i of all) expect(i.major_group).toBe(i.isco_code[0]);
    const past = IscoList.parse(await sites[shape].json('/api/v1/isco?offset=1000'));
    expect(past).toMatchObject({ data: [], count: 428, offset: 1000 });
  });

  it('?major= keeps one major group; the groups add up to the whole list', async () => {
    let sum = 0;
    for (const major of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      const page = IscoList.parse(await sites[shape].json(`/api/v1/isco?major=${major}&limit=200`));
      expect(page.data.every((i) => i.major_group === String(major))).toBe(true);
      expect(page.data).toHaveLength(Math.min(200, page.count));
      sum += page.count;
    }
    expect(sum).toBe(428);
  });

  it('?q= searches the ISCO titles and the linked U.S. titles, ranked; with major it keeps that group', async () => {
    const software = IscoList.parse(await sites[shape].json('/api/v1/isco?q=software%20developer'));
    expect(software.data[0]).toMatchObject({ isco_code: '2512', title: 'Software developers' });
    // "registered nurse" is a U.S. title only: it finds the ISCO nursing professionals through it.
    const nurse = IscoList.parse(await sites[shape].json('/api/v1/isco?q=registered%20nurse'));
    expect(nurse.data.map((i) => i.isco_code)).toContain('2221');
    const managers = IscoList.parse(await sites[shape].json('/api/v1/isco?q=manager&limit=200'));
    const managersIn1 = IscoList.parse(await sites[shape].json('/api/v1/isco?q=manager&major=1&limit=200'));
    expect(managersIn1.count).toBeGreaterThan(0);
    expect(managersIn1.count).toBeLessThan(managers.count);
    expect(managersIn1.data).toEqual(managers.data.filter((i) => i.major_group === '1'));
    const none = IscoList.parse(await sites[shape].json('/api/v1/isco?q=zzzzqqqq'));
    expect(none).toMatchObject({ data: [], count: 0 });
  });

  // ISCO-08's own placement of these titles (ILO, ISCO-08 Volume I, the unit groups' examples), not
  // read from the seed: the test fails if the seed or the search stops finding them.
  it.each([
    ['solicitor', '2611'],
    ['barrister', '2611'],
    ['lorry driver', '8332'],
    ['GP', '2211'],
    ['general practitioner', '2211'],
    ['chartered accountant', '2411'],
    ['estate agent', '3334'],
    ['joiner', '7115'],
  ])('?q=%s finds unit group %s first (a common non-U.S. title)', async (q, code) => {
    const page = IscoList.parse(await sites[shape].json(`/api/v1/isco?q=${encodeURIComponent(q)}`));
    expect(page.data[0]?.isco_code).toBe(code);
  });

  it('/isco/ lists every unit group the API lists, once each, linked to its page, under its major group', async () => {
    const all = IscoList.parse(await sites[shape].json('/api/v1/isco?limit=200'));
    const items = [...all.data];
    for (let offset = 200; offset < all.count; offset += 200) items.push(...IscoList.parse(await sites[shape].json(`/api/v1/isco?limit=200&offset=${offset}`)).data);
    const res = await sites[shape].get('/isco/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    const listed = [...html.matchAll(/<li data-isco-code="(\d{4})"><span class="muted">\d{4}<\/span> <a href="([^"]+)">/g)].map((m) => ({ code: m[1]!, href: m[2]! }));
    expect(listed.map((l) => l.code).sort()).toEqual(items.map((i) => i.isco_code).sort());
    const slugOf = new Map(items.map((i) => [i.isco_code, i.slug]));
    for (const l of listed) expect(l.href).toBe(`/isco/${slugOf.get(l.code)}`);
    // Each entry sits in its major group's section (the section opened last before it).
    for (const l of listed) {
      const at = html.indexOf(`data-isco-code="${l.code}"`);
      const section = html.lastIndexOf('<h2 id="major-', at);
      expect(html.slice(section + 14, section + 15)).toBe(l.code[0]);
    }
    // The way in: the home page and every unit group's page link here.
    const home = await (await sites[shape].get('/')).text();
    expect(home).toContain('href="/isco/"');
    const one = await (await sites[shape].get(listed[0]!.href)).text();
    expect(one).toContain('href="/isco/"');
  });

  it.each(['major=10', 'major=x', 'major=', 'limit=0', 'limit=201', 'offset=-1', 'level=2', 'major=1&major=2', `q=${'a'.repeat(101)}`])('?%s is a 400 problem', async (qs) => {
    const r = await sites[shape].get(`/api/v1/isco?${qs}`);
    expect(r.status).toBe(400);
    isProblem(r);
    expect(ProblemSchema.parse(await r.json()).errors!.length).toBeGreaterThan(0);
  });

  it('every 4-digit code of the crosswalk answers 200 with weights adding up to 1, or the documented 404 saying why', async () => {
    const codes = await crosswalkCodes();
    expect(codes).toHaveLength(436);
    const list = IscoList.parse(await sites[shape].json('/api/v1/isco?limit=200'));
    const more = [200, 400].map((o) => sites[shape].json(`/api/v1/isco?limit=200&offset=${o}`));
    const listed = new Map([...list.data, ...(await Promise.all(more)).flatMap((p) => IscoList.parse(p).data)].map((i) => [i.isco_code, i]));
    const notScored: string[] = [];
    // Cloudflare's runtime answers a sample (every 8th code and the unscored ones): the answers are
    // the same files and the same function as on the local server, which asks for every code, and
    // each request there passes through wrangler's local proxy (some 10 ms of its CPU).
    const asked = TARGET === 'node' ? codes : codes.filter((c, i) => i % 8 === 0 || NOT_SCORED.includes(c));
    // A few requests at a time: one per code, without opening 436 connections at once.
    for (let at = 0; at < asked.length; at += 12) {
      await Promise.all(
        asked.slice(at, at + 12).map(async (code) => {
          const r = await sites[shape].get(`/api/v1/isco/${code}`);
          if (r.status === 404) {
            isProblem(r);
            const p = ProblemSchema.parse(await r.json());
            expect(p.type).toBe('/api/v1/problems/isco-not-scored');
            expect(p.detail).toContain(code);
            expect(p.detail).toMatch(/no score/);
            expect(listed.has(code)).toBe(false);
            notScored.push(code);
            return;
          }
          expect(r.status, code).toBe(200);
          const d = IscoDetail.parse(await r.json());
          expect(d.isco_code).toBe(code);
          expect(Math.abs(d.us_occupations.reduce((a, o) => a + o.weight, 0) - 1)).toBeLessThan(1e-9);
          expect(d.risk_score.score_low).toBeLessThanOrEqual(d.risk_score.final_score);
          expect(d.risk_score.score_high).toBeGreaterThanOrEqual(d.risk_score.final_score);
          expect(d.mapping.soc_codes).toBeGreaterThan(0);
          expect(listed.get(code)).toMatchObject({ title: d.title, final_score: d.risk_score.final_score, risk_tier: d.risk_score.risk_tier });
        }),
      );
    }
    expect(notScored.sort()).toEqual(NOT_SCORED);
  });

  it('the 3-digit links of the crosswalk (211, 315) reach their unit groups, counted in mapping', async () => {
    for (const code of ['2111', '3153']) {
      const d = IscoDetail.parse(await sites[shape].json(`/api/v1/isco/${code}`));
      expect(d.mapping).toMatchObject({ partial: true, minor_group_links: 1 });
    }
  });

  it('an unknown code is a 404 problem, a malformed one a 400 problem', async () => {
    const unknown = await sites[shape].get('/api/v1/isco/9999');
    expect(unknown.status).toBe(404);
    isProblem(unknown);
    expect(ProblemSchema.parse(await unknown.json())).toMatchObject({ type: '/api/v1/problems/not-found', detail: 'No ISCO-08 unit group with code 9999.' });
    // A unit group's slug ("software-developers") is a 308 to its code (soc-redirects.test.ts); a slug of none is malformed.
    for (const bad of ['251', '25120', 'abcd', 'no-such-unit-group']) {
      const r = await sites[shape].get(`/api/v1/isco/${bad}`, { redirect: 'manual' });
      expect(r.status, bad).toBe(400);
      isProblem(r);
      expect(ProblemSchema.parse(await r.json()).errors![0]!.location).toBe('path.isco_code');
    }
    const doc = await sites[shape].json('/api/v1/problems/isco-not-scored');
    expect(doc).toMatchObject({ status: 404, type: '/api/v1/problems/isco-not-scored' });
  });
});

describe('ISCO-08 answers are the same in both interface shapes', () => {
  it.each(['/api/v1/isco', '/api/v1/isco?q=teacher&limit=5', '/api/v1/isco?major=9', '/api/v1/isco/2512', '/api/v1/isco/5120'])('%s', async (p) => {
    const [a, b] = await Promise.all(SHAPES.map((s) => sites[s].get(p).then((r) => r.text())));
    expect(a).toBe(b);
  });
});
