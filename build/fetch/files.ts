// Disk I/O shared by the fetcher: hashing, atomic writes, the record file.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { serializeRecord } from './record.ts';
import { FetchRecord, RECORD_FILE } from '../sources/fetch-record.ts';

export interface Digest {
  bytes: number;
  sha256: string;
}

export async function digestFile(path: string): Promise<Digest> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

export const digestBytes = (data: Uint8Array): Digest => ({
  bytes: data.length,
  sha256: createHash('sha256').update(data).digest('hex'),
});

export async function sizeOf(path: string): Promise<number | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `path` holds exactly the expected bytes (size first: cheap, then sha256). */
export async function matches(path: string, expected: Partial<Digest>): Promise<boolean> {
  if (expected.bytes === undefined && expected.sha256 === undefined) return false;
  const size = await sizeOf(path);
  if (size === undefined) return false;
  if (expected.bytes !== undefined && size !== expected.bytes) return false;
  if (expected.sha256 === undefined) return true;
  return (await digestFile(path)).sha256 === expected.sha256;
}

/**
 * A sibling temp name: same directory, so the final rename is atomic. The `.part` suffix makes
 * a file left by a killed process recognisable (and the loader ignores unknown names).
 */
export const tempPathFor = (dest: string): string =>
  join(dirname(dest), `.${dest.split(/[\\/]/).pop()}.${process.pid}.${randomBytes(4).toString('hex')}.part`);

/** Writes via a temp file and rename, so `dest` is either the old file or the complete new one. */
export async function writeFileAtomic(dest: string, data: Uint8Array | string): Promise<void> {
  await mkdir(dirname(dest), { recursive: true });
  const tmp = tempPathFor(dest);
  try {
    await writeFile(tmp, data);
    await rename(tmp, dest);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

export async function readRecord(outDir: string): Promise<FetchRecord | undefined> {
  // A missing, hand-edited or older record is not worth failing over: it only lets files be skipped.
  try {
    const parsed = FetchRecord.safeParse(JSON.parse(await readFile(join(outDir, RECORD_FILE), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export const writeRecord = (outDir: string, record: FetchRecord): Promise<void> =>
  writeFileAtomic(join(outDir, RECORD_FILE), serializeRecord(record));
