// Whole source files and inflated worksheets, held in buffers that give their memory back when
// freed. glibc maps a block above its mmap threshold (128 KB at first) on its own, but freeing such
// a block under 32 MiB raises the threshold to its size, for every thread: from then on blocks of
// that size come from glibc's heaps, which keep what is freed: source files and worksheets freed
// that way raised the build's memory peak. A block of 32 MiB or more never raises the threshold,
// and pages never written are never resident: the unused tail of such a buffer costs address space
// only. Small buffers are left to the allocator.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

const OWN_MAPPING = 33 << 20;
const SMALL = 1 << 20;

/** Bytes to allocate for a buffer that will hold `size` bytes and be freed whole. */
export const allocationFor = (size: number): number => (size > SMALL ? Math.max(size, OWN_MAPPING) : size);

/** A file's bytes (as fs.readFile gives them), in a buffer that is unmapped when freed. */
export async function readWhole(file: string): Promise<Buffer> {
  return (await readInto(file, null)).bytes;
}

/**
 * A file's bytes, read into `buf` when they fit (else into a new buffer, as readWhole's): `bytes`
 * is a view valid until `buf` is used again, `buf` the buffer to pass to the next call. Reading many
 * files through one buffer touches its pages once, not each file's.
 */
export async function readInto(file: string, buf: Buffer | null): Promise<{ bytes: Buffer; buf: Buffer }> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    // +1: a file that grew since stat is noticed.
    if (!buf || buf.length < size + 1) buf = Buffer.allocUnsafeSlow(allocationFor(size + 1));
    let n = 0;
    for (;;) {
      if (n === buf.length) throw new Error(`${file} grew while it was read`);
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    return { bytes: buf.subarray(0, n), buf };
  } finally {
    await fh.close();
  }
}

/**
 * readInto without the thread pool: for thousands of small files (an output folder checked by its
 * hashes), four thread-pool round trips per file (open, stat, read, close) cost more than the reads.
 */
export function readIntoSync(file: string, buf: Buffer | null): { bytes: Buffer; buf: Buffer } {
  const fd = openSync(file, 'r');
  try {
    const { size } = fstatSync(fd);
    if (!buf || buf.length < size + 1) buf = Buffer.allocUnsafeSlow(allocationFor(size + 1));
    let n = 0;
    for (;;) {
      if (n === buf.length) throw new Error(`${file} grew while it was read`);
      const bytesRead = readSync(fd, buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    return { bytes: buf.subarray(0, n), buf };
  } finally {
    closeSync(fd);
  }
}
