// GET /occupations/<soc_code>, /tasks, /risk in both shapes, and the default list page.
import { describe, expect, it } from 'vitest';
import { responseSchemas } from '../../build/contract/response-schemas.ts';
import { SHAPES, useSites } from './setup.ts';

const sites = useSites();

describe.each(SHAPES)('occupation endpoints (%s)', (shape) => {
  it('the default list page is the first 50 with the total count', async () => {
    const list = responseSchemas(shape).occupationList.parse(await sites[shape].json('/api/v1/occupations'));
    expect(list.limit).toBe(50);
    expect(list.offset).toBe(0);
    expect(list.data.length).toBe(Math.min(50, list.count));
    expect(list.count).toBeGreaterThan(list.data.length - 1);
    for (const o of list.data) expect(o.soc_code).toMatch(/^\d{2}-\d{4}\.\d{2}$/);
  });

  it('every listed occupation has detail, tasks and risk with the spec fields', async () => {
    const site = sites[shape];
    const first = (await site.json('/api/v1/occupations?limit=5')).data as { soc_code: string; title: string; id: number }[];
    const s = responseSchemas(shape);
    for (const o of first) {
      const res = await site.get(`/api/v1/occupations/${o.soc_code}`);
      // The path ends in ".00": the type must still be JSON.
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const detail = s.occupationDetail.parse(await res.json());
      expect(detail).toMatchObject({ id: o.id, soc_code: o.soc_code, title: o.title });
      expect(typeof detail.labor_data.median_annual_wage === 'number' || detail.labor_data.median_annual_wage === null).toBe(true);
      expect(detail.protective_factors).toHaveProperty('creativity');
      const tasks = s.occupationTasks.parse(await site.json(`/api/v1/occupations/${o.soc_code}/tasks`));
      expect(tasks.soc_code).toBe(o.soc_code);
      for (const t of tasks.tasks) {
        expect(t.time_fraction).toBeGreaterThanOrEqual(0);
        expect(t.time_fraction).toBeLessThanOrEqual(1);
      }
      const risk = s.occupationRisk.parse(await site.json(`/api/v1/occupations/${o.soc_code}/risk`));
      expect(Array.isArray(risk.skill_gaps)).toBe(true);
      expect(risk.risk_score).toEqual(detail.risk_score);
      if (shape === 'percentile') {
        expect(Number.isInteger((risk.risk_score as { risk_percentile: number }).risk_percentile)).toBe(true);
        expect(risk.risk_score).not.toHaveProperty('displacement_year_low');
      } else {
        const rs = risk.risk_score as { displacement_year_low: number; displacement_year_high: number };
        expect(rs.displacement_year_low).toBeLessThanOrEqual(rs.displacement_year_high);
        expect(risk.risk_score).not.toHaveProperty('risk_percentile');
      }
    }
  });

  it('unknown or malformed SOC codes are 404 problem+json', async () => {
    for (const p of ['/api/v1/occupations/99-9999.99', '/api/v1/occupations/99-9999.99/risk', '/api/v1/occupations/not-a-code', '/api/v1/occupations/15-1252.00/nope']) {
      const r = await sites[shape].get(p);
      expect(r.status, p).toBe(404);
      expect(r.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(await r.json()).toMatchObject({ status: 404, title: 'Not Found' });
    }
  });

  it('an O*NET occupation the model does not score is a 404 that names it and says why', async () => {
    // Infantry (55-3016.00): O*NET has no task statements for it.
    for (const p of ['/api/v1/occupations/55-3016.00', '/api/v1/occupations/55-3016.00/tasks', '/api/v1/occupations/55-3016.00/risk']) {
      const r = await sites[shape].get(p);
      expect(r.status, p).toBe(404);
      expect(r.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      const body = (await r.json()) as { detail: string };
      expect(body.detail, p).toMatch(/^55-3016\.00 \(Infantry\) is an O\*NET occupation that the model does not score: No task statements/);
    }
    // Any other unknown code keeps the plain answer.
    expect(((await (await sites[shape].get('/api/v1/occupations/99-9999.99')).json()) as { detail: string }).detail).toBe('No resource at /api/v1/occupations/99-9999.99.');
  });
});
