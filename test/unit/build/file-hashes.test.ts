// File hashes remembered by stat: a remembered hash stands only while the file's size, mtime,
// ctime and inode are as they were, and never for a file whose mtime is within the racy margin of
// the moment its hash was taken.
import { createHash } from 'node:crypto';
import { linkSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileHashes, racyMs, rememberHashes } from '../../../build/cache/file-hashes.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-hashes-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
/** Makes the memo's hashes look taken a minute later than they were, so that its entries are past the racy window. */
function age(memo: string) {
  const m = JSON.parse(readFileSync(memo, 'utf8')) as { hashedAt: number };
  m.hashedAt += 60_000;
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
    await rememberHashes(fresh, [a], ['known'], { hashedAt: Date.now() });
    age(fresh);
    expect(await fileHashes([a], fresh)).toEqual(['known']);
  });

  // The racy case a memo's writing time would miss: the build hashes the bytes it writes, another
  // writer rewrites the file (same size, and on a coarse clock the same timestamps) before the
  // build records it, and the record comes well after the margin.
  it('reads a file rewritten after its hash was taken, however late the hash was recorded', async () => {
    const c = path.join(tmp, 'c.txt');
    const late = path.join(tmp, 'memo', 'late.json');
    const hashedAt = Date.now();
    writeFileSync(c, 'gamma');
    writeFileSync(c, 'GAMMA');
    await new Promise((resolve) => setTimeout(resolve, 3 * racyMs(statSync(c))));
    await rememberHashes(late, [c], [sha('gamma')], { hashedAt });
    expect(await fileHashes([c], late)).toEqual([sha('GAMMA')]);
    // Read now, and known from a moment before the read: trusted once its mtime is past the margin.
    age(late);
    plant(late, c, 'planted');
    expect(await fileHashes([c], late)).toEqual(['planted']);
  });

  it('trusts a file linked since its hash was taken (a new ctime, the same bytes and mtime)', async () => {
    const d = path.join(tmp, 'd.txt');
    const linked = path.join(tmp, 'd-linked.txt');
    const memoD = path.join(tmp, 'memo', 'linked.json');
    writeFileSync(d, 'delta');
    const longAgo = 1_000_000_000;
    utimesSync(d, longAgo, longAgo);
    const hashedAt = Date.now();
    linkSync(d, linked);
    const s = statSync(linked);
    await rememberHashes(memoD, [linked], ['known'], { hashedAt, stats: [[s.size, s.mtimeMs, s.ctimeMs, s.ino]] });
    expect(await fileHashes([linked], memoD)).toEqual(['known']);
  });
});
