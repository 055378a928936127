import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
export const miniFixture = path.join(repoRoot, 'test/fixtures/sources/mini');

/** A throw-away copy of the mini fixture tree that a test may change. */
export function copyMini(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'odr-sources-'));
  cpSync(miniFixture, dir, { recursive: true });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const withoutLine = (file: string, part: string) => {
  const lines = readFileSync(file, 'utf8').split('\n');
  writeFileSync(file, lines.filter((l) => !l.includes(part)).join('\n'));
};

/** A copy of the mini fixture without its deliberately bad rows (other tests read them; a build of the fixture would fail the reject threshold on them). */
export function cleanMini(): { dir: string; cleanup: () => void } {
  const mini = copyMini();
  withoutLine(path.join(mini.dir, 'downloads/db_29_3_text/Task Statements.txt'), '52x6');
  withoutLine(path.join(mini.dir, 'bls/oesm24nat/national_M2024_dl.csv'), ',abc,');
  withoutLine(path.join(mini.dir, 'votes.csv'), ',-1,');
  return mini;
}
