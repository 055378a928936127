// File hashes remembered by stat: a remembered hash stands only while the file's size, mtime,
// ctime and inode are as they were, and never for a file touched within a second of the memo.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileHashes, racyMs, rememberHashes } from '../../../build/cache/file-hashes.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-hashes-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
/** Makes the memo look written a minute later than it was, so that its entries are past the racy window. */
function age(memo: string) {
  const m = JSON.parse(readFileSync(memo, 'utf8')) as { writtenAt: number };
  m.writtenAt += 60_000;
  writeFileSync(memo, JSON.stringify(m));
}
/** Puts a wrong hash in the memo for `file`: whether it comes back shows whether the memo was trusted. */
function plant(memo: string, file: string, hash: string) {
  const m = JSON.parse(readFileSync(memo, 'utf8')) as { files: Record<string, unknown[]> };
  m.files[file]![4] = hash;
  writeFileSync(memo, JSON.stringify(m));
}

describe('fileHashes', () => {
  const a = path.join(tmp, 'a.txt');
  const b = path.join(tmp, 'b.txt');
  const memo = path.join(tmp, 'memo', 'hashes.json');

  it('hashes every file, in the order given, with or without a memo', async () => {
    writeFileSync(a, 'alpha');
    writeFileSync(b, 'beta');
    expect(await fileHashes([b, a])).toEqual([sha('beta'), sha('alpha')]);
    expect(await fileHashes([a, b], memo)).toEqual([sha('alpha'), sha('beta')]);
  });

  it('trusts a remembered hash only while the stat is unchanged and out of the racy window', async () => {
    // Timestamps not before the memo's writing (as a file changed while it was written): read even though the stat matches.
    const soon = Math.floor(Date.now() / 1000) + 30;
    utimesSync(a, soon, soon);
    expect((await fileHashes([a, b], memo))[0]).toBe(sha('alpha'));
    plant(memo, a, 'planted');
    expect((await fileHashes([a, b], memo))[0]).toBe(sha('alpha'));
    age(memo);
    plant(memo, a, 'planted');
    expect((await fileHashes([a, b], memo))[0]).toBe('planted');
  });

  it('waits a second where timestamps are whole seconds, a clock tick where they are finer', () => {
    expect(racyMs({ mtimeMs: 1_700_000_000_000, ctimeMs: 1_700_000_001_000 })).toBe(1000);
    expect(racyMs({ mtimeMs: 1_700_000_000_000.25, ctimeMs: 1_700_000_001_000 })).toBe(process.platform === 'win32' ? 1000 : 50);
  });

  it('notices a change that keeps the size and puts the mtime back (ctime moves)', async () => {
    const longAgo = 1_000_000_000; // whole seconds: set back exactly
    utimesSync(b, longAgo, longAgo);
    expect(await fileHashes([a, b], memo)).toEqual(['planted', sha('beta')]);
    age(memo);
    writeFileSync(b, 'BETA');
    utimesSync(b, longAgo, longAgo);
    expect(statSync(b).mtimeMs).toBe(longAgo * 1000);
    expect((await fileHashes([a, b], memo))[1]).toBe(sha('BETA'));
  });

  it('rememberHashes records hashes known from the bytes written', async () => {
    const fresh = path.join(tmp, 'memo', 'known.json');
    await rememberHashes(fresh, [a], ['known']);
    age(fresh);
    expect(await fileHashes([a], fresh)).toEqual(['known']);
  });
});
