// A small, fast xlsx reader for the plain tables our sources are. It gives what read-excel-file
// gave (a list of sheets, each a matrix of cells: shared and inline strings, numbers, booleans,
// dates for date-formatted numbers; a unit test holds it to read-excel-file's output) without
// building a DOM. The zip is read from its central directory and inflated by node's zlib (native);
// a worksheet (tens of MB of XML for the largest O*NET ones) is scanned as bytes, never decoded
// to one string: only the values that become strings are decoded, the rest is located with
// indexOf (memchr).
import { inflateRawSync } from 'node:zlib';
import { allocationFor, readWhole } from '../whole-file.ts';

export type SheetCell = string | number | boolean | Date | null | undefined;

export type Workbook = Array<{ sheet: string; data: SheetCell[][] }>;

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function unescapeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ENTITY[e]!,
  );
}

const ATTR = new Map<string, RegExp>();
/** An attribute's raw value in a start tag (the small parts: workbook, relationships, styles). */
function attr(tag: string, name: string): string | undefined {
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

/** Shared strings, trimmed, blank ones null: as cells take them (read-excel-file trimmed them, the loaders expect it). */
function sharedStrings(xml: string | null): Array<string | null> {
  if (!xml) return [];
  const out: Array<string | null> = [];
  for (const m of xml.matchAll(/<si>([\s\S]*?)<\/si>|<si\/>/g)) out.push((m[1] === undefined ? '' : richText(m[1])).trim() || null);
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

// ---- Worksheet scanning, on bytes ----

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const QUOTE = 0x22;
const EQUALS = 0x3d;
const [R, V, I, S] = [...'rvis'].map((ch) => ch.charCodeAt(0)) as [number, number, number, number];

// Every search below is a plain loop over the bytes: Buffer#indexOf crosses into C++ per call,
// which at several calls per cell (a million cells) cost more than the scan itself.

/** [A-Za-z0-9_]: what \b in the old patterns (<row\b, <c\b) refused after the tag name. */
const isWordByte = (b: number | undefined) =>
  b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f);
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** The first `byte` in [from, to), or -1. */
function find(x: Buffer, byte: number, from: number, to: number): number {
  for (let i = from; i < to; i++) if (x[i] === byte) return i;
  return -1;
}

/** Where the attributes r, s and t of a start tag's [from, to) lie (value start and end; -1 when absent). */
class TagAttrs {
  r0 = -1;
  r1 = -1;
  s0 = -1;
  s1 = -1;
  t0 = -1;
  t1 = -1;

  read(x: Buffer, from: number, to: number): this {
    this.r0 = this.s0 = this.t0 = -1;
    let i = from;
    while (i < to) {
      if (!isSpace(x[i]!)) {
        i++;
        continue;
      }
      while (i < to && isSpace(x[i]!)) i++;
      const nameStart = i;
      while (i < to && x[i] !== EQUALS && !isSpace(x[i]!)) i++;
      const nameEnd = i;
      if (x[i] !== EQUALS || x[i + 1] !== QUOTE) continue;
      const v0 = i + 2;
      const v1 = find(x, QUOTE, v0, to);
      if (v1 < 0) return this;
      if (nameEnd - nameStart === 1) {
        const c = x[nameStart];
        if (c === R) [this.r0, this.r1] = [v0, v1];
        else if (c === S) [this.s0, this.s1] = [v0, v1];
        else if (c === 0x74) [this.t0, this.t1] = [v0, v1]; // t
      }
      i = v1 + 1;
    }
    return this;
  }
}

/** "BC12" -> column 54 (0-based), or -1. */
function columnAt(x: Buffer, from: number, to: number): number {
  let col = 0;
  let i = from;
  for (; i < to; i++) {
    const c = x[i]!;
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
  }
  return i === from ? -1 : col - 1;
}

/** A whole number written in [from, to) (an index), else Number() of the text. */
function numberAt(x: Buffer, from: number, to: number): number {
  let n = 0;
  if (to > from && to - from < 10) {
    for (let i = from; i < to; i++) {
      const d = x[i]! - 0x30;
      if (d < 0 || d > 9) return Number(x.toString('utf8', from, to));
      n = n * 10 + d;
    }
    return n;
  }
  return Number(x.toString('utf8', from, to));
}

/** A cell's inner content [from, to): where its first <v>…</v> and <is>…</is> lie (-1: absent). */
class CellParts {
  v0 = -1;
  v1 = -1;
  is0 = -1;
  is1 = -1;

  read(x: Buffer, from: number, to: number): this {
    this.v0 = this.v1 = this.is0 = this.is1 = -1;
    for (let i = find(x, LT, from, to); i >= 0; i = find(x, LT, i + 1, to)) {
      const a = x[i + 1];
      if (a === V && x[i + 2] === GT) {
        if (this.v0 < 0) this.v0 = i + 3;
      } else if (a === I && x[i + 2] === S && x[i + 3] === GT) {
        if (this.is0 < 0) this.is0 = i + 4;
      } else if (a === SLASH) {
        const b = x[i + 2];
        if (b === V && x[i + 3] === GT) {
          if (this.v0 >= 0 && this.v1 < 0) this.v1 = i;
        } else if (b === I && x[i + 3] === S && x[i + 4] === GT) {
          if (this.is0 >= 0 && this.is1 < 0) this.is1 = i;
        }
      }
    }
    if (this.v1 < 0) this.v0 = -1;
    if (this.is1 < 0) this.is0 = -1;
    return this;
  }
}

/**
 * The elements named `name` in a range, one after another: `<name …/>` or `<name …>…</name>`
 * (a longer name that starts with it, such as <cols>, is passed over). After each next(), the
 * start tag's attributes are in `attrs` and the content is [content0, content1), empty when
 * self-closing. One object per sheet, reused: a sheet has a million cells.
 */
class ElementScan {
  readonly attrs = new TagAttrs();
  content0 = 0;
  content1 = 0;
  private pos = 0;
  private to = 0;

  constructor(private readonly name: Buffer) {}

  /** Scans [from, to) from its start. */
  reset(from: number, to: number): this {
    this.pos = from;
    this.to = to;
    return this;
  }

  next(x: Buffer): boolean {
    const { name, to } = this;
    for (;;) {
      const start = find(x, LT, this.pos, to);
      if (start < 0) return false;
      if (!bytesAt(x, start + 1, name) || isWordByte(x[start + 1 + name.length])) {
        this.pos = start + 1;
        continue;
      }
      const tagEnd = find(x, GT, start, to);
      if (tagEnd < 0) return false;
      const selfClosing = x[tagEnd - 1] === SLASH;
      this.attrs.read(x, start + 1 + name.length, selfClosing ? tagEnd - 1 : tagEnd);
      this.content0 = this.content1 = tagEnd + 1;
      if (selfClosing) this.pos = tagEnd + 1;
      else {
        this.content1 = this.closeTag(x, this.content0);
        if (this.content1 < 0) throw new Error(`unterminated <${name.toString()}> at byte ${start}`);
        this.pos = this.content1 + name.length + 3; // past "</name>"
      }
      return true;
    }
  }

  /** The first "</name>" at or after `from`, or -1. */
  private closeTag(x: Buffer, from: number): number {
    const { name, to } = this;
    for (let i = find(x, LT, from, to); i >= 0; i = find(x, LT, i + 1, to)) {
      if (x[i + 1] === SLASH && bytesAt(x, i + 2, name) && x[i + 2 + name.length] === GT) return i;
    }
    return -1;
  }
}

/** Whether `x` holds the bytes of `name` at `at`. */
function bytesAt(x: Buffer, at: number, name: Uint8Array): boolean {
  for (let k = 0; k < name.length; k++) if (x[at + k] !== name[k]) return false;
  return true;
}

/** One <row> of a worksheet: its 0-based index in the sheet and its cells (null where a cell is empty or missing). */
export interface SheetRow {
  index: number;
  cells: SheetCell[];
}

/**
 * The rows of a worksheet, one at a time, as the XML has them: a reader that wants a table never
 * holds every cell of a large sheet at once (O*NET Skills has a million), which made most of the
 * parsing threads' time garbage collection. A row without an r attribute follows the one before.
 */
function* sheetRows(x: Buffer, strings: Array<string | null>, dates: boolean[]): Generator<SheetRow> {
  const bodyStart = x.indexOf('<sheetData>');
  const end = bodyStart < 0 ? -1 : x.lastIndexOf('</sheetData>');
  if (bodyStart < 0 || end < bodyStart) return;
  const rows = new ElementScan(Buffer.from('row')).reset(bodyStart, end);
  const cellScan = new ElementScan(Buffer.from('c'));
  const rowAttrs = rows.attrs;
  const cellAttrs = cellScan.attrs;
  const parts = new CellParts();
  let length = 0;
  while (rows.next(x)) {
    const index = rowAttrs.r0 >= 0 ? numberAt(x, rowAttrs.r0, rowAttrs.r1) - 1 : length;
    const cells: SheetCell[] = [];
    for (cellScan.reset(rows.content0, rows.content1); cellScan.next(x); ) {
      parts.read(x, cellScan.content0, cellScan.content1);
      const col = cellAttrs.r0 >= 0 ? columnAt(x, cellAttrs.r0, cellAttrs.r1) : cells.length;
      const t0 = cellAttrs.t0;
      // t="s" (shared string), "inlineStr", "str"/"e" (text), "b" (boolean); anything else a number.
      const type = t0 < 0 ? 'n' : cellAttrs.t1 - t0 === 1 && x[t0] === S ? 's' : x.toString('latin1', t0, cellAttrs.t1);
      let value: SheetCell = null;
      if (type === 'inlineStr') value = richText(parts.is0 >= 0 ? x.toString('utf8', parts.is0, parts.is1) : '').trim() || null;
      else if (parts.v0 >= 0) {
        const { v0, v1 } = parts;
        if (type === 's') value = strings[numberAt(x, v0, v1)] ?? null;
        else if (type === 'str' || type === 'e') value = unescapeXml(x.toString('utf8', v0, v1)).trim() || null;
        else if (type === 'b') value = v1 - v0 === 1 && x[v0] === 0x31;
        else {
          const n = Number(x.toString('utf8', v0, v1));
          value = cellAttrs.s0 >= 0 && dates[numberAt(x, cellAttrs.s0, cellAttrs.s1)] ? new Date(Math.round((n - 25569) * 86400000)) : n;
        }
      }
      if (value === null) continue;
      while (cells.length < col) cells.push(null);
      cells[col] = value;
    }
    if (index + 1 > length) length = index + 1;
    yield { index, cells };
  }
}

/** A whole sheet as a matrix: rows at their index, trailing empty rows dropped, every row padded to the widest. */
function collectSheet(rows: Iterable<SheetRow>): SheetCell[][] {
  const data: SheetCell[][] = [];
  let width = 0;
  for (const { index, cells } of rows) {
    while (data.length < index) data.push([]);
    data[index] = cells;
    if (cells.length > width) width = cells.length;
  }
  while (data.length > 0 && data[data.length - 1]!.length === 0) data.pop();
  for (const row of data) while (row.length < width) row.push(null);
  return data;
}

// ---- Zip ----

/**
 * The entries of a zip archive that `want` names, read through its central directory: stored or
 * deflated (inflated by zlib), as xlsx writers make them. Zip64 and encryption are refused.
 */
function unzip(zip: Buffer, want: (name: string) => boolean): Map<string, Buffer> {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('no zip end-of-central-directory record');
  const count = zip.readUInt16LE(eocd + 10);
  const dirOffset = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || dirOffset === 0xffffffff) throw new Error('zip64 archives are not supported');
  const out = new Map<string, Buffer>();
  let p = dirOffset;
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('damaged zip central directory');
    const flags = zip.readUInt16LE(p + 8);
    const method = zip.readUInt16LE(p + 10);
    const compressed = zip.readUInt32LE(p + 20);
    const nameLength = zip.readUInt16LE(p + 28);
    const next = p + 46 + nameLength + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const entry = p;
    const name = zip.toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength);
    p = next;
    if (!want(name)) continue;
    if (flags & 1) throw new Error(`${name} is encrypted`);
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`damaged zip entry ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    if (method === 0) out.set(name, data);
    // One output chunk of the entry's size (no concatenation of 16 KB pieces afterwards), unmapped when freed.
    else if (method === 8) out.set(name, inflateRawSync(data, { chunkSize: allocationFor(Math.max(64, zip.readUInt32LE(entry + 24) + 1)) }));
    else throw new Error(`${name}: unsupported zip compression method ${method}`);
  }
  return out;
}

/** A workbook's sheets, each read row by row when asked (parsing the zip, shared strings and styles happens here, once). */
export type SheetReader = { sheet: string; rows: () => Generator<SheetRow> };

export function openXlsx(file: Uint8Array): SheetReader[] {
  const zip = unzip(Buffer.from(file.buffer, file.byteOffset, file.byteLength), (name) => (name.startsWith('xl/') && name.endsWith('.xml')) || name.endsWith('.rels'));
  const text = (name: string) => zip.get(name)?.toString('utf8') ?? null;
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
    const xml = target ? zip.get(target) : undefined;
    if (xml === undefined) throw new Error(`sheet "${name}" has no worksheet part`);
    return { sheet: name, rows: () => sheetRows(xml, strings, dates) };
  });
}

export function parseXlsx(file: Uint8Array): Workbook {
  return openXlsx(file).map((s) => ({ sheet: s.sheet, data: collectSheet(s.rows()) }));
}

export async function readXlsx(file: string): Promise<Workbook> {
  return parseXlsx(await readWhole(file));
}
