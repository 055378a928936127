// Releases: the summary of this release kept in the repository (every published model is recorded)
// is what this build makes, and GET /api/v1/changes and /downloads/changes.csv compare this build
// with the latest other recorded release: every occupation listed, the counts adding up.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
    // The current model is published, so recorded (npm run release:record), byte for byte what the build makes.
    expect(meta.model_version).toBe(MODEL_VERSION);
    expect(existsSync(recorded), recorded).toBe(true);
    expect(served).toBe(readFileSync(recorded, 'utf8'));
    const summary = JSON.parse(served);
    expect(summary.occupations).toHaveLength((await site.json('/api/v1/occupations?limit=1')).count);
  });

  it('GET /api/v1/changes lists every occupation against the previous release', async () => {
    const site = sites[shape];
    const changes = ChangesResponse.parse(await site.json('/api/v1/changes'));
    const count = (await site.json('/api/v1/occupations?limit=1')).count;
    expect(changes.data).toHaveLength(count);
    // The previous release: the newest recorded model other than this one.
    const byVersion = (a: string, b: string) => a.split('.').map(Number).reduce((d, x, i) => d || x - Number(b.split('.')[i]), 0);
    const others = readdirSync(path.join(REPO_ROOT, 'releases'))
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(path.join(REPO_ROOT, 'releases', f), 'utf8')) as { model_version: string; data_version: string })
      .filter((r) => r.data_version !== changes.current.data_version)
      .sort((a, b) => byVersion(a.model_version, b.model_version));
    expect(changes.previous?.model_version).toBe(others.at(-1)!.model_version);
    expect(changes.counts.occupations).toBe(count);
    expect(changes.counts.changed + changes.counts.unchanged + changes.counts.added).toBe(count);
    for (const c of changes.data) {
      if (c.status === 'unchanged') expect(c.final_score, c.soc_code).toBe(c.previous_final_score);
      if (c.status === 'changed') expect(Math.round(10 * (c.final_score! - c.previous_final_score!)) / 10, c.soc_code).toBe(c.difference);
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
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    const changes = await site.json('/api/v1/changes');
    // Which releases it compares: in the data package's description of it (the file starts with its header row).
    const pkg = await site.json('/downloads/datapackage.json');
    expect(pkg.resources.find((r: { name: string }) => r.name === 'changes').description).toContain(`previous release ${changes.previous.data_version}; this release is ${changes.current.data_version}.`);
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
