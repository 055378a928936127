// A cache entry on disk: one file of named JSON parts, each with its sha256, verified on read. Used
// by the parsed-source cache and the model-output cache (build/cache/*). Layout: the parts' bytes
// back to back, then the header `{"parts":[{name,bytes,sha256,slice?},...]}`, then a line with the
// header's length. The header comes last so that parts are written as they are made: an array is
// stored as slices of about a megabyte (parts of the same name, `slice` set), so neither writing
// nor reading ever holds more than one slice's text besides the values themselves.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { asideName } from './aside.ts';
import { stageLabel } from '../report-format.ts';
import { allocationFor } from '../whole-file.ts';
import type { CacheOutcome } from '../build-types.ts';

export const sha = () => createHash('sha256');

/** File name ending of an entry. */
export const ENTRY = '.parts';

interface PartHeader {
  name: string;
  bytes: number;
  sha256: string;
  /** A slice of the array `name`: the value is the concatenation of its slices, in order. */
  slice?: true;
}

/** Characters of JSON text per slice of an array, about. */
const SLICE_CHARS = 1 << 20;
/** The trailer: newline, the header's length in 12 digits, newline. */
const TRAILER = 14;

/**
 * The buffer entries are read or written through, kept between the entries of one load or one
 * thread: each is a mapping of its own (whole-file.ts), and a new one per entry would count as
 * external memory each time, so V8 would run a full collection every few entries (and the parsed
 * sources are an entry per file).
 */
export interface Scratch {
  buf: Buffer | null;
}

/** The scratch buffer, grown to hold `bytes` (and at least two slices' text). */
function scratchOf(s: Scratch, bytes: number): Buffer {
  if (!s.buf || s.buf.byteLength < bytes) s.buf = Buffer.allocUnsafeSlow(allocationFor(Math.max(bytes, SLICE_CHARS * 2)));
  return s.buf!;
}

/**
 * The entry's parts, each checked against its sha256 before it is parsed; null when there is no
 * entry. Read with synchronous calls: with an entry per parsed file, a warm build's sources stage
 * made hundreds of thread-pool round trips, each a wait with nothing else to do; the files are
 * nearly always in the page cache.
 */
export async function readEntry(file: string, scratch: Scratch = { buf: null }): Promise<Record<string, unknown> | null | 'damaged'> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const { size } = fstatSync(fd);
    if (size < TRAILER) return 'damaged';
    const tail = Buffer.alloc(TRAILER);
    readSync(fd, tail, 0, TRAILER, size - TRAILER);
    const headerBytes = /^\n(\d{12})\n$/.exec(tail.toString('latin1'));
    if (!headerBytes || Number(headerBytes[1]) > size - TRAILER) return 'damaged';
    const headerAt = size - TRAILER - Number(headerBytes[1]);
    const head = Buffer.alloc(Number(headerBytes[1]));
    readSync(fd, head, 0, head.length, headerAt);
    let parts: PartHeader[];
    try {
      parts = (JSON.parse(head.toString()) as { parts: PartHeader[] }).parts;
    } catch {
      return 'damaged';
    }
    if (!Array.isArray(parts) || parts.reduce((n, p) => n + p.bytes, 0) !== headerAt) return 'damaged';
    const values: Record<string, unknown> = {};
    let offset = 0;
    for (const p of parts) {
      const bytes = scratchOf(scratch, p.bytes).subarray(0, p.bytes);
      readSync(fd, bytes, 0, p.bytes, offset);
      offset += p.bytes;
      if (sha().update(bytes).digest('hex') !== p.sha256) return 'damaged';
      const value: unknown = JSON.parse(bytes.toString());
      if (p.slice) {
        const all = (values[p.name] ??= []) as unknown[];
        for (const item of value as unknown[]) all.push(item);
      } else values[p.name] = value;
    }
    return values;
  } finally {
    closeSync(fd);
  }
}

/**
 * A value's JSON text in pieces: an array as slices of about SLICE_CHARS, anything else whole. A
 * slice is one JSON.stringify of a run of items (faster than an item at a time, joined), its length
 * guessed from the previous slice's characters per item.
 */
function* pieces(value: unknown): Generator<{ text: string; slice: boolean }> {
  if (!Array.isArray(value)) {
    yield { text: JSON.stringify(value), slice: false };
    return;
  }
  // An empty array is one empty slice, so the name is there on reading.
  if (value.length === 0) yield { text: '[]', slice: true };
  let run = 16;
  for (let i = 0; i < value.length; ) {
    const text = JSON.stringify(value.slice(i, i + run));
    const fit = Math.max(1, Math.floor((run * SLICE_CHARS) / text.length));
    // Much longer than a slice (the items got larger): made again shorter, so no slice is large.
    if (text.length > 2 * SLICE_CHARS && run > 1) {
      run = fit;
      continue;
    }
    yield { text, slice: true };
    i += run;
    run = Math.min(fit, 2 * run);
  }
}

/**
 * Stores the parts atomically (written aside, then renamed) and, given `keep`, keeps the newest
 * `keep` entries of the folder. Each piece is written as it is made: a whole entry's text at once
 * (the model's) would be a cache-miss build's memory peak.
 */
export async function writeEntry(file: string, values: Iterable<readonly [string, unknown]>, { keep, scratch = { buf: null } }: { keep?: number; scratch?: Scratch } = {}): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const tmp = asideName(file); // parsing threads store entries too
  const fh = await open(tmp, 'w');
  const parts: PartHeader[] = [];
  try {
    let offset = 0;
    for (const [name, value] of values) {
      for (const { text, slice } of pieces(value)) {
        // Three bytes per UTF-16 unit at most: the exact length is only worked out when that might not fit.
        let buf = scratchOf(scratch, 0);
        if (text.length * 3 > buf.length) buf = scratchOf(scratch, Buffer.byteLength(text));
        const body = buf.subarray(0, buf.write(text, 0));
        await fh.write(body, 0, body.length, offset);
        offset += body.length;
        parts.push({ name, bytes: body.length, sha256: sha().update(body).digest('hex'), ...(slice ? { slice: true as const } : {}) });
      }
    }
    const header = Buffer.from(JSON.stringify({ parts }));
    const trailer = Buffer.from(`\n${String(header.length).padStart(12, '0')}\n`);
    await fh.write(Buffer.concat([header, trailer]), 0, header.length + trailer.length, offset);
  } catch (e) {
    await fh.close();
    await rm(tmp, { force: true });
    throw e;
  }
  await fh.close();
  await rename(tmp, file);
  if (keep === undefined) return;
  const names = await readdir(dir);
  const entries = await Promise.all(names.filter((f) => f.endsWith(ENTRY)).map(async (f) => ({ f, t: (await stat(path.join(dir, f))).mtimeMs })));
  entries.sort((a, b) => b.t - a.t);
  for (const old of entries.slice(keep)) await rm(path.join(dir, old.f), { force: true });
}

/** A verified entry's parts, or why there are none (a damaged entry is reported and removed). */
export async function readCached(file: string, what: string, log: (line: string) => void, scratch?: Scratch): Promise<{ parts: Record<string, unknown> | null; outcome: Exclude<CacheOutcome, 'off'> }> {
  const read = await readEntry(file, scratch);
  if (read === 'damaged') {
    log(`${stageLabel('cache')} ${what}: entry ${path.basename(file)} failed verification; removed, computing again`);
    await rm(file, { force: true });
    return { parts: null, outcome: 'damaged' };
  }
  return read ? { parts: read, outcome: 'hit' } : { parts: null, outcome: 'miss' };
}

/** Stores an entry; a failure to store is logged and the build goes on. */
export async function storeCached(file: string, what: string, values: Iterable<readonly [string, unknown]>, keep: number, log: (line: string) => void): Promise<void> {
  await writeEntry(file, values, { keep }).catch((e: Error) => log(`${stageLabel('cache')} could not store ${what} (${e.message}); the build goes on`));
}
