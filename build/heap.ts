// How the build uses memory: the heap's growth while it runs, and full collections where a stage
// leaves most of what it allocated behind. The figures behind these choices: docs/PERFORMANCE.md.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/**
 * A full collection after the stages that leave most of what they allocated behind (parsed files
 * and the cached payload, an entry's JSON text after each store, the source rows once the model
 * exists): V8 would rather grow the heap than collect it, and collecting there keeps the peak near
 * what is live. Not after 'bundle': esbuild works in its own process, and the model stage's
 * collection has already freed the source rows, so it found nothing. Not after 'emit' either: the
 * peak is reached during the emit, and what follows (docs, write) stays below it; the pipeline
 * collects once before a second shape's emit instead, which otherwise started on the first's garbage.
 */
export const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  return typeof gc === 'function' ? gc : () => undefined;
})();

/** Runs a whole build with the heap growing by HEAP_GROWING_PERCENT, then gives V8 back its own choice. */
export async function withBuildHeap<T>(f: () => Promise<T>): Promise<T> {
  // V8 lets the heap grow to about twice what survived the last full collection before it collects
  // again: after the sources that let the model stage pile up garbage, the build's memory peak.
  // Growing by HEAP_GROWING_PERCENT instead costs a few more collections and keeps the peak lower:
  // less makes the emit slower, more raises a cold build's peak. Set for the build only (a test
  // process builds in-process).
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  try {
    return await f();
  } finally {
    setFlagsFromString('--heap-growing-percent=0'); // 0: V8's own choice again
  }
}

const HEAP_GROWING_PERCENT = 35;
/**
 * While the sources are read. A first or cold build peaks there, with the parsing threads' heaps
 * beside this one's, and where collections fall moves that peak: growing less keeps it lower and
 * steadier, for a slightly slower stage (a warm build, reading the parsed sources from the cache,
 * is neither slower nor higher: its peak is in the emit).
 */
const SOURCES_HEAP_GROWING_PERCENT = 10;

/** Runs the source stage with the heap kept closer to what is live (SOURCES_HEAP_GROWING_PERCENT). */
export async function whileReadingSources<T>(f: () => Promise<T>): Promise<T> {
  setFlagsFromString(`--heap-growing-percent=${SOURCES_HEAP_GROWING_PERCENT}`);
  try {
    return await f();
  } finally {
    setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  }
}


/**
 * While a shape is emitted. Its live heap is the model and little else, and what it allocates
 * (pages, JSON, the downloads' rows) dies within a file or two: growing less before a collection
 * keeps a one-shape build's peak ~20 MB lower, for no measurable CPU.
 */
const EMIT_HEAP_GROWING_PERCENT = 20;

/** Runs one shape's emit with the heap kept closer to what is live (EMIT_HEAP_GROWING_PERCENT). */
export async function whileEmitting<T>(f: () => Promise<T>): Promise<T> {
  setFlagsFromString(`--heap-growing-percent=${EMIT_HEAP_GROWING_PERCENT}`);
  try {
    return await f();
  } finally {
    setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  }
}
