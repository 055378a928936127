// A small reader for legacy Excel 97-2003 workbooks (.xls, BIFF8 inside an OLE2 compound file),
// for the one such file the validation needs (bls/isco_soc_crosswalk.xls). It reads what a plain
// data sheet holds: the compound file container (header, FAT and DIFAT, directory, the Workbook
// stream, the mini stream for small files), then the BIFF8 records that carry values: BOF/EOF,
// BOUNDSHEET8, SST (+ CONTINUE), LABELSST, LABEL, NUMBER, RK, MULRK, FORMULA (cached value,
// STRING for text results) and BOOLERR. Formatting is skipped, so date-formatted numbers stay
// numbers (Excel serials). Anything it does not understand or that is cut short is an XlsError
// with a message that says what and where: never a partial sheet.
// References: [MS-CFB] Compound File Binary Format; [MS-XLS] Excel Binary File Format (BIFF8).
import { readFile } from 'node:fs/promises';
import type { SheetCell, Workbook } from './xlsx-read.ts';

export class XlsError extends Error {
  override name = 'XlsError';
}

const fail = (msg: string): never => {
  throw new XlsError(msg);
};

// ---------------------------------------------------------------------------------------------
// Compound file (OLE2 / CFB)

const SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ENDOFCHAIN = 0xfffffffe;
const FREESECT = 0xffffffff;
const NOSTREAM = 0xffffffff;

interface DirEntry {
  name: string;
  type: number;
  start: number;
  size: number;
}

/** Read one named stream (case-insensitive) of a compound file; null when there is no such stream. */
export function readCfbStream(bytes: Uint8Array, wanted: readonly string[]): { name: string; data: Uint8Array } | null {
  if (bytes.length < 512) fail(`file too short for a compound file header (${bytes.length} bytes)`);
  for (let i = 0; i < 8; i++) if (bytes[i] !== SIGNATURE[i]) fail('not an OLE2 compound file (bad signature): not a legacy .xls workbook');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (o: number) => view.getUint16(o, true);
  const u32 = (o: number) => view.getUint32(o, true);
  if (u16(0x1c) !== 0xfffe) fail('compound file header: byte order mark is not little-endian (0xFFFE)');
  const major = u16(0x1a);
  const shift = u16(0x1e);
  if (!((major === 3 && shift === 9) || (major === 4 && shift === 12))) fail(`compound file header: unsupported version ${major} with sector shift ${shift}`);
  const miniShift = u16(0x20);
  if (miniShift !== 6) fail(`compound file header: unsupported mini sector shift ${miniShift}`);
  const sectorSize = 1 << shift;
  const nFat = u32(0x2c);
  const firstDir = u32(0x30);
  const cutoff = u32(0x38);
  const firstMiniFat = u32(0x3c);
  const nMiniFat = u32(0x40);
  const firstDifat = u32(0x44);
  const nDifat = u32(0x48);
  // A file cut inside a sector is damaged: reading its missing bytes as zeros would pass wrong data.
  const nSectors = Math.floor((bytes.length - sectorSize) / sectorSize);
  if (nFat > nSectors || nDifat > nSectors || nMiniFat > nSectors) fail(`compound file header: ${nFat} FAT / ${nDifat} DIFAT / ${nMiniFat} mini FAT sectors in a file of ${nSectors} sectors: damaged header`);
  const sector = (n: number): Uint8Array => {
    if (n >= nSectors) fail(`compound file: sector ${n} is beyond the end of the file (${nSectors} whole sectors): truncated or damaged file`);
    const at = (n + 1) * sectorSize;
    return bytes.subarray(at, at + sectorSize);
  };
  const sectorU32 = (s: Uint8Array, i: number) => s[4 * i]! | (s[4 * i + 1]! << 8) | (s[4 * i + 2]! << 16) | (s[4 * i + 3]! * 0x1000000);

  // DIFAT: 109 entries in the header, then a chain of DIFAT sectors (last entry = next sector).
  const fatSectors: number[] = [];
  for (let i = 0; i < 109 && fatSectors.length < nFat; i++) fatSectors.push(u32(0x4c + 4 * i));
  let difat = firstDifat;
  for (let k = 0; k < nDifat && fatSectors.length < nFat; k++) {
    if (difat === ENDOFCHAIN || difat === FREESECT) fail('compound file: DIFAT chain ends before all FAT sectors are listed');
    const s = sector(difat);
    const per = sectorSize / 4 - 1;
    for (let i = 0; i < per && fatSectors.length < nFat; i++) fatSectors.push(sectorU32(s, i));
    difat = sectorU32(s, per);
  }
  if (fatSectors.length < nFat) fail(`compound file: header declares ${nFat} FAT sectors, DIFAT lists ${fatSectors.length}`);
  const perSector = sectorSize / 4;
  const fat = new Uint32Array(nFat * perSector);
  fatSectors.forEach((f, i) => {
    const s = sector(f);
    for (let j = 0; j < perSector; j++) fat[i * perSector + j] = sectorU32(s, j);
  });

  /** Follow a chain in a FAT; a loop or an entry outside the table is an error, not an endless read. */
  const chain = (table: Uint32Array, start: number, what: string): number[] => {
    const out: number[] = [];
    for (let s = start; s !== ENDOFCHAIN; s = table[s]!) {
      if (s >= table.length || s === FREESECT) fail(`compound file: ${what} chain points at sector ${s}, outside the allocation table`);
      if (out.length > table.length) fail(`compound file: ${what} chain loops`);
      out.push(s);
    }
    return out;
  };
  const readChain = (start: number, size: number | null, what: string): Uint8Array => {
    const secs = chain(fat, start, what);
    const out = new Uint8Array(secs.length * sectorSize);
    secs.forEach((s, i) => out.set(sector(s), i * sectorSize));
    if (size === null) return out;
    if (size > out.length) fail(`compound file: ${what} declares ${size} bytes but its chain holds ${out.length}`);
    return out.subarray(0, size);
  };

  const dir = readChain(firstDir, null, 'directory');
  const dv = new DataView(dir.buffer, dir.byteOffset, dir.byteLength);
  const entries: DirEntry[] = [];
  for (let at = 0; at + 128 <= dir.length; at += 128) {
    const nameLen = dv.getUint16(at + 0x40, true);
    const type = dir[at + 0x42]!;
    if (type === 0) continue;
    if (nameLen < 2 || nameLen > 64 || nameLen % 2) fail(`compound file: directory entry ${at / 128} has a bad name length ${nameLen}`);
    let name = '';
    for (let i = 0; i < nameLen - 2; i += 2) name += String.fromCharCode(dv.getUint16(at + i, true));
    // Version 3 files may leave garbage in the high 32 bits of the size; the spec says ignore them.
    const size = dv.getUint32(at + 0x78, true) + (major === 4 ? dv.getUint32(at + 0x7c, true) * 0x100000000 : 0);
    entries.push({ name, type, start: dv.getUint32(at + 0x74, true), size });
  }
  const root = entries.find((e) => e.type === 5) ?? fail('compound file: no root directory entry');
  const lower = wanted.map((w) => w.toLowerCase());
  const entry = entries.find((e) => e.type === 2 && lower.includes(e.name.toLowerCase()));
  if (!entry) return null;
  if (entry.size === 0) return { name: entry.name, data: new Uint8Array(0) };
  if (entry.size >= cutoff) return { name: entry.name, data: readChain(entry.start, entry.size, `stream "${entry.name}"`) };

  // Small stream: 64-byte mini sectors inside the root entry's stream, chained by the mini FAT.
  if (root.start === NOSTREAM || root.start === ENDOFCHAIN) fail(`compound file: stream "${entry.name}" is in the mini stream but the file has none`);
  const miniStream = readChain(root.start, root.size, 'mini stream');
  const miniFatBytes = nMiniFat === 0 ? new Uint8Array(0) : readChain(firstMiniFat, null, 'mini FAT');
  const miniFat = new Uint32Array(miniFatBytes.length / 4);
  for (let i = 0; i < miniFat.length; i++) miniFat[i] = sectorU32(miniFatBytes, i);
  const secs = chain(miniFat, entry.start, `mini stream "${entry.name}"`);
  const out = new Uint8Array(secs.length * 64);
  secs.forEach((s, i) => {
    if ((s + 1) * 64 > miniStream.length) fail(`compound file: mini sector ${s} is beyond the mini stream`);
    out.set(miniStream.subarray(s * 64, (s + 1) * 64), i * 64);
  });
  if (entry.size > out.length) fail(`compound file: stream "${entry.name}" declares ${entry.size} bytes but its mini chain holds ${out.length}`);
  return { name: entry.name, data: out.subarray(0, entry.size) };
}

// ---------------------------------------------------------------------------------------------
// BIFF8 records

const R = {
  BOF: 0x0809,
  EOF: 0x000a,
  FILEPASS: 0x002f,
  BOUNDSHEET: 0x0085,
  SST: 0x00fc,
  CONTINUE: 0x003c,
  LABELSST: 0x00fd,
  LABEL: 0x0204,
  NUMBER: 0x0203,
  RK: 0x027e,
  MULRK: 0x00bd,
  FORMULA: 0x0006,
  STRING: 0x0207,
  BOOLERR: 0x0205,
} as const;

/** SHRFMLA, ARRAY, TABLE: may sit between a FORMULA and the STRING holding its text result. */
const FORMULA_COMPANIONS = new Set([0x04bc, 0x0221, 0x0236]);

const ERRORS: Record<number, string> = { 0x00: '#NULL!', 0x07: '#DIV/0!', 0x0f: '#VALUE!', 0x17: '#REF!', 0x1d: '#NAME?', 0x24: '#NUM!', 0x2a: '#N/A', 0x2b: '#GETTING_DATA' };

interface Rec {
  type: number;
  /** Offset of the record header in the Workbook stream. */
  at: number;
  data: Uint8Array;
}

/** The record at `at` plus the CONTINUE records that follow it. */
function recordAt(stream: Uint8Array, at: number): { rec: Rec; next: number } {
  if (at + 4 > stream.length) fail(`Workbook stream: record header at offset ${at} is cut off (stream is ${stream.length} bytes)`);
  const type = stream[at]! | (stream[at + 1]! << 8);
  const len = stream[at + 2]! | (stream[at + 3]! << 8);
  if (at + 4 + len > stream.length) fail(`Workbook stream: record 0x${type.toString(16).padStart(4, '0')} at offset ${at} declares ${len} bytes, past the end of the stream`);
  return { rec: { type, at, data: stream.subarray(at + 4, at + 4 + len) }, next: at + 4 + len };
}

/**
 * A reader over a record and its CONTINUE records. Bytes run on across the boundary, except
 * the characters of a string: a string cut by a boundary resumes with a new option byte whose
 * low bit says whether the rest is 8-bit (compressed) or UTF-16 ([MS-XLS] 2.5.293, 2.4.58).
 */
class Segments {
  private seg = 0;
  private pos = 0;
  constructor(
    private readonly parts: Uint8Array[],
    private readonly what: string,
  ) {}

  private ensure(): void {
    while (this.pos >= this.parts[this.seg]!.length) {
      if (this.seg + 1 >= this.parts.length) fail(`${this.what}: data ends early (a string or count runs past the last CONTINUE record)`);
      this.seg++;
      this.pos = 0;
    }
  }
  u8(): number {
    this.ensure();
    return this.parts[this.seg]![this.pos++]!;
  }
  u16(): number {
    return this.u8() | (this.u8() << 8);
  }
  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }
  skip(n: number): void {
    for (let i = 0; i < n; i++) this.u8();
  }
  /** `cch` characters starting in the given width; a segment boundary re-reads the option byte. */
  chars(cch: number, highByte: boolean): string {
    let out = '';
    let wide = highByte;
    let left = cch;
    while (left > 0) {
      while (this.pos >= this.parts[this.seg]!.length) {
        if (this.seg + 1 >= this.parts.length) fail(`${this.what}: string of ${cch} characters runs past the last CONTINUE record`);
        this.seg++;
        this.pos = 0;
        const flag = this.parts[this.seg]![this.pos++] ?? fail(`${this.what}: empty CONTINUE record inside a string`);
        if ((flag & 0xfe) !== 0) fail(`${this.what}: CONTINUE record inside a string starts with option byte ${flag}, expected 0 or 1`);
        wide = (flag & 1) === 1;
      }
      const part = this.parts[this.seg]!;
      const room = wide ? Math.floor((part.length - this.pos) / 2) : part.length - this.pos;
      if (room === 0) fail(`${this.what}: a UTF-16 character is split across a record boundary`);
      const n = Math.min(left, room);
      if (wide) {
        const codes: number[] = new Array(n);
        for (let i = 0; i < n; i++) codes[i] = part[this.pos + 2 * i]! | (part[this.pos + 2 * i + 1]! << 8);
        out += String.fromCharCode(...codes);
        this.pos += 2 * n;
      } else {
        out += String.fromCharCode(...part.subarray(this.pos, this.pos + n));
        this.pos += n;
      }
      left -= n;
    }
    return out;
  }
  /** XLUnicodeRichExtendedString (SST entries): cch, flags, optional runs and phonetic data. */
  richString(): string {
    const cch = this.u16();
    const flags = this.u8();
    const runs = flags & 0x08 ? this.u16() : 0;
    const ext = flags & 0x04 ? this.u32() : 0;
    const s = this.chars(cch, (flags & 1) === 1);
    this.skip(4 * runs + ext);
    return s;
  }
  /** XLUnicodeString (LABEL, STRING): cch, flags, characters. */
  plainString(): string {
    const cch = this.u16();
    const flags = this.u8();
    return this.chars(cch, (flags & 1) === 1);
  }
}

function withContinues(stream: Uint8Array, at: number): { parts: Uint8Array[]; rec: Rec; next: number } {
  const first = recordAt(stream, at);
  const parts = [first.rec.data];
  let next = first.next;
  while (next + 4 <= stream.length && (stream[next]! | (stream[next + 1]! << 8)) === R.CONTINUE) {
    const c = recordAt(stream, next);
    parts.push(c.rec.data);
    next = c.next;
  }
  return { parts, rec: first.rec, next };
}

function rk(v: number): number {
  let n: number;
  if (v & 2) n = v >> 2; // signed 30-bit integer
  else {
    const b = new DataView(new ArrayBuffer(8));
    b.setUint32(4, v & 0xfffffffc, true);
    b.setUint32(0, 0, true);
    n = b.getFloat64(0, true);
  }
  return v & 1 ? n / 100 : n;
}

const dvOf = (d: Uint8Array) => new DataView(d.buffer, d.byteOffset, d.byteLength);

function need(rec: Rec, n: number, what: string): void {
  if (rec.data.length < n) fail(`Workbook stream: ${what} record at offset ${rec.at} is ${rec.data.length} bytes, needs at least ${n}`);
}

/** Parse a BIFF8 Workbook stream into sheets of cells (the shape of the xlsx reader). */
export function parseBiff8(stream: Uint8Array): Workbook {
  const bof = recordAt(stream, 0).rec;
  if (bof.type !== R.BOF) fail('Workbook stream does not start with a BOF record');
  need(bof, 4, 'BOF');
  const version = bof.data[0]! | (bof.data[1]! << 8);
  if (version !== 0x0600) fail(`Workbook stream is BIFF version 0x${version.toString(16)}, not BIFF8 (0x0600): Excel 5.0/95 and older are not supported`);

  // Globals: sheet list and shared strings.
  const sheets: Array<{ name: string; offset: number }> = [];
  let sst: string[] = [];
  let at = 0;
  let sawEof = false;
  while (at < stream.length) {
    const { parts, rec, next } = withContinues(stream, at);
    at = next;
    if (rec.type === R.EOF) {
      sawEof = true;
      break;
    }
    if (rec.type === R.FILEPASS) fail('the workbook is encrypted or password-protected (FILEPASS record)');
    if (rec.type === R.BOUNDSHEET) {
      need(rec, 8, 'BOUNDSHEET8');
      const offset = dvOf(rec.data).getUint32(0, true);
      const kind = rec.data[5]!;
      const r = new Segments([rec.data.subarray(6)], `BOUNDSHEET8 at offset ${rec.at}`);
      const cch = r.u8();
      const name = r.chars(cch, (r.u8() & 1) === 1);
      if (kind === 0) sheets.push({ name, offset });
    } else if (rec.type === R.SST) {
      need(rec, 8, 'SST');
      const r = new Segments(parts, `SST at offset ${rec.at}`);
      r.u32(); // total references
      const unique = r.u32();
      const bytes = parts.reduce((a, p) => a + p.length, 0);
      // Every entry takes at least 3 bytes (count and option byte): a larger count is damage.
      if (unique * 3 > bytes) fail(`SST at offset ${rec.at} declares ${unique} strings in ${bytes} bytes`);
      sst = new Array<string>(unique);
      for (let i = 0; i < unique; i++) sst[i] = r.richString();
    }
  }
  if (!sawEof) fail('Workbook stream: the globals substream has no EOF record (truncated file)');
  if (sheets.length === 0) fail('the workbook lists no worksheet (BOUNDSHEET8 records)');

  return sheets.map(({ name, offset }) => ({ sheet: name, data: readSheet(stream, offset, name, sst) }));
}

function readSheet(stream: Uint8Array, offset: number, name: string, sst: readonly string[]): SheetCell[][] {
  const where = `sheet "${name}"`;
  const head = recordAt(stream, offset).rec;
  if (head.type !== R.BOF) fail(`${where}: BOUNDSHEET8 offset ${offset} does not point at a BOF record`);
  const data: SheetCell[][] = [];
  const put = (row: number, col: number, value: SheetCell) => {
    if (value === null || value === undefined) return;
    // BIFF8 sheets have 256 columns (A..IV); a larger index is a damaged record, not a cell.
    if (col > 255) fail(`${where}: cell at row ${row + 1} has column index ${col}, beyond BIFF8's 256 columns`);
    while (data.length <= row) data.push([]);
    const cells = data[row]!;
    while (cells.length < col) cells.push(null);
    cells[col] = value;
  };
  const text = (s: string) => s.trim() || null;
  let at = recordAt(stream, offset).next;
  let pendingString: { row: number; col: number } | null = null;
  // Embedded charts are BOF ... EOF substreams inside the sheet's: skipped, they hold no cells.
  let nested = 0;
  for (;;) {
    if (at >= stream.length) fail(`${where}: no EOF record before the end of the stream (truncated file)`);
    const { parts, rec, next } = withContinues(stream, at);
    at = next;
    const d = rec.data;
    const v = dvOf(d);
    if (rec.type === R.BOF) {
      nested++;
      continue;
    }
    if (nested > 0) {
      if (rec.type === R.EOF) nested--;
      continue;
    }
    if (pendingString && rec.type !== R.STRING && !FORMULA_COMPANIONS.has(rec.type)) fail(`${where}: FORMULA at row ${pendingString.row + 1} has a text result but no STRING record follows`);
    switch (rec.type) {
      case R.EOF: {
        while (data.length > 0 && data[data.length - 1]!.length === 0) data.pop();
        const width = Math.max(0, ...data.map((r) => r.length));
        for (const row of data) while (row.length < width) row.push(null);
        return data;
      }
      case R.LABELSST: {
        need(rec, 10, 'LABELSST');
        const i = v.getUint32(6, true);
        if (i >= sst.length) fail(`${where}: LABELSST at row ${v.getUint16(0, true) + 1} refers to shared string ${i}, the table has ${sst.length}`);
        put(v.getUint16(0, true), v.getUint16(2, true), text(sst[i]!));
        break;
      }
      case R.LABEL: {
        need(rec, 9, 'LABEL');
        put(v.getUint16(0, true), v.getUint16(2, true), text(new Segments([d.subarray(6), ...parts.slice(1)], `${where} LABEL`).plainString()));
        break;
      }
      case R.NUMBER:
        need(rec, 14, 'NUMBER');
        put(v.getUint16(0, true), v.getUint16(2, true), v.getFloat64(6, true));
        break;
      case R.RK:
        need(rec, 10, 'RK');
        put(v.getUint16(0, true), v.getUint16(2, true), rk(v.getUint32(6, true)));
        break;
      case R.MULRK: {
        need(rec, 12, 'MULRK');
        const row = v.getUint16(0, true);
        const first = v.getUint16(2, true);
        const n = (d.length - 6) / 6;
        const last = v.getUint16(d.length - 2, true);
        if (!Number.isInteger(n) || last !== first + n - 1) fail(`${where}: MULRK at offset ${rec.at} has ${d.length} bytes for columns ${first}-${last}`);
        for (let k = 0; k < n; k++) put(row, first + k, rk(v.getUint32(4 + 6 * k + 2, true)));
        break;
      }
      case R.BOOLERR: {
        need(rec, 8, 'BOOLERR');
        const b = d[6]!;
        put(v.getUint16(0, true), v.getUint16(2, true), d[7] ? (ERRORS[b] ?? fail(`${where}: BOOLERR with unknown error code 0x${b.toString(16)}`)) : b !== 0);
        break;
      }
      case R.FORMULA: {
        need(rec, 20, 'FORMULA');
        const row = v.getUint16(0, true);
        const col = v.getUint16(2, true);
        if (v.getUint16(12, true) !== 0xffff) put(row, col, v.getFloat64(6, true));
        else {
          const kind = d[6]!;
          if (kind === 0) pendingString = { row, col };
          else if (kind === 1) put(row, col, d[8] !== 0);
          else if (kind === 2) put(row, col, ERRORS[d[8]!] ?? fail(`${where}: FORMULA with unknown error code 0x${d[8]!.toString(16)}`));
          else if (kind !== 3) fail(`${where}: FORMULA at row ${row + 1} has an unknown cached-value type ${kind}`);
        }
        break;
      }
      case R.STRING: {
        if (!pendingString) break; // a STRING after an array or shared formula we did not read
        put(pendingString.row, pendingString.col, text(new Segments(parts, `${where} STRING`).plainString()));
        pendingString = null;
        break;
      }
      default:
        break; // formatting, dimensions, blanks, window and print settings: no values
    }
  }
}

/** Parse an .xls file's bytes: the Workbook stream of its compound file, then BIFF8. */
export function parseXls(bytes: Uint8Array): Workbook {
  const s = readCfbStream(bytes, ['Workbook', 'Book']);
  if (!s) fail('compound file has no Workbook stream: not an Excel workbook');
  if (s!.name.toLowerCase() === 'book') fail('the workbook is Excel 5.0/95 (BIFF5 "Book" stream); only BIFF8 (Excel 97-2003) is supported');
  return parseBiff8(s!.data);
}

/** Read an .xls file; errors name the file. */
export async function readXls(file: string): Promise<Workbook> {
  const bytes = await readFile(file);
  try {
    return parseXls(bytes);
  } catch (e) {
    if (e instanceof XlsError) throw new XlsError(`${file}: ${e.message}`);
    throw e;
  }
}
