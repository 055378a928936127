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

/** Runs `f` with the heap growing by `percent` before a collection, then sets `after` (0: V8's own choice). */
async function withHeapGrowing<T>(percent: number, after: number, f: () => Promise<T>): Promise<T> {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  try {
    return await f();
  } finally {
    setFlagsFromString(`--heap-growing-percent=${after}`);
  }
}

/**
 * V8 lets the heap grow to about twice what survived the last full collection before it collects
 * again: after the sources that let the model stage pile up garbage, the build's memory peak.
 * Growing by HEAP_GROWING_PERCENT instead costs a few more collections and keeps the peak lower;
 * more raises a cold build's peak.
 */
const HEAP_GROWING_PERCENT = 35;

/** Runs a whole build with the heap growing by HEAP_GROWING_PERCENT, then gives V8 back its own choice. Set for the build only (a test process builds in-process). */
export const withBuildHeap = <T>(f: () => Promise<T>): Promise<T> => withHeapGrowing(HEAP_GROWING_PERCENT, 0, f);

/**
 * While the sources are read. A first or cold build peaks there, with the parsing threads' heaps
 * beside this one's, and where collections fall moves that peak: growing less keeps it lower and
 * steadier, for a slightly slower stage (a warm build, reading the parsed sources from the cache,
 * is neither slower nor higher: its peak is in the emit).
 */
const SOURCES_HEAP_GROWING_PERCENT = 10;

/** Runs the source stage with the heap kept closer to what is live (SOURCES_HEAP_GROWING_PERCENT). */
export const whileReadingSources = <T>(f: () => Promise<T>): Promise<T> => withHeapGrowing(SOURCES_HEAP_GROWING_PERCENT, HEAP_GROWING_PERCENT, f);

/**
 * While a shape is emitted. Its live heap is the model and little else, and what it allocates
 * (pages, JSON, the downloads' rows) dies within a file or two: growing less before a collection
 * keeps a one-shape build's peak ~20 MB lower, for no measurable CPU.
 */
const EMIT_HEAP_GROWING_PERCENT = 20;

/** Runs one shape's emit with the heap kept closer to what is live (EMIT_HEAP_GROWING_PERCENT). */
export const whileEmitting = <T>(f: () => Promise<T>): Promise<T> => withHeapGrowing(EMIT_HEAP_GROWING_PERCENT, HEAP_GROWING_PERCENT, f);
