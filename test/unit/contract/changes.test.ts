// The changes between two releases on a hand-built previous summary: which occupations moved, by
// how much, what differs between the releases and the first step of the score that moved.
import { describe, expect, it } from 'vitest';
import { changeLine, compareReleases, previousRelease, releaseSummaryJson, ReleaseSummary, type ReleaseOccupation } from '../../../build/contract/releases.ts';
import { changeRows } from '../../../build/emit/downloads.ts';

const occ = (soc_code: string, o: Partial<ReleaseOccupation> = {}): ReleaseOccupation => ({
  soc_code,
  title: `Occupation ${soc_code}`,
  final_score: 40,
  risk_tier: 'medium',
  exposure_score: 50,
  task_exposure: 30,
  complementarity: 0.5,
  protective_moderation: 0.7,
  label_coverage: 1,
  score_low: 35,
  score_high: 45,
  ...o,
});

const release = (model: string, onet: string, occupations: ReleaseOccupation[]): ReleaseSummary => ({
  data_version: `onet-${onet}+oews-may-2025+model-${model}`,
  model_version: model,
  onet_version: onet,
  oews_period: 'May 2025',
  projections_period: '2024-34',
  occupation_count: occupations.length,
  occupations,
});

const previous = release('2.0.0', '29.3', [
  occ('11-1011.00'),
  occ('13-2011.00'),
  occ('15-1252.00'),
  occ('27-3041.00'),
  occ('43-9021.00'),
  occ('53-7062.00', { final_score: 34.9, risk_tier: 'low' }),
]);
const current = release('2.1.0', '30.0', [
  occ('11-1011.00'), // unchanged
  occ('13-2011.00', { final_score: 42.5, exposure_score: 55.1, task_exposure: 32 }), // exposure moved first
  occ('15-1252.00', { final_score: 37.2, complementarity: 0.55, protective_moderation: 0.65 }), // complementarity
  occ('27-3041.00', { final_score: 41 }), // no component moved: scaling
  occ('53-7062.00', { final_score: 34.9, risk_tier: 'medium' }), // the tier thresholds alone
  occ('99-0001.00', { final_score: 10, risk_tier: 'low' }), // added
]); // 43-9021.00 removed

describe('compareReleases', () => {
  const c = compareReleases(previous, current);
  const by = new Map(c.data.map((d) => [d.soc_code, d]));

  it('lists every occupation of either release, by code, with the counts', () => {
    expect(c.data.map((d) => d.soc_code)).toEqual(['11-1011.00', '13-2011.00', '15-1252.00', '27-3041.00', '43-9021.00', '53-7062.00', '99-0001.00']);
    expect(c.counts).toEqual({ occupations: 7, changed: 4, unchanged: 1, added: 1, removed: 1, tier_changed: 1 });
    expect(c.previous?.data_version).toBe(previous.data_version);
    expect(c.current.data_version).toBe(current.data_version);
  });

  it('an unchanged occupation: difference 0, no step, reason "unchanged"', () => {
    expect(by.get('11-1011.00')).toMatchObject({ status: 'unchanged', difference: 0, tier_changed: false, step: null, cause: [], components: {}, reason: 'unchanged' });
  });

  it('names the first step of the score that moved, and the data and model releases behind it', () => {
    const e = by.get('13-2011.00')!;
    expect(e).toMatchObject({ status: 'changed', previous_final_score: 40, final_score: 42.5, difference: 2.5, step: 'exposure', cause: ['data', 'model'] });
    expect(e.components).toEqual({ exposure_score: { previous: 50, current: 55.1, difference: 5.1 }, task_exposure: { previous: 30, current: 32, difference: 2 } });
    expect(e.reason).toBe('+2.5: O*NET 29.3 -> 30.0, model 2.0.0 -> 2.1.0; first moved at exposure (share of work time AI can do) 50 -> 55.1');
    const k = by.get('15-1252.00')!;
    expect(k).toMatchObject({ difference: -2.8, step: 'complementarity' });
    expect(Object.keys(k.components)).toEqual(['complementarity', 'protective_moderation']);
    expect(by.get('27-3041.00')).toMatchObject({ difference: 1, step: 'scaling', components: {} });
  });

  it('a tier moved at the same score: the tier thresholds', () => {
    const t = by.get('53-7062.00')!;
    expect(t).toMatchObject({ status: 'changed', difference: 0, tier_changed: true, step: 'tier_thresholds', previous_risk_tier: 'low', risk_tier: 'medium' });
    expect(t.reason).toContain('the tier thresholds (low -> medium at the same score)');
  });

  it('added and removed occupations carry one side only', () => {
    expect(by.get('99-0001.00')).toMatchObject({ status: 'added', previous_final_score: null, previous_risk_tier: null, final_score: 10, difference: null });
    expect(by.get('43-9021.00')).toMatchObject({ status: 'removed', previous_final_score: 40, final_score: null, risk_tier: null, difference: null });
  });

  it('only a data change or only a model change is named as such', () => {
    const dataOnly = compareReleases(previous, { ...previous, ...release('2.0.0', '30.0', [occ('11-1011.00', { final_score: 41 })]) });
    expect(dataOnly.data[0]).toMatchObject({ cause: ['data'], reason: '+1: O*NET 29.3 -> 30.0; first moved at the shrinkage and scale of the score (its components unchanged)' });
    const modelOnly = compareReleases(previous, release('2.1.0', '29.3', [occ('11-1011.00', { final_score: 39 })]));
    expect(modelOnly.data[0]).toMatchObject({ cause: ['model'], difference: -1 });
  });

  it('the same release compared with itself: every occupation unchanged', () => {
    const self = compareReleases(previous, previous);
    expect(self.counts).toMatchObject({ changed: 0, unchanged: 6, added: 0, removed: 0 });
    expect(self.data.every((d) => d.difference === 0 && d.reason === 'unchanged')).toBe(true);
  });

  it('no previous release: every occupation added', () => {
    const first = compareReleases(null, current);
    expect(first.previous).toBeNull();
    expect(first.counts.added).toBe(current.occupations.length);
  });

  it('the page line appears only for a changed occupation', () => {
    expect(changeLine(by.get('11-1011.00'), c.previous)).toBeNull();
    expect(changeLine(by.get('99-0001.00'), c.previous)).toBeNull();
    expect(changeLine(by.get('13-2011.00'), c.previous)).toBe(
      `Changed since model 2.0.0 (${previous.data_version}): +2.5, because O*NET 29.3 -> 30.0, model 2.0.0 -> 2.1.0; first moved at exposure (share of work time AI can do) 50 -> 55.1.`,
    );
  });

  it('changes.csv rows: one per occupation, the moved components in one column', () => {
    const rows = changeRows(c);
    expect(rows).toHaveLength(7);
    expect(rows[1]).toMatchObject({ soc_code: '13-2011.00', status: 'changed', difference: 2.5, cause: 'data model', step: 'exposure', components_moved: 'exposure_score 50 -> 55.1; task_exposure 30 -> 32' });
  });
});

describe('previousRelease', () => {
  const a = release('1.0.0', '28.0', []);
  const b = release('2.0.0', '29.3', []);
  const next = release('3.0.0', '30.0', []);

  it('the latest other recorded release not newer than this model', () => {
    expect(previousRelease([a, b, next], release('2.1.0', '29.3', []))?.data_version).toBe(b.data_version);
    expect(previousRelease([b, a], release('2.0.0', '30.0', []))?.data_version).toBe(b.data_version);
    expect(previousRelease([a, b], b)?.data_version).toBe(a.data_version);
  });

  it('the only recorded release is compared with itself; none recorded, none', () => {
    expect(previousRelease([b], b)).toBe(b);
    expect(previousRelease([], b)).toBeNull();
  });
});

describe('releaseSummaryJson', () => {
  it('one occupation per line, and parses back to the same summary', () => {
    const text = releaseSummaryJson(previous);
    expect(ReleaseSummary.parse(JSON.parse(text))).toEqual(previous);
    expect(text.split('\n').filter((l) => l.startsWith('    {"soc_code"'))).toHaveLength(previous.occupations.length);
    expect(text.endsWith('\n  ]\n}\n')).toBe(true);
  });
});
