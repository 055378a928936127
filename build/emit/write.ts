// Atomic output: the new tree is written beside the out folder, then swapped in with renames. A
// failure before the swap leaves the previous build untouched.
//
// Files arrive one at a time (the emitter streams them), so a body is held only until it is on
// disk. The new tree is either a fresh folder or, when the build allows it, the generation before
// the current one (kept as .<out>-previous by the last swap) updated in place: a file whose bytes
// on disk are already exactly the new bytes is left alone, any other is written, and files the
// new build does not produce are removed. Creating ~5,000 folders and files and deleting the
// replaced tree is most of a fresh write on a disk file system; updating the previous generation
// skips both, and the decision rests on the bytes themselves (read and compared), not on a record
// of them.
import { closeSync, mkdirSync, openSync, readFileSync, readSync, rmdirSync, unlinkSync, writeFile } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sha256 } from './manifest.ts';

export function resolveInside(root: string, rel: string): string {
  const abs = path.resolve(root, rel);
  if (abs !== root && !abs.startsWith(root + path.sep)) throw new Error(`refusing to write outside ${root}: ${rel}`);
  return abs;
}

/** A file as written: its size and sha256 (the manifest and the build summary need no body). */
export interface Written {
  path: string;
  bytes: number;
  sha256: string;
}

/** The reused encoding and read-back buffers start this large (most files are smaller) and grow to the largest file. */
const SCRATCH_BYTES = 1 << 20;

/** Writes in flight at most: thousands of small files, without exhausting file descriptors. */
const IN_FLIGHT = 32;

/**
 * One output tree being filled. `add` encodes, hashes and writes a file and returns once fewer
 * than IN_FLIGHT writes are pending, so a producer that awaits it never gets far ahead of the disk.
 *
 * A text body is encoded into a buffer the tree reuses, and the file on disk is read back into
 * another: a rebuild that finds its files unchanged allocates nothing per file (a fresh buffer for
 * each body and for each old file were 150 MB of short-lived memory outside the heap, and V8
 * collects more often as that grows). Only a body that is written gets its own copy, since the
 * write outlives the next file.
 */
export class TreeWriter {
  readonly written: Written[] = [];
  /** Files found unchanged in the previous generation (not written again). */
  unchanged = 0;
  private readonly dirs = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;
  /** The previous generation being listed (null: a fresh tree); finish() removes what this build did not produce. */
  private readonly previous: PreviousTree | null;
  private encoded = Buffer.allocUnsafe(SCRATCH_BYTES);
  private onDisk = Buffer.allocUnsafe(SCRATCH_BYTES);

  constructor(
    readonly root: string,
    previous: PreviousTree | null = null,
  ) {
    this.previous = previous;
  }

  async add(rel: string, body: string | Uint8Array): Promise<Written> {
    const abs = resolveInside(this.root, rel);
    const bytes = typeof body === 'string' ? this.encode(body) : body;
    const w: Written = { path: rel, bytes: bytes.byteLength, sha256: sha256(bytes) };
    this.written.push(w);
    // In a reused tree any file may be there already (the listing arrives later): one that
    // cannot be opened is simply new.
    if (this.previous && this.sameBytes(abs, bytes)) {
      this.unchanged++;
      return w;
    }
    const dir = path.dirname(abs);
    // mkdir is a metadata operation the file system serializes: a thread-pool round trip per
    // folder would only add latency.
    if (!this.dirs.has(dir)) mkdirSync(dir, { recursive: true });
    this.dirs.add(dir);
    const p: Promise<void> = writeBytes(abs, bytes === body ? bytes : Buffer.from(bytes)).then(
      () => void this.pending.delete(p),
      (error: unknown) => {
        this.pending.delete(p);
        this.failure ??= { error };
      },
    );
    this.pending.add(p);
    if (this.pending.size >= IN_FLIGHT) await Promise.race(this.pending);
    if (this.failure) throw this.failure.error;
    return w;
  }

  /** The UTF-8 bytes of a text, in the reused buffer (valid until the next call). */
  private encode(text: string): Buffer {
    // Three bytes per UTF-16 unit at most: the exact length is only worked out when that might not fit.
    if (text.length * 3 > this.encoded.byteLength) {
      const need = Buffer.byteLength(text);
      if (need > this.encoded.byteLength) this.encoded = Buffer.allocUnsafe(need);
    }
    return this.encoded.subarray(0, this.encoded.write(text, 0));
  }

  /** Whether the file holds exactly these bytes: read into the reused buffer, one byte more than expected to tell a longer file apart. */
  private sameBytes(abs: string, bytes: Uint8Array): boolean {
    let fd: number;
    try {
      fd = openSync(abs, 'r');
    } catch {
      return false; // gone: written again
    }
    try {
      const want = bytes.byteLength + 1;
      if (this.onDisk.byteLength < want) this.onDisk = Buffer.allocUnsafe(want);
      let got = 0;
      for (let n = -1; got < want && n !== 0; got += n) n = readSync(fd, this.onDisk, got, want - got, got);
      return got === bytes.byteLength && this.onDisk.subarray(0, got).equals(bytes);
    } catch {
      return false; // not a file: written again (a folder in its way fails the write, loudly)
    } finally {
      closeSync(fd);
    }
  }

  /** A file of this tree as written (every write has settled). */
  async read(rel: string): Promise<Buffer> {
    await this.settle();
    return readFileSync(resolveInside(this.root, rel));
  }

  /** Waits for every write; then removes what the previous generation had and this build did not produce. */
  async finish(): Promise<Written[]> {
    await this.settle();
    const produced = new Set(this.written.map((w) => w.path));
    const leftover = this.previous ? (await this.previous.files).filter((rel) => !produced.has(rel)).sort() : [];
    await this.previous?.stop();
    for (const rel of leftover) {
      const abs = resolveInside(this.root, rel);
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
    while (this.pending.size > 0) await Promise.allSettled(this.pending);
    await this.previous?.stop();
  }

  private async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
    if (this.failure) throw this.failure.error;
  }
}

/**
 * fs.writeFile with a callback: fs/promises' version makes a FileHandle (a JS object with its own
 * promises and cleanup) per file; in a fresh tree of ~5,000 files its open and close took this
 * thread ~370 ms in a profile, the callback API's ~290 ms.
 */
const writeBytes = (abs: string, data: Uint8Array) => new Promise<void>((resolve, reject) => writeFile(abs, data, (e) => (e ? reject(e) : resolve())));

/**
 * The previous generation, listed and then read once (the bytes discarded) on a thread of its own
 * while the emitter renders. The list is only needed at the end (what to remove); the reading puts
 * the files back in the page cache when memory pressure has dropped them (as on the machine this
 * was measured on, within minutes): the emitter's own reads (to compare) then find them there
 * instead of waiting for the disk on its one busy thread (up to ~1 s for the listing and the reads
 * of ~5,000 files). A file the emitter reaches first is simply read from the disk by the emitter.
 */
interface PreviousTree {
  /** Every file, as paths relative to the root with '/' separators (rejects when the listing fails). */
  files: Promise<string[]>;
  /** Ends the thread (reading ahead is pointless once the files have been compared). */
  stop(): Promise<void>;
}

function scanPrevious(root: string): PreviousTree {
  const worker = new Worker(SCAN_THREAD, { eval: true, workerData: root, execArgv: [], resourceLimits: SCAN_LIMITS });
  let stopped = false;
  const files = new Promise<string[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', (e) => reject(new Error(`cannot list the previous generation ${root}: ${e.message}`)));
    worker.once('exit', (code) => reject(new Error(`the listing of the previous generation ${root} ended (code ${code}) without an answer`)));
  });
  files.catch(() => undefined); // awaited by finish(); a failed listing must not go unobserved first
  return {
    files,
    async stop() {
      if (stopped) return;
      stopped = true;
      await worker.terminate();
    },
  };
}

/** The thread holds a list of paths and a 64 KB buffer: small heaps keep its ~17 MB of RSS (a bare thread) from growing. */
const SCAN_LIMITS = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 32 };

/** The listing thread's code: plain CommonJS with node's own modules, so it needs no bundling. */
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
export async function writeTree(root: string, files: ReadonlyArray<{ path: string; body: string | Uint8Array }>): Promise<Written[]> {
  const tree = new TreeWriter(path.resolve(root));
  for (const f of files) await tree.add(f.path, f.body);
  return tree.finish();
}

/**
 * An output folder being replaced. The new tree is .<out>-tmp-<pid> (git-ignored): fresh, or with
 * `reuse` the generation before the current one (.<out>-previous) when there is one. commit()
 * swaps it in (out -> .<out>-tmp-old-<pid>, tree -> out); the replaced tree then becomes
 * .<out>-previous with `reuse` and is deleted without. discard() removes the tree; out is never
 * touched before commit().
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
    const tmp = sibling(abs, `tmp-${process.pid}`);
    mkdirSync(path.dirname(abs), { recursive: true });
    await rm(tmp, { recursive: true, force: true });
    if (opts.reuse) {
      try {
        // A rename claims it: two builds cannot update the same tree.
        await rename(sibling(abs, 'previous'), tmp);
        return new OutputTree(tmp, scanPrevious(tmp), abs, true, true);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
    return new OutputTree(tmp, null, abs, opts.reuse === true, false);
  }

  /** Every write done and leftovers removed: swaps the tree in. */
  async commit(): Promise<Written[]> {
    const written = await this.finish();
    const old = sibling(this.out, `tmp-old-${process.pid}`);
    let hadOld = false;
    try {
      await rename(this.out, old);
      hadOld = true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    try {
      await rename(this.root, this.out);
    } catch (e) {
      if (hadOld) await rename(old, this.out);
      throw e;
    }
    if (hadOld) {
      const kept = this.reuse && (await rename(old, sibling(this.out, 'previous')).then(() => true, () => false));
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

/** .<base>-<suffix> beside the out folder. */
const sibling = (abs: string, suffix: string) => path.join(path.dirname(abs), `.${path.basename(abs)}-${suffix}`);
