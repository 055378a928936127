// The fetch's live progress line: only on a terminal, one line rewritten in place.
import { expect, test } from 'vitest';
import { terminalProgress } from '../../../../build/fetch/cli.ts';

test('a terminal gets one line per update, naming the file and how much of how much', () => {
  const written: string[] = [];
  const tty = { isTTY: true, write: (s: string) => (written.push(s), true) } as unknown as NodeJS.WriteStream;
  const progress = terminalProgress(tty)!;
  progress('onet-db-text', 'db_29_3_text.zip', 10 * 1024 * 1024, 40 * 1024 * 1024);
  expect(written).toHaveLength(1);
  expect(written[0]).toMatch(/^\x1b\[2K\r\[onet-db-text\] db_29_3_text\.zip 25% of 40(\.0)? MB\r$/);
  // The last update is always drawn, whatever the pace.
  progress('onet-db-text', 'db_29_3_text.zip', 40 * 1024 * 1024, 40 * 1024 * 1024);
  expect(written.at(-1)).toContain('100% of');
});

test('no terminal, no live line (CI logs keep the quiet quarter lines)', () => {
  expect(terminalProgress({ isTTY: false } as unknown as NodeJS.WriteStream)).toBeUndefined();
});
