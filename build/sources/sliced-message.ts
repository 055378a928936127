// A parsed file crosses from its parsing thread in slices. Sent whole, a large file's result is
// serialized into one buffer of megabytes; freeing a buffer that size raises glibc's mmap threshold
// for the whole process, after which freed memory stays with the allocator instead of going back
// to the system, raising the build's peak. Slices of SLICE_ROWS rows stay under that threshold.

/** Rows per slice: few enough that a slice of our tables serializes under glibc's default 128 KB threshold. */
export const SLICE_ROWS = 256;

/** Stands for an array sent ahead in slices: how many slices. */
const MARK = '\u0000slices';

/**
 * `value` with every array longer than SLICE_ROWS (the value itself, or one in its plain objects'
 * fields, at any depth; not inside arrays: those hold rows) replaced by a marker. Its rows go to
 * `send` first, slice by slice, in the order joinSlices takes them back.
 */
export function splitSlices(value: unknown, send: (rows: unknown[]) => void): unknown {
  if (Array.isArray(value)) {
    if (value.length <= SLICE_ROWS) return value;
    let n = 0;
    for (let i = 0; i < value.length; i += SLICE_ROWS, n++) send(value.slice(i, i + SLICE_ROWS));
    return { [MARK]: n };
  }
  if (isPlain(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, splitSlices(v, send)]));
  return value;
}

/** The value splitSlices was given: markers replaced by their slices (taken from the front of `slices`), in place. */
export function joinSlices(value: unknown, slices: unknown[][]): unknown {
  if (!isPlain(value)) return value;
  if (MARK in value) {
    const n = value[MARK] as number;
    if (slices.length < n) throw new Error(`a parsed file arrived with ${slices.length} of its ${n} slices`);
    return slices.splice(0, n).flat();
  }
  for (const k in value) value[k] = joinSlices(value[k], slices);
  return value;
}

/** A plain object (as a parser makes a row or a result), not an array, a Date or another class's instance. */
export const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
