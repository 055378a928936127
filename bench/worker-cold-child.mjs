// One fresh process of the cold bench (worker-cold.ts): the built Cloudflare bundle (_worker.js)
// met as a Workers isolate meets it. Every shard is read into memory before any timer (an asset
// read is the platform's, not the function's CPU), the module is evaluated (the platform's start-up,
// reported apart), the runtime's own Request/Response code is run once (native in workerd, lazily
// loaded JavaScript in Node); then each request's CPU is taken around worker.fetch and the body's
// read, the bundle's lazy compilation included. Plain JavaScript run by bare node: no loader hook
// sits between the bundle and V8.
//   node bench/worker-cold-child.mjs DIST JOB.json  ->  one JSON line on stdout
// JOB: { requests: [{ url, method?, body? }], assets?: [path] } (the URL's path and query; an
// origin is added. assets: files of DIST besides the shards that the requests read, e.g. the risk
// response an MCP tool reads, held in memory as the shards are).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { copyBuiltWorker, memoryAssets } from './built-worker.mjs';

const [dist, jobFile] = process.argv.slice(2);
const job = JSON.parse(readFileSync(jobFile, 'utf8'));
const ORIGIN = 'http://localhost';
const SHARDS = '_shards';

const schedstat = '/proc/thread-self/schedstat';
const readThread = () => {
  try {
    return Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
};
/** This thread's CPU (ms) and the whole process's (bench/thread-cpu.ts says why getrusage comes first). */
const cpu = () => {
  const u = process.cpuUsage();
  return { process: (u.user + u.system) / 1000, main: readThread() };
};

const files = new Map();
for (const rel of readdirSync(path.join(dist, SHARDS), { recursive: true })) {
  if (String(rel).endsWith('.json')) files.set(`/${SHARDS}/${String(rel).split(path.sep).join('/')}`, readFileSync(path.join(dist, SHARDS, String(rel)), 'utf8'));
}
for (const rel of job.assets ?? []) files.set(`/${rel}`, readFileSync(path.join(dist, rel), 'utf8'));
const env = { ASSETS: memoryAssets(files) };
const { entry: copy, tmp } = copyBuiltWorker(dist, 'worker-cold-');
const t0 = cpu();
const worker = (await import(pathToFileURL(copy).href)).default;
const evaluated = cpu();

// The runtime's own classes once, on nothing of ours.
{
  const r = new Request(`${ORIGIN}/warm?x=1`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":[1]}' });
  await r.json();
  const res = new Response(new TextEncoder().encode('{"b":2}'), { status: 200, headers: new Headers({ ETag: '"x"' }) });
  await res.json();
  await new Response('{}').arrayBuffer();
  new URL(`${ORIGIN}/a/b?c=d`).searchParams.get('c');
}

const out = [];
for (const r of job.requests) {
  const req = new Request(ORIGIN + r.url, r.body === undefined ? { method: r.method ?? 'GET' } : { method: r.method ?? 'POST', headers: { 'Content-Type': 'application/json' }, body: r.body });
  const a = cpu();
  const res = await worker.fetch(req, env);
  const body = await res.arrayBuffer();
  const b = cpu();
  // A JSON-RPC error or a tool error answers 200: reported, so the figure is never of a refusal.
  const rpc = r.url === '/mcp' ? JSON.parse(new TextDecoder().decode(body)) : null;
  const fault = rpc && (rpc.error ?? (rpc.result?.isError ? rpc.result.content : undefined));
  out.push({ status: res.status, ms: b.process - a.process, mainMs: a.main === null || b.main === null ? null : b.main - a.main, ...(fault ? { fault } : {}) });
}
// Removed only now: a module the worker imports on demand (mcp.js) is read on its first request.
rmSync(tmp, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ evaluateMs: evaluated.process - t0.process, results: out })}\n`);
