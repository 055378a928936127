// ISCO-08 scores from the crosswalks (build/model/isco.ts): weights, score, interval, tier,
// minor-group links, part markers and the unit groups that reach no scored occupation. The
// expected figures are worked out by hand from the rules in the module's header.
import { describe, expect, it } from 'vitest';
import { computeIsco, type IscoOccupationInput } from '../../../build/model/isco.ts';
import type { IscoLink, SocCrosswalkRow } from '../../../build/model/inputs.ts';
import { computeModel } from '../../../build/model/index.ts';
import { fixtureBundle } from '../../fixtures/model/bundle.ts';
import { realSeeds } from './seeds.ts';

const TIERS = [
  { tier: 'low' as const, min: 0 },
  { tier: 'medium' as const, min: 25 },
  { tier: 'high' as const, min: 50 },
];
const link = (isco_code: string, soc2010: string, part = false): IscoLink => ({ isco_code, isco_title: `Title ${isco_code}`, soc2010, part, comment: null });
const occ = (soc_code: string, final_score: number, score_low: number, score_high: number, weight: number | null): IscoOccupationInput => ({ soc_code, title: `Occ ${soc_code}`, final_score, score_low, score_high, weight });

describe('computeIsco', async () => {
  const p = (await realSeeds()).params;
  const crosswalk: SocCrosswalkRow[] = [
    { soc2010: '15-1131', soc2018: '15-1251' },
    // A SOC 2010 code split in two SOC 2018 codes, and two 2010 codes merged in one.
    { soc2010: '15-1132', soc2018: '15-1252' },
    { soc2010: '15-1132', soc2018: '15-1253' },
    { soc2010: '43-9011', soc2018: '43-9011' },
    { soc2010: '43-9022', soc2018: '43-9011' },
    { soc2010: '55-1011', soc2018: '55-1011' },
  ];
  const occupations = [
    occ('15-1251.00', 40, 35, 45, 100),
    occ('15-1252.00', 60, 55, 70, 300),
    occ('15-1253.00', 20, 18, 22, 0),
    occ('43-9011.00', 80, 75, 85, null),
    occ('43-9011.01', 70, 60, 72, null),
  ];
  const links = [
    link('2512', '15-1131', true),
    link('2512', '15-1132'),
    link('4131', '43-9011'),
    link('4131', '43-9022'),
    link('0110', '55-1011', true),
    link('2513', '15-1131'),
    link('251', '15-1132'),
  ];
  const out = computeIsco(links, crosswalk, occupations, TIERS, p);
  const unit = (code: string) => out.units.find((u) => u.isco_code === code)!;

  it('weights each occupation by its employment weight; one without employment weighs 0 beside others', () => {
    const u = unit('2512');
    expect(u.us_occupations.map((o) => [o.soc_code, o.weight])).toEqual([
      ['15-1251.00', 0.25],
      ['15-1252.00', 0.75],
      ['15-1253.00', 0],
    ]);
    // 0.25 * 40 + 0.75 * 60
    expect(u.final_score).toBe(55);
    expect(u.risk_tier).toBe('high');
    // Interval over the occupations with weight: 35 .. 70 (15-1253.00 weighs 0, its 18 is left out).
    expect([u.score_low, u.score_high]).toEqual([35, 70]);
    expect(u.confidence).toBe('low');
  });

  it('gives equal weights when no linked occupation has employment, and says so', () => {
    const u = unit('4131');
    expect(u.us_occupations.map((o) => o.weight)).toEqual([0.5, 0.5]);
    expect(u.final_score).toBe(75);
    expect([u.score_low, u.score_high]).toEqual([60, 85]);
    expect(u.mapping.note).toContain('weigh equally');
    expect(out.report.isco_equal_weights).toBe(1);
  });

  it('applies a 3-digit link to every unit group of its minor group, as a partial link', () => {
    const u = unit('2513');
    expect(u.mapping).toMatchObject({ soc_codes: 2, partial: true, minor_group_links: 1 });
    expect(u.us_occupations.map((o) => o.soc_code)).toEqual(['15-1251.00', '15-1252.00', '15-1253.00']);
    expect(unit('2512').mapping).toMatchObject({ soc_codes: 2, partial: true, minor_group_links: 1 });
    expect(out.report.isco_minor_group_links).toBe(1);
    // 2512 and 2513 are the unit groups of 251 that the crosswalk names.
    expect(out.report.isco_minor_group_expanded).toBe(2);
    expect(unit('4131').mapping.partial).toBe(false);
  });

  it('keeps a unit group that reaches no scored occupation apart, with the reason', () => {
    expect(out.units.map((u) => u.isco_code)).toEqual(['2512', '2513', '4131']);
    expect(out.unscored).toEqual([{ isco_code: '0110', title: 'Title 0110', soc_codes: ['55-1011'], reason: expect.stringContaining('55-1011') }]);
    expect(out.report).toMatchObject({ isco_unit_groups: 4, isco_scored: 3, isco_unscored: 1, isco_links: 7, isco_links_partial: 2 });
  });

  it('rounds weights so that they sum to exactly 1, and keeps the score inside its interval', () => {
    const three = computeIsco([link('1111', '15-1131'), link('1111', '15-1132')], crosswalk, occupations.map((o) => ({ ...o, weight: 1 })), TIERS, p).units[0]!;
    expect(three.us_occupations.map((o) => o.weight)).toEqual([0.3334, 0.3333, 0.3333]);
    expect(three.us_occupations.reduce((a, o) => a + o.weight, 0)).toBeCloseTo(1, 12);
    expect(three.final_score).toBe(40);
    expect(three.score_low).toBeLessThanOrEqual(three.final_score);
    expect(three.score_high).toBeGreaterThanOrEqual(three.final_score);
  });

  it('slugs are the titles; the major group is the first digit', () => {
    expect(unit('2512')).toMatchObject({ slug: 'title-2512', major_group: '2' });
  });
});

describe('computeModel scores the ISCO-08 unit groups of its inputs', async () => {
  const model = computeModel(fixtureBundle(), await realSeeds());
  it('scores the linked unit groups and names the one without a scored occupation', () => {
    expect(model.isco.units.map((u) => u.isco_code)).toEqual(['4110', '7126']);
    expect(model.isco.unscored.map((u) => u.isco_code)).toEqual(['0110']);
    for (const u of model.isco.units) expect(u.us_occupations.reduce((a, o) => a + o.weight, 0)).toBeCloseTo(1, 12);
    // The fixture's 3-digit link (712) reaches 7126 only.
    expect(model.isco.units.find((u) => u.isco_code === '7126')!.mapping.minor_group_links).toBe(1);
  });
});
