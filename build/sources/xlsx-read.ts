// A small, fast xlsx reader for the plain tables our sources are: unzip (fflate), then one regex
// pass over each sheet's XML. It gives what read-excel-file gave (a list of sheets, each a matrix
// of cells: shared and inline strings, numbers, booleans, dates for date-formatted numbers), about
// ten times faster and without building a DOM: parsing the O*NET and BLS workbooks was most of a
// cold build and most of its memory. A unit test holds it to read-excel-file's output.
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import type { SheetCell } from './table.ts';

export type Workbook = Array<{ sheet: string; data: SheetCell[][] }>;

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function unescapeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ENTITY[e]!,
  );
}

const ATTR = new Map<string, RegExp>();
/** An attribute's raw value in a start tag. Runs per cell: plain search when spaces separate. */
function attr(tag: string, name: string): string | undefined {
  if (!tag.includes('\n') && !tag.includes('\t') && !tag.includes('\r')) {
    const key = ` ${name}="`;
    const at = tag.indexOf(key);
    return at < 0 ? undefined : tag.slice(at + key.length, tag.indexOf('"', at + key.length));
  }
  let re = ATTR.get(name);
  if (!re) ATTR.set(name, (re = new RegExp(`\\s${name}="([^"]*)"`)));
  return re.exec(tag)?.[1];
}

/** The text of an <si> or <is>: its <t> runs joined, phonetic runs (<rPh>) left out. */
function richText(xml: string): string {
  const plain = xml.includes('<rPh') ? xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '') : xml;
  let out = '';
  for (const m of plain.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>|<t(?:\s[^>]*)?\/>/g)) out += m[1] ?? '';
  return unescapeXml(out);
}

function sharedStrings(xml: string | null): string[] {
  if (!xml) return [];
  const out: string[] = [];
  for (const m of xml.matchAll(/<si>([\s\S]*?)<\/si>|<si\/>/g)) out.push(m[1] === undefined ? '' : richText(m[1]));
  return out;
}

// Built-in number formats that are dates (ECMA-376 18.8.30), and custom ones that look like dates.
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);
const looksLikeDate = (code: string) => /[dmyhs]/i.test(code.replace(/"[^"]*"|\[[^\]]*\]|\\./g, ''));

/** Per cell style index: is it a date format? */
function dateStyles(xml: string | null): boolean[] {
  if (!xml) return [];
  const custom = new Map<number, string>();
  for (const m of xml.matchAll(/<numFmt\s[^>]*>/g)) {
    const id = attr(m[0], 'numFmtId');
    const code = attr(m[0], 'formatCode');
    if (id !== undefined && code !== undefined) custom.set(Number(id), unescapeXml(code));
  }
  const xfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(xml)?.[1] ?? '';
  return [...xfs.matchAll(/<xf\s[^>]*?\/?>/g)].map((m) => {
    const id = Number(attr(m[0], 'numFmtId') ?? 0);
    const code = custom.get(id);
    return code !== undefined ? looksLikeDate(code) : DATE_FORMAT_IDS.has(id);
  });
}

/** "BC12" -> column 54 (0-based), or -1. */
function columnOf(ref: string): number {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
  }
  return i === 0 ? -1 : col - 1;
}

const CELL = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;
const ROW = /<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g;

function readSheet(xml: string, strings: string[], dates: boolean[]): SheetCell[][] {
  const data: SheetCell[][] = [];
  let width = 0;
  const body = /<sheetData>([\s\S]*)<\/sheetData>/.exec(xml)?.[1] ?? '';
  for (const row of body.matchAll(ROW)) {
    const r = attr(row[1]!, 'r');
    const index = r !== undefined ? Number(r) - 1 : data.length;
    while (data.length < index) data.push([]);
    const cells: SheetCell[] = [];
    for (const c of (row[2] ?? '').matchAll(CELL)) {
      const a = c[1]!;
      const ref = attr(a, 'r');
      const col = ref !== undefined ? columnOf(ref) : cells.length;
      const inner = c[2] ?? '';
      const type = attr(a, 't') ?? 'n';
      let value: SheetCell = null;
      if (type === 'inlineStr') value = richText(/<is>([\s\S]*?)<\/is>/.exec(inner)?.[1] ?? '').trim() || null;
      else {
        const v = /<v>([\s\S]*?)<\/v>/.exec(inner)?.[1];
        if (v !== undefined) {
          // Strings trimmed, blank ones empty: as read-excel-file gave them (the loaders expect it).
          if (type === 's') value = strings[Number(v)]?.trim() || null;
          else if (type === 'str' || type === 'e') value = unescapeXml(v).trim() || null;
          else if (type === 'b') value = v === '1';
          else {
            const n = Number(v);
            const style = attr(a, 's');
            value = style !== undefined && dates[Number(style)] ? new Date(Math.round((n - 25569) * 86400000)) : n;
          }
        }
      }
      if (value === null) continue;
      while (cells.length < col) cells.push(null);
      cells[col] = value;
    }
    data[index] = cells;
    if (cells.length > width) width = cells.length;
  }
  // Drop trailing empty rows; pad every row to the width of the widest filled row.
  while (data.length > 0 && data[data.length - 1]!.length === 0) data.pop();
  for (const row of data) while (row.length < width) row.push(null);
  return data;
}

export function parseXlsx(bytes: Uint8Array): Workbook {
  const zip = unzipSync(bytes, { filter: (f) => f.name.startsWith('xl/') && f.name.endsWith('.xml') || f.name.endsWith('.rels') });
  const text = (name: string) => (zip[name] ? strFromU8(zip[name]!) : null);
  const workbook = text('xl/workbook.xml');
  if (!workbook) throw new Error('no xl/workbook.xml: not an xlsx workbook');
  const targets = new Map<string, string>();
  for (const m of (text('xl/_rels/workbook.xml.rels') ?? '').matchAll(/<Relationship\s[^>]*>/g)) {
    const id = attr(m[0], 'Id');
    const target = attr(m[0], 'Target');
    if (id && target) targets.set(id, target.startsWith('/') ? target.slice(1) : `xl/${target}`);
  }
  const strings = sharedStrings(text('xl/sharedStrings.xml'));
  const dates = dateStyles(text('xl/styles.xml'));
  return [...workbook.matchAll(/<sheet\s[^>]*>/g)].map((m) => {
    const name = unescapeXml(attr(m[0], 'name') ?? '');
    const target = targets.get(attr(m[0], 'r:id') ?? '');
    const xml = target ? text(target) : null;
    if (xml === null) throw new Error(`sheet "${name}" has no worksheet part`);
    return { sheet: name, data: readSheet(xml, strings, dates) };
  });
}

export async function readXlsx(file: string): Promise<Workbook> {
  return parseXlsx(await readFile(file));
}
