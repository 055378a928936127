import { describe, expect, it } from 'vitest';
import { VotesResponse } from '../../build/model/api-schemas.ts';
import { useSites } from './setup.ts';

const sites = useSites();

describe('votes', () => {
  it('exist in the timeline shape with consistent counts and one-decimal percentages', async () => {
    const occs = (await sites.timeline.json('/api/v1/occupations?limit=20')).data as { soc_code: string }[];
    for (const o of occs) {
      const res = await sites.timeline.get(`/api/v1/occupations/${o.soc_code}/votes`);
      const text = await res.text();
      const v = VotesResponse.parse(JSON.parse(text));
      expect(v.agree + v.too_high + v.too_low).toBe(v.total);
      for (const k of ['agree', 'too_high', 'too_low'] as const) {
        expect(new RegExp(`"${k}_pct":\\d+(\\.\\d)?[,}]`).test(text)).toBe(true);
        expect(v[`${k}_pct`]).toBeCloseTo(v.total === 0 ? 0 : (v[k] / v.total) * 100, 1);
      }
    }
  });
  it('do not exist in the percentile shape (404 problem+json)', async () => {
    const soc = (await sites.percentile.json('/api/v1/occupations?limit=1')).data[0].soc_code;
    const r = await sites.percentile.get(`/api/v1/occupations/${soc}/votes`);
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });
});
