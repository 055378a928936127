import { describe, expect, it } from 'vitest';
import { parseCsv, parseDelimited, rowRecord, sheetToTable, splitDelimited } from '../../../build/sources/table.ts';

describe('parseDelimited', () => {
  it('reads O*NET tab text with CSV-style quoted fields and keeps file line numbers', () => {
    const text = 'A\tB\n1\t"say ""hi"" now"\n\n2\tplain "inner" quote\n';
    const table = parseDelimited(text, '\t');
    expect(table.header).toEqual(['A', 'B']);
    expect(table.rows).toEqual([
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
    for (const [text, d] of texts.flatMap((t) => [[t, '\t'], [t, ',']] as const)) expect(splitDelimited(text, d), JSON.stringify(text)).toEqual(parseCsv(text, d));
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
    expect(table.rows).toEqual([{ line: 3, cells: ['11-1011', 'Line item', '4.5'] }]);
    expect(table.noteRows).toBe(2);
  });
});

describe('rowRecord', () => {
  it('trims cells and fills missing trailing cells with blanks', () => {
    expect(rowRecord(['a', 'b', 'c'], [' x ', 'y'])).toEqual({ a: 'x', b: 'y', c: '' });
  });
});
