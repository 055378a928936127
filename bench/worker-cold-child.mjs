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
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

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
// A shard as the platform hands it over: its text in memory, parsed by json() (that parse is the
// function's work); not through Node's Response, whose body streams are JavaScript here and
// native code in workerd. Anything else (no request measured here reads a file) as a Response.
const env = {
  ASSETS: {
    async fetch(req) {
      const url = new URL(typeof req === 'string' ? req : req.url);
      const text = files.get(url.pathname);
      if (text === undefined) return new Response('not found', { status: 404 });
      return { ok: true, status: 200, json: async () => JSON.parse(text) };
    },
  },
};

// Node only loads a .js file as a module inside a "type": "module" package: a copy inside one.
// _worker.js is a file, or a folder (index.js, and the modules it imports on demand).
const tmp = mkdtempSync(path.join(tmpdir(), 'worker-cold-'));
writeFileSync(path.join(tmp, 'package.json'), '{"type":"module"}');
const source = path.join(dist, '_worker.js');
const copy = statSync(source).isDirectory() ? path.join(tmp, '_worker.js', 'index.js') : path.join(tmp, '_worker.js');
cpSync(source, path.join(tmp, '_worker.js'), { recursive: true });
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
