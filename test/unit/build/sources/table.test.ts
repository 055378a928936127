import { describe, expect, it } from 'vitest';
import { matrixRows, parseCsv, parseDelimited, rowRecord, sheetTable, splitDelimited, splitQuoted, type Table } from '../../../../build/sources/table.ts';
import type { SheetCell } from '../../../../build/sources/xlsx-read.ts';
import { parseIwaWeights } from '../../../../build/sources/exposure.ts';
import { parseEducation, parseLevelAnchors } from '../../../../build/sources/onet.ts';
import { FileLog } from '../../../../build/sources/rows.ts';

/** A sheet already read as a 2D array, as a table. */
const sheetToTable = (data: SheetCell[][], wanted: string[]) => sheetTable(matrixRows(data), wanted);

/** A table as plain data: its rows read (once, as parsers read them), then its note count. */
const read = (t: Table | null) => (t === null ? null : { header: t.header, rows: [...t.rows], noteRows: t.noteRows });

describe('parseDelimited', () => {
  it('reads O*NET tab text with CSV-style quoted fields and keeps file line numbers', () => {
    const text = 'A\tB\n1\t"say ""hi"" now"\n\n2\tplain "inner" quote\n';
    const table = parseDelimited(text, '\t');
    expect(table.header).toEqual(['A', 'B']);
    expect([...table.rows]).toEqual([
      { line: 2, cells: ['1', 'say "hi" now'] },
      { line: 4, cells: ['2', 'plain "inner" quote'] },
    ]);
  });

  it('splits quote-free text exactly as the CSV parser reads it (line endings, blank lines, BOM, ragged rows)', () => {
    const texts = [
      'A\tB\tC\n1\t2\t3\n',
      '\uFEFFA\tB\r\n1\t2\r\n\r\n3\t4\r\n',
      'A,B\n\n\n1,2\n3\n4,5,6\n,\n',
      'A\tB\n1\t  spaced  \n2\t',
      'only header\n',
      '',
    ];
    for (const [text, d] of texts.flatMap((t) => [[t, '\t'], [t, ',']] as const)) expect(read(splitDelimited(text, d)), JSON.stringify(text)).toEqual(read(parseCsv(text, d)));
  });

  it('splits regular quoted text exactly as the CSV parser reads it', () => {
    const texts = [
      'A,B\n"x, y",2\n',
      '\uFEFF"A","B"\r\n"1","say ""hi"""\r\n\r\n,""\r\n',
      'A\tB\n1\t"say ""hi"" now"\n\n2\tplain "inner" quote\n3\t"""quoted start"\n',
      'A,B,C\n"",,""\n""\n"a"\n1,2,3,4\n5',
      'A,B\n" spaced ",x"y"z\n"ends with delimiter",\n',
      'A,B\n"""",""""""\n',
    ];
    for (const [text, d] of texts.flatMap((t) => [[t, '\t'], [t, ',']] as const)) {
      const fast = splitQuoted(text, d);
      // With the other delimiter a closing quote may be followed by text: then null is right.
      if (fast) expect(read(fast), JSON.stringify([text, d])).toEqual(read(parseCsv(text, d)));
      else expect(d === '\t' && text.includes(',')).toBe(true);
    }
  });

  it('leaves irregular quoted text to the CSV parser (line breaks in quotes, mixed endings, text after a closing quote)', () => {
    const irregular = ['A,B\n"two\nlines",1\n', 'A,B\r\n1,"x"\n2,y\r\n', 'A,B\n1,"x"\r\n', 'A,B\r1,"x"\r', 'A,B\n"x"y,1\n', 'A,B\n"never closed,1\n'];
    const outcome = (f: () => unknown) => {
      try {
        return f();
      } catch (e) {
        return (e as Error).message;
      }
    };
    for (const text of irregular) {
      expect(splitQuoted(text, ','), JSON.stringify(text)).toBeNull();
      // parseDelimited reads it (or fails) exactly as csv-parse does.
      expect(outcome(() => read(parseDelimited(text, ',')))).toEqual(outcome(() => read(parseCsv(text, ','))));
    }
  });

  it('strips a byte-order mark and collapses whitespace in header names', () => {
    const table = parseDelimited('\uFEFFSeq. No.,2022 NAICS US   Code\n1,11\n', ',');
    expect(table.header).toEqual(['Seq. No.', '2022 NAICS US Code']);
  });
});

describe('sheetToTable', () => {
  it('finds the header below a title row and skips footnote rows', () => {
    const table = sheetToTable(
      [
        ['Table 1.2 Occupational projections', null, null],
        ['code', 'Occupation type', 'value'],
        ['11-1011', 'Line item', 4.5],
        [null, null, null],
        ['Footnotes:', null, null],
      ],
      ['Occupation type'],
    );
    expect(table.header).toEqual(['code', 'Occupation type', 'value']);
    expect([...table.rows]).toEqual([{ line: 3, cells: ['11-1011', 'Line item', '4.5'] }]);
    expect(table.noteRows).toBe(2);
  });
});

describe('sheetTable (rows as they are read)', () => {
  const blank = (n: number) => Array.from({ length: n }, () => [null, null]);

  it('takes the first row holding the wanted columns among the first 20, else the first filled row', () => {
    const late = sheetToTable([['title', null], ...blank(18), ['code', 'name'], ['a', 'b']], ['code', 'name']);
    expect(late.header).toEqual(['code', 'name']); // row 20 (index 19) is still searched
    const tooLate = sheetToTable([['title', null], ...blank(19), ['code', 'name'], ['a', 'b']], ['code', 'name']);
    expect(tooLate.header).toEqual(['title', '']);
    expect([...tooLate.rows].map((r) => r.line)).toEqual([21, 22]);
    // No filled row among the first 20: the first filled one, wherever it is.
    const deep = sheetToTable([...blank(25), ['x', 'y'], ['1', '2']], ['code']);
    expect(deep.header).toEqual(['x', 'y']);
    expect([...deep.rows]).toEqual([{ line: 27, cells: ['1', '2'] }]);
    expect(deep.noteRows).toBe(25);
  });

  it('counts note rows only as they are read, and reads its rows once', () => {
    const table = sheetToTable([['a', 'b'], ['1', '2'], ['Note: x', null]], []);
    expect(table.noteRows).toBe(0);
    expect([...table.rows]).toEqual([{ line: 2, cells: ['1', '2'] }]);
    expect(table.noteRows).toBe(1);
    expect(() => [...table.rows]).toThrow(/only once/);
  });

  it('pads rows to the widest row read so far', () => {
    const table = sheetToTable([['a', 'b', 'c'], ['1', 'x'], ['2', null, null, 'extra']], []);
    expect([...table.rows].map((r) => r.cells)).toEqual([['1', 'x', ''], ['2', '', '', 'extra']]);
  });
});

describe('rowRecord', () => {
  it('trims cells and fills missing trailing cells with blanks', () => {
    expect(rowRecord(['a', 'b', 'c'], [' x ', 'y'])).toEqual({ a: 'x', b: 'y', c: '' });
  });
});

describe('model 2 parsers', () => {
  it('reads the wide Tomlinson IWA weights, dropping zeros and rejecting bad cells with their line', () => {
    const log = new FileLog('soc_iwa_weights.csv', 'x/soc_iwa_weights.csv');
    const rows = parseIwaWeights(parseDelimited('SOC Code,4.A.1.a.1.I01,4.A.4.c.3.I07\n11-1011,2.5,0\n11-1021,x,1\nbad,1,1\n', ','), log);
    expect(rows).toEqual([{ soc: '11-1011', iwa_id: '4.A.1.a.1.I01', weight: 2.5 }, { soc: '11-1021', iwa_id: '4.A.4.c.3.I07', weight: 1 }]);
    expect(log.problems.map((p) => p.line)).toEqual([3, 4]);
  });

  it('keeps the RL and RW category rows of Education, Training, and Experience', () => {
    const log = new FileLog('Education, Training, and Experience.txt', 'x');
    const text = [
      'O*NET-SOC Code\tElement ID\tScale ID\tCategory\tData Value\tRecommend Suppress',
      '11-1011.00\t2.D.1\tRL\t6\t40.5\tN',
      '11-1011.00\t3.A.1\tRW\t11\t10\tY',
      '11-1011.00\t3.A.3\tOJ\t2\t5\tN',
      '11-1011.00\t2.D.1\tRL\t\t1\tN',
    ].join('\n');
    expect(parseEducation(parseDelimited(text, '\t'), log)).toEqual([
      { soc_code: '11-1011.00', scale_id: 'RL', category: 6, pct: 40.5, recommend_suppress: false },
      { soc_code: '11-1011.00', scale_id: 'RW', category: 11, pct: 10, recommend_suppress: true },
    ]);
    expect(log.notes.join(' ')).toMatch(/2 rows on scales other than RL\/RW or without a category not used/);
  });

  it('reads the LV anchors of Level Scale Anchors (the official columns), rejecting a row without a value', () => {
    const log = new FileLog('Level Scale Anchors.txt', 'x');
    const text = [
      'Element ID\tElement Name\tScale ID\tScale Name\tAnchor Value\tAnchor Description',
      '2.B.3.l\tRepairing\tLV\tLevel\t2\tFixture: fix a loose hinge',
      '2.B.3.l\tRepairing\tLV\tLevel\t\tFixture: no value',
      '2.B.3.l\tRepairing\tIM\tImportance\t3\tFixture: another scale',
    ].join('\n');
    expect(parseLevelAnchors(parseDelimited(text, '\t'), log)).toEqual([{ element_id: '2.B.3.l', value: 2, description: 'Fixture: fix a loose hinge' }]);
    expect(log.problems.map((p) => p.line)).toEqual([3]);
    expect(log.notes.join(' ')).toMatch(/1 rows on scales other than LV not used/);
  });

  it('puts a note known late at the place taken for it, before the notes written since (FileLog.noteAt)', () => {
    const log = new FileLog('f.txt', 'x/f.txt');
    log.note('first');
    const place = log.notePlace();
    log.note('written while reading');
    log.noteAt(place, 'known after reading');
    expect(log.toReport().notes).toEqual(['first', 'known after reading', 'written while reading']);
  });
});
