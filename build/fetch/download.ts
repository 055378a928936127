// One HTTP download, streamed to a temp file next to the destination and renamed only once it
// is complete and checked: an interrupted or rejected download never leaves a half-written file.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type Digest, tempPathFor } from './files.ts';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    statusText: string,
  ) {
    super(`HTTP ${status}${statusText ? ` ${statusText}` : ''}`);
  }
}

export interface DownloadOptions {
  userAgent: string;
  timeoutMs: number;
  /** Runs on the complete temp file before the rename; throwing rejects the download. */
  validate?: (tempPath: string, digest: Digest) => Promise<void>;
  /** Called with received and total bytes (total 0 when the server sends no length). */
  onProgress?: (received: number, total: number) => void;
}

export async function downloadToFile(url: string, dest: string, opts: DownloadOptions): Promise<Digest> {
  await mkdir(dirname(dest), { recursive: true });
  const tmp = tempPathFor(dest);
  try {
    const res = await fetch(url, {
      headers: { 'user-agent': opts.userAgent, accept: '*/*' },
      redirect: 'follow',
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    if (!res.ok || !res.body) throw new HttpError(res.status, res.statusText);
    const total = Number(res.headers.get('content-length') ?? 0) || 0;
    const hash = createHash('sha256');
    let received = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        received += chunk.length;
        opts.onProgress?.(received, total);
        done(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(res.body as WebReadableStream), tap, createWriteStream(tmp));
    // A server that closes early without an error still gives a short file: catch it here.
    if (total > 0 && received !== total) {
      throw new Error(`connection closed after ${received} of ${total} bytes`);
    }
    const digest = { bytes: received, sha256: hash.digest('hex') };
    await opts.validate?.(tmp, digest);
    await rename(tmp, dest);
    return digest;
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
