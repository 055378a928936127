// Route handlers of the function, each opened alone over a fake shard store (shards held in
// memory, every load counted): no build, no server. The contract tests cover them over HTTP.
import { describe, expect, it } from 'vitest';
import { UNSCORED_SHARD } from '../../../build/contract/dist-layout.ts';
import type { RouteMatch } from '../../../build/contract/route-match.ts';
import { routeById } from '../../../build/contract/routes.ts';
import { BoundedCache } from '../../../functions/bounded-cache.ts';
import { assessHandler } from '../../../functions/handlers/assess.ts';
import { listIsco } from '../../../functions/handlers/list-isco.ts';
import type { AnyReply, RequestLike } from '../../../functions/http.ts';
import { shardStore } from '../../../functions/shard-store.ts';

/** A shard store over in-memory shards; `loads` counts each shard's reads of the source. */
function fakeShards(shards: Record<string, unknown>) {
  const loads: Record<string, number> = {};
  const store = shardStore({
    loadShard: async (name) => {
      loads[name] = (loads[name] ?? 0) + 1;
      if (!Object.hasOwn(shards, name)) throw new Error(`no shard ${name}`);
      return structuredClone(shards[name]);
    },
  });
  return { store, loads };
}

const request = (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): RequestLike =>
  new Request(`http://localhost${path}`, { method, headers: init.headers, body: init.body });

const match = (id: Parameters<typeof routeById>[0]): RouteMatch => ({ route: routeById(id), params: {} });
const bodyOf = (r: AnyReply): any => JSON.parse(typeof r.body === 'string' ? r.body : '');

describe('listIsco', () => {
  const unit = (code: string, title: string) => ({ isco_code: code, title, slug: title.toLowerCase(), major_group: code[0]!, final_score: 40, risk_tier: 'medium' });
  const items = [unit('1111', 'Legislators'), unit('2512', 'Developers'), unit('2513', 'Web'), unit('3512', 'Technicians')];
  const isco = { items, unscored: [] };

  it('filters by major group and pages: count is the filtered total, data the window', async () => {
    const { store } = fakeShards({ isco });
    const reply = await listIsco({ shards: store, searches: new BoundedCache(10) })(request('GET', '/api/v1/isco?major=2&limit=1&offset=1'), 'major=2&limit=1&offset=1', match('isco-list'), {});
    expect(reply.status).toBe(200);
    const body = bodyOf(reply);
    expect(body.count).toBe(2);
    expect(body.data.map((i: { isco_code: string }) => i.isco_code)).toEqual(['2513']);
    expect(reply.headers.ETag).toMatch(/^"f-[0-9a-f]{14}"$/);
  });

  it('answers a bad query with a 400 problem before reading any shard', async () => {
    const { store, loads } = fakeShards({ isco });
    const reply = await listIsco({ shards: store, searches: new BoundedCache(10) })(request('GET', '/api/v1/isco?major=x'), 'major=x', match('isco-list'), {});
    expect(reply.status).toBe(400);
    expect(reply.headers['Content-Type']).toContain('application/problem+json');
    expect(bodyOf(reply).errors[0].location).toBe('query.major');
    expect(loads).toEqual({});
  });

  it('takes a search from the cache it is given, in its rank order, without the search index', async () => {
    const { store, loads } = fakeShards({ isco });
    const searches = new BoundedCache<string, number[]>(10);
    searches.set('tech', [3, 1]);
    const reply = await listIsco({ shards: store, searches })(request('GET', '/api/v1/isco?q=tech'), 'q=tech', match('isco-list'), {});
    expect(bodyOf(reply).data.map((i: { isco_code: string }) => i.isco_code)).toEqual(['3512', '2512']);
    expect(loads).toEqual({ isco: 1 });
  });
});

describe('assessHandler', () => {
  const shards = {
    assess: {
      factors: { experience: [{ value: 'new', label: 'New', adjustment: 5 }, { value: 'senior', label: 'Senior', adjustment: -10 }] },
      tiers: [{ tier: 'low', min: 0 }, { tier: 'medium', min: 34 }, { tier: 'high', min: 67 }],
      occupations: { '15-1252.00': ['Software Developers', 30, 50, 25, 36] },
      task_scale: { prior: 0.5, half_saturation: 3, quantile: 0.1 },
    },
    [UNSCORED_SHARD]: { occupations: [{ soc_code: '55-3016.00', title: 'Infantry', reason: 'No wage data.' }] },
  };
  const post = (body: string, type = 'application/json') => request('POST', '/api/v1/displacement/assess', { headers: { 'Content-Type': type }, body });
  const run = (req: RequestLike) => assessHandler({ shards: fakeShards(shards).store })(req, '', match('assess'), {});

  it('moves the base score by the personal factor, and its interval with it', async () => {
    const reply = await run(post(JSON.stringify({ soc_code: '15-1252.00', personal_factors: { experience: 'new' } })));
    expect(reply.status).toBe(200);
    const body = bodyOf(reply);
    expect(body).toMatchObject({ soc_code: '15-1252.00', base_score: 30, personalized_score: 35, total_adjustment: 5, adjustments: { experience: 5 }, risk_tier: 'medium' });
    expect([body.personalized_low, body.personalized_high]).toEqual([30, 41]);
  });

  it('refuses what is not JSON (415), what does not parse (400), an unknown option (422)', async () => {
    expect((await run(post('{}', 'text/plain'))).status).toBe(415);
    const bad = await run(post('{"soc_code":'));
    expect([bad.status, bodyOf(bad).errors[0].location]).toEqual([400, 'body']);
    const option = await run(post(JSON.stringify({ soc_code: '15-1252.00', personal_factors: { experience: 'expert' } })));
    expect(option.status).toBe(422);
    expect(bodyOf(option).errors[0]).toMatchObject({ location: 'body.personal_factors.experience', allowed: ['new', 'senior'] });
  });

  it('says why an unscored occupation has no score (404), and that an unknown code is unknown', async () => {
    const unscored = await run(post(JSON.stringify({ soc_code: '55-3016.00' })));
    expect(unscored.status).toBe(404);
    expect(bodyOf(unscored).detail).toContain('55-3016.00 (Infantry) is an O*NET occupation that the model does not score: No wage data.');
    const unknown = await run(post(JSON.stringify({ soc_code: '11-1011.00' })));
    expect([unknown.status, bodyOf(unknown).errors[0].message]).toEqual([404, 'unknown occupation']);
  });
});
