// Optional community votes, our own format (not a public source). File votes.csv anywhere under
// the source directory:
//   soc_code,agree,too_high,too_low
//   15-1252.00,12,3,1
// one row per O*NET-SOC occupation, counts are non-negative integers. A repeated soc_code is
// rejected (the first row stands) so counts are never silently summed or overwritten.
import { z } from 'zod';
import { VoteRow } from '../model/inputs.ts';
import { int, text } from './cells.ts';
import { parseRows, type FileLog } from './rows.ts';
import type { Table } from './table.ts';

export function parseVotes(table: Table, log: FileLog): VoteRow[] {
  const schema = z
    .object({ soc_code: text, agree: int, too_high: int, too_low: int })
    .pipe(VoteRow);
  const rows = parseRows(table, log, ['soc_code', 'agree', 'too_high', 'too_low'], schema);
  const seen = new Set<string>();
  const out: VoteRow[] = [];
  for (const { line, value } of rows) {
    if (seen.has(value.soc_code)) {
      log.kept--;
      log.reject(line, `soc_code: ${value.soc_code} repeated`);
      continue;
    }
    seen.add(value.soc_code);
    out.push(value);
  }
  return out;
}
