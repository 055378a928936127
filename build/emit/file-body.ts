// A file's body kept on disk instead of in memory: the downloads' database and archive, made in
// the emit's scratch folder, and the files the same in every shape, made by the first shape a build
// emits (files.ts, ShapeFree); linked (or copied) into the output tree by its writing thread. Held as
// buffers, the two (about 20 MB) sat beside the emit's heap, and freeing buffers that large made
// the C allocator keep the next ones in its heap for the rest of the build.
import { closeSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';

export interface FileBody {
  /** Absolute path of the file holding the body; it must stay until the tree has written it. */
  file: string;
  bytes: number;
  sha256: string;
}

/** What an emitted file's bytes are: text (written as UTF-8), bytes, or a file on disk. */
export type Body = string | Uint8Array | FileBody;

export const isFileBody = (b: unknown): b is FileBody => typeof b === 'object' && b !== null && !(b instanceof Uint8Array) && typeof (b as FileBody).file === 'string';

/** Read at a time while hashing a file. */
const CHUNK = 1 << 16;

/** A file on disk as a body: its size and sha256, read in small chunks. */
export function fileBody(file: string): FileBody {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(CHUNK);
  const fd = openSync(file, 'r');
  let bytes = 0;
  try {
    for (let n = readSync(fd, buf, 0, CHUNK, null); n > 0; n = readSync(fd, buf, 0, CHUNK, null)) {
      hash.update(buf.subarray(0, n));
      bytes += n;
    }
  } finally {
    closeSync(fd);
  }
  return { file, bytes, sha256: hash.digest('hex') };
}
