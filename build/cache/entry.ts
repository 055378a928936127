// A cache entry on disk: one file of named JSON parts, each with its sha256, verified on read. Used
// by the parsed-source cache and the model-output cache (build/cache/*). Layout: one header line
// `{"parts":[{name,bytes,sha256},...]}` then the parts' bytes back to back.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const sha = () => createHash('sha256');

/** File name ending of an entry. */
export const ENTRY = '.parts';

interface PartHeader {
  name: string;
  bytes: number;
  sha256: string;
}

/** The entry's parts, each checked against its sha256 before it is parsed; null when there is no entry. */
export async function readEntry(file: string): Promise<Record<string, unknown> | null | 'damaged'> {
  const fh = await open(file, 'r').catch(() => null);
  if (!fh) return null;
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(Math.min(size, 1 << 16));
    await fh.read(head, 0, head.length, 0);
    const nl = head.indexOf(0x0a);
    if (nl < 0) return 'damaged';
    let parts: PartHeader[];
    try {
      parts = (JSON.parse(head.subarray(0, nl).toString()) as { parts: PartHeader[] }).parts;
    } catch {
      return 'damaged';
    }
    if (!Array.isArray(parts) || nl + 1 + parts.reduce((n, p) => n + p.bytes, 0) !== size) return 'damaged';
    const values: Record<string, unknown> = {};
    let offset = nl + 1;
    for (const p of parts) {
      const buf = Buffer.allocUnsafe(p.bytes);
      await fh.read(buf, 0, p.bytes, offset);
      offset += p.bytes;
      if (sha().update(buf).digest('hex') !== p.sha256) return 'damaged';
      values[p.name] = JSON.parse(buf.toString());
    }
    return values;
  } finally {
    await fh.close();
  }
}

/**
 * Stores the parts atomically (written aside, then renamed) and keeps the newest `keep` entries of
 * the folder. Written part by part: one concatenated copy of a whole entry (~70 MB for the parsed
 * sources) was the cache-miss build's memory peak.
 */
export async function writeEntry(file: string, values: Iterable<readonly [string, unknown]>, keep: number): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const parts = [...values].map(([name, value]) => {
    const body = Buffer.from(JSON.stringify(value));
    return { name, bytes: body.length, sha256: sha().update(body).digest('hex'), body };
  });
  const header = `${JSON.stringify({ parts: parts.map(({ body: _b, ...h }) => h) })}\n`;
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, [Buffer.from(header), ...parts.map((p) => p.body)]);
  await rename(tmp, file);
  const names = await readdir(dir);
  const entries = await Promise.all(names.filter((f) => f.endsWith(ENTRY)).map(async (f) => ({ f, t: (await stat(path.join(dir, f))).mtimeMs })));
  entries.sort((a, b) => b.t - a.t);
  for (const old of entries.slice(keep)) await rm(path.join(dir, old.f), { force: true });
}

/** What a cache gave: hit, miss (computed and stored), damaged (failed verification, computed again), off (not used). */
export type CacheOutcome = 'hit' | 'miss' | 'off' | 'damaged';

/** A verified entry's parts, or why there are none (a damaged entry is reported and removed). */
export async function readCached(file: string, what: string, log: (line: string) => void): Promise<{ parts: Record<string, unknown> | null; outcome: Exclude<CacheOutcome, 'off'> }> {
  const read = await readEntry(file);
  if (read === 'damaged') {
    log(`  cache      ${what}: entry ${path.basename(file)} failed verification; removed, computing again`);
    await rm(file, { force: true });
    return { parts: null, outcome: 'damaged' };
  }
  return read ? { parts: read, outcome: 'hit' } : { parts: null, outcome: 'miss' };
}

/** Stores an entry; a failure to store is logged and the build goes on. */
export async function storeCached(file: string, what: string, values: Iterable<readonly [string, unknown]>, keep: number, log: (line: string) => void): Promise<void> {
  await writeEntry(file, values, keep).catch((e: Error) => log(`  cache      could not store ${what} (${e.message}); the build goes on`));
}

/** A value through its entry: a verified entry decoded, or `load` run and its result stored. */
export async function throughCache<T>(
  file: string,
  what: string,
  io: {
    decode: (parts: Record<string, unknown>) => T;
    encode: (value: T) => Iterable<readonly [string, unknown]>;
    load: () => Promise<T>;
    log: (line: string) => void;
    keep: number;
  },
): Promise<{ value: T; outcome: CacheOutcome }> {
  const { parts, outcome } = await readCached(file, what, io.log);
  if (parts) return { value: io.decode(parts), outcome };
  const value = await io.load();
  await storeCached(file, what, io.encode(value), io.keep, io.log);
  return { value, outcome };
}
