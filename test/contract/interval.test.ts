// The score interval and the adoption windows over the real build (issue 28, items 2 and 3), read
// as a client would: one occupations.csv per shape, and the API and page of occupations that
// cross a tier cut and that do not.
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { tierFor } from '../../build/model/assess.ts';
import type { Seeds } from '../../build/model/params.ts';
import { tierTable } from '../../build/model/index.ts';
import { loadSeeds } from '../../build/seeds-load.ts';
import { REPO_ROOT, SHAPES, useSites } from './setup.ts';

const sites = useSites();
let seeds: Seeds;
beforeAll(async () => {
  seeds = await loadSeeds(path.join(REPO_ROOT, 'seeds'));
});

async function rows(shape: (typeof SHAPES)[number]): Promise<Array<Record<string, string>>> {
  const res = await sites[shape].get('/downloads/occupations.csv');
  expect(res.status).toBe(200);
  return parse(await res.text(), { columns: true }) as Array<Record<string, string>>;
}

describe.each(SHAPES)('score interval on the real build (%s)', (shape) => {
  it('holds the score, and interval_crosses_tier says whether its ends fall in different tiers', async () => {
    const all = await rows(shape);
    expect(all.length).toBeGreaterThan(900);
    const tiers = tierTable(seeds);
    let crossing = 0;
    for (const r of all) {
      const [lo, score, hi] = [Number(r.score_low), Number(r.final_score), Number(r.score_high)];
      expect(lo, r.soc_code).toBeLessThanOrEqual(score);
      expect(hi, r.soc_code).toBeGreaterThanOrEqual(score);
      const crosses = tierFor(lo, tiers) !== tierFor(hi, tiers);
      expect(r.interval_crosses_tier, r.soc_code).toBe(String(crosses));
      if (crosses) crossing++;
    }
    // Both kinds exist, so the page's two designs are exercised by the data.
    expect(crossing).toBeGreaterThan(0);
    expect(crossing).toBeLessThan(all.length);
  });

  it('the API and the page say the same for one occupation that crosses and one that does not', async () => {
    const all = await rows(shape);
    const site = sites[shape];
    for (const want of ['true', 'false']) {
      const r = all.find((x) => x.interval_crosses_tier === want)!;
      const risk = await site.json(`/api/v1/occupations/${r.soc_code}/risk`);
      expect(String(risk.risk_score.interval_crosses_tier)).toBe(want);
      const page = await (await site.get(`/occupations/${r.slug}`)).text();
      expect(page).not.toMatch(/likely range/i);
      expect(page).toContain('range over modelling choices');
      if (want === 'true') expect(page).toMatch(/Between <b>(low and medium|medium and high|low and high)<\/b> exposure, depending on modelling choices/);
      else expect(page).not.toContain('depending on modelling choices</p>');
    }
  });
});

describe('adoption windows on the real build (timeline)', () => {
  it('no occupation has a one-year window, and the page says what the years mean', async () => {
    const all = await rows('timeline');
    expect(all.length).toBeGreaterThan(900);
    const single = all.filter((r) => Number(r.displacement_year_low) >= Number(r.displacement_year_high)).map((r) => r.soc_code);
    expect(single).toEqual([]);
    const page = await (await sites.timeline.get(`/occupations/${all[0]!.slug}`)).text();
    expect(page).toContain('Half of its AI-exposed work could be done with AI by (not a job-loss date)');
  });
});
