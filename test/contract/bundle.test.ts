// The function as deployed: the esbuild bundle holds no node:*, fs, csv-parse or eta input, and
// the TS source answers exactly like the bundle for the same shards.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUNCTION_BUNDLE_BUDGET_BYTES, forbiddenInputs, largestInputs } from '../../build/emit/bundle-function.ts';
import { createHandler } from '../../functions/api.ts';
import { roomOf } from '../support/layering.ts';
import { useSites, postJson } from './setup.ts';

const sites = useSites();

describe('function bundle', () => {
  it('metafile lists no node:, fs, csv-parse or eta input', () => {
    const meta = JSON.parse(readFileSync(path.join(sites.percentile.dir, '_functions/api.meta.json'), 'utf8'));
    const inputs = Object.keys(meta.inputs);
    expect(inputs).toContain('functions/api.ts');
    expect(inputs.some((i) => i.includes('build/model/assess.ts'))).toBe(true);
    expect(forbiddenInputs(meta)).toEqual([]);
    for (const i of inputs) expect(i).not.toMatch(/^node:|csv-parse|\/eta\/|(^|\/)fs$/);
  });

  it('takes its code only from the runtime, the contract and the model (the four rooms)', () => {
    const meta = JSON.parse(readFileSync(path.join(sites.percentile.dir, '_functions/api.meta.json'), 'utf8'));
    const ours = Object.keys(meta.inputs).filter((i) => !i.includes('node_modules/'));
    expect(ours.length).toBeGreaterThan(10);
    expect(ours.filter((i) => !['runtime', 'contract', 'model'].includes(roomOf(i) ?? ''))).toEqual([]);
    expect(ours.some((i) => roomOf(i) === 'contract') && ours.some((i) => roomOf(i) === 'model')).toBe(true);
  });

  it(`stays within its size budget (${FUNCTION_BUNDLE_BUDGET_BYTES / 1024} KB) and holds no full zod`, () => {
    const dir = sites.percentile.dir;
    const size = statSync(path.join(dir, '_functions/api.mjs')).size;
    const meta = JSON.parse(readFileSync(path.join(dir, '_functions/api.meta.json'), 'utf8'));
    // On failure, name what grew: the largest inputs and their bytes in the bundle.
    expect({ size, largest: size > FUNCTION_BUNDLE_BUDGET_BYTES ? largestInputs(meta, 15) : [] }).toEqual({ size: expect.any(Number), largest: [] });
    expect(size).toBeLessThanOrEqual(FUNCTION_BUNDLE_BUDGET_BYTES);
    // zod/mini only: the classic API and the locales are what made the bundle large. (The metafile
    // lists the locales as inputs either way; what matters is what reached the output.)
    const emitted = largestInputs(meta, Infinity).filter((i) => i.bytes > 0).map((i) => i.input);
    expect(emitted.filter((i) => /node_modules\/zod\/v4\/(classic|locales)\//.test(i))).toEqual([]);
  });

  it('createHandler from the TS source answers like the bundled server', async () => {
    const site = sites.timeline;
    const handler = createHandler({ loadShard: async (name) => JSON.parse(readFileSync(path.join(site.dir, '_shards', `${name}.json`), 'utf8')) });
    const soc = (await site.json('/api/v1/occupations?limit=1')).data[0].soc_code;
    const inProcess = await handler(new Request('http://x/api/v1/occupations?q=nurse&limit=3'));
    expect(inProcess.status).toBe(200);
    expect(await inProcess.text()).toBe(await (await site.get('/api/v1/occupations?q=nurse&limit=3')).text());
    const body = JSON.stringify({ soc_code: soc, personal_factors: {} });
    const a = await handler(new Request('http://x/api/v1/displacement/assess', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }));
    expect(await a.text()).toBe(await (await postJson(site, body)).text());
    const bad = await handler(new Request('http://x/api/v1/industries?level=9'));
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
  });
});
