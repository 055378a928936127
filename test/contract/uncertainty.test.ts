// Issue 44 over the real build, read as a client would: tier shares, the percentile range,
// confidence's inputs, the job pools counted once, and the scope on pages and cards.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { modalTier } from '../../build/model/uncertainty.ts';
import { SCOPE } from '../../build/model/scope.ts';
import { SHAPES, useSites } from './setup.ts';

const sites = useSites();

async function rows(shape: (typeof SHAPES)[number]): Promise<Array<Record<string, string>>> {
  const res = await sites[shape].get('/downloads/occupations.csv');
  expect(res.status).toBe(200);
  return parse(await res.text(), { columns: true, comment: '#', skip_empty_lines: true }) as Array<Record<string, string>>;
}

describe.each(SHAPES)('uncertainty and job pools on the real build (%s)', (shape) => {
  it('tier_shares add up to 1 on every occupation; where the served tier is not their mode, the page says so', async () => {
    const all = await rows(shape);
    expect(all.length).toBeGreaterThan(900);
    const notMode: Array<Record<string, string>> = [];
    for (const r of all) {
      const s = { low: Number(r.tier_shares_low), medium: Number(r.tier_shares_medium), high: Number(r.tier_shares_high) };
      expect(s.low + s.medium + s.high, r.soc_code).toBeCloseTo(1, 9);
      if (modalTier(s) !== r.risk_tier) notMode.push(r);
    }
    expect(notMode.length).toBeGreaterThan(0);
    const r = notMode[0]!;
    const page = await (await sites[shape].get(`/occupations/${r.slug}`)).text();
    expect(page).toContain(`The score sits in the ${r.risk_tier} tier, but most modelling alternatives`);
  });

  it('every job pool is counted once: employment_own_share adds up to the distinct OEWS codes\' employment, and a shared code names its sharers', async () => {
    const all = await rows(shape);
    const period = (await sites[shape].json('/api/v1/meta')).data.oews_period as string;
    // Employment from an older OEWS period (Legislators: May 2024) is shown but not weighted, and says so by a null share.
    for (const r of all) if (r.employment && !r.employment_own_share) expect(r.reference_period, r.soc_code).not.toBe(period);
    const pools = new Map<string, number>();
    for (const r of all) if (r.oews_code && r.employment && r.employment_own_share) pools.set(r.oews_code, Number(r.employment));
    const own = all.reduce((a, r) => a + (r.employment_own_share ? Number(r.employment_own_share) : 0), 0);
    const distinct = [...pools.values()].reduce((a, b) => a + b, 0);
    // employment_own_share is rounded to one decimal per occupation.
    expect(Math.abs(own - distinct)).toBeLessThan(all.length * 0.05);
    // Counting employment per occupation would count shared pools again.
    expect(all.reduce((a, r) => a + (r.employment ? Number(r.employment) : 0), 0)).toBeGreaterThan(distinct);
    // Critical Care Nurses share Registered Nurses' code (29-1141) and say so.
    const rn = await sites[shape].json('/api/v1/occupations/29-1141.03');
    expect(rn.labor_data.oews_code).toBe('29-1141');
    expect(rn.labor_data.employment_shared_with).toContain('29-1141.00');
  });

  it('the risk response serves confidence beside its inputs, and the percentile range in the percentile shape only', async () => {
    const risk = await sites[shape].json('/api/v1/occupations/43-3031.00/risk');
    const r = risk.risk_score;
    expect(Object.keys(r.tier_shares).sort()).toEqual(['high', 'low', 'medium']);
    expect(typeof r.label_agreement).toBe('number');
    expect(typeof r.label_coverage).toBe('number');
    if (shape === 'percentile') {
      for (const x of await rows(shape)) {
        expect(Number(x.percentile_low), x.soc_code).toBeLessThanOrEqual(Number(x.risk_percentile));
        expect(Number(x.percentile_high), x.soc_code).toBeGreaterThanOrEqual(Number(x.risk_percentile));
      }
      expect(r.percentile_low).toBeLessThan(r.percentile_high);
    } else {
      expect(r).not.toHaveProperty('percentile_low');
    }
  });

  it('the scope on occupation and ISCO pages, cards and meta; scores on pages as whole numbers', async () => {
    const site = sites[shape];
    const meta = await site.json('/api/v1/meta');
    expect(meta.scope).toBe(SCOPE.sentence);
    const page = await (await site.get('/occupations/cashiers')).text();
    expect(page).toContain('robots, self-driving vehicles, self-service machines');
    expect(page).toMatch(/<span class="big medium">\d+<\/span>/);
    const card = await (await site.get('/embed/cashiers')).text();
    expect(card).toContain(SCOPE.short);
    expect(card).toMatch(/Range <b>\d+–\d+<\/b>/);
    const isco = (await site.json('/api/v1/isco?limit=1')).data[0];
    const iscoPage = await (await site.get(`/isco/${isco.slug}`)).text();
    expect(iscoPage).toContain('robots, self-driving vehicles, self-service machines');
    expect(iscoPage).not.toMatch(/likely range/i);
    const factors = await site.json('/api/v1/displacement/factors');
    expect(Object.keys(factors.notes).sort()).toEqual(Object.keys(factors.factors).sort());
    expect(factors.notes.years_experience).toMatch(/aged 22 to 25/);
  });
});
