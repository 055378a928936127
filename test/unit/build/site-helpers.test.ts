// Pure helpers of the pages, downloads and docs, on hand-written inputs.
import { describe, expect, it } from 'vitest';
import { excerptJson, literalAsterisks } from '../../../build/emit/docs.ts';
import { csvCell } from '../../../build/emit/downloads.ts';
import { grouped } from '../../../build/emit/numbers.ts';
import { humanize, jobZoneText } from '../../../build/emit/site.ts';
import { majorGroup } from '../../../build/emit/soc-groups.ts';

describe('site helpers', () => {
  it('groups thousands without locale data', () => {
    expect([grouped(0), grouped(999), grouped(1000), grouped(1687890), grouped(-12345.5), grouped(65.38)]).toEqual(['0', '999', '1,000', '1,687,890', '-12,345.5', '65.38']);
  });
  it('humanizes keys a label table does not know', () => {
    expect(humanize('score_low')).toBe('Score low');
    expect(humanize('exposure')).toBe('Exposure');
  });
  it('names SOC major groups, and an unknown prefix still gets a name', () => {
    expect(majorGroup('29-1141.00')).toEqual({ code: '29-0000', name: 'Healthcare Practitioners and Technical Occupations' });
    expect(majorGroup('99-9999.01')).toEqual({ code: '99-0000', name: 'Major group 99' });
  });
});

describe('CSV cells (RFC 4180)', () => {
  it('quotes commas, quotes and line breaks, and leaves the rest alone', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(0)).toBe('0');
  });
});

describe('docs excerpts', () => {
  it('cuts lists after three items with a count, and stays JSON once the count lines are removed', () => {
    const value = { data: [1, 2, 3, 4, 5], nested: { tags: ['a'] }, empty: [], count: 5 };
    const shown = excerptJson(value);
    expect(shown).toBe('{\n  "data": [\n    1,\n    2,\n    3\n    // … 2 more\n  ],\n  "nested": {\n    "tags": [\n      "a"\n    ]\n  },\n  "empty": [],\n  "count": 5\n}');
    expect(JSON.parse(shown.replace(/^\s*\/\/ … \d+ more$\n/gm, ''))).toEqual({ data: [1, 2, 3], nested: { tags: ['a'] }, empty: [], count: 5 });
  });
});

describe('markdown pages', () => {
  it('keeps O*NET literal outside code and leaves code alone', () => {
    expect(literalAsterisks('O*NET 29.3 and O*NET 30.0, `a*b` kept\n```\nx*y\n```')).toBe('O\\*NET 29.3 and O\\*NET 30.0, `a*b` kept\n```\nx*y\n```');
  });
  it("says a job zone's place on the scale and O*NET's name for it", () => {
    const names = [
      { job_zone: 1, name: 'Job Zone One: Little or No Preparation Needed' },
      { job_zone: 4, name: 'Job Zone Four: Considerable Preparation Needed' },
      { job_zone: 5, name: 'Job Zone Five: Extensive Preparation Needed' },
    ];
    expect(jobZoneText(4, names)).toBe('Job zone 4 of 5 (considerable preparation needed)');
    expect(jobZoneText(1, names)).toBe('Job zone 1 of 5 (little or no preparation needed)');
    // A zone the reference does not name: the number alone, no invented words.
    expect(jobZoneText(3, names)).toBe('Job zone 3');
    expect(jobZoneText(2, [])).toBe('Job zone 2');
  });
});
