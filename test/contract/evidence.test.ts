// The risk response's `evidence` over the real build (issue 44, model 3.1): every occupation, both
// shapes, read over HTTP. The expectations come from the source files themselves, read here with
// csv-parse (the build reads the xlsx): BLS Table 1.12's statements, and each OEWS national year's
// employment.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveSourceDir } from '../../build/sources/locate.ts';
import { everyOccupation } from './every-occupation.ts';
import { REPO_ROOT, SHAPES, TARGET, useSites } from './setup.ts';

const sites = useSites();
const ON_NODE = TARGET === 'node';

type Read = Awaited<ReturnType<typeof everyOccupation>>;
const read = new Map<string, Read>();

const dir = resolveSourceDir({ repoRoot: REPO_ROOT, env: process.env });
const csv = (file: string) => parse(readFileSync(path.join(dir, file)), { columns: true, bom: true }) as Array<Record<string, string>>;
/** Table 1.12 as BLS publishes it (the CSV of the same sheet). */
const table = csv('bls/ep_2024-34_table_1.12_factors_affecting_utilization.csv').map((r) => ({
  code: r['2024 National Employment Matrix occupation code']!,
  industry_code: r['2024 National Employment Matrix industry code']!,
  statement: r['Factors affecting occupational utilization']!,
}));
/** A code ending in 0 is an aggregate over the detailed codes under it (13-1020 covers 13-102x). */
const covers = (code: string, soc: string) => soc.slice(0, 7).startsWith(code.replace(/0+$/, ''));
/** Every OEWS national year of the mirror: code -> employment. */
const oews = new Map(
  readdirSync(path.join(dir, 'bls'))
    .flatMap((f) => (/^national_M(\d{4})_dl\.csv$/.exec(f) ? [[Number(RegExp.$1), f] as const] : []))
    .map(([year, f]) => {
      const rows = csv(`bls/${f}`).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k.toLowerCase(), v])));
      return [year, new Map(rows.filter((r) => /^\d+$/.test(r.tot_emp ?? '')).map((r) => [r.occ_code!, Number(r.tot_emp)]))] as const;
    }),
);
const years = [...oews.keys()].sort();

beforeAll(async () => {
  if (!ON_NODE) return;
  for (const shape of SHAPES) read.set(shape, await everyOccupation(sites[shape], shape));
}, 600_000);

describe.runIf(ON_NODE).each(SHAPES)('evidence beside the score (%s)', (shape) => {
  it('every risk response has it, with every Table 1.12 statement about the occupation', () => {
    const all = read.get(shape)!;
    expect(all.length).toBeGreaterThan(900);
    let withStatements = 0;
    let statements = 0;
    for (const { soc, risk } of all) {
      const e = risk.evidence;
      const want = table.filter((t) => covers(t.code, soc)).map((t) => `${t.code}|${t.industry_code}|${t.statement}`).sort();
      expect(e.bls_statements.map((s) => `${s.code}|${s.industry_code}|${s.statement}`).sort(), soc).toEqual(want);
      for (const s of e.bls_statements) expect(s.share, `${soc} ${s.industry_code}`).toBe(/share increases/i.test(s.statement) ? 'rises' : 'falls');
      if (want.length > 0) withStatements++;
      else expect(e.bls_statements_note, soc).toMatch(/no statement is not the same as unaffected/i);
      statements += want.length;
    }
    console.log(`[evidence ${shape}] ${withStatements} of ${all.length} occupations carry ${statements} Table 1.12 statements (the table has ${table.length}, on ${new Set(table.map((t) => t.code)).size} codes)`);
    // BLS writes statements about some 435 codes: several hundred served occupations are among them.
    expect(withStatements).toBeGreaterThan(400);
    // Cashiers: self-checkout, for all industries; Heavy Truck Drivers: autonomous hauling trucks in mining.
    const of = (soc: string) => all.find((x) => x.soc === soc)!.risk.evidence.bls_statements;
    expect(of('41-2011.00').some((s) => s.industry_code === 'TE1000' && /self-checkout/.test(s.statement) && s.share === 'falls')).toBe(true);
    expect(of('53-3032.00').some((s) => /autonomous vehicles/.test(s.statement) && s.share === 'falls')).toBe(true);
  });

  it('carries OEWS employment for every year of the mirror for every occupation with an OEWS match, and the projection', () => {
    const all = read.get(shape)!;
    let withYears = 0;
    for (const { soc, detail, risk } of all) {
      const h = risk.evidence.employment_history;
      expect(h.oews_code, soc).toBe(detail.labor_data.oews_code);
      if (h.oews_code === null) {
        expect(h.years, soc).toEqual([]);
        continue;
      }
      expect(h.years.map((y) => y.year), soc).toEqual(years);
      for (const y of h.years) {
        expect(y.employment, `${soc} ${y.year}`).toBe(oews.get(y.year)!.get(h.oews_code) ?? null);
        expect(y.hybrid_codes, `${soc} ${y.year}`).toBe(y.year < 2021);
      }
      if (h.years.some((y) => y.employment !== null)) withYears++;
      // The projection is the one labor_data reports.
      expect(risk.evidence.projection.change_pct, soc).toBe(detail.labor_data.projected_employment_change_pct);
      expect(risk.evidence.projection.openings_annual, soc).toBe(detail.labor_data.projected_openings_annual);
    }
    console.log(`[evidence ${shape}] ${withYears} of ${all.length} occupations carry OEWS employment for May ${years.join(', ')}`);
    expect(withYears).toBeGreaterThan(900);
    const any = all[0]!.risk.evidence.employment_history;
    // The mirror lacks May 2020: listed as missing, with BLS's caution.
    expect(years).not.toContain(2020);
    expect(any.missing_years).toEqual([2020]);
    expect(any.caution).toMatch(/not designed as a time series/);
  });
});
