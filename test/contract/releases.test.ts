// Releases: the summary of the 2.0.0 release kept in the repository is what this build makes (while
// the model is 2.0.0), and GET /api/v1/changes and /downloads/changes.csv compare this build with
// it: every occupation listed, each unchanged.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { ChangesResponse } from '../../build/contract/releases.ts';
import { MODEL_VERSION } from '../../build/model/version.ts';
import { REPO_ROOT, SHAPES, useSites } from './setup.ts';

const sites = useSites();

describe.each(SHAPES)('releases (%s)', (shape) => {
  it("the repository's summary of this release is the one the build makes", async () => {
    const site = sites[shape];
    const meta = await site.json('/api/v1/meta');
    const served = await (await site.get('/downloads/release-summary.json')).text();
    const recorded = path.join(REPO_ROOT, 'releases', `${meta.data_version}.json`);
    // The model that was published as 2.0.0 must be recorded; a later model is recorded when it is published.
    if ((MODEL_VERSION as string) === '2.0.0') expect(existsSync(recorded), recorded).toBe(true);
    if (existsSync(recorded)) expect(served).toBe(readFileSync(recorded, 'utf8'));
    const summary = JSON.parse(served);
    expect(summary.occupations).toHaveLength((await site.json('/api/v1/occupations?limit=1')).count);
  });

  it('GET /api/v1/changes lists every occupation against the previous release', async () => {
    const site = sites[shape];
    const changes = ChangesResponse.parse(await site.json('/api/v1/changes'));
    const count = (await site.json('/api/v1/occupations?limit=1')).count;
    expect(changes.data).toHaveLength(count);
    expect(changes.previous?.model_version).toBe('2.0.0');
    // The previous release is this one while 2.0.0 is the only one recorded: nothing moved.
    if (changes.previous?.data_version === changes.current.data_version) {
      expect(changes.counts).toMatchObject({ occupations: count, unchanged: count, changed: 0, added: 0, removed: 0 });
      expect(changes.data.every((c) => c.difference === 0 && c.reason === 'unchanged' && c.final_score === c.previous_final_score)).toBe(true);
    }
    const detail = await site.json('/api/v1/occupations/15-1252.00');
    const mine = changes.data.find((c) => c.soc_code === '15-1252.00')!;
    expect(mine.final_score).toBe(detail.risk_score.final_score);
    expect(mine.risk_tier).toBe(detail.risk_score.risk_tier);
  });

  it('changes.csv: one row per occupation, as /changes lists them', async () => {
    const site = sites[shape];
    const res = await site.get('/downloads/changes.csv');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await res.text();
    expect(text).toMatch(/^# Previous release: \S+; this release: \S+\r$/m);
    const rows = parse(text, { columns: true, comment: '#', skip_empty_lines: true }) as Array<Record<string, string>>;
    const changes = await site.json('/api/v1/changes');
    expect(rows.map((r) => r.soc_code)).toEqual(changes.data.map((c: { soc_code: string }) => c.soc_code));
    expect(rows.map((r) => r.status)).toEqual(changes.data.map((c: { status: string }) => c.status));
    expect(Object.keys(rows[0]!)).toEqual(['soc_code', 'title', 'status', 'previous_final_score', 'previous_risk_tier', 'final_score', 'risk_tier', 'difference', 'tier_changed', 'cause', 'step', 'components_moved', 'reason']);
  });

  it('an occupation page says "changed since" only when its score moved', async () => {
    const site = sites[shape];
    const changes = await site.json('/api/v1/changes');
    const html = await (await site.get('/occupations/software-developers')).text();
    const mine = changes.data.find((c: { soc_code: string }) => c.soc_code === '15-1252.00');
    if (mine.status === 'changed') expect(html).toContain(`Changed since model ${changes.previous.model_version}`);
    else expect(html).not.toContain('Changed since');
  });
});
