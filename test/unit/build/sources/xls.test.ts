// The legacy .xls (BIFF8) reader: workbooks written at test time by an independent writer
// (helpers/make-xls.ts), damaged copies of them, and the real ISCO-08 / SOC crosswalk of the
// data mirror when it is present. Expected values are written by hand, not taken from the reader.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBiff8, parseXls, readCfbStream, readXls, XlsError } from '../../../../build/sources/xls-read.ts';
import { readXlsx } from '../../../../build/sources/xlsx-read.ts';
import { biff8Stream, cfbFile, rkOf, writeXlsBytes, type XlsSheet } from './helpers/make-xls.ts';
import { repoRoot } from './helpers/paths.ts';

const LONG = 'The quick brown fox jumps over the lazy dog; '.repeat(4).trim();
const UNICODE = 'Ωmega – 日本語 café 😀';

const SHEETS: XlsSheet[] = [
  {
    name: 'Data',
    rows: [
      ['ISCO-08 Code', 'Title', 'Score'],
      ['0110', LONG, { rk: 12 }],
      ['4132', UNICODE, { rk: 1.25 }],
      ['2512', '  padded  ', { rk: -7 }],
      ['9629', 'café', 3.14159],
      [null, null, null],
      ['row with gap', null, { formula: 42.5 }],
      [{ label: 'inline LABEL' }, { formula: 'cached text' }, { formula: true }],
      [true, false, { error: 0x2a }],
      [{ rk: 1 }, { rk: 2 }, { rk: 300 }, { rk: 0.07 }],
      [{ chart: true }, 'after the chart'],
    ],
  },
  { name: 'Zweite Tabelle', rows: [['only', LONG]] },
];

const EXPECTED = [
  {
    sheet: 'Data',
    data: [
      ['ISCO-08 Code', 'Title', 'Score', null],
      ['0110', LONG, 12, null],
      ['4132', UNICODE, 1.25, null],
      ['2512', 'padded', -7, null],
      ['9629', 'café', 3.14159, null],
      [null, null, null, null],
      ['row with gap', null, 42.5, null],
      ['inline LABEL', 'cached text', true, null],
      [true, false, '#N/A', null],
      [1, 2, 300, 0.07],
      [null, 'after the chart', null, null],
    ],
  },
  { sheet: 'Zweite Tabelle', data: [['only', LONG]] },
];

/** Record types in a BIFF stream, walked by length only (independent of the reader). */
function recordTypes(stream: Uint8Array): number[] {
  const out: number[] = [];
  for (let at = 0; at + 4 <= stream.length; ) {
    const type = stream[at]! | (stream[at + 1]! << 8);
    if (type === 0 && stream[at + 2] === 0) break; // padding
    out.push(type);
    at += 4 + (stream[at + 2]! | (stream[at + 3]! << 8));
  }
  return out;
}

describe('xls reader on generated BIFF8 workbooks', () => {
  it('encodes RK numbers as the spec says (writer self-check)', () => {
    expect(rkOf(12)).toBe((12 << 2) | 2);
    expect(rkOf(1.25)).toBe((125 << 2) | 3);
    expect(rkOf(3.14159)).toBeNull();
  });

  it('reads strings, RK, MULRK, NUMBER, formulas, LABEL and BOOLERR with the SST split across CONTINUE records', () => {
    const stream = biff8Stream(SHEETS, { sstChunk: 40, mulrk: true });
    const types = recordTypes(stream);
    // The fixture really holds what the test claims: several CONTINUE records and a MULRK.
    expect(types.filter((t) => t === 0x003c).length).toBeGreaterThanOrEqual(5);
    expect(types).toContain(0x00bd);
    expect(types).toContain(0x027e);
    expect(types).toContain(0x0207);
    expect(parseXls(cfbFile(stream))).toEqual(EXPECTED);
  });

  it('gives the same cells whatever the record layout and wherever the stream is stored', () => {
    const layouts = [{}, { sstChunk: 13 }, { sstChunk: 29, mulrk: true }, { bigStream: true }, { bigStream: true, sstChunk: 17, mulrk: true }];
    // Version 4 compound files (4096-byte sectors) as well as version 3.
    for (const opts of [...layouts, ...layouts.map((l) => ({ ...l, version: 4 as const }))]) {
      expect(parseXls(writeXlsBytes(SHEETS, opts))).toEqual(EXPECTED);
    }
    // Small streams live in the mini stream; padded ones in regular sectors: both paths read.
    expect(readCfbStream(writeXlsBytes(SHEETS), ['Workbook'])!.data.length).toBeLessThan(4096);
    expect(readCfbStream(writeXlsBytes(SHEETS, { bigStream: true }), ['Workbook'])!.data.length).toBeGreaterThanOrEqual(4096);
    const v4 = writeXlsBytes(SHEETS, { version: 4 });
    expect([v4[0x1a], v4[0x1e], v4.length % 4096]).toEqual([4, 12, 0]);
  });

  it('re-reads the option byte when a string continues in UTF-16 after 8-bit characters', () => {
    // Chunk 13 splits the long ASCII string many times; the writer switches to UTF-16 on every
    // second split, so a reader that kept the first width would garble it.
    const stream = biff8Stream([{ name: 'S', rows: [[LONG], [UNICODE]] }], { sstChunk: 13 });
    expect(recordTypes(stream).filter((t) => t === 0x003c).length).toBeGreaterThan(10);
    expect(parseBiff8(stream)).toEqual([{ sheet: 'S', data: [[LONG], [UNICODE]] }]);
  });
});

describe('xls reader on unfamiliar or broken files', () => {
  const good = writeXlsBytes(SHEETS, { sstChunk: 40, mulrk: true });
  const stream = biff8Stream(SHEETS, { sstChunk: 40, mulrk: true });
  const err = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e;
    }
    return null;
  };

  it('rejects what is not an OLE2 workbook, naming the problem', () => {
    expect(() => parseXls(new TextEncoder().encode('ISCO-08 Code,Title\n0110,Officers\n'.repeat(40)))).toThrow(/not an OLE2 compound file/);
    expect(() => parseXls(new Uint8Array([0x50, 0x4b, 3, 4]))).toThrow(/too short/);
    expect(() => parseXls(cfbFile(Uint8Array.from([1, 2, 3]), 'Other'))).toThrow(/no Workbook stream/);
    expect(() => parseXls(cfbFile(biff8Stream(SHEETS), 'Book'))).toThrow(/Excel 5\.0\/95/);
  });

  it('rejects BIFF versions other than 8 and encrypted workbooks', () => {
    const biff5 = Uint8Array.from(stream);
    biff5[4] = 0x00;
    biff5[5] = 0x05; // BOF version 0x0500
    expect(() => parseBiff8(biff5)).toThrow(/not BIFF8/);
    const bof = stream.subarray(0, 20);
    const filepass = [0x2f, 0x00, 0x02, 0x00, 0x01, 0x00];
    expect(() => parseBiff8(Uint8Array.from([...bof, ...filepass, ...stream.subarray(20)]))).toThrow(/encrypted/);
  });

  it('reports a string cut short instead of returning part of the table', () => {
    // Drop the last CONTINUE record of the SST: the string it finished now runs off the end.
    const types: Array<{ type: number; at: number; len: number }> = [];
    for (let at = 0; at + 4 <= stream.length; ) {
      const len = stream[at + 2]! | (stream[at + 3]! << 8);
      types.push({ type: stream[at]! | (stream[at + 1]! << 8), at, len });
      at += 4 + len;
    }
    const last = types.filter((t) => t.type === 0x003c).at(-1)!;
    const cut = Uint8Array.from([...stream.subarray(0, last.at), ...stream.subarray(last.at + 4 + last.len)]);
    expect(() => parseBiff8(cut)).toThrow(XlsError);
  });

  it('fails with an XlsError, never another exception, on every truncation of the file', () => {
    for (let n = 0; n < good.length; n += 37) {
      const e = err(() => parseXls(good.subarray(0, n)));
      expect(e, `truncated at ${n}`).toBeInstanceOf(XlsError);
    }
  });

  it('either reads or fails with an XlsError on damaged bytes (no crash, no endless loop)', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    let failed = 0;
    for (let k = 0; k < 300; k++) {
      const bad = Uint8Array.from(good);
      for (let j = 0; j < 4; j++) bad[Math.floor(rand() * bad.length)] = Math.floor(rand() * 256);
      const e = err(() => parseXls(bad));
      if (e !== null) {
        expect(e).toBeInstanceOf(XlsError);
        failed++;
      }
    }
    expect(failed).toBeGreaterThan(0);
  });

  it('names the file in errors from readXls', async () => {
    const file = path.join(repoRoot, 'package.json');
    await expect(readXls(file)).rejects.toThrow(/package\.json: not an OLE2 compound file/);
  });
});

const mirror = path.resolve(repoRoot, '../shared/data');
const crosswalk = path.join(mirror, 'bls/isco_soc_crosswalk.xls');
const ilo = path.join(mirror, 'validation/Final_Scores_ISCO08_Gmyrek_et_al_2025.xlsx');

// Figures checked independently of this reader: with Python's xlrd 2.0.2 (a throw-away install,
// not a project dependency: same sheets, sizes and cells) and, for the ILO codes, the mirror's
// SOURCES.md ("all 427 ISCO codes are in bls/isco_soc_crosswalk.xls").
describe.skipIf(!existsSync(crosswalk))('xls reader on the mirror ISCO-08 / SOC 2010 crosswalk', () => {
  it('reads both sheets in full, with the rows a spreadsheet shows', async () => {
    const wb = await readXls(crosswalk);
    expect(wb.map((s) => [s.sheet, s.data.length, s.data[0]!.length])).toEqual([
      ['ISCO-08 to 2010 SOC', 1132, 6],
      ['2010 SOC to ISCO-08', 1132, 6],
    ]);
    const rows = wb[0]!.data;
    expect(rows[6]).toEqual(['ISCO-08 Code', 'ISCO-08 Title EN', 'part', '2010 SOC Code', '2010 SOC Title', 'Comment 8/17/11']);
    expect(rows[7]).toEqual(['0110', 'Commissioned armed forces officers', '*', '55-1011', 'Air Crew Officers', null]);
    expect(rows.at(-1)).toEqual(['9629', 'Elementary workers not elsewhere classified', '*', '53-6021', 'Parking Lot Attendants', null]);
    expect(rows.filter((r) => r[0] === '4132')).toEqual([['4132', 'Data entry clerks', null, '43-9021', 'Data Entry Keyers', null]]);
    expect(rows.filter((r) => r[0] === '2512').map((r) => r[3])).toEqual(['15-1132', '15-1133']);
    const data = rows.slice(7);
    expect(data).toHaveLength(1125);
    expect(new Set(data.map((r) => r[0])).size).toBe(438);
    expect(new Set(data.map((r) => r[3])).size).toBe(840);
    expect(data.filter((r) => r[2] === '*')).toHaveLength(970);
    // The second sheet is the same mapping read the other way.
    const pairs = (rs: unknown[][], a: number, b: number) => rs.map((r) => `${String(r[a])}>${String(r[b])}`).sort();
    expect(pairs(wb[1]!.data.slice(7), 3, 0)).toEqual(pairs(data, 0, 3));
  });

  it.skipIf(!existsSync(ilo))('covers every ISCO-08 code of the ILO 2025 scores', async () => {
    const [scores] = await readXlsx(ilo);
    const codes = new Set(scores!.data.slice(1).map((r) => String(r[2])));
    expect(codes.size).toBe(427);
    const inCrosswalk = new Set((await readXls(crosswalk))[0]!.data.slice(7).map((r) => r[0]));
    expect([...codes].filter((c) => !inCrosswalk.has(c))).toEqual([]);
  });
});
