// npm run bench -- [--dir DIR] [--build]   Loopback only, bounded loops, figures not verdicts.
// Measures: req/s of the local server on one small JSON file vs a bare node:http handler serving
// one in-memory buffer (the ratio is the server's overhead), the function's search and assess
// latency through HTTP and in-process, build time per stage (with --build), peak RSS.
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { startServer } from '../build/serve/server.ts';
import { runBuild } from '../build/pipeline.ts';
import { createHandler } from '../functions/api.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dir = path.resolve(repoRoot, args.includes('--dir') ? args[args.indexOf('--dir') + 1]! : 'dist');

const REQUESTS = 20_000;
const CONCURRENCY = 32;
const LATENCY_SAMPLES = 300;

/** Fires `total` GETs over `concurrency` keep-alive connections; returns requests per second. */
async function loadTest(url: string, total: number, concurrency: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      http.get(url, { agent }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      }).on('error', reject);
    });
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (sent < total) {
      sent++;
      await one();
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  agent.destroy();
  return total / secs;
}

async function latencies(f: () => Promise<unknown>, n: number): Promise<{ p50: number; p95: number; mean: number }> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(n * 0.5)]!, p95: ms[Math.floor(n * 0.95)]!, mean: ms.reduce((a, b) => a + b, 0) / n };
}
const fmt = (l: { p50: number; p95: number; mean: number }) => `p50 ${l.p50.toFixed(2)} ms, p95 ${l.p95.toFixed(2)} ms, mean ${l.mean.toFixed(2)} ms`;

async function main() {
  if (args.includes('--build') || !existsSync(path.join(dir, '_shards', 'meta.json'))) {
    const s = await runBuild({ shape: 'percentile', out: dir, repoRoot });
    console.log('build stages (ms):', Object.entries(s.timings).map(([k, v]) => `${k} ${v}`).join(', '));
  }
  const server = await startServer({ dir, port: 0, host: '127.0.0.1' });
  const file = '/api/v1/displacement/factors';
  const body = readFileSync(path.join(dir, 'api/v1/displacement/factors/index.json'));
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

  // Warm both, then measure.
  await loadTest(server.url + file, 2000, CONCURRENCY);
  await loadTest(bareUrl, 2000, CONCURRENCY);
  const ours = await loadTest(server.url + file, REQUESTS, CONCURRENCY);
  const base = await loadTest(bareUrl, REQUESTS, CONCURRENCY);
  console.log(`static ${file} (${body.length} B): ${ours.toFixed(0)} req/s; bare node:http buffer: ${base.toFixed(0)} req/s; ratio ${(ours / base).toFixed(2)}`);

  const soc = JSON.parse(readFileSync(path.join(dir, '_shards/pages/0.json'), 'utf8')).items[0].soc_code;
  const search = await latencies(() => fetch(`${server.url}/api/v1/occupations?q=nurse&limit=20`).then((r) => r.text()), LATENCY_SAMPLES);
  console.log(`function q-search over HTTP: ${fmt(search)}`);
  const assessBody = JSON.stringify({ soc_code: soc, personal_factors: {} });
  const assessLat = await latencies(
    () => fetch(`${server.url}/api/v1/displacement/assess`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: assessBody }).then((r) => r.text()),
    LATENCY_SAMPLES,
  );
  console.log(`function assess over HTTP: ${fmt(assessLat)}`);

  const handler = createHandler({ loadShard: async (name) => JSON.parse(readFileSync(path.join(dir, '_shards', `${name}.json`), 'utf8')) });
  const tCold = performance.now();
  await handler(new Request('http://x/api/v1/occupations?q=nurse'));
  console.log(`function cold first search in-process (shard load + validate): ${(performance.now() - tCold).toFixed(1)} ms`);
  for (const q of ['nurse', 'programmer', 'software developer', 'a']) {
    const l = await latencies(() => handler(new Request(`http://x/api/v1/occupations?q=${encodeURIComponent(q)}`)).then((r) => r.text()), 100);
    console.log(`function search in-process q="${q}": ${fmt(l)}`);
  }

  await server.close();
  await new Promise<void>((r) => bare.close(() => r()));
  console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

await main();
