// The key rule every keyed source table goes through (rows.ts uniqueRows): a key repeated with
// other values stops the build naming both file:line; an exact repeat is dropped and counted.
import { describe, expect, it } from 'vitest';
import { parseAlternateTitles, parseJobZones } from '../../../../build/sources/onet.ts';
import { parseOewsNational } from '../../../../build/sources/oews.ts';
import { FileLog } from '../../../../build/sources/rows.ts';
import { SourceError } from '../../../../build/sources/errors.ts';
import { parseDelimited } from '../../../../build/sources/table.ts';

const JOB_ZONES = 'O*NET-SOC Code\tTitle\tJob Zone\tDate\tDomain Source\n11-1011.00\tChief Executives\t5\t08/2023\tAnalyst\n15-1252.00\tSoftware Developers\t4\t11/2021\tAnalyst\n';
const jobZones = (text: string) => {
  const log = new FileLog('Job Zones.txt', 'onet/Job Zones.txt');
  return { log, run: () => parseJobZones(parseDelimited(text, '\t'), log) };
};

describe('repeated keys', () => {
  it('a key repeated with another value stops the load, naming both file:line and what differs', () => {
    const { run } = jobZones(`${JOB_ZONES}11-1011.00\tChief Executives\t1\t08/2023\tAnalyst\n`);
    const error = (() => {
      try {
        run();
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).file).toBe('onet/Job Zones.txt');
    expect((error as Error).message).toBe(
      'conflicting repeated row: onet/Job Zones.txt:2 and onet/Job Zones.txt:4 have the same soc_code "11-1011.00" but different values: ' +
        'job_zone 5 (line 2) vs 1 (line 4); a key may appear once per file: the build cannot tell which of the rows is right (an exact repeat is dropped)',
    );
  });

  it('an exact repeat (every column read the same) is dropped, counted and its line noted', () => {
    // Date differs: the loader does not read it, so the rows say the same.
    const { log, run } = jobZones(`${JOB_ZONES}11-1011.00\tChief Executives\t5\t08/2024\tAnalyst\n`);
    expect(run()).toEqual([{ soc_code: '11-1011.00', job_zone: 5 }, { soc_code: '15-1252.00', job_zone: 4 }]);
    expect(log).toMatchObject({ rows: 3, kept: 2, rejected: 0, repeats: 1 });
    expect(log.notes).toContain('1 exact repeat of an earlier row dropped (same soc_code and values; line 4)');
  });

  it('names every conflict of a file in one error', () => {
    const { run } = jobZones(`${JOB_ZONES}11-1011.00\tChief Executives\t1\t08/2023\tAnalyst\n15-1252.00\tSoftware Developers\t3\t11/2021\tAnalyst\n`);
    expect(run).toThrow(/onet\/Job Zones\.txt: 2 keys repeated with different values;.*:\n- onet\/Job Zones\.txt:2 and onet\/Job Zones\.txt:4 .*\n- onet\/Job Zones\.txt:3 and onet\/Job Zones\.txt:5 have the same soc_code "15-1252\.00"/);
  });

  it('keys OEWS national rows by code and group: 13-1020 is published as broad and as detailed', () => {
    const header = 'OCC_CODE,OCC_TITLE,O_GROUP,TOT_EMP,A_MEDIAN,A_MEAN,H_MEDIAN,ANNUAL,HOURLY\n';
    const row = (group: string, emp: string) => `13-1020,Buyers and Purchasing Agents,${group},${emp},70000,75000,33.65,,\n`;
    const log = new FileLog('national_M2024_dl.csv', 'bls/national_M2024_dl.csv');
    expect(parseOewsNational(parseDelimited(header + row('broad', '500000') + row('detailed', '500000'), ','), log)).toHaveLength(2);
    expect(() => parseOewsNational(parseDelimited(header + row('broad', '500000') + row('broad', '400000'), ','), new FileLog('n', 'n.csv'))).toThrow(
      /n\.csv:2 and n\.csv:3 have the same occ_code "13-1020", o_group "broad" but different values: tot_emp 500000 \(line 2\) vs 400000 \(line 3\)/,
    );
  });

  it('keeps an alternate title listed with and without its short title (O*NET 29.3 does): titles add up', () => {
    const text = 'O*NET-SOC Code\tTitle\tAlternate Title\tShort Title\tSource(s)\n21-1014.00\tMental Health Counselors\tLicensed Mental Health Counselor (LMHC)\t\t04\n21-1014.00\tMental Health Counselors\tLicensed Mental Health Counselor (LMHC)\tLMHC\t02,04\n';
    const log = new FileLog('Alternate Titles.txt', 'onet/Alternate Titles.txt');
    expect(parseAlternateTitles(parseDelimited(text, '\t'), log).map((t) => t.short_title)).toEqual([null, 'LMHC']);
  });
});
