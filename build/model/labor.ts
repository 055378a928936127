// Labor data: OEWS wages and employment, BLS projections. O*NET-SOC 2019 codes sit under SOC
// 2018 detailed codes (first 7 characters). Where OEWS publishes only an aggregate of several
// SOC codes (its own codes such as 21-1018, 13-1020, or 15-125X in older files), the
// aggregate is found from the OEWS rows themselves: a published code in the same SOC broad
// group that no O*NET occupation uses (or whose X wildcard covers the code).
import type { OewsNational, OewsNationalRow, Projection, WageCell } from './inputs.ts';
import type { LaborFigures } from './record-schemas.ts';
import type { ModelParamsSeed } from './params.ts';

/**
 * direct: the occupation's own row; aggregate: the OEWS aggregate it is published in; broad_group:
 * the SOC broad group above it, the last resort (its own row may be missing or rejected), whose
 * numbers are the group's and are labelled so.
 */
export type OewsMatch = { code: string; via: 'direct' | 'aggregate' | 'broad_group' };

const xPrefix = (code: string): string | null => (code.includes('X') ? code.slice(0, code.indexOf('X')) : null);

/** Resolve a SOC 2018 detailed code against one OEWS national file. */
export function resolveOewsCode(
  soc7: string,
  rows: ReadonlyArray<Pick<OewsNationalRow, 'occ_code' | 'o_group'>>,
  onetSocs: ReadonlySet<string>,
): OewsMatch | null {
  return oewsCodeResolver(rows, onetSocs)(soc7);
}

/**
 * resolveOewsCode for every occupation against one file: the file's published codes are indexed
 * once (by their first six characters, and the X wildcards apart) instead of filtered and sorted
 * per occupation. The pick is the lowest matching code, as the first of a sorted list was.
 */
export function oewsCodeResolver(
  rows: ReadonlyArray<Pick<OewsNationalRow, 'occ_code' | 'o_group'>>,
  onetSocs: ReadonlySet<string>,
): (soc7: string) => OewsMatch | null {
  const direct = new Set<string>();
  const index = (group: string) => {
    const byPrefix = new Map<string, string[]>();
    const wildcards: Array<{ code: string; prefix: string }> = [];
    for (const r of rows) {
      if (r.o_group !== group) continue;
      const prefix = xPrefix(r.occ_code);
      if (prefix !== null) wildcards.push({ code: r.occ_code, prefix });
      else {
        const same = byPrefix.get(r.occ_code.slice(0, 6));
        if (same) same.push(r.occ_code);
        else byPrefix.set(r.occ_code.slice(0, 6), [r.occ_code]);
      }
    }
    return { byPrefix, wildcards };
  };
  for (const r of rows) if (r.o_group === 'detailed') direct.add(r.occ_code);
  // OEWS labels its own aggregates 'detailed'; a SOC broad-group row is the last resort.
  const groups = [{ ...index('detailed'), via: 'aggregate' as const }, { ...index('broad'), via: 'broad_group' as const }];
  return (soc7) => {
    if (direct.has(soc7)) return { code: soc7, via: 'direct' };
    for (const g of groups) {
      let pick: string | null = null;
      for (const c of g.byPrefix.get(soc7.slice(0, 6)) ?? []) if (c !== soc7 && !onetSocs.has(c) && (pick === null || c < pick)) pick = c;
      for (const w of g.wildcards) if (soc7.startsWith(w.prefix) && (pick === null || w.code < pick)) pick = w.code;
      if (pick !== null) return { code: pick, via: g.via };
    }
    return null;
  };
}

export type WageStatus = LaborFigures['median_annual_wage_status'];

/** Annual median from one OEWS row: reported, top-coded ceiling, or hourly x hours. */
export function wageFromRow(
  row: OewsNationalRow,
  period: string,
  p: ModelParamsSeed,
): { annual: number; hourly: number | null; status: WageStatus } | null {
  const ceil = p.wages.top_code.value[period];
  const hours = p.wages.hours_per_year.value;
  const hourly = cellValue(row.h_median, ceil?.hourly ?? null);
  if (row.a_median.value !== null) return { annual: row.a_median.value, hourly, status: 'reported' };
  if (row.a_median.flag === 'top_coded' && ceil) return { annual: ceil.annual, hourly, status: 'top_coded' };
  if (hourly !== null) {
    const topHourly = row.h_median.flag === 'top_coded';
    return { annual: Math.round(hourly * hours), hourly, status: topHourly ? 'top_coded' : 'from_hourly' };
  }
  return null;
}

const cellValue = (c: WageCell, ceiling: number | null): number | null =>
  c.value !== null ? c.value : c.flag === 'top_coded' ? ceiling : null;

export interface LaborIndex {
  data: Map<string, LaborFigures>;
  /** OEWS code (of the newest file) each occupation resolved to, for splitting employment. */
  oewsCode: Map<string, string>;
  /** BLS projections code (Table 1.2 line) each occupation took its projection from. */
  projectionCode: Map<string, string>;
  report: Record<string, number | string>;
  /** Occupations whose employment or wage is a SOC broad group's (OEWS code, period and the numbers taken), by O*NET-SOC code. */
  broadGroup: Map<string, BroadGroupUse>;
}

export interface BroadGroupUse {
  code: string;
  period: string;
  employment: number | null;
  wage: number | null;
}

export function computeLabor(
  socs: readonly string[],
  oews: readonly OewsNational[],
  projections: readonly Projection[],
  p: ModelParamsSeed,
): LaborIndex {
  const onetSocs = new Set(socs.map((s) => s.slice(0, 7)));
  const files = oews.map((f) => ({
    period: f.period,
    resolve: oewsCodeResolver(f.rows, onetSocs),
    byCode: new Map(f.rows.filter((r) => r.o_group === 'detailed' || r.o_group === 'broad').map((r) => [r.occ_code, r])),
  }));
  const proj = new Map(projections.filter((r) => r.occupation_type === 'Line item').map((r) => [r.soc, r]));
  const counts = {
    oews_direct: 0,
    oews_aggregate: 0,
    oews_broad_group: 0,
    oews_unmatched: 0,
    wage_reported: 0,
    wage_top_coded: 0,
    wage_from_hourly: 0,
    wage_previous_period: 0,
    wage_projections_table: 0,
    wage_broad_group: 0,
    wage_unavailable: 0,
    employment_missing: 0,
    projections_matched: 0,
    projections_unmatched: 0,
  };
  const data = new Map<string, LaborFigures>();
  const oewsCode = new Map<string, string>();
  const broadGroup = new Map<string, BroadGroupUse>();
  const projectionCode = new Map<string, string>();
  const projectionsPeriod = '2024-34';
  for (const soc of socs) {
    const soc7 = soc.slice(0, 7);
    let wage: { annual: number; hourly: number | null; status: WageStatus } | null = null;
    let wagePeriod: string | null = null;
    let employment: number | null = null;
    let code: string | null = null;
    let period: string | null = null;
    let broad: BroadGroupUse | null = null;
    files.forEach((f, i) => {
      const m = f.resolve(soc7);
      if (!m) return;
      const row = f.byCode.get(m.code);
      if (!row) return;
      if (i === 0) {
        counts[`oews_${m.via}` as const]++;
        oewsCode.set(soc, m.code);
      }
      if (code === null) [code, period] = [m.code, f.period];
      const fromBroad = () => (broad ??= { code: m.code, period: f.period, employment: null, wage: null });
      if (employment === null && row.tot_emp !== null) {
        employment = Math.round(row.tot_emp);
        if (m.via === 'broad_group') fromBroad().employment = employment;
      }
      if (wage === null) {
        const w = wageFromRow(row, f.period, p);
        // A broad group's wage is not the occupation's: labelled so, whatever the row's own status.
        if (w) [wage, wagePeriod] = [m.via === 'broad_group' ? { ...w, status: 'broad_group' } : w, f.period];
        if (w && m.via === 'broad_group') fromBroad().wage = w.annual;
      }
    });
    if (!oewsCode.has(soc)) counts.oews_unmatched++;
    if (broad) broadGroup.set(soc, broad);
    if (employment === null) counts.employment_missing++;
    const pr = proj.get(soc7) ?? (code !== null ? proj.get(code) : undefined);
    if (pr) {
      counts.projections_matched++;
      projectionCode.set(soc, pr.soc);
    }
    if (!pr) counts.projections_unmatched++;
    let status: WageStatus = 'unavailable';
    let annual: number | null = null;
    let hourly: number | null = null;
    if (wage !== null) {
      const w = wage as { annual: number; hourly: number | null; status: WageStatus };
      [annual, hourly, status] = [w.annual, w.hourly, w.status];
      if (wagePeriod !== files[0]?.period) counts.wage_previous_period++;
    } else if (pr && pr.median_wage_2024.value !== null) {
      [annual, status] = [pr.median_wage_2024.value, 'projections_table'];
    } else if (pr && pr.median_wage_2024.flag === 'top_coded') {
      const ceil = p.wages.top_code.value[files.at(-1)?.period ?? ''];
      if (ceil) [annual, status] = [ceil.annual, 'top_coded'];
    }
    counts[`wage_${status}` as const]++;
    data.set(soc, {
      median_annual_wage: annual,
      median_annual_wage_status: status,
      median_hourly_wage: hourly,
      employment,
      oews_code: code,
      reference_period:
        status === 'projections_table' ? '2024 (BLS Employment Projections)' : (wagePeriod ?? period ?? files[0]?.period ?? 'n/a'),
      projected_employment_change_pct: pr?.change_pct ?? null,
      // Table 1.2 gives openings in thousands.
      projected_openings_annual: pr?.openings_annual != null ? Math.round(pr.openings_annual * 1000) : null,
      projections_period: projectionsPeriod,
      entry_education: pr?.entry_education ?? null,
      related_experience: pr?.related_experience ?? null,
      on_the_job_training: pr?.on_the_job_training ?? null,
    });
  }
  return { data, oewsCode, projectionCode, report: counts, broadGroup };
}

/** Employment weight per occupation: its OEWS code's employment split equally among the served occupations sharing the code. */
export function employmentWeights(labor: LaborIndex): Map<string, number | null> {
  const sharers = new Map<string, number>();
  for (const code of labor.oewsCode.values()) sharers.set(code, (sharers.get(code) ?? 0) + 1);
  const out = new Map<string, number | null>();
  for (const [soc, d] of labor.data) {
    const code = labor.oewsCode.get(soc);
    out.set(soc, d.employment === null || !code ? null : d.employment / sharers.get(code)!);
  }
  return out;
}
