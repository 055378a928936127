// 10,000 generated JSON-RPC bodies against /mcp of the real local server (npm start's server and
// function bundle over a build): wrong versions, unknown methods, huge and deep arguments,
// prototype names as keys, batches, non-JSON. Every answer must be a 2xx or 4xx (never a 5xx, never
// a dropped connection, never a JSON-RPC internal error), and the server must still answer a ping at the end.
// Usage: npx tsx test/stress/mcp-fuzz.ts DIST_DIR [COUNT]
import { startServer } from '../../functions/adapters/node/server.ts';

const dir = process.argv[2];
const count = Number(process.argv[3] ?? 10_000);
if (!dir) throw new Error('usage: mcp-fuzz.ts DIST_DIR [COUNT]');

/** A small deterministic generator (mulberry32): a failing body can be made again from its index. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const METHODS = ['initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/read', 'prompts/list', 'prompts/get', 'notifications/initialized', 'completion/complete', 'logging/setLevel', 'nope', '__proto__', 'constructor', ''];
const TOOLS = ['find_occupation', 'occupation_score', 'occupation_guidance', 'assess_my_tasks', 'compare_occupations', 'isco_unit_group', 'toString', '__proto__', 'constructor', 'x'.repeat(5000)];
const KEYS = ['title', 'soc_code', 'soc_code_a', 'soc_code_b', 'isco_code', 'limit', 'tasks', 'personal_factors', 'other_share', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString'];

function value(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * 10);
  if (depth > 3 && k > 5) return null;
  switch (k) {
    case 0: return Math.floor(r() * 1e6) - 5e5;
    case 1: return r() < 0.5 ? '29-1141.00' : '15-1252.00';
    case 2: return 'x'.repeat(Math.floor(r() * (r() < 0.1 ? 40_000 : 200)));
    case 3: return r() < 0.5 ? NaN : 1e308;
    case 4: return [];
    case 5: return Array.from({ length: Math.floor(r() * 5) }, () => value(r, depth + 1));
    case 6: return Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, () => [KEYS[Math.floor(r() * KEYS.length)]!, value(r, depth + 1)]));
    case 7: return true;
    case 8: return '2512';
    default: return null;
  }
}

/** One body as text: mostly JSON-RPC-shaped with something wrong, sometimes not JSON at all. */
function body(i: number): string {
  const r = rng(i);
  const kind = r();
  if (kind < 0.05) return ['', '{', 'null', '[]', '"x"', '{"jsonrpc":"2.0"', '\u0000\u00ff', '[[[[[[[[[[]]]]]]]]]]'][Math.floor(r() * 8)]!;
  const message = () => {
    const m: Record<string, unknown> = {};
    if (r() < 0.9) m.jsonrpc = r() < 0.8 ? '2.0' : ['1.0', 2, null, '3.0'][Math.floor(r() * 4)];
    if (r() < 0.85) m.id = r() < 0.7 ? Math.floor(r() * 1000) : value(r, 2);
    m.method = r() < 0.85 ? METHODS[Math.floor(r() * METHODS.length)] : value(r, 2);
    const params: Record<string, unknown> = {};
    if (m.method === 'tools/call' || r() < 0.3) {
      params.name = TOOLS[Math.floor(r() * TOOLS.length)];
      params.arguments = r() < 0.9 ? Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, () => [KEYS[Math.floor(r() * KEYS.length)]!, value(r, 0)])) : value(r, 0);
    }
    if (m.method === 'initialize') Object.assign(params, { protocolVersion: r() < 0.5 ? '2025-06-18' : value(r, 2), capabilities: value(r, 2), clientInfo: value(r, 2) });
    if (m.method === 'resources/read') params.uri = r() < 0.5 ? 'http://127.0.0.1/api/v1/meta' : value(r, 2);
    if (r() < 0.9) m.params = params;
    return m;
  };
  const text = kind < 0.12 ? JSON.stringify(Array.from({ length: Math.floor(r() * 8) }, message)) : JSON.stringify(message());
  // Prototype names as keys, as JSON carries them (own keys, which JSON.stringify of a literal drops).
  return r() < 0.1 ? text.replace(/^\{/, '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},') : text;
}

const server = await startServer({ dir, port: 0, host: '127.0.0.1' });
const statuses = new Map<number, number>();
let failures = 0;
let internal = 0;
try {
  const send = async (i: number) => {
    try {
      const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: body(i) });
      const text = await res.text();
      // An internal error (-32603) is code throwing on input: a crash answered politely. Params that
      // fail a method's schema are the client's fault, answered -32602 (functions/mcp/endpoint.ts).
      if (text.includes('"code":-32603')) {
        internal++;
        console.error(`body ${i}: internal error: ${text.slice(0, 300)}`);
      }
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500) console.error(`body ${i}: HTTP ${res.status}: ${body(i).slice(0, 300)}`);
    } catch (e) {
      failures++;
      console.error(`body ${i}: no answer (${String(e)}): ${body(i).slice(0, 300)}`);
    }
  };
  // Eight at a time: the server's workers see concurrent requests, as in use.
  for (let i = 0; i < count; i += 8) await Promise.all(Array.from({ length: Math.min(8, count - i) }, (_, k) => send(i + k)));
  const ping = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
  const pong = (await ping.json()) as { result?: object };
  const five = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  console.log(`mcp fuzz: ${count} bodies; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}; ${five} 5xx; ${failures} without an answer; ${internal} internal errors (-32603); ping after: ${ping.status}`);
  if (five > 0 || failures > 0 || internal > 0 || ping.status !== 200 || !pong.result || ({} as Record<string, unknown>).polluted !== undefined) process.exitCode = 1;
} finally {
  await server.close();
}
