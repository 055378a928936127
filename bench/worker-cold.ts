// The function's CPU as a Workers isolate meets it: the built Cloudflare bundle (_worker.js), a
// fresh process per cold figure, the first request's CPU with the bundle's lazy compilation in it
// and the asset reads left out (worker-cold-child.mjs says how). Cold figures are the median of
// COLD_PROCESSES fresh processes; the first-seen ones are one fresh process serving WARM_QUERIES
// generated queries unmeasured, then each measured query once (new to the instance).
// Standalone: tsx bench/worker-cold.ts DIR
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileFor, shardFile } from '../build/contract/dist-layout.ts';
import { urlFor } from '../build/contract/routes.ts';
import { realisticQueries, typoQueries } from '../test/support/realistic-queries.ts';

const CHILD = path.join(import.meta.dirname, 'worker-cold-child.mjs');
const COLD_PROCESSES = 3;
const WARM_QUERIES = 200;
const FIRST_SEEN_QUERIES = 1000;

interface JobRequest {
  url: string;
  method?: string;
  body?: string;
}
/** A cold figure's request, with the files besides the shards it reads (paths in DIR). */
interface ColdKind {
  kind: string;
  req: JobRequest;
  assets?: string[];
}
interface Measured {
  status: number;
  ms: number;
  mainMs: number | null;
  /** An /mcp answer's JSON-RPC error or tool error. */
  fault?: unknown;
}

/** Runs one fresh child over `requests`: each request's CPU, and the module's evaluation. */
async function fresh(dir: string, requests: JobRequest[], assets: string[] = []): Promise<{ evaluateMs: number; results: Measured[] }> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'worker-cold-job-'));
  const job = path.join(tmp, 'job.json');
  writeFileSync(job, JSON.stringify({ requests, assets }));
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [CHILD, dir, job], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.once('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`worker-cold-child exited with ${code}:\n${stderr}`))));
    });
    const parsed = JSON.parse(out) as { evaluateMs: number; results: Measured[] };
    for (const [i, r] of parsed.results.entries()) {
      if (r.status >= 500) throw new Error(`${requests[i]!.url}: HTTP ${r.status}`);
      if (r.fault) throw new Error(`${requests[i]!.url}: ${JSON.stringify(r.fault)}`);
    }
    return parsed;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export interface ColdFigure {
  kind: string;
  /** Median over the fresh processes, of the process's CPU and of the request's own thread's (null: not Linux). */
  medianMs: number;
  mainMedianMs: number | null;
  samplesMs: number[];
}
export interface FirstSeenFigure {
  label: string;
  queries: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  worst: string;
  mainP99Ms: number | null;
}
export interface WorkerColdFigures {
  evaluateMs: number;
  cold: ColdFigure[];
  firstSeen: FirstSeenFigure[];
}

const mcpCall = (name: string, args: object): JobRequest => ({ url: '/mcp', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }) });
const search = (q: string) => `/api/v1/occupations?q=${encodeURIComponent(q)}&limit=20`;

export async function workerColdFigures(dir: string): Promise<WorkerColdFigures> {
  const titles: string[] = [];
  const meta = JSON.parse(readFileSync(path.join(dir, shardFile('meta')), 'utf8')) as { page_shards: number };
  for (let n = 0; n < meta.page_shards; n++) titles.push(...(JSON.parse(readFileSync(path.join(dir, shardFile(`pages/${n}`)), 'utf8')) as { items: string[] }).items.map((i) => (JSON.parse(i) as { title: string }).title));
  const soc = (JSON.parse(JSON.parse(readFileSync(path.join(dir, shardFile('pages/0')), 'utf8')).items[0]) as { soc_code: string }).soc_code;
  const kinds: ColdKind[] = [
    { kind: 'search, a typo ("sofware developer")', req: { url: search('sofware developer') } },
    { kind: 'search, typos ("nurce practitioner")', req: { url: search('nurce practitioner') } },
    { kind: 'search, plain ("nurse")', req: { url: search('nurse') } },
    { kind: 'search, nothing found ("xyzzyq")', req: { url: search('xyzzyq') } },
    { kind: 'list with offset', req: { url: '/api/v1/occupations?limit=20&offset=400' } },
    { kind: 'POST assess', req: { url: '/api/v1/displacement/assess', body: JSON.stringify({ soc_code: soc, personal_factors: { ai_proficiency: 'advanced' } }) } },
    // A cold tools/call (stateless: no initialize first): the MCP module's import, parse and
    // evaluation (some 350 KB) are the first /mcp request's, so they are in these figures.
    { kind: 'MCP tools/call find_occupation ("sofware developer")', req: mcpCall('find_occupation', { title: 'sofware developer' }) },
    { kind: 'MCP tools/call occupation_score', req: mcpCall('occupation_score', { soc_code: soc }), assets: [fileFor(urlFor('occupation-risk', { soc_code: soc }), 'json')] },
  ];
  const cold: ColdFigure[] = [];
  const evaluations: number[] = [];
  for (const k of kinds) {
    const runs = [];
    for (let i = 0; i < COLD_PROCESSES; i++) runs.push(await fresh(dir, [k.req], k.assets));
    evaluations.push(...runs.map((r) => r.evaluateMs));
    const mains = runs.map((r) => r.results[0]!.mainMs);
    cold.push({ kind: k.kind, medianMs: median(runs.map((r) => r.results[0]!.ms)), mainMedianMs: mains.every((m) => m !== null) ? median(mains as number[]) : null, samplesMs: runs.map((r) => r.results[0]!.ms) });
  }
  const firstSeen: FirstSeenFigure[] = [];
  const generated = realisticQueries(titles, FIRST_SEEN_QUERIES + WARM_QUERIES);
  const warm = generated.slice(0, WARM_QUERIES);
  const sets = [
    { label: 'generated queries', queries: generated.slice(WARM_QUERIES, WARM_QUERIES + FIRST_SEEN_QUERIES) },
    // Typo queries the warm-up never served, each new to the instance.
    { label: 'generated typo queries', queries: typoQueries(titles, FIRST_SEEN_QUERIES + WARM_QUERIES).filter((q) => !warm.includes(q)).slice(0, FIRST_SEEN_QUERIES) },
  ];
  for (const set of sets) {
    const { results } = await fresh(dir, [...warm, ...set.queries].map((q) => ({ url: search(q) })));
    const measured = results.slice(WARM_QUERIES).map((r, i) => ({ ...r, q: set.queries[i]! }));
    const sorted = measured.map((m) => m.ms).sort((a, b) => a - b);
    const mains = measured.every((m) => m.mainMs !== null) ? measured.map((m) => m.mainMs!).sort((a, b) => a - b) : null;
    const worst = measured.reduce((a, b) => (b.ms > a.ms ? b : a));
    firstSeen.push({ label: set.label, queries: measured.length, p50Ms: quantile(sorted, 0.5), p99Ms: quantile(sorted, 0.99), maxMs: sorted.at(-1)!, worst: worst.q, mainP99Ms: mains && quantile(mains, 0.99) });
  }
  return { evaluateMs: median(evaluations), cold, firstSeen };
}

/** The figures as lines of text (the standalone run prints them; the bench puts them in its table). */
export function workerColdRows(f: WorkerColdFigures): Array<{ figure: string; ours: string; goal: string }> {
  const ms = (n: number | null) => (n === null ? 'n/a' : n.toFixed(2));
  return [
    ...f.cold.map((c) => ({
      figure: `worker, fresh process, first request: ${c.kind}`,
      ours: `median ${ms(c.medianMs)} ms CPU (${c.samplesMs.map((s) => s.toFixed(1)).join(', ')}); main thread ${ms(c.mainMedianMs)} ms`,
      goal: c.kind.startsWith('search') ? '<= 10 ms' : '',
    })),
    ...f.firstSeen.map((s) => ({
      figure: `worker, first-seen ${s.label} (${s.queries}, after ${WARM_QUERIES} others)`,
      ours: `p50 ${ms(s.p50Ms)}, p99 ${ms(s.p99Ms)}, max ${ms(s.maxMs)} ms ("${s.worst}"); main thread p99 ${ms(s.mainP99Ms)} ms`,
      goal: 'p99 <= 2 ms',
    })),
    { figure: 'worker, module evaluation (start-up, not a request)', ours: `median ${ms(f.evaluateMs)} ms CPU`, goal: '' },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: tsx bench/worker-cold.ts DIR');
  for (const r of workerColdRows(await workerColdFigures(path.resolve(dir)))) console.log(`${r.figure}: ${r.ours}${r.goal ? ` (goal ${r.goal})` : ''}`);
}
