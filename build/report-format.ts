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

const show = (v: unknown): string =>
  typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 4 }) : Array.isArray(v) ? v.join(' ') : String(v);

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
