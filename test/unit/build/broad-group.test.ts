// One bad OEWS wage row makes an occupation fall back to its SOC broad group (issue 42 item 8):
// through the real build of the mini fixture, the occupation's wage is served with status
// broad_group (not "reported") and the group's code, and the build's report names it beside the
// rejected row, with the group and the employment and wage it took. The OEWS file is padded with
// rows for codes no occupation uses, so one bad row stays under the 0.5% reject threshold.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../../build/pipeline.ts';
import { formatJoinReport, formatRejectedRows } from '../../../build/report-format.ts';
import { cleanMini, repoRoot } from './sources/helpers/paths.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-broad-'));
const mini = cleanMini();
afterAll(() => {
  mini.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

const OEWS = 'bls/oesm24nat/national_M2024_dl.csv';
const labor = (out: string, soc: string) => JSON.parse(readFileSync(path.join(out, 'api/v1/occupations', soc, 'index.json'), 'utf8')).labor_data;

describe('an occupation whose own OEWS row is rejected', () => {
  it('is served with its broad group wage labelled broad_group, and the report names it with the numbers it took', async () => {
    const file = path.join(mini.dir, OEWS);
    const text = readFileSync(file, 'utf8');
    const own = text.split('\n').find((l) => l.includes(',15-1252,Software Developers,detailed,1654440,'))!;
    expect(own).toBeDefined();
    // The broad group 15-1250 as OEWS publishes it, with the group's own employment and median.
    const group = own.replace('15-1252,Software Developers,detailed,1654440,', '15-1250,Software and Web Developers and Testers,broad,2153000,').replace(/,132270,/, ',131450,');
    expect(group).toContain(',131450,');
    const padding = Array.from({ length: 300 }, (_, i) => own.replace('15-1252,Software Developers,', `99-${9000 + i},Padding Occupation ${i},`)).join('\n');
    writeFileSync(file, `${text.replace(own, own.replace(',1654440,', ',abc,')).trimEnd()}\n${group}\n${padding}\n`);

    const out = path.join(tmp, 'dist');
    const s = await runBuild({ shape: 'percentile', out, source: mini.dir, repoRoot, caches: [] });
    expect(labor(out, '15-1252.00')).toMatchObject({ oews_code: '15-1250', employment: 2153000, median_annual_wage: 131450, median_annual_wage_status: 'broad_group' });
    expect(labor(out, '43-4051.00').median_annual_wage_status).not.toBe('broad_group');

    const line = text.split('\n').indexOf(own) + 1;
    const rejected = formatRejectedRows(s.rejected);
    expect(rejected).toContain(
      [
        "Occupations given a broader OEWS group's numbers (wage status broad_group) because rows naming them were rejected (1):",
        '  15-1252.00 Software Developers: the SOC broad group 15-1250 (May 2024): employment 2,153,000 and median wage $131,450',
        `    ${OEWS}:${line}: TOT_EMP:`,
      ].join('\n'),
    );
    const joins = formatJoinReport(s.joinReport);
    expect(joins).toMatch(/ {2}oews_broad_group:\s+15-1252\.00 the SOC broad group 15-1250 \(May 2024\): employment 2,153,000 and median wage \$131,450\n/);
    expect(joins).toMatch(/oews_broad_group 1\b/);
  }, 120_000);
});
