// sha256 of many files, remembering each file's hash with its stat (size, mtime, ctime, inode) so
// that an unchanged file is not read again: the check git's index makes. Any change to the file
// changes its ctime (which no tool can set back), so a remembered hash is used only when all four
// are as they were. A file changed within a timestamp's granularity of the memo being written could
// keep its timestamps ("racy" in git's words): such files are always read.
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { readInto } from '../whole-file.ts';
import { sha } from './entry.ts';
import { writeJsonFile } from './json-file.ts';

export type Stat = [size: number, mtimeMs: number, ctimeMs: number, ino: number];
interface Memo {
  writtenAt: number;
  files: Record<string, [...Stat, string]>;
}

/**
 * Margin, ms, below the memo's writing time for a file's timestamps to be trusted: a second where
 * timestamps are whole seconds (FAT, HFS+, some network file systems) or on Windows (NTFS may
 * update them late); elsewhere (ext4, xfs, btrfs, APFS: nanoseconds) the kernel clock's tick, well
 * under this.
 */
export const racyMs = (s: { mtimeMs: number; ctimeMs: number }): number => (process.platform === 'win32' || (s.mtimeMs % 1000 === 0 && s.ctimeMs % 1000 === 0) ? 1000 : 50);

/** Each file's sha256 (hex), in the order given; `memoFile` remembers them between runs. */
export async function fileHashes(files: readonly string[], memoFile?: string): Promise<string[]> {
  const memo = memoFile ? await readFile(memoFile, 'utf8').then((t) => JSON.parse(t) as Memo, () => null) : null;
  const next: Memo = { writtenAt: Date.now(), files: {} };
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
    const trusted = old && memo && now.every((v, i) => v === old[i]) && Math.max(s.mtimeMs, s.ctimeMs) < memo.writtenAt - racyMs(s);
    let hash: string;
    if (trusted) hash = old[4];
    else {
      const r = await readInto(f, scratch);
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

/** Remembers hashes already known (files just written, hashed from the bytes written) with their stat. */
export async function rememberHashes(memoFile: string, files: readonly string[], hashes: readonly string[], stats?: readonly Stat[]): Promise<void> {
  const memo: Memo = { writtenAt: Date.now(), files: {} };
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
