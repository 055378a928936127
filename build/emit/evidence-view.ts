// The page's "what is happening to the job" section (issue 44): the record's evidence in words, and
// a small inline SVG of OEWS employment by year (no request leaves the page). The chart is one
// slot per year of the span: a year the sources lack is drawn as an empty, labelled slot, and
// years in hybrid codes are drawn hatched; a table below holds the same numbers as text.
import type { JobEvidence } from '../model/record-schemas.ts';

export const EMPLOYMENT_CHART = { w: 640, h: 230, left: 20, right: 620, top: 34, bottom: 190 };

/** 2062040 -> "2.06M", 48310 -> "48.3k", 560 -> "560": short labels for the bars. */
export function compactCount(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(2)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

const round1 = (x: number) => Math.round(x * 10) / 10;

export function employmentChart(e: JobEvidence, title: string, grouped: (n: number) => string) {
  const h = e.employment_history;
  const known = h.years.filter((y) => y.employment !== null);
  if (h.oews_code === null || known.length === 0) return null;
  const all = [...h.years.map((y) => y.year), ...h.missing_years].sort((a, b) => a - b);
  const first = all[0]!;
  const slots = all.at(-1)! - first + 1;
  const C = EMPLOYMENT_CHART;
  const slotW = (C.right - C.left) / slots;
  const max = Math.max(...known.map((y) => y.employment!));
  const bars = Array.from({ length: slots }, (_, i) => {
    const year = first + i;
    const y = h.years.find((v) => v.year === year);
    const x = round1(C.left + i * slotW + slotW * 0.15);
    const mid = round1(C.left + (i + 0.5) * slotW);
    if (!y || y.employment === null) {
      return { year, x, mid, width: round1(slotW * 0.7), kind: 'missing' as const, label: y ? 'not published' : 'no data', top: C.bottom, height: 0 };
    }
    const height = round1(((C.bottom - C.top) * y.employment) / max);
    return { year, x, mid, width: round1(slotW * 0.7), kind: y.hybrid_codes ? ('hybrid' as const) : ('soc2018' as const), label: compactCount(y.employment), top: round1(C.bottom - height), height };
  });
  const words = h.years.map((y) => `May ${y.year}: ${y.employment === null ? 'not published under this code' : grouped(y.employment)}${y.hybrid_codes ? ' (hybrid SOC 2010/2018 codes)' : ''}`);
  const missing = h.missing_years.map((y) => `May ${y}: not in the sources`);
  return {
    ...C,
    bars,
    title: `OEWS national employment of ${title} (code ${h.oews_code}) by year. ${[...words, ...missing].join('; ')}.`,
    rows: [...h.years.map((y) => ({ year: y.year, value: y.employment === null ? 'not published under this code' : grouped(y.employment), note: y.hybrid_codes ? 'hybrid SOC 2010/2018 codes' : '' })), ...h.missing_years.map((y) => ({ year: y, value: 'not in the sources', note: '' }))].sort((a, b) => a.year - b.year),
  };
}

export function evidenceView(e: JobEvidence, title: string, sharedWith: readonly string[], grouped: (n: number) => string) {
  const p = e.projection;
  const signed = (v: number) => (v > 0 ? `+${v}` : String(v));
  return {
    about: e.about,
    statements: e.bls_statements.map((s) => ({ industry: s.industry_title, statement: s.statement, share: s.share, code: s.code })),
    statementsNote: e.bls_statements_note,
    chart: employmentChart(e, title, grouped),
    caution: e.employment_history.caution,
    shared: sharedWith.length > 0,
    projection:
      p.code === null
        ? null
        : `BLS projects ${p.employment_2024 === null ? 'n/a' : grouped(p.employment_2024)} jobs in 2024 and ${p.employment_2034 === null ? 'n/a' : grouped(p.employment_2034)} in 2034 (${p.change_pct === null ? 'change n/a' : `${signed(p.change_pct)}%`}), with about ${p.openings_annual === null ? 'n/a' : grouped(p.openings_annual)} openings a year (projections code ${p.code}, ${p.period}; the projections count all jobs, the self-employed among them, so they differ from OEWS).`,
  };
}
