// Optional community votes, our own format (not a public source). File votes.csv anywhere under
// the source directory:
//   soc_code,agree,too_high,too_low
//   15-1252.00,12,3,1
// one row per O*NET-SOC occupation, counts are non-negative integers. A repeated soc_code with other
// counts stops the build (counts are never silently summed or overwritten); an exact repeat is
// dropped (the key rule of every source table, rows.ts uniqueRows).
import { z } from 'zod';
import { VoteRow } from '../model/inputs.ts';
import { int, text } from './cells.ts';
import { parseRows, type FileLog } from './rows.ts';
import type { Table } from './table.ts';

export function parseVotes(table: Table, log: FileLog): VoteRow[] {
  const schema = z
    .object({ soc_code: text, agree: int, too_high: int, too_low: int })
    .pipe(VoteRow);
  return parseRows(table, log, ['soc_code', 'agree', 'too_high', 'too_low'], schema, { key: ['soc_code'], occupation: { code: 'soc_code' } }).map((r) => r.value);
}
