// Writes small legacy .xls workbooks (BIFF8 records inside an OLE2 compound file) so the .xls
// reader can be tested without committing binary files. Written from [MS-CFB] and [MS-XLS]
// directly, sharing no code with build/sources/xls-read.ts. It can place the SST's strings so
// they cross CONTINUE boundaries (with the option byte switching between 8-bit and UTF-16), put
// numbers as RK, MULRK or NUMBER, and store the Workbook stream in the mini stream or in
// regular sectors.

export type XlsCell =
  | string
  | number
  | boolean
  | null
  | { rk: number } // an RK-encodable number written as RK
  | { formula: number | string | boolean }
  | { label: string } // an inline LABEL record instead of LABELSST
  | { error: number } // BOOLERR error code
  | { chart: true }; // an embedded chart substream (BOF ... EOF) at this point, no cell

export interface XlsSheet {
  name: string;
  rows: XlsCell[][];
}

export interface XlsOptions {
  /** Largest SST record / CONTINUE payload: small values force strings across CONTINUE records. */
  sstChunk?: number;
  /** Write consecutive RK-able numbers of a row as one MULRK record. */
  mulrk?: boolean;
  /** Pad the Workbook stream to at least 4096 bytes so it sits in regular sectors. */
  bigStream?: boolean;
}

const u16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const u32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
const f64 = (x: number) => [...new Uint8Array(new Float64Array([x]).buffer)];
const record = (type: number, body: number[]) => [...u16(type), ...u16(body.length), ...body];

/** Is the string representable in 8 bits (BIFF8 "compressed")? */
const units = (s: string) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
const narrow = (s: string) => units(s).every((u) => u < 256);
/** Characters as BIFF8 stores them: one byte each (8-bit) or UTF-16LE code units; cch counts code units. */
const encodeChars = (s: string, wide: boolean) => (wide ? units(s).flatMap(u16) : units(s));

/** RK encoding of an integer in the signed 30-bit range, optionally the x100 form. */
export function rkOf(x: number): number | null {
  if (Number.isInteger(x) && x >= -(2 ** 29) && x < 2 ** 29) return ((x << 2) | 2) >>> 0;
  const c = Math.round(x * 100);
  if (Math.abs(x * 100 - c) < 1e-9 && c >= -(2 ** 29) && c < 2 ** 29) return ((c << 2) | 3) >>> 0;
  return null;
}

/**
 * SST record + CONTINUE records. Strings are split wherever the chunk boundary falls: inside the
 * characters a continuation starts with a fresh option byte (0 = 8-bit, 1 = UTF-16); we flip to
 * UTF-16 for the remainder on every second split of a narrow string to exercise the re-read.
 */
function sstRecords(strings: string[], total: number, chunk: number): number[] {
  const parts: number[][] = [[...u32(total), ...u32(strings.length)]];
  const room = () => chunk - parts[parts.length - 1]!.length;
  const push = (bytes: number[]) => parts[parts.length - 1]!.push(...bytes);
  let splits = 0;
  for (const s of strings) {
    let wide = !narrow(s);
    // Header (cch + option byte) is never split: start a new CONTINUE if it does not fit.
    if (room() < 3) parts.push([]);
    push([...u16(s.length), wide ? 1 : 0]);
    let i = 0;
    while (i < s.length) {
      const per = wide ? 2 : 1;
      const n = Math.min(s.length - i, Math.floor(room() / per));
      if (n === 0) {
        parts.push([]);
        splits++;
        if (!wide && splits % 2 === 0) wide = true;
        push([wide ? 1 : 0]);
        continue;
      }
      push(encodeChars(s.slice(i, i + n), wide));
      i += n;
    }
  }
  return parts.flatMap((p, k) => record(k === 0 ? 0x00fc : 0x003c, p));
}

function xlUnicodeString(s: string): number[] {
  const wide = !narrow(s);
  return [...u16(s.length), wide ? 1 : 0, ...encodeChars(s, wide)];
}

/** The Workbook stream: globals (BOF, BOUNDSHEET8 x n, SST, EOF), then one substream per sheet. */
export function biff8Stream(sheets: XlsSheet[], opts: XlsOptions = {}): Uint8Array {
  const strings: string[] = [];
  const index = new Map<string, number>();
  let refs = 0;
  for (const sh of sheets)
    for (const row of sh.rows)
      for (const c of row)
        if (typeof c === 'string') {
          refs++;
          if (!index.has(c)) index.set(c, strings.push(c) - 1);
        }
  const bof = (dt: number) => record(0x0809, [...u16(0x0600), ...u16(dt), ...u16(0x0dbb), ...u16(0x07cc), ...u32(0), ...u32(0x06)]);
  const eof = record(0x000a, []);

  const sheetBodies = sheets.map((sh) => {
    const out: number[] = [...bof(0x0010)];
    sh.rows.forEach((row, r) => {
      for (let c = 0; c < row.length; c++) {
        const v = row[c];
        if (v === null || v === undefined) continue;
        const head = [...u16(r), ...u16(c), ...u16(15)];
        if (typeof v === 'object' && 'chart' in v) {
          // A chart substream with a record that looks like a cell, which must not become one.
          out.push(...bof(0x0020), ...record(0x0203, [...u16(r), ...u16(c), ...u16(15), ...f64(99)]), ...eof);
          continue;
        }
        if (opts.mulrk && typeof v === 'object' && 'rk' in v) {
          let end = c;
          while (end + 1 < row.length && typeof row[end + 1] === 'object' && row[end + 1] !== null && 'rk' in (row[end + 1] as object)) end++;
          if (end > c) {
            const cells = row.slice(c, end + 1).flatMap((x) => [...u16(15), ...u32(rkOf((x as { rk: number }).rk)!)]);
            out.push(...record(0x00bd, [...u16(r), ...u16(c), ...cells, ...u16(end)]));
            c = end;
            continue;
          }
        }
        if (typeof v === 'string') out.push(...record(0x00fd, [...head, ...u32(index.get(v)!)]));
        else if (typeof v === 'number') out.push(...record(0x0203, [...head, ...f64(v)]));
        else if (typeof v === 'boolean') out.push(...record(0x0205, [...head, v ? 1 : 0, 0]));
        else if ('rk' in v) out.push(...record(0x027e, [...head, ...u32(rkOf(v.rk)!)]));
        else if ('label' in v) out.push(...record(0x0204, [...head, ...xlUnicodeString(v.label)]));
        else if ('error' in v) out.push(...record(0x0205, [...head, v.error, 1]));
        else {
          const x = v.formula;
          const tail = [...u16(0), ...u32(0), ...u16(3), 0x1e, ...u16(1)]; // flags, chn, cce=3: ptgInt 1
          if (typeof x === 'number') out.push(...record(0x0006, [...head, ...f64(x), ...tail]));
          else if (typeof x === 'boolean') out.push(...record(0x0006, [...head, 1, 0, x ? 1 : 0, 0, 0, 0, 0xff, 0xff, ...tail]));
          else out.push(...record(0x0006, [...head, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...tail]), ...record(0x0207, xlUnicodeString(x)));
        }
      }
    });
    out.push(...eof);
    return out;
  });

  const boundsheet = (name: string, pos: number) => record(0x0085, [...u32(pos), 0, 0, name.length, narrow(name) ? 0 : 1, ...encodeChars(name, !narrow(name))]);
  const sst = strings.length ? sstRecords(strings, refs, opts.sstChunk ?? 8224) : [];
  const globalsLen = bof(0x0005).length + sheets.reduce((a, s) => a + boundsheet(s.name, 0).length, 0) + sst.length + eof.length;
  const globals: number[] = [...bof(0x0005)];
  let pos = globalsLen;
  sheets.forEach((s, i) => {
    globals.push(...boundsheet(s.name, pos));
    pos += sheetBodies[i]!.length;
  });
  globals.push(...sst, ...eof);
  const bytes = [...globals, ...sheetBodies.flat()];
  if (opts.bigStream) while (bytes.length < 5000) bytes.push(0);
  return Uint8Array.from(bytes);
}

const ENDOFCHAIN = 0xfffffffe;
const FREESECT = 0xffffffff;
const FATSECT = 0xfffffffd;
const NOSTREAM = 0xffffffff;

/** Directory entry: 128 bytes, UTF-16 name, type, colour black, no siblings, start sector, size. */
function dirEntry(name: string, type: number, start: number, size: number, child = NOSTREAM): number[] {
  const nm = [...name].flatMap((c) => u16(c.charCodeAt(0)));
  const e = [...nm, ...new Array(64 - nm.length).fill(0), ...u16(nm.length + 2), type, 1, ...u32(NOSTREAM), ...u32(NOSTREAM), ...u32(child)];
  e.push(...new Array(16 + 4 + 16).fill(0)); // CLSID, state bits, times
  e.push(...u32(start), ...u32(size), ...u32(0));
  return e;
}

/** A compound file holding one stream named `name`: version 3 (512-byte sectors) or 4 (4096). */
export function cfbFile(stream: Uint8Array, name = 'Workbook', version: 3 | 4 = 3): Uint8Array {
  const S = version === 3 ? 512 : 4096;
  const sectors: number[][] = [];
  const fatEntries: number[] = [];
  const alloc = (data: number[], link = true): number => {
    const first = sectors.length;
    const n = Math.max(1, Math.ceil(data.length / S));
    for (let i = 0; i < n; i++) {
      const part = data.slice(i * S, (i + 1) * S);
      sectors.push([...part, ...new Array(S - part.length).fill(0)]);
      fatEntries.push(link ? (i === n - 1 ? ENDOFCHAIN : first + i + 1) : ENDOFCHAIN);
    }
    return first;
  };
  const data = [...stream];
  let rootStart = ENDOFCHAIN;
  let rootSize = 0;
  let streamStart: number;
  let miniFatStart = ENDOFCHAIN;
  let nMiniFat = 0;
  if (data.length < 4096) {
    // Mini stream: 64-byte mini sectors chained by the mini FAT, stored as the root's stream.
    const n = Math.max(1, Math.ceil(data.length / 64));
    const miniFat = Array.from({ length: n }, (_, i) => (i === n - 1 ? ENDOFCHAIN : i + 1));
    const miniFatBytes = [...miniFat.flatMap(u32)];
    while (miniFatBytes.length % S) miniFatBytes.push(...u32(FREESECT));
    const container = [...data, ...new Array(n * 64 - data.length).fill(0)];
    rootStart = alloc(container);
    rootSize = container.length;
    miniFatStart = alloc(miniFatBytes);
    nMiniFat = miniFatBytes.length / S;
    streamStart = 0;
  } else streamStart = alloc(data);
  const dir = [...dirEntry('Root Entry', 5, rootStart, rootSize, 1), ...dirEntry(name, 2, streamStart, data.length)];
  while (dir.length < S) dir.push(...new Array(128).fill(0));
  const dirStart = alloc(dir);
  // One FAT sector covers S / 4 sectors: enough for these test files.
  const fatSector = sectors.length;
  fatEntries.push(FATSECT);
  sectors.push([]);
  if (fatEntries.length > S / 4) throw new Error('test xls too large for one FAT sector');
  const fat = [...fatEntries.flatMap(u32)];
  while (fat.length < S) fat.push(...u32(FREESECT));
  sectors[fatSector] = fat;

  const header = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(16).fill(0), ...u16(0x3e), ...u16(version), ...u16(0xfffe), ...u16(version === 3 ? 9 : 12), ...u16(6), ...new Array(6).fill(0)];
  // Directory sector count: must be 0 in version 3, the real count in version 4.
  header.push(...u32(version === 3 ? 0 : Math.ceil(dir.length / S)), ...u32(1), ...u32(dirStart), ...u32(0), ...u32(4096), ...u32(miniFatStart), ...u32(nMiniFat), ...u32(ENDOFCHAIN), ...u32(0));
  header.push(...u32(fatSector));
  while (header.length < 512) header.push(...u32(FREESECT)); // the other 108 DIFAT slots
  while (header.length < S) header.push(0); // version 4: the header sector is zero-padded
  return Uint8Array.from([...header, ...sectors.flat()]);
}

export const writeXlsBytes = (sheets: XlsSheet[], opts: XlsOptions & { version?: 3 | 4 } = {}) => cfbFile(biff8Stream(sheets, opts), 'Workbook', opts.version ?? 3);
