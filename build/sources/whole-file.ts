// Whole source files and inflated worksheets, held in buffers that give their memory back when
// freed. glibc maps a block above its mmap threshold (128 KB at first) on its own, but freeing such
// a block under 32 MiB raises the threshold to its size, for every thread: from then on blocks of
// that size come from glibc's heaps, which keep what is freed. A 3 MB source file or a 35 MB
// worksheet freed that way left 20-50 MB more at the build's memory peak. A block of 32 MiB or more
// never raises the threshold, and pages never written are never resident: the unused tail of such
// a buffer costs address space only. Small buffers are left to the allocator.
import { open } from 'node:fs/promises';

const OWN_MAPPING = 33 << 20;
const SMALL = 1 << 20;

/** Bytes to allocate for a buffer that will hold `size` bytes and be freed whole. */
export const allocationFor = (size: number): number => (size > SMALL ? Math.max(size, OWN_MAPPING) : size);

/** A file's bytes (as fs.readFile gives them), in a buffer that is unmapped when freed. */
export async function readWhole(file: string): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const buf = Buffer.allocUnsafeSlow(allocationFor(size + 1)); // +1: a file that grew since stat is noticed
    let n = 0;
    for (;;) {
      if (n === buf.length) throw new Error(`${file} grew while it was read`);
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    return buf.subarray(0, n);
  } finally {
    await fh.close();
  }
}
