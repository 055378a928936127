// The local server's files: dist/ read from disk on first use and kept in a cache bounded by size
// (hot files stay, the rest are read again when asked), so a worker's memory does not grow with
// the site and a bounded number of files is open at once. ETags are the content's sha256
// (shortened), one per encoding, taken from the build's manifest rather than computed on every
// cache miss; gzip/brotli variants are compressed on first use and counted against the same bound.
import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { Readable } from 'node:stream';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { createHash } from 'node:crypto';
import { MANIFEST_FILE } from '../../../build/contract/dist-layout.ts';

export type Encoding = 'br' | 'gzip';

export interface StaticFile {
  body: Buffer;
  /** The content's sha256, shortened (hex): the identity ETag's value. */
  hash: string;
  gzip?: Buffer;
  br?: Buffer;
  /** Compressed already (a .gz download): sent as it is. */
  compressed?: boolean;
}

/** The strong ETag of one representation: gzip, br and identity bytes never share one (RFC 9110 §8.8.3). */
export const etagFor = (file: StaticFile, encoding: Encoding | null): string => (encoding ? `"${file.hash}-${encoding}"` : `"${file.hash}"`);

export const fileOf = (body: Buffer, sha256?: string): StaticFile => ({ body, hash: (sha256 ?? createHash('sha256').update(body).digest('hex')).slice(0, 32) });

const MIN_COMPRESS = 512;
const ACCEPTS_BR = /(^|[,\s])br(?!\s*;\s*q=0(\.0*)?\s*(,|$))/i;
const ACCEPTS_GZIP = /(^|[,\s])gzip(?!\s*;\s*q=0(\.0*)?\s*(,|$))/i;
// Clients send the same few Accept-Encoding values: the last answer is kept (one string compare).
let lastAccept: string | undefined;
let lastChoice: Encoding | null = null;

/** br, then gzip, when the client accepts it and the body is worth compressing (not already compressed). */
export function chooseEncoding(file: StaticFile, acceptEncoding: string | undefined): Encoding | null {
  if (file.body.length < MIN_COMPRESS || !acceptEncoding || file.compressed) return null;
  if (acceptEncoding !== lastAccept) {
    lastChoice = ACCEPTS_BR.test(acceptEncoding) ? 'br' : ACCEPTS_GZIP.test(acceptEncoding) ? 'gzip' : null;
    lastAccept = acceptEncoding;
  }
  return lastChoice;
}

/** The body in `encoding`, compressed once per file and kept with it. */
export function encoded(file: StaticFile, encoding: Encoding): Buffer {
  if (encoding === 'br') {
    // The size hint lets brotli size its window and tables to the file, not 4 MB for every file.
    return (file.br ??= brotliCompressSync(file.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: file.body.length } }));
  }
  return (file.gzip ??= gzipSync(file.body, { level: 6 }));
}

/**
 * Reads files of one folder, one at a time: synchronously, as nginx does (a file in the page cache
 * is read faster than a thread-pool round trip per file costs), so at most
 * one descriptor is open for files however many requests miss the cache at once. Never a dot-file
 * or anything under a dot-folder, and nothing outside the folder: null, as for a missing file.
 */
export class FileReader {
  constructor(readonly dir: string) {}

  /** The manifest's sha256 per file, and which manifest.json it was read from (inode, mtime, size). */
  private manifest: { stamp: string; files: Map<string, string> } | null = null;

  /** The manifest.json on disk now: its stamp, and its hashes (read again when it changed: a new build). */
  private manifestNow(): { stamp: string; files: Map<string, string> } | null {
    const stamp = this.manifestStamp();
    if (stamp === null) return null;
    if (this.manifest?.stamp !== stamp) {
      const bytes = this.bytes(MANIFEST_FILE);
      const files = bytes ? (JSON.parse(bytes.toString('utf8')) as { files?: Record<string, string> }).files : undefined;
      this.manifest = { stamp, files: new Map(Object.entries(files ?? {})) };
    }
    return this.manifest;
  }

  private manifestStamp(): string | null {
    try {
      const s = statSync(path.join(this.dir, MANIFEST_FILE));
      return `${s.ino}:${s.mtimeMs}:${s.size}`;
    } catch {
      return null;
    }
  }

  /**
   * The file with its ETag hash (what is served): the manifest's sha256 when the same manifest was
   * on disk before and after the file was read (a build that swapped the tree in between would
   * change it), else the bytes' own. Hashing every file on every cache miss made a crawl of the
   * site several times slower.
   */
  read(rel: string): StaticFile | null {
    const before = this.manifestNow();
    const body = this.bytes(rel);
    if (!body) return null;
    const listed = before && this.manifestStamp() === before.stamp ? before.files.get(rel) : undefined;
    const file = fileOf(body, listed);
    if (rel.endsWith('.gz')) file.compressed = true;
    return file;
  }

  /**
   * The manifest's sha256 of `rel` when the manifest on disk lists it, else the file's own
   * (hashed once per version of the file, read in chunks): the identity ETag of a file too large
   * to read whole (see openLarge).
   */
  hashOf(rel: string, stamp: string): string | null {
    const listed = this.manifestNow()?.files.get(rel);
    if (listed) return listed.slice(0, 32);
    const key = `${rel}\0${stamp}`;
    let hash = this.hashed.get(key);
    if (hash === undefined) {
      const h = createHash('sha256');
      const fd = this.open(rel);
      if (fd === null) return null;
      try {
        const chunk = Buffer.allocUnsafe(1 << 20);
        for (let got; (got = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) h.update(chunk.subarray(0, got));
      } finally {
        closeSync(fd);
      }
      hash = h.digest('hex').slice(0, 32);
      if (this.hashed.size >= 64) this.hashed.clear();
      this.hashed.set(key, hash);
    }
    return hash;
  }

  private readonly hashed = new Map<string, string>();

  /** The stat of `rel` when it is a servable file, else null. */
  statOf(rel: string): Stats | null {
    if (!servable(rel)) return null;
    try {
      const s = statSync(path.join(this.dir, rel));
      return s.isFile() ? s : null;
    } catch {
      return null;
    }
  }

  /** `rel` opened for reading, or null when it is not a servable file. The caller closes it. */
  private open(rel: string): number | null {
    if (!servable(rel)) return null;
    try {
      const fd = openSync(path.join(this.dir, rel), 'r');
      if (fstatSync(fd).isFile()) return fd;
      closeSync(fd);
      return null;
    } catch (e) {
      if (MISSING.has((e as NodeJS.ErrnoException).code!)) return null;
      throw e;
    }
  }

  /** Whether `rel` is a file that read would give. */
  isFile(rel: string): boolean {
    try {
      return servable(rel) && statSync(path.join(this.dir, rel)).isFile();
    } catch {
      return false;
    }
  }

  /** The file's bytes only (the function's shards, parsed once and kept by the function). */
  bytes(rel: string): Buffer | null {
    if (!servable(rel)) return null;
    let fd: number;
    try {
      fd = openSync(path.join(this.dir, rel), 'r');
    } catch (e) {
      if (MISSING.has((e as NodeJS.ErrnoException).code!)) return null;
      throw e;
    }
    try {
      const { size } = fstatSync(fd);
      // A folder (EISDIR on read) is no file.
      const buf = Buffer.allocUnsafeSlow(allocationFor(size + 1));
      let n = 0;
      for (;;) {
        if (n === buf.length) throw new Error(`${rel} grew while it was read`);
        const got = readSync(fd, buf, n, buf.length - n, n);
        if (got === 0) break;
        n += got;
      }
      return buf.subarray(0, n);
    } catch (e) {
      if (MISSING.has((e as NodeJS.ErrnoException).code!)) return null;
      throw e;
    } finally {
      closeSync(fd);
    }
  }
}

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG']);

/**
 * Bytes to allocate for a buffer of `size` bytes that will be freed whole: above glibc's first mmap
 * threshold (128 KB), at least 32 MiB. Freeing a block mapped on its own under 32 MiB raises the
 * threshold to its size, and from then on every block up to that size (each small file) comes from
 * heaps that keep freed memory (see build/whole-file.ts); pages of the tail never written
 * cost address space only.
 */
export const allocationFor = (size: number): number => (size > 128 * 1024 ? Math.max(size, 33 << 20) : size);

/** A relative path of plain segments: none empty, none starting with a dot (., .., .env, .git/). */
export const servable = (rel: string): boolean =>
  rel.length > 0 && !rel.includes('\\') && !rel.includes('\0') && rel.split('/').every((s) => s.length > 0 && s[0] !== '.');

/** Bytes read from disk at a time for a file sent in chunks: what one connection holds in memory besides its socket's buffers. */
export const CHUNK_BYTES = 64 * 1024;

/**
 * A file too large to keep (over the cache's per-entry bound) sent from disk as it is read: a chunk
 * at a time, the next only once the connection has taken the last (the socket's backpressure), so a
 * client that does not read holds one chunk, not the file. The file is opened for each chunk, not
 * held open: a slow reader holds no descriptor (the connection cap assumes one per connection). A
 * file replaced meanwhile (another inode: a new build) ends the response early rather than mixing
 * two files' bytes.
 */
export class FileChunks extends Readable {
  private pos = 0;
  constructor(private readonly file: string, private readonly stat: Pick<Stats, 'ino' | 'size'>) {
    super({ highWaterMark: CHUNK_BYTES });
  }
  override _read(): void {
    const left = this.stat.size - this.pos;
    if (left <= 0) return void this.push(null);
    try {
      const fd = openSync(this.file, 'r');
      try {
        if (fstatSync(fd).ino !== this.stat.ino) throw new Error(`${this.file} was replaced while it was sent`);
        const buf = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, left));
        const got = readSync(fd, buf, 0, buf.length, this.pos);
        if (got === 0) throw new Error(`${this.file} shrank while it was sent`);
        this.pos += got;
        this.push(got === buf.length ? buf : buf.subarray(0, got));
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      this.destroy(e as Error);
    }
  }
}

/** What a cache entry must carry: its size (bytes it holds) and whether it was used since the hand last passed. */
export interface Sized {
  size: number;
  used: boolean;
}

/**
 * Entries bounded by their total size; the oldest unused entry goes first (CLOCK: a hit only
 * marks the entry used, which keeps the hot lookup to one Map read and one write; the hand gives
 * a used entry a second round instead of evicting it). An entry larger than a quarter of the
 * bound is not kept.
 */
export class SizedCache<V extends Sized> {
  private readonly map = new Map<string, V>();
  private total = 0;

  constructor(readonly maxSize: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v) v.used = true;
    return v;
  }

  /** Keeps `value` under `key` when it is small enough; returns whether it did. */
  set(key: string, value: V): boolean {
    this.delete(key);
    if (value.size > this.maxSize / 4) return false;
    this.map.set(key, value);
    this.total += value.size;
    this.evict();
    return true;
  }

  /** The entry under `key` grew by `bytes` (a compressed variant made for it). */
  grow(key: string, value: V, bytes: number): void {
    value.size += bytes;
    if (this.map.get(key) !== value) return;
    this.total += bytes;
    this.evict();
  }

  delete(key: string): void {
    const old = this.map.get(key);
    if (!old) return;
    this.map.delete(key);
    this.total -= old.size;
  }

  private evict(): void {
    while (this.total > this.maxSize && this.map.size > 0) {
      const [k, v] = this.map.entries().next().value!;
      this.map.delete(k);
      if (v.used) {
        v.used = false;
        this.map.set(k, v);
      } else {
        this.total -= v.size;
      }
    }
  }

  get size(): number {
    return this.map.size;
  }

  get totalSize(): number {
    return this.total;
  }
}
