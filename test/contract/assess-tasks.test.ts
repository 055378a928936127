// POST /displacement/assess with `tasks` (the task path), through the bundled function: the
// identities, the occupation's own time fractions giving its base score, single tasks moving it
// the way their risks say, and every bad task list a 422 naming the field. The task path does not
// depend on the interface shape: one shape is enough.
import { beforeAll, describe, expect, it } from 'vitest';
import { AssessResult, ProblemSchema } from '../../build/contract/response-schemas.ts';
import { postJson, tenths, useSites } from './setup.ts';

const sites = useSites();
const site = () => sites.percentile;

interface ServedTask {
  task_id: number;
  task_risk_score: number;
  time_fraction: number;
}
interface Occ {
  soc_code: string;
  base: number;
  tasks: ServedTask[];
}

/** Occupations spread over the list (every 40th), with their served tasks and base score. */
let occs: Occ[] = [];
beforeAll(async () => {
  const list = await site().json('/api/v1/occupations?limit=200');
  const picked = (list.data as Array<{ soc_code: string }>).filter((_, i) => i % 40 === 0).map((o) => o.soc_code);
  // Customer Service Representatives and Maids: the examples.
  picked.push('43-4051.00', '37-2012.00');
  occs = await Promise.all(
    picked.map(async (soc) => {
      const [t, d] = await Promise.all([site().json(`/api/v1/occupations/${soc}/tasks`), site().json(`/api/v1/occupations/${soc}`)]);
      return { soc_code: soc, base: d.risk_score.final_score, tasks: t.tasks };
    }),
  );
});

const raw = (text: string, key: string) => new RegExp(`"${key}":(-?[0-9.]+)`).exec(text)![1]!;

async function assessTasks(body: object) {
  const res = await postJson(site(), body);
  expect(res.status).toBe(200);
  const text = await res.text();
  const r = AssessResult.parse(JSON.parse(text));
  // The identities, as serialized.
  const adj = /"adjustments":\{([^}]*)\}/.exec(text)![1]!.split(',').filter(Boolean).map((kv) => tenths(kv.split(':')[1]!));
  expect(tenths(raw(text, 'personalized_score'))).toBe(tenths(raw(text, 'base_score')) + tenths(raw(text, 'total_adjustment')));
  expect(adj.reduce((s, a) => s + a, 0)).toBe(tenths(raw(text, 'total_adjustment')));
  expect(r.personalized_low).toBeLessThanOrEqual(r.personalized_score);
  expect(r.personalized_high).toBeGreaterThanOrEqual(r.personalized_score);
  return r;
}

describe('assess with tasks', () => {
  it("gives the base score within 0.1 for the occupation's own served time fractions", async () => {
    expect(occs.length).toBeGreaterThanOrEqual(5);
    for (const o of occs) {
      const tasks = o.tasks.filter((t) => t.time_fraction > 0).map((t) => ({ task_id: t.task_id, share: t.time_fraction }));
      const r = await assessTasks({ soc_code: o.soc_code, tasks });
      expect(r.base_score).toBe(o.base);
      expect(Object.keys(r.adjustments)).toEqual(['tasks']);
      expect(Math.abs(tenths(String(r.personalized_score)) - tenths(String(o.base)))).toBeLessThanOrEqual(1);
    }
  });

  it('scores the lowest-risk task alone below base and the highest-risk alone above, where task risks differ', async () => {
    let differing = 0;
    let uniform = 0;
    for (const o of occs) {
      const byRisk = [...o.tasks].sort((a, b) => a.task_risk_score - b.task_risk_score);
      const lo = byRisk[0]!;
      const hi = byRisk.at(-1)!;
      const alone = async (id: number) => (await assessTasks({ soc_code: o.soc_code, tasks: [{ task_id: id, share: 1 }], personal_factors: { years_experience: '6_10' } })).personalized_score;
      if (lo.task_risk_score === hi.task_risk_score) {
        // One value for every task: any task alone is the occupation itself.
        uniform++;
        expect(Math.abs(tenths(String(await alone(lo.task_id))) - tenths(String(o.base)))).toBeLessThanOrEqual(1);
        continue;
      }
      differing++;
      expect(await alone(lo.task_id)).toBeLessThan(o.base);
      expect(await alone(hi.task_id)).toBeGreaterThan(o.base);
    }
    expect(differing + uniform).toBe(occs.length);
    expect(differing).toBeGreaterThan(0);
  });

  it('names the task path `tasks` in adjustments, beside the factors, and scores other_share at the average', async () => {
    const o = occs.find((x) => x.tasks.length > 2)!;
    const r = await assessTasks({ soc_code: o.soc_code, tasks: [{ task_id: o.tasks[0]!.task_id, share: 1 }], other_share: 3, personal_factors: { ai_proficiency: 'advanced', years_experience: '0_2' } });
    expect(Object.keys(r.adjustments)).toEqual(['tasks', 'ai_proficiency', 'years_experience']);
    expect(r.exposure_score).toBeGreaterThanOrEqual(0);
    // All time elsewhere: the occupation's own average.
    const all = await assessTasks({ soc_code: o.soc_code, tasks: [{ task_id: o.tasks[0]!.task_id, share: 1e-9 }], other_share: 1 });
    expect(all.personalized_score).toBe(o.base);
  });

  it('every bad task list is a 422 naming the field', async () => {
    const o = occs.find((x) => x.tasks.length > 1)!;
    const [a, b] = o.tasks;
    const ok = { task_id: a!.task_id, share: 1 };
    const cases: Array<[string, object, string]> = [
      ['unknown task id', { tasks: [ok, { task_id: 999_999_999, share: 1 }] }, 'body.tasks.1.task_id'],
      ['duplicate id', { tasks: [ok, { task_id: a!.task_id, share: 2 }] }, 'body.tasks.1.task_id'],
      ['zero share', { tasks: [{ task_id: a!.task_id, share: 0 }] }, 'body.tasks.0.share'],
      ['negative share', { tasks: [ok, { task_id: b!.task_id, share: -1 }] }, 'body.tasks.1.share'],
      ['share as text', { tasks: [{ task_id: a!.task_id, share: 'a lot' }] }, 'body.tasks.0.share'],
      ['missing share', { tasks: [{ task_id: a!.task_id }] }, 'body.tasks.0.share'],
      ['empty array', { tasks: [] }, 'body.tasks'],
      ['more entries than tasks', { tasks: [...o.tasks, o.tasks[0]!].map((t) => ({ task_id: t.task_id, share: 1 })) }, 'body.tasks'],
      ['negative other_share', { tasks: [ok], other_share: -0.5 }, 'body.other_share'],
      ['other_share without tasks', { other_share: 1 }, 'body.other_share'],
    ];
    for (const [name, extra, location] of cases) {
      const res = await postJson(site(), { soc_code: o.soc_code, ...extra });
      expect(res.status, name).toBe(422);
      expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      const p = ProblemSchema.parse(await res.json());
      expect(p.errors?.map((e) => e.location), name).toContain(location);
    }
  });

  it('lists the occupation task ids on an unknown one', async () => {
    const o = occs[0]!;
    const p = ProblemSchema.parse(await (await postJson(site(), { soc_code: o.soc_code, tasks: [{ task_id: 1, share: 1 }] })).json());
    expect(p.errors![0]!.allowed).toEqual(o.tasks.map((t) => String(t.task_id)).sort((x, y) => Number(x) - Number(y)));
  });
});
