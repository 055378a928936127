// The output: the new tree is written beside the out folder, then swapped in with renames. A
// failure before the swap leaves the previous build untouched; a build stopped during the swap
// leaves complete trees that the next start puts back (build/emit/swap.ts).
//
// Files arrive one at a time (the emitter streams them), so a body is held only until it is on
// disk. The new tree is either a fresh folder or, when the build allows it, the generation before
// the current one (kept as .<out>-previous by the last swap) updated in place: a file whose bytes
// on disk are already exactly the new bytes is left alone, any other is written, and files the
// new build does not produce are removed. Creating ~5,000 folders and files and deleting the
// replaced tree is most of a fresh write on a disk file system; updating the previous generation
// skips both, and the decision rests on the bytes themselves (read and compared), not on a record
// of them.
import { lstatSync, mkdirSync, readFileSync, rmdirSync, unlinkSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { crashPoint, treeNames } from './swap.ts';
import { isFileBody, type Body } from './file-body.ts';
import { allocationFor } from '../whole-file.ts';

export function resolveInside(root: string, rel: string): string {
  const abs = path.resolve(root, rel);
  if (abs !== root && !abs.startsWith(root + path.sep)) throw new Error(`refusing to write outside ${root}: ${rel}`);
  return abs;
}

/**
 * A file as written: its size and sha256 (the manifest and the build summary need no body). The
 * writing thread hashes the bytes it writes; `sha256` is set when its batch is answered (flush()).
 */
export interface Written {
  path: string;
  bytes: number;
  sha256: string;
}

/** The reused encoding buffer starts this large (most files are smaller) and grows to the largest file. */
const SCRATCH_BYTES = 1 << 20;

/** Files sent to the writing thread together, and batches in flight at most (a producer that awaits add() never gets far ahead of the disk). */
const BATCH_FILES = 64;
const BATCH_BYTES = 1 << 20;
const BATCHES_IN_FLIGHT = 4;

/**
 * A batch as it crosses to the writing thread: its files' bytes back to back in one buffer, and
 * files to copy from disk (`from`: a FileBody's file, already hashed).
 */
interface Batch {
  buffer: ArrayBuffer;
  files: Array<{ abs: string; start: number; end: number; from?: string }>;
}

/**
 * One output tree being filled. `add` encodes a file on this thread; a thread of the tree's own
 * hashes it, makes its folder, compares it with the file already there (a reused tree) and writes
 * it when it differs. Thousands of files, nearly each in a folder of its own, make many mkdir, open
 * and close calls: on this thread, the one that renders, they added to the emit; on the writing
 * thread they overlap it, as does hashing what is written.
 * A text body is encoded into a buffer the tree reuses and copied once into the batch's buffer.
 * Batch buffers go to the writing thread and come back to be filled again: with a buffer per file,
 * left for that thread's rare collections to free, written files piled up there.
 */
export class TreeWriter {
  readonly written: Written[] = [];
  /** Files found unchanged in the previous generation (not written again). */
  unchanged = 0;
  private readonly pending = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;
  /** The previous generation being listed (null: a fresh tree); finish() removes what this build did not produce. */
  private readonly previous: PreviousTree | null;
  private encoded = Buffer.allocUnsafe(SCRATCH_BYTES);
  private batch: Batch['files'] = [];
  /** The batch's files as listed in `written`, to be given their sha256 when it is answered. */
  private batchWritten: Written[] = [];
  private batchBytes = 0;
  private batchBuffer: Uint8Array | null = null;
  /** Batch buffers back from the writing thread, to fill again. */
  private readonly spare: ArrayBuffer[] = [];
  private writer: FileWriter | null = null;

  constructor(
    readonly root: string,
    previous: PreviousTree | null = null,
  ) {
    this.previous = previous;
  }

  /**
   * Queues a file for writing; its Written gets its sha256 once the writing thread has hashed it
   * (flush(), finish()), or at once for a body on disk (hard-linked or copied into the tree: its
   * file must stay until then, and nothing may write into it afterwards).
   */
  async add(rel: string, body: Body): Promise<Written> {
    this.check();
    const abs = resolveInside(this.root, rel);
    if (isFileBody(body)) {
      const w: Written = { path: rel, bytes: body.bytes, sha256: body.sha256 };
      this.written.push(w);
      this.batch.push({ abs, start: 0, end: 0, from: body.file });
      this.batchWritten.push(w);
      return this.queued(w);
    }
    const bytes = typeof body === 'string' ? this.encode(body) : body;
    const w: Written = { path: rel, bytes: bytes.byteLength, sha256: '' };
    this.written.push(w);
    if (this.batchBuffer && this.batchBytes + bytes.byteLength > this.batchBuffer.byteLength) this.send();
    const into = (this.batchBuffer ??= this.bufferFor(bytes.byteLength));
    into.set(bytes, this.batchBytes);
    this.batch.push({ abs, start: this.batchBytes, end: this.batchBytes + bytes.byteLength });
    this.batchWritten.push(w);
    this.batchBytes += bytes.byteLength;
    return this.queued(w);
  }

  /** Sends a full batch, and waits while too many are in flight. */
  private async queued(w: Written): Promise<Written> {
    if (this.batch.length >= BATCH_FILES || this.batchBytes >= BATCH_BYTES) this.send();
    if (this.pending.size >= BATCHES_IN_FLIGHT) await Promise.race(this.pending);
    this.check();
    return w;
  }

  private check(): void {
    if (this.failure) throw this.failure.error;
  }

  /** The UTF-8 bytes of a text, in the reused buffer (valid until the next call); a text larger than it, in a buffer of its own. */
  private encode(text: string): Buffer {
    // Three bytes per UTF-16 unit at most: the exact length is only worked out when that might not fit.
    if (text.length * 3 > this.encoded.byteLength) {
      const need = Buffer.byteLength(text);
      // Not kept: the few large texts (the CSV downloads) would otherwise keep it for the tree's
      // life; allocated to be unmapped when freed (build/whole-file.ts).
      if (need > this.encoded.byteLength) {
        const own = Buffer.allocUnsafeSlow(allocationFor(need));
        return own.subarray(0, own.write(text, 0));
      }
    }
    return this.encoded.subarray(0, this.encoded.write(text, 0));
  }

  /** A batch buffer of at least `bytes` (BATCH_BYTES, or one file's size when larger): a spare one when it is large enough. */
  private bufferFor(bytes: number): Uint8Array {
    if (bytes > BATCH_BYTES) return new Uint8Array(allocationFor(bytes)); // unmapped when freed (build/whole-file.ts)
    const spare = this.spare.pop();
    return spare ? new Uint8Array(spare) : new Uint8Array(BATCH_BYTES);
  }

  /** Hands the batch to the writing thread (its buffer transferred, not copied; it comes back with the answer). */
  private send(): void {
    if (this.batch.length === 0) return;
    // A batch of copies alone still carries a buffer (the writing thread hands it back).
    const batch: Batch = { buffer: (this.batchBuffer ??= this.bufferFor(0)).buffer as ArrayBuffer, files: this.batch };
    const written = this.batchWritten;
    this.batch = [];
    this.batchWritten = [];
    this.batchBytes = 0;
    this.batchBuffer = null;
    this.writer ??= fileWriter(this.previous !== null);
    const p: Promise<void> = this.writer.write(batch).then(
      ({ unchanged, buffer, hashes }) => {
        for (const [i, w] of written.entries()) w.sha256 ||= hashes[i]!;
        this.unchanged += unchanged;
        // A buffer made for one large file (the database) is not kept: it would stay as long as the tree.
        if (this.spare.length < BATCHES_IN_FLIGHT && buffer.byteLength === BATCH_BYTES) this.spare.push(buffer);
        this.pending.delete(p);
      },
      (error: unknown) => {
        this.pending.delete(p);
        this.failure ??= { error };
      },
    );
    this.pending.add(p);
  }

  /** Every file so far, each with its sha256 (every write has settled). */
  async flush(): Promise<readonly Written[]> {
    await this.settle();
    return this.written;
  }

  /** A file of this tree as written (every write has settled). */
  async read(rel: string): Promise<Buffer> {
    await this.settle();
    return readFileSync(resolveInside(this.root, rel));
  }

  /** Waits for every write; then removes what the previous generation had and this build did not produce. */
  async finish(): Promise<Written[]> {
    await this.settle();
    await this.writer?.stop();
    const produced = new Set(this.written.map((w) => w.path));
    const leftover = this.previous ? (await this.previous.files).filter((rel) => !produced.has(rel)).sort() : [];
    await this.previous?.stop();
    for (const rel of leftover) {
      const abs = resolveInside(this.root, rel);
      // Gone already, or now a folder of this build's files (a file that became a folder, or the
      // reverse, was replaced when written): nothing to remove.
      let st;
      try {
        st = lstatSync(abs);
      } catch {
        continue; // ENOENT, or ENOTDIR: a folder above it is now a file
      }
      if (st.isDirectory()) continue;
      unlinkSync(abs);
      // Folders emptied by the removal go too (a clean URL that no longer exists).
      for (let dir = path.dirname(abs); dir !== this.root && dir.startsWith(this.root); dir = path.dirname(dir)) {
        try {
          rmdirSync(dir);
        } catch {
          break;
        }
      }
    }
    return this.written;
  }

  /** Lets the writes in flight end (their outcome no longer matters): the tree is about to be removed. */
  async abandon(): Promise<void> {
    this.batch = [];
    this.batchWritten = [];
    this.batchBytes = 0;
    this.batchBuffer = null;
    while (this.pending.size > 0) await Promise.allSettled(this.pending);
    await this.writer?.stop();
    await this.previous?.stop();
  }

  private async settle(): Promise<void> {
    this.send();
    while (this.pending.size > 0) await Promise.all(this.pending);
    this.check();
  }
}

/** What the writing thread answers a batch with: its files' sha256 in order, how many were already right, and its buffer back. */
interface BatchDone {
  hashes: string[];
  unchanged: number;
  buffer: ArrayBuffer;
}

/** The writing thread: batches in, in order; each answered with a BatchDone, or the error that stopped it. */
interface FileWriter {
  write(batch: Batch): Promise<BatchDone>;
  stop(): Promise<void>;
}

/** A thread running `code` (plain CommonJS with node's own modules, so it needs no bundling); stop() ends it, once. */
function evalThread(code: string, workerData: unknown, resourceLimits: ResourceLimits): { worker: Worker; stop: () => Promise<void> } {
  const worker = new Worker(code, { eval: true, workerData, execArgv: [], resourceLimits });
  let stopped = false;
  return {
    worker,
    async stop() {
      if (stopped) return;
      stopped = true;
      await worker.terminate();
    },
  };
}

function fileWriter(compare: boolean): FileWriter {
  const { worker, stop } = evalThread(WRITE_THREAD, { compare }, WRITE_LIMITS);
  const waiting: Array<{ resolve: (r: BatchDone) => void; reject: (e: Error) => void }> = [];
  let broken: Error | null = null;
  const fail = (e: Error) => {
    broken ??= e;
    for (const w of waiting.splice(0)) w.reject(broken);
  };
  worker.on('message', (m: BatchDone | { error: string }) => {
    const w = waiting.shift();
    if ('error' in m) w?.reject(new Error(m.error));
    else w?.resolve(m);
  });
  worker.on('error', (e) => fail(new Error(`the file writing thread failed: ${e.message}`)));
  worker.on('exit', (code) => fail(new Error(`the file writing thread ended (code ${code})`)));
  return {
    write(batch) {
      if (broken) return Promise.reject(broken);
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        worker.postMessage(batch, [batch.buffer]);
      });
    },
    stop,
  };
}

/** The writing thread holds a batch and a read-back buffer. */
const WRITE_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

/**
 * The writing thread's code. Every file is hashed (sha256 of the bytes written). In a reused tree a file whose
 * bytes on disk are already exactly the new bytes is left alone: read into a reused buffer, one
 * byte more than expected to tell a longer file apart; one that cannot be opened is simply new.
 */
const WRITE_THREAD = `
const { parentPort, workerData: { compare } } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');
const dirs = new Set();
let onDisk = Buffer.allocUnsafe(1 << 20);
function same(abs, bytes) {
  let fd;
  try { fd = fs.openSync(abs, 'r'); } catch { return false; }
  try {
    const want = bytes.byteLength + 1;
    if (onDisk.byteLength < want) onDisk = Buffer.allocUnsafe(want);
    let got = 0;
    for (let n = -1; got < want && n !== 0; got += n) n = fs.readSync(fd, onDisk, got, want - got, got);
    return got === bytes.byteLength && onDisk.subarray(0, got).equals(bytes);
  } catch { return false; } finally { fs.closeSync(fd); }
}
// Whether the file at abs has exactly the bytes of the file at from, read a piece of each at a time.
const piece = [Buffer.allocUnsafe(1 << 16), Buffer.allocUnsafe(1 << 16)];
function sameFile(abs, from) {
  let a, b;
  try { a = fs.openSync(abs, 'r'); } catch { return false; }
  try {
    b = fs.openSync(from, 'r');
    if (fs.fstatSync(a).size !== fs.fstatSync(b).size) return false;
    for (;;) {
      const n = fs.readSync(a, piece[0], 0, piece[0].length, null);
      const m = fs.readSync(b, piece[1], 0, piece[1].length, null);
      if (n !== m || !piece[0].subarray(0, n).equals(piece[1].subarray(0, m))) return false;
      if (n === 0) return true;
    }
  } catch { return false; } finally { fs.closeSync(a); if (b !== undefined) fs.closeSync(b); }
}
// A reused tree may hold a file where this build needs a folder (a bundle that became a folder of
// modules): the file goes, and the folder is made.
function makeDir(dir) {
  try { fs.mkdirSync(dir, { recursive: true }); return; } catch (e) {
    if (!compare || (e.code !== 'EEXIST' && e.code !== 'ENOTDIR')) throw e;
  }
  const kind = (p) => { try { return fs.lstatSync(p).isDirectory() ? 'dir' : 'file'; } catch { return null; } };
  for (let at = dir; kind(at) !== 'dir'; at = path.dirname(at)) {
    if (kind(at) === 'file') { fs.unlinkSync(at); break; }
  }
  fs.mkdirSync(dir, { recursive: true });
}
parentPort.on('message', ({ buffer, files }) => {
  let unchanged = 0;
  const hashes = [];
  try {
    for (const { abs, start, end, from } of files) {
      if (from !== undefined) {
        // Hashed already (FileBody). Hard-linked: one call, where writing even a small file takes
        // three (a file of another out folder is shared as OutputTree.linkedFrom shares them);
        // copied by the kernel across file systems. Never whole in this thread's memory.
        hashes.push('');
        if (compare && sameFile(abs, from)) { unchanged++; continue; }
        const dir = path.dirname(abs);
        if (!dirs.has(dir)) { makeDir(dir); dirs.add(dir); }
        if (compare) fs.rmSync(abs, { recursive: true, force: true });
        try { fs.linkSync(from, abs); } catch (e) {
          if (!['EXDEV', 'EPERM', 'EMLINK'].includes(e.code)) throw e;
          fs.copyFileSync(from, abs);
        }
        continue;
      }
      const bytes = new Uint8Array(buffer, start, end - start);
      hashes.push(createHash('sha256').update(bytes).digest('hex'));
      if (compare && same(abs, bytes)) { unchanged++; continue; }
      const dir = path.dirname(abs);
      if (!dirs.has(dir)) { makeDir(dir); dirs.add(dir); }
      // A reused tree's file may be a hard link shared with another out folder (OutputTree.linkedFrom):
      // it is replaced, never written in place.
      if (compare) try { fs.unlinkSync(abs); } catch {}
      try { fs.writeFileSync(abs, bytes); } catch (e) {
        // A reused tree may hold a folder where this build writes a file: the folder goes.
        if (!compare || e.code !== 'EISDIR') throw e;
        fs.rmSync(abs, { recursive: true });
        fs.writeFileSync(abs, bytes);
      }
    }
    parentPort.postMessage({ hashes, unchanged, buffer }, [buffer]);
  } catch (e) {
    parentPort.postMessage({ error: e.message });
  }
});
`;

/**
 * Hard-links (copies across file systems) `rels` of `from` into `to`, making their folders; answers
 * once, with each file's stat after its link (size, mtimeMs, ctimeMs, ino, four numbers a file).
 */
const LINK_THREAD = `
const { parentPort, workerData: { from, to, rels } } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
try {
  const dirs = new Set();
  const stats = new Float64Array(4 * rels.length);
  for (const [i, rel] of rels.entries()) {
    const at = path.join(to, rel);
    const dir = path.dirname(at);
    if (!dirs.has(dir)) { fs.mkdirSync(dir, { recursive: true }); dirs.add(dir); }
    try { fs.linkSync(path.join(from, rel), at); } catch (e) {
      if (!['EXDEV', 'EPERM', 'EMLINK'].includes(e.code)) throw e;
      fs.copyFileSync(path.join(from, rel), at);
    }
    const st = fs.statSync(at);
    stats.set([st.size, st.mtimeMs, st.ctimeMs, st.ino], 4 * i);
  }
  parentPort.postMessage({ stats }, [stats.buffer]);
} catch (e) {
  parentPort.postMessage({ error: e.message });
}
`;

/**
 * The previous generation, listed and then read once (the bytes discarded) on a thread of its own
 * while the emitter renders. The list is only needed at the end (what to remove); the reading puts
 * the files back in the page cache when memory pressure has dropped them (which can happen within
 * minutes): the writing thread's reads (to compare) then find them there instead of waiting for
 * the disk. A file the writing thread reaches first is simply read from the disk by it.
 */
interface PreviousTree {
  /** Every file, as paths relative to the root with '/' separators (rejects when the listing fails). */
  files: Promise<string[]>;
  /** Ends the thread (reading ahead is pointless once the files have been compared). */
  stop(): Promise<void>;
}

function scanPrevious(root: string): PreviousTree {
  const { worker, stop } = evalThread(SCAN_THREAD, root, SCAN_LIMITS);
  const files = new Promise<string[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', (e) => reject(new Error(`cannot list the previous generation ${root}: ${e.message}`)));
    worker.once('exit', (code) => reject(new Error(`the listing of the previous generation ${root} ended (code ${code}) without an answer`)));
  });
  files.catch(() => undefined); // awaited by finish(); a failed listing must not go unobserved first
  return { files, stop };
}

/** The thread holds a list of paths and a 64 KB buffer: small heaps keep it near a bare thread's RSS. */
const SCAN_LIMITS = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 32 };

/** The listing thread's code. */
const SCAN_THREAD = `
const { parentPort, workerData: root } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const files = fs.readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => path.relative(root, path.join(e.parentPath ?? e.path, e.name)).split(path.sep).join('/'));
parentPort.postMessage(files);
const buf = Buffer.allocUnsafe(1 << 16);
for (const rel of files) {
  let fd;
  try { fd = fs.openSync(path.join(root, rel), 'r'); } catch { continue; }
  try { while (fs.readSync(fd, buf, 0, buf.length, null) > 0); } catch {} finally { fs.closeSync(fd); }
}
`;

/** Writes every file of a list into a tree (tests and small trees; the build streams through TreeWriter). */
export async function writeTree(root: string, files: ReadonlyArray<{ path: string; body: Body }>): Promise<Written[]> {
  const tree = new TreeWriter(path.resolve(root));
  for (const f of files) await tree.add(f.path, f.body);
  return tree.finish();
}

/**
 * An output folder being replaced. The new tree is .<out>-tmp-<id> (git-ignored; id: this process,
 * build/emit/swap.ts): fresh, or with `reuse` the generation before the current one
 * (.<out>-previous) when there is one. commit() names the finished tree complete
 * (.<out>-tmp-done-<id>) and swaps it in (out -> .<out>-tmp-old-<id>, tree -> out); the replaced
 * tree then becomes .<out>-previous with `reuse` and is deleted without. A process stopped between
 * the two renames leaves no out folder: the next build or npm start puts the complete tree back
 * (tidyOutput). discard() removes the tree; out is never touched before commit().
 */
export class OutputTree extends TreeWriter {
  private constructor(
    root: string,
    previous: PreviousTree | null,
    private readonly out: string,
    private readonly reuse: boolean,
    /** Whether the tree started as the previous generation. */
    readonly reused: boolean,
  ) {
    super(root, previous);
  }

  static async open(out: string, opts: { reuse?: boolean } = {}): Promise<OutputTree> {
    const abs = path.resolve(out);
    const names = treeNames(abs);
    mkdirSync(path.dirname(abs), { recursive: true });
    await rm(names.writing, { recursive: true, force: true });
    if (opts.reuse) {
      try {
        // A rename claims it: two builds cannot update the same tree.
        await rename(names.previous, names.writing);
        return new OutputTree(names.writing, scanPrevious(names.writing), abs, true, true);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
    return new OutputTree(names.writing, null, abs, opts.reuse === true, false);
  }

  /**
   * A tree of another out folder's files (`rels`, relative to `from`), hard-linked: a folder that
   * already holds exactly this build is not made again. A file is copied where it cannot be linked
   * (another file system). Linked files are shared, so nothing writes into them in place (a reused
   * tree replaces a file it changes).
   */
  static async linkedFrom(out: string, from: string, rels: readonly string[], opts: { reuse?: boolean } = {}): Promise<{ tree: OutputTree; stats: Array<[number, number, number, number]> }> {
    const abs = path.resolve(out);
    const names = treeNames(abs);
    mkdirSync(path.dirname(abs), { recursive: true });
    await rm(names.writing, { recursive: true, force: true });
    for (const rel of rels) resolveInside(names.writing, rel);
    // On a thread of its own: the folders and links of one tree are made while another's are.
    const { worker, stop } = evalThread(LINK_THREAD, { from: path.resolve(from), to: names.writing, rels }, WRITE_LIMITS);
    let done: { error?: string; stats?: Float64Array };
    try {
      done = await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    } finally {
      await stop();
    }
    if (done.error || !done.stats) throw new Error(`linking ${from} into ${out}: ${done.error}`);
    const flat = done.stats;
    const stats = rels.map((_, i): [number, number, number, number] => [flat[4 * i]!, flat[4 * i + 1]!, flat[4 * i + 2]!, flat[4 * i + 3]!]);
    return { tree: new OutputTree(names.writing, null, abs, opts.reuse === true, false), stats };
  }

  /** Every write done and leftovers removed: swaps the tree in. */
  async commit(): Promise<Written[]> {
    const written = await this.finish();
    const { done, old, previous } = treeNames(this.out);
    crashPoint('before-done');
    await rename(this.root, done);
    let hadOld = false;
    try {
      await rename(this.out, old);
      hadOld = true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        await rename(done, this.root).catch(() => undefined);
        throw e;
      }
    }
    crashPoint('between-renames');
    try {
      await rename(done, this.out);
    } catch (e) {
      // What cannot be put back here is left complete under its name, for tidyOutput.
      if (hadOld) await rename(old, this.out).catch(() => undefined);
      await rename(done, this.root).catch(() => undefined); // discard() removes it
      throw e;
    }
    if (hadOld) {
      const kept = this.reuse && (await rename(old, previous).then(() => true, () => false));
      if (!kept) await rm(old, { recursive: true, force: true });
    }
    return written;
  }

  /** The build failed: the tree goes (a half-updated previous generation too), out stays as it was. */
  async discard(): Promise<void> {
    await this.abandon();
    await rm(this.root, { recursive: true, force: true });
  }
}
