// The function's CPU per request, as an edge platform bills it (Cloudflare's free plan: 10 ms per
// request): the built bundle (dist/_functions/api.mjs, what deploys) called in this process over
// shards read from the dist folder, CPU from process.cpuUsage around each request.
//   cold: a fresh createHandler per sample (no shard loaded, nothing cached), one request of a
//         route kind, after a young-generation collection (a fresh isolate's heap holds no
//         garbage of earlier samples; the collection's pause is not counted) and once V8's helper
//         threads are idle (thread-cpu.ts helpersIdle). Not a full collection: it also discards
//         optimized code, which V8 then compiles again on its helper threads during the sample,
//         counted by process.cpuUsage though the process is meant to be warm. The figures taken
//         that way (a full collection just before each sample, not waited for) are printed beside
//         as the "old method", so what that adds stays visible. The process
//         itself is warm (a cold isolate adds its module's compile, not counted here): one request of every kind is
//         served first, each by a fresh handler, and printed as "first" (that kind's code run for
//         the first time in the process); the median and least of the samples after it beside.
//         Without that round the kind measured first would pay for the process's compiling of
//         code all kinds share.
//         Beside the process's CPU, the request's own thread's (Linux: thread-cpu.ts): the rest is
//         V8's helper threads, which process.cpuUsage bills to the request.
//   first-seen: one warm handler (WARM_QUERIES other generated queries served first), then
//         >= 1,000 distinct queries generated from the titles (plurals, prefixes, typos), each
//         sent once, so no answer comes from the instance's caches.
//         On a shared machine the tail is mostly others' load and our garbage collection: each
//         query is also sent once to each of FIRST_SEEN_RUNS more warm handlers (first-seen on
//         each) and its least CPU kept, a steadier figure of what the query itself costs.
// Standalone: tsx bench/function-cpu.ts DIR [--json]
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FUNCTION_PATHS, shardFile } from '../build/contract/dist-layout.ts';
import { realisticQueries } from '../test/support/realistic-queries.ts';
import { helpersIdle, processCpuMs, threadCpuAvailable, threadCpuMs } from './thread-cpu.ts';

type Handler = (req: Request) => Promise<Response>;
interface FunctionModule {
  createHandler(source: { loadShard(name: string): Promise<unknown> }, options?: object): Handler;
}

/** The request's own thread's CPU (ms) beside the process's; null where not measured (not Linux). */
type MainThread = { medianMs: number; leastMs: number } | null;
type Quantiles = { p50Ms: number; p90Ms: number; p99Ms: number; maxMs: number; worst: string };
export interface CpuFigures {
  /**
   * Per route kind: median and max of the cold samples (ms), the kind's first request in the
   * process (before them), and how many; each sample after a young-generation collection and once
   * V8's helper threads are idle. `waitedMs`: the longest wait for them (Infinity: one never was).
   */
  cold: Array<{ kind: string; medianMs: number; maxMs: number; firstMs: number; leastMs: number; samples: number; main: MainThread; waitedMs: number | null }>;
  /** The same kinds the old way: a full collection just before each sample, not waited for (what recompiling adds). */
  coldOldMethod: Array<{ kind: string; medianMs: number; maxMs: number; leastMs: number; samples: number; main: MainThread }>;
  firstSeen: { queries: number; main: Omit<Quantiles, 'worst'> | null } & Quantiles;
  /** The same queries, each the least of FIRST_SEEN_RUNS first-seen runs (one per warm handler). */
  firstSeenLeast: { runs: number } & Quantiles;
}

const FIRST_SEEN_RUNS = 3;
/** Generated queries each warm handler serves before the measured ones (not measured). */
const WARM_QUERIES = 200;

// Collections on demand (full, or young-generation: { type: 'minor' }) without --expose-gc on the command line.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

/** A request's CPU: the process's (ms) and its own thread's (null: not measured). */
interface Cpu {
  ms: number;
  mainMs: number | null;
}
const cpuStart = (): { process: number; main: number | null } => ({ main: threadCpuMs(), process: processCpuMs() });
const cpuSince = (t: ReturnType<typeof cpuStart>): Cpu => {
  const ms = processCpuMs() - t.process;
  const main = threadCpuMs();
  return { ms, mainMs: main === null || t.main === null ? null : main - t.main };
};
const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

const jsonPost = (body: unknown) => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

export async function functionCpuFigures(dir: string, opts: { coldSamples?: number; queries?: number } = {}): Promise<CpuFigures> {
  const mod = (await import(pathToFileURL(path.join(dir, FUNCTION_PATHS.core)).href)) as FunctionModule;
  // As the node adapter and Cloudflare's res.json() do: the bytes read, then parsed per shard.
  const source = { loadShard: async (name: string) => JSON.parse(readFileSync(path.join(dir, shardFile(name)), 'utf8')) as unknown };
  const meta = JSON.parse(readFileSync(path.join(dir, shardFile('meta')), 'utf8')) as { shape: string; page_shards: number };
  const items: Array<{ soc_code: string; title: string }> = [];
  // A page shard's items are JSON strings (an older dist held objects): either is read, so an older build can be measured beside.
  for (let n = 0; n < meta.page_shards; n++) items.push(...(JSON.parse(readFileSync(path.join(dir, shardFile(`pages/${n}`)), 'utf8')) as { items: unknown[] }).items.map((i) => (typeof i === 'string' ? JSON.parse(i) : i) as (typeof items)[number]));
  const base = 'http://localhost';
  const soc = items[0]!.soc_code;
  const kinds: Array<{ kind: string; req: () => Request }> = [
    { kind: 'search (typo: "sofware developer")', req: () => new Request(`${base}/api/v1/occupations?q=sofware%20developer&limit=20`) },
    { kind: 'search (plain: "nurse")', req: () => new Request(`${base}/api/v1/occupations?q=nurse&limit=20`) },
    { kind: 'search (nothing found: "xyzzyq")', req: () => new Request(`${base}/api/v1/occupations?q=xyzzyq&limit=20`) },
    // The most a cold request reads (test/contract/function-budget.test.ts): 100 results over most page shards.
    { kind: 'search (partial match, 100 results)', req: () => new Request(`${base}/api/v1/occupations?q=junior%20postal%20worker%20excel%20analyst&limit=100`) },
    { kind: 'list with offset', req: () => new Request(`${base}/api/v1/occupations?limit=20&offset=400`) },
    { kind: 'industries list with level', req: () => new Request(`${base}/api/v1/industries?level=2`) },
    { kind: 'POST assess', req: () => new Request(`${base}/api/v1/displacement/assess`, jsonPost({ soc_code: soc, personal_factors: { ai_proficiency: 'advanced' } })) },
    { kind: '404 (problem)', req: () => new Request(`${base}/api/v1/no-such-thing`) },
  ];
  if (meta.shape === 'timeline') kinds.push({ kind: 'votes GET (no database)', req: () => new Request(`${base}/api/v1/occupations/${soc}/votes`) });
  const samples = opts.coldSamples ?? 15;
  const cold: CpuFigures['cold'] = [];
  const coldOldMethod: CpuFigures['coldOldMethod'] = [];
  let waited = 0;
  /**
   * One request of kind k to a fresh handler (a cold instance): its CPU. `old`: a full collection
   * just before (the old method); else a young-generation one, then a wait until
   * V8's helper threads are idle.
   */
  const coldOnce = async (k: (typeof kinds)[number], old = false): Promise<Cpu> => {
    const handler = mod.createHandler(source);
    const req = k.req();
    if (old) collectGarbage();
    else {
      collectGarbage({ type: 'minor' });
      const w = await helpersIdle();
      if (w !== null) waited = Math.max(waited, w);
    }
    const t = cpuStart();
    const res = await handler(req);
    await res.arrayBuffer();
    const cpu = cpuSince(t);
    if (res.status >= 500) throw new Error(`${k.kind}: HTTP ${res.status}`);
    return cpu;
  };
  const summary = (cpus: Cpu[]) => {
    const sorted = cpus.map((c) => c.ms).sort((a, b) => a - b);
    const mains = cpus.every((c) => c.mainMs !== null) ? cpus.map((c) => c.mainMs!).sort((a, b) => a - b) : null;
    return { medianMs: quantile(sorted, 0.5), maxMs: sorted.at(-1)!, leastMs: sorted[0]!, samples: cpus.length, main: mains && { medianMs: quantile(mains, 0.5), leastMs: mains[0]! } };
  };
  // The process warms up first: every kind once, its code run for the first time ("first").
  const first = new Map<string, number>();
  for (const k of kinds) first.set(k.kind, (await coldOnce(k)).ms);
  for (const k of kinds) {
    const cpus: Cpu[] = [];
    waited = 0;
    for (let i = 0; i < samples; i++) cpus.push(await coldOnce(k));
    cold.push({ kind: k.kind, ...summary(cpus), firstMs: first.get(k.kind)!, waitedMs: threadCpuAvailable ? waited : null });
  }
  // The old method after every kind's samples, not alternating with them: the code its full
  // collections discard would be compiled again during the next sample of the other method.
  for (const k of kinds) {
    const olds: Cpu[] = [];
    for (let i = 0; i < samples; i++) olds.push(await coldOnce(k, true));
    coldOldMethod.push({ kind: k.kind, ...summary(olds) });
  }

  // A warm instance has served other queries before: the first WARM_QUERIES of the generated
  // queries warm each handler (its shards loaded, its code compiled by the JIT) and are not
  // measured; the rest, at least 1,000, are.
  const generated = realisticQueries(items.map((i) => i.title), (opts.queries ?? 1000) + WARM_QUERIES);
  const warmup = generated.slice(0, WARM_QUERIES);
  const queries = generated.slice(WARM_QUERIES);
  const warmHandler = async (src: typeof source) => {
    const warm = mod.createHandler(src);
    for (const q of warmup) await (await warm(new Request(`${base}/api/v1/occupations?q=${encodeURIComponent(q)}&limit=20&offset=1`))).arrayBuffer();
    return warm;
  };
  const firstSeen = async (warm: Handler, q: string): Promise<Cpu> => {
    const req = new Request(`${base}/api/v1/occupations?q=${encodeURIComponent(q)}&limit=20`);
    const t = cpuStart();
    const res = await warm(req);
    await res.arrayBuffer();
    const cpu = cpuSince(t);
    if (res.status !== 200) throw new Error(`q=${q}: HTTP ${res.status}`);
    return cpu;
  };
  const quantiles = (ms: number[]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    return { p50Ms: quantile(sorted, 0.5), p90Ms: quantile(sorted, 0.9), p99Ms: quantile(sorted, 0.99), maxMs: sorted.at(-1)! };
  };
  const figures = (seen: Array<{ q: string; ms: number }>) => ({ ...quantiles(seen.map((s) => s.ms)), worst: seen.reduce((a, b) => (b.ms > a.ms ? b : a)).q });
  const once = await warmHandler(source);
  const seen: Array<{ q: string } & Cpu> = [];
  for (const q of queries) seen.push({ q, ...(await firstSeen(once, q)) });
  // The repeated runs: warm handlers over shards parsed once (a warm instance's, all loaded),
  // each query new to each handler.
  const parsed = new Map<string, Promise<unknown>>();
  const shared = { loadShard: (name: string) => parsed.get(name) ?? (parsed.set(name, source.loadShard(name)), parsed.get(name)!) };
  const runs = await Promise.all(Array.from({ length: FIRST_SEEN_RUNS }, () => warmHandler(shared)));
  const least: Array<{ q: string; ms: number }> = [];
  for (const q of queries) {
    let ms = Infinity;
    for (const h of runs) ms = Math.min(ms, (await firstSeen(h, q)).ms);
    least.push({ q, ms });
  }
  return {
    cold,
    coldOldMethod,
    firstSeen: { queries: queries.length, ...figures(seen), main: seen.every((s) => s.mainMs !== null) ? quantiles(seen.map((s) => s.mainMs!)) : null },
    firstSeenLeast: { runs: FIRST_SEEN_RUNS, ...figures(least) },
  };
}

const NO_THREAD_CPU = 'main thread: not measured (no /proc/thread-self/schedstat: not Linux)';
/** The request's own thread's CPU, as printed. */
export const mainText = (m: MainThread): string => (m ? `main thread median ${m.medianMs.toFixed(2)} ms, least ${m.leastMs.toFixed(2)} ms` : NO_THREAD_CPU);
/** The longest wait for V8's helper threads before a sample, as printed. */
export const waitText = (w: number | null): string => (w === null ? 'helper threads not waited for (not measured)' : w === Infinity ? 'helper threads still busy after 250 ms before some sample' : `helper threads idle after at most ${w.toFixed(0)} ms`);

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: tsx bench/function-cpu.ts DIR [--json]');
  const f = await functionCpuFigures(path.resolve(dir));
  if (process.argv.includes('--json')) console.log(JSON.stringify(f, null, 1));
  else {
    for (const [i, c] of f.cold.entries()) {
      const old = f.coldOldMethod[i]!;
      console.log(`cold ${c.kind}: median ${c.medianMs.toFixed(2)} ms, max ${c.maxMs.toFixed(2)} ms, first ${c.firstMs.toFixed(2)} ms, least ${c.leastMs.toFixed(2)} ms (${c.samples} samples); ${mainText(c.main)}; ${waitText(c.waitedMs)}`);
      console.log(`  old method (a full collection just before): median ${old.medianMs.toFixed(2)} ms, max ${old.maxMs.toFixed(2)} ms, least ${old.leastMs.toFixed(2)} ms; ${mainText(old.main)}`);
    }
    const s = f.firstSeen;
    console.log(`first-seen search, ${s.queries} queries: p50 ${s.p50Ms.toFixed(2)} ms, p90 ${s.p90Ms.toFixed(2)} ms, p99 ${s.p99Ms.toFixed(2)} ms, max ${s.maxMs.toFixed(2)} ms ("${s.worst}")`);
    console.log(s.main ? `  main thread: p50 ${s.main.p50Ms.toFixed(2)} ms, p90 ${s.main.p90Ms.toFixed(2)} ms, p99 ${s.main.p99Ms.toFixed(2)} ms, max ${s.main.maxMs.toFixed(2)} ms` : `  ${NO_THREAD_CPU}`);
    const l = f.firstSeenLeast;
    console.log(`first-seen search, least of ${l.runs} first-seen runs per query: p50 ${l.p50Ms.toFixed(2)} ms, p90 ${l.p90Ms.toFixed(2)} ms, p99 ${l.p99Ms.toFixed(2)} ms, max ${l.maxMs.toFixed(2)} ms ("${l.worst}")`);
  }
}
