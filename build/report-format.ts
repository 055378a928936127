// Compact text for the build's log and closing report: the stage column of its lines, the model's
// join counts one section per line (wrapped), and every occupation the model could not score,
// named with its reason.
import type { UnscoredOccupation } from './model/record-schemas.ts';
import { compareText } from './model/text.ts';

/** How a line about a stage starts (its timing, the progress line that timing overwrites, a cache's notes): one column for all. */
export const stageLabel = (stage: string): string => `  ${stage.padEnd(11)}`;

const WIDTH = 100;

function wrap(head: string, items: string[], sep = ','): string[] {
  const indent = '    ';
  const lines: string[] = [];
  let line = head;
  for (const [i, item] of items.entries()) {
    const piece = item + (i < items.length - 1 ? sep : '');
    if (line.length + 1 + piece.length > WIDTH && line.trim() !== '') {
      lines.push(line);
      line = indent + piece;
    } else {
      line = line.endsWith(' ') || line === '' ? line + piece : `${line} ${piece}`;
    }
  }
  lines.push(line);
  return lines;
}

/** A value as the report prints it; an object nested in a section as its own fields in parentheses (String gave "[object Object]"). */
const show = (v: unknown): string =>
  typeof v === 'number'
    ? v.toLocaleString('en-US', { maximumFractionDigits: 4 })
    : Array.isArray(v)
      ? v.map(show).join(' ')
      : v !== null && typeof v === 'object'
        ? `(${Object.entries(v).map(([k, x]) => `${k} ${show(x)}`).join('; ')})`
        : String(v);

/** One wrapped line per section: scalars first under "totals", then each nested object. */
export function formatJoinReport(report: Record<string, unknown>): string {
  const totals: string[] = [];
  const sections: string[] = [];
  for (const [key, value] of Object.entries(report)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const items = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k} ${show(v)}`);
      sections.push(...wrap(`  ${key}:`, items));
    } else {
      totals.push(`${key} ${show(value)}`);
    }
  }
  return [...(totals.length ? wrap('  totals:', totals) : []), ...sections].join('\n');
}

/** Every unscored occupation by code and title, grouped by reason. */
export function formatUnscored(unscored: readonly UnscoredOccupation[]): string {
  const byReason = new Map<string, string[]>();
  for (const u of unscored) byReason.set(u.reason, [...(byReason.get(u.reason) ?? []), `${u.soc_code} ${u.title}`]);
  const lines: string[] = [];
  for (const [reason, names] of [...byReason].sort(([a], [b]) => compareText(a, b))) {
    // Titles contain commas, so entries are separated by semicolons.
    lines.push(...wrap(`  ${reason} (${names.length}):`, names, ';'));
  }
  return lines.join('\n');
}

/** An occupation without a page that rejected source rows name: the build's last lines list it. */
export interface LostPage {
  /** The O*NET-SOC code (or the code as the row wrote it). */
  code: string;
  title: string | null;
  /** Why it has no page: the model's reason when it was read but not scored. */
  why: string;
  rows: Array<{ file: string; line: number; reason: string }>;
}

/** What rejected rows cost: the occupations they name that have no page, and the rows whose code cannot be read. */
export interface RejectedRows {
  /** Every rejected row, as the source report lists them. */
  rows: Array<{ file: string; line: number; reason: string }>;
  lostPages: LostPage[];
  /** Served occupations that took a SOC broad group's numbers because rows naming them were rejected: what they took. */
  broadGroup: Array<{ code: string; title: string; took: string; rows: Array<{ file: string; line: number; reason: string }> }>;
  /** Rejected rows whose occupation code is not an O*NET-SOC or SOC code: what they were about is unknown. */
  unreadable: Array<{ file: string; line: number; reason: string; code: string; title?: string }>;
}

const ONET_CODE = /^\d{2}-\d{4}\.\d{2}$/;
const SOC_CODE = /^\d{2}-\d{4}$/;

/**
 * The occupations that rejected rows name and that have no page (not served): a row of an O*NET
 * table names its occupation, a BLS row (a SOC code) every O*NET occupation under that code.
 * `served` and `unscored` are the model's; an occupation in neither was not read at all (its
 * Occupation Data row rejected, say).
 */
export function rejectedRows(
  problems: ReadonlyArray<{ file: string; line: number; reason: string; code?: string | undefined; title?: string | undefined }>,
  served: ReadonlyArray<{ soc_code: string; title: string }>,
  unscored: readonly UnscoredOccupation[],
  /** The model's oews_broad_group report: O*NET-SOC code -> the group and the numbers it gave. */
  broadGroup: Readonly<Record<string, string>> = {},
): RejectedRows {
  const servedCodes = new Set(served.map((o) => o.soc_code));
  const unscoredBy = new Map(unscored.map((u) => [u.soc_code, u]));
  const known = [...servedCodes, ...unscoredBy.keys()];
  const lost = new Map<string, LostPage>();
  const titles = new Map(served.map((o) => [o.soc_code, o.title]));
  const moved = new Map<string, RejectedRows['broadGroup'][number]>();
  const unreadable: RejectedRows['unreadable'] = [];
  for (const p of problems) {
    if (p.code === undefined) continue;
    const row = { file: p.file, line: p.line, reason: p.reason };
    let codes: string[];
    if (ONET_CODE.test(p.code)) codes = [p.code];
    else if (SOC_CODE.test(p.code)) codes = known.filter((c) => c.startsWith(`${p.code}.`));
    else {
      unreadable.push({ ...row, code: p.code, ...(p.title ? { title: p.title } : {}) });
      continue;
    }
    for (const code of codes) {
      const took = broadGroup[code];
      if (took !== undefined) {
        const m = moved.get(code) ?? { code, title: titles.get(code) ?? '', took, rows: [] };
        m.rows.push(row);
        moved.set(code, m);
      }
      if (servedCodes.has(code)) continue;
      const u = unscoredBy.get(code);
      const page = lost.get(code) ?? { code, title: u?.title ?? null, why: u ? u.reason : 'not among the occupations the model read', rows: [] };
      page.title ??= p.title ?? null;
      page.rows.push(row);
      lost.set(code, page);
    }
  }
  return { rows: problems.map((p) => ({ file: p.file, line: p.line, reason: p.reason })), lostPages: [...lost.values()].sort((a, b) => compareText(a.code, b.code)), broadGroup: [...moved.values()].sort((a, b) => compareText(a.code, b.code)), unreadable };
}

/** The build's closing lines on rejected rows: how many, every occupation that lost its page and why (each row by file:line), rows naming no readable code. */
export function formatRejectedRows(r: RejectedRows): string {
  if (r.rows.length === 0) return '';
  const row = (x: { file: string; line: number; reason: string }) => `    ${x.file}:${x.line}: ${x.reason}`;
  const lines = [`Rejected source rows: ${r.rows.length} (the build went on without them; --strict fails on any)`];
  if (r.lostPages.length === 0) lines.push('  no occupation lost its page over them');
  else {
    lines.push(`Occupations without a page because rows naming them were rejected (${r.lostPages.length}):`);
    for (const p of r.lostPages) lines.push(`  ${p.code} ${p.title ?? '(title not read)'}: ${p.why}`, ...p.rows.map(row));
  }
  if (r.broadGroup.length > 0) {
    lines.push(`Occupations given a broader OEWS group's numbers (wage status broad_group) because rows naming them were rejected (${r.broadGroup.length}):`);
    for (const m of r.broadGroup) lines.push(`  ${m.code} ${m.title}: ${m.took}`, ...m.rows.map(row));
  }
  if (r.unreadable.length > 0) {
    lines.push(`Rejected rows whose occupation code cannot be read, so the occupation they name is unknown (${r.unreadable.length}):`);
    lines.push(...r.unreadable.map((x) => `${row(x)} (code "${x.code}"${x.title ? `, title "${x.title}"` : ''})`));
  }
  return lines.join('\n');
}
