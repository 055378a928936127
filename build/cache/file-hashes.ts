// sha256 of many files, remembering each file's hash with its stat (size, mtime, ctime, inode) so
// that an unchanged file is not read again: the check git's index makes. Any change to the file
// changes its ctime (which no tool can set back), so a remembered hash is used only when all four
// are as they were. A write within a timestamp's granularity of the moment the hash was taken
// could keep the timestamps it finds ("racy" in git's words), so the memo keeps that moment
// (`hashedAt`: no later than when each hash was known to match its file's bytes) and a file whose
// mtime is not clearly before it is always read. The moment is when the hash was taken, not when
// the memo was written: a hash recorded from bytes a build wrote (rememberHashes) stands for the
// file only as it was then, and a write by anything else before the record would otherwise be
// recorded under the old hash. The margin is on the mtime, which every write moves: a folder whose
// files were just linked (a new ctime, the bytes as hashed) stays known without reading them. The
// one change this misses is git's too: a rewrite that also sets the mtime back to its exact former
// value, between the hash and the stat recorded with it or within the tick of that stat's ctime.
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { readIntoSync } from '../whole-file.ts';
import { sha } from './entry.ts';
import { writeJsonFile } from './json-file.ts';

export type Stat = [size: number, mtimeMs: number, ctimeMs: number, ino: number];
interface Memo {
  /** No later than when every hash in `files` was known to match its file's bytes (ms since the epoch). */
  hashedAt: number;
  files: Record<string, [...Stat, string]>;
}

/**
 * Margin, ms, below the time a hash was taken for a file's mtime to be trusted: a second where
 * timestamps are whole seconds (FAT, HFS+, some network file systems) or on Windows (NTFS may
 * update them late); elsewhere (ext4, xfs, btrfs, APFS: nanoseconds) the kernel clock's tick, well
 * under this.
 */
export const racyMs = (s: { mtimeMs: number; ctimeMs: number }): number => (process.platform === 'win32' || (s.mtimeMs % 1000 === 0 && s.ctimeMs % 1000 === 0) ? 1000 : 50);

/** Each file's sha256 (hex), in the order given; `memoFile` remembers them between runs. */
export async function fileHashes(files: readonly string[], memoFile?: string): Promise<string[]> {
  const memo = memoFile ? await readFile(memoFile, 'utf8').then((t) => JSON.parse(t) as Memo, () => null) : null;
  // Taken before any file is looked at: each hash below is read later than this.
  const next: Memo = { hashedAt: Date.now(), files: {} };
  let read = 0;
  // One buffer for every file read, unmapped when freed: a whole file read by fs.readFile and freed
  // raised glibc's mmap threshold (build/whole-file.ts), and with it a first build's peak.
  let scratch: Buffer | null = null;
  const out: string[] = [];
  for (const f of files) {
    // Sync: a stat is a metadata lookup, and thousands of thread-pool round trips cost more than they save.
    const s = statSync(f);
    const now: Stat = [s.size, s.mtimeMs, s.ctimeMs, s.ino];
    const old = memo?.files[f];
    const trusted = old && memo && typeof memo.hashedAt === 'number' && now.every((v, i) => v === old[i]) && s.mtimeMs < memo.hashedAt - racyMs(s);
    let hash: string;
    if (trusted) hash = old[4];
    else {
      // Sync, as the stat above: most files are small, and a thread-pool round trip per call cost more than the read.
      const r = readIntoSync(f, scratch);
      scratch = r.buf;
      hash = sha().update(r.bytes).digest('hex');
      read++;
    }
    next.files[f] = [...now, hash];
    out.push(hash);
  }
  if (memoFile && (read > 0 || !memo || Object.keys(memo.files).length !== files.length)) {
    await writeMemo(memoFile, next);
  }
  return out;
}

/**
 * Remembers hashes already known (files just written, hashed from the bytes written; files linked
 * from a folder just checked) with their stat. `hashedAt`: no later than when each hash was known
 * to match its file (before the files were written, or before the folder they came from was checked).
 */
export async function rememberHashes(memoFile: string, files: readonly string[], hashes: readonly string[], { hashedAt, stats }: { hashedAt: number; stats?: readonly Stat[] }): Promise<void> {
  const memo: Memo = { hashedAt, files: {} };
  for (const [i, f] of files.entries()) {
    // `stats`: taken after the files' last change (a thread that linked them), as a stat here would.
    const s = stats?.[i] ?? statOf(f);
    memo.files[f] = [...s, hashes[i]!];
  }
  await writeMemo(memoFile, memo);
}

function statOf(f: string): Stat {
  const s = statSync(f);
  return [s.size, s.mtimeMs, s.ctimeMs, s.ino];
}

async function writeMemo(memoFile: string, memo: Memo): Promise<void> {
  await writeJsonFile(memoFile, memo);
}
