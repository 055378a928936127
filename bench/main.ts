// npm run bench -- [--seconds N] [--dir DIR] [--stress-only]
// Every figure of issue 9 side by side in one run, loopback only, figures not verdicts:
//   build cold, warm three ways and after one source file changed (a child process each: wall
//   time, peak RSS, stage timings), function bundle size, then with wrk (-t2 -c32) the local
//   server as `npm start` runs it against nginx (when installed) and a bare node:http handler
//   sending the same bytes: static GET of a small JSON file, and the function routes (list with
//   offset, search q=nurse, POST assess); then the same list and search over many distinct URLs in
//   rotation (100 offsets; every query of the search cases), so that a figure cannot come from
//   answering one URL over and over; finally the search accuracy on the realistic queries of
//   test/support/search-queries.ts. The function's CPU two ways: as a Workers isolate meets it
//   (worker-cold.ts: the Cloudflare bundle in a fresh process per cold figure, first request) and
//   in this process after a warm-up (function-cpu.ts).
// Fairness: the bare ceiling sends, per URL, the same status line, headers (Date, Connection and
// Keep-Alive are Node's on both sides) and body bytes that our server sent for it, from memory,
// in as many processes as ours, on the same wrk settings (keep-alive, -t2 -c32).
// With --dir the build figures are skipped and that dist/ is served as it is. Last, issue 42's
// figures: npm run stress's scenarios in their short form (test/stress/scenarios.ts), the
// percentile ones over the measured build; --stress-only prints those alone (no wrk needed).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseFlags } from '../build/cli.ts';
import { FUNCTION_PATHS } from '../build/contract/dist-layout.ts';
import { listSourceFiles } from '../build/sources/discover.ts';
import { resolveSourceDir } from '../build/sources/locate.ts';
import { SEARCH_CASES } from '../test/support/search-queries.ts';
import { findNginx, startNginx } from './nginx.ts';
import { startChild, timeChild, treeCpuMs, treeRssMb, type Running } from './procs.ts';
import { functionCpuFigures, mainText } from './function-cpu.ts';
import { workerColdFigures, workerColdRows } from './worker-cold.ts';
import { hasWrk, runWrk, type WrkResult } from './wrk.ts';
import { REPO_ROOT } from '../build/repo-root.ts';
import { shardFile } from '../build/contract/dist-layout.ts';
import { SCENARIOS } from '../test/stress/scenarios.ts';

/** Our answers' headers the bare server repeats; Node adds Date, Connection and Keep-Alive itself on both sides. */
const NODE_OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const repoRoot = REPO_ROOT;
const USAGE = 'usage: npm run bench -- [--seconds N] [--dir DIR] [--stress-only]';
const stressOnly = process.argv.includes('--stress-only');
const flags = parseFlags(process.argv.slice(2).filter((a) => a !== '--stress-only'), ['--seconds', '--dir'], USAGE);
const SECONDS = Number(flags['--seconds'] ?? 3);
/** Server processes, ours and the bare ceiling alike: npm start's default, one per core. */
const WORKERS = availableParallelism();
const node = (script: string, ...args: string[]) => [process.execPath, ['--import', 'tsx', path.join(repoRoot, script), ...args]] as const;

/**
 * The builds measured, in this order, each into the same out folder: cold (nothing cached, a fresh
 * tree), a checkout's first build (every cache used but empty, so each is filled: what `npm start`
 * runs on a fresh clone), then warm as a maintainer meets it: after an edit to the model (parsed
 * sources cached; the model computed, the function bundled, every file emitted), after an edit to
 * templates or the emit (the model's output and the function bundles cached too), and with nothing
 * changed (the out folder verified and left alone).
 * `emptyCache`: the build gets a cache folder of its own, empty.
 */
const BUILDS: Array<{ label: string; flags: string[]; expect: RegExp; goal: string; emptyCache?: true }> = [
  { label: 'cold', flags: ['--no-cache'], expect: /Caches: sources off, model off, function off, output off/, goal: '<= 8 s' },
  { label: 'first, caches filled', flags: [], emptyCache: true, expect: /Caches: sources miss, model miss, function miss, output miss/, goal: '<= 8 s' },
  { label: 'warm, model changed', flags: ['--cache', 'sources'], expect: /Caches: sources hit, model off, function off,/, goal: '<= 2 s' },
  { label: 'warm, emit changed', flags: ['--cache', 'sources,model,function'], expect: /Caches: sources skipped, model hit, function hit,/, goal: '<= 2 s' },
  { label: 'warm, nothing changed', flags: [], expect: /output hit/, goal: '<= 2 s' },
];

const rows: Array<[string, string, string, string, string]> = [];
const row = (figure: string, ours: string, ceiling = '', ratio = '', goal = '') => rows.push([figure, ours, ceiling, ratio, goal]);
const kreq = (r: WrkResult) => `${r.rps >= 1000 ? `${(r.rps / 1000).toFixed(1)}k` : r.rps.toFixed(0)} req/s${r.errors ? ` (${r.errors} errors!)` : ''}`;
const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

function stages(out: string): string {
  return [...out.matchAll(/^ {2}(\w+)\s+(\d+) ms$/gm)].map((m) => `${m[1]} ${m[2]}`).join(', ');
}

async function buildFigures(out: string, tmp: string) {
  for (const b of BUILDS) {
    const flags = b.emptyCache ? [...b.flags, '--cache-dir', mkdtempSync(path.join(tmp, 'cache-'))] : b.flags;
    const [cmd, args] = node('build/main.ts', '--out', out, ...flags);
    // A warm row is measured on its second run: the first fills the caches it relies on and leaves
    // the previous generation that a rebuild updates in place.
    if (b.label !== 'cold' && !b.emptyCache) await timeChild(cmd, [...args], { cwd: repoRoot });
    const r = await timeChild(cmd, [...args], { cwd: repoRoot });
    if (r.code !== 0) throw new Error(`build failed:\n${r.out}`);
    if (!b.expect.test(r.out)) throw new Error(`build "${b.label}" did not use the caches it measures:\n${r.out}`);
    const peak = /peak RSS (\d+) MB/.exec(r.out);
    const cpu = /CPU ([\d.]+) s/.exec(r.out);
    console.log(`build ${b.label}: ${(r.ms / 1000).toFixed(1)} s, peak RSS ${r.peakMb.toFixed(0)} MB; stages (ms): ${stages(r.out)}`);
    row(`build ${b.label}${b.flags.length ? ` (${b.flags.join(' ')})` : b.emptyCache ? ' (--cache-dir EMPTY)' : ''}, one shape, wall`, `${(r.ms / 1000).toFixed(1)} s${cpu ? ` (CPU ${cpu[1]} s)` : ''}`, '', '', b.goal);
    row(`build ${b.label} peak RSS`, `${r.peakMb.toFixed(0)} MB${peak ? ` (build says ${peak[1]} MB)` : ''}`, '', '', '<= 300 MB');
  }
  await oneSourceChanged(tmp);
}

/**
 * A maintainer's rebuild after one source file changed (a votes export, a new OEWS year): the
 * sources as they are, linked into a folder of their own beside a votes.csv, built once (the other
 * files come from the parsed-source cache the rows above filled), then built again after the
 * votes changed: that file is parsed alone, the model and every file computed again.
 */
async function oneSourceChanged(tmp: string) {
  const source = resolveSourceDir({ env: process.env, repoRoot });
  const linked = path.join(tmp, 'sources-with-votes');
  // A votes.csv of the sources is not linked: ours is written in its place, never through a link.
  for (const rel of (await listSourceFiles(source)).filter((f) => path.basename(f).toLowerCase() !== 'votes.csv')) {
    mkdirSync(path.dirname(path.join(linked, rel)), { recursive: true });
    symlinkSync(path.join(source, rel), path.join(linked, rel));
  }
  const votes = (n: number) => writeFileSync(path.join(linked, 'votes.csv'), `soc_code,agree,too_high,too_low\n29-1141.00,${n},1,0\n`);
  const [cmd, args] = node('build/main.ts', '--out', path.join(tmp, 'dist-votes'), '--source', linked);
  votes(1);
  await timeChild(cmd, [...args], { cwd: repoRoot });
  votes(2);
  const r = await timeChild(cmd, [...args], { cwd: repoRoot });
  if (r.code !== 0) throw new Error(`build failed:\n${r.out}`);
  const parsed = /\(sources: (1 of \d+) files parsed/.exec(r.out);
  if (!parsed) throw new Error(`build "one source file changed" did not parse votes.csv alone:\n${r.out}`);
  const cpu = /CPU ([\d.]+) s/.exec(r.out);
  console.log(`build one source file changed: ${(r.ms / 1000).toFixed(1)} s, peak RSS ${r.peakMb.toFixed(0)} MB; stages (ms): ${stages(r.out)}`);
  row(`build, one source file changed (votes.csv; ${parsed[1]} files parsed), one shape, wall`, `${(r.ms / 1000).toFixed(1)} s${cpu ? ` (CPU ${cpu[1]} s)` : ''}`, '', '', '');
  row('build, one source file changed, peak RSS', `${r.peakMb.toFixed(0)} MB`, '', '', '<= 300 MB');
}

function bundleFigures(dir: string) {
  const size = statSync(path.join(dir, FUNCTION_PATHS.core)).size;
  const meta = JSON.parse(readFileSync(path.join(dir, FUNCTION_PATHS.core.replace(/\.mjs$/, '.meta.json')), 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
  };
  let zod = 0;
  for (const o of Object.values(meta.outputs)) for (const [name, i] of Object.entries(o.inputs)) if (name.includes('node_modules/zod/')) zod += i.bytesInOutput;
  row('function bundle', `${(size / 1024).toFixed(0)} KB (zod ${(zod / 1024).toFixed(0)} KB)`, '', '', '<= 100 KB');
}

async function searchAccuracy(base: string) {
  let pass = 0;
  const misses: string[] = [];
  for (const c of SEARCH_CASES) {
    const r = await fetch(`${base}/api/v1/occupations?q=${encodeURIComponent(c.q)}&limit=3`);
    const body = (await r.json()) as { data?: Array<{ soc_code: string; title: string }> };
    const top = (body.data ?? []).map((d) => d.soc_code);
    if (top.some((s) => c.expect.includes(s))) pass++;
    else misses.push(`"${c.q}" -> ${(body.data ?? []).map((d) => d.title).join(' | ') || '(nothing)'}`);
  }
  row('search: expected occupation in top 3', `${pass}/${SEARCH_CASES.length} = ${((100 * pass) / SEARCH_CASES.length).toFixed(1)}%`, '', '', '>= 95%');
  if (misses.length) console.log(`search misses:\n  ${misses.join('\n  ')}`);
}

/** The function's CPU per request as an edge platform bills it (bench/function-cpu.ts). */
async function cpuFigures(dir: string) {
  const f = await functionCpuFigures(dir);
  for (const [i, c] of f.cold.entries()) {
    row(`function CPU, cold instance: ${c.kind}`, `median ${c.medianMs.toFixed(2)} ms, least ${c.leastMs.toFixed(2)}, max ${c.maxMs.toFixed(2)} ms (${c.samples} fresh handlers); ${mainText(c.main)}`, '', '', '< 10 ms');
    const old = f.coldOldMethod[i]!;
    row('  same, old method (a full collection just before)', `median ${old.medianMs.toFixed(2)} ms, least ${old.leastMs.toFixed(2)}, max ${old.maxMs.toFixed(2)} ms; ${mainText(old.main)}`, '', '', '');
  }
  const s = f.firstSeen;
  row(`function CPU, first-seen search (${s.queries} distinct queries)`, `p50 ${s.p50Ms.toFixed(2)}, p90 ${s.p90Ms.toFixed(2)}, p99 ${s.p99Ms.toFixed(2)}, max ${s.maxMs.toFixed(2)} ms ("${s.worst}")`, '', '', 'p99 < 2 ms');
  row('  same, the main thread alone', s.main ? `p50 ${s.main.p50Ms.toFixed(2)}, p90 ${s.main.p90Ms.toFixed(2)}, p99 ${s.main.p99Ms.toFixed(2)}, max ${s.main.maxMs.toFixed(2)} ms` : mainText(null), '', '', 'p99 < 2 ms');
  const l = f.firstSeenLeast;
  row(`  same, each query the least of ${l.runs} first-seen runs`, `p50 ${l.p50Ms.toFixed(2)}, p90 ${l.p90Ms.toFixed(2)}, p99 ${l.p99Ms.toFixed(2)}, max ${l.maxMs.toFixed(2)} ms ("${l.worst}")`, '', '', 'p99 < 2 ms');
}

/** What each stress scenario's row says it meets (its bound is checked by the scenario itself). */
const STRESS_GOALS: Record<string, string> = {
  'fresh-starts': '0 failures (50 starts in npm run stress)',
  'worker-kill': '>= 99% probes; acknowledged <= rows',
  'slow-readers': '< 300 MB per worker',
  'vote-counts': 'p99 < 5 ms',
  'idle-conns': '20 of 20 answered within 1 s',
};

/** Issue 42's rows: each stress scenario, short, after the servers above are stopped; the percentile ones serve `dir` when it is a percentile build. */
async function stressFigures(dir: string | null) {
  const shape = dir ? (JSON.parse(readFileSync(path.join(dir, shardFile('meta')), 'utf8')) as { shape: string }).shape : null;
  const percentileDist = shape === 'percentile' ? dir! : undefined;
  for (const s of SCENARIOS) {
    const t0 = performance.now();
    let figures: string;
    try {
      figures = await s.run({ short: true, percentileDist });
    } catch (e) {
      figures = `FAILED: ${(e as Error).message}`;
    }
    console.log(`stress ${s.name} (${((performance.now() - t0) / 1000).toFixed(1)} s): ${figures}`);
    row(`stress ${s.name}${percentileDist && ['slow-readers', 'idle-conns'].includes(s.name) ? ' (this build)' : ' (fixture build)'}`, figures, '', '', STRESS_GOALS[s.name] ?? '');
  }
}

function printTable(loadAtStart: number) {
  const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...[['figure', 'ours', 'ceiling', 'ratio', 'goal'], ...rows].map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\nwrk -t2 -c32 -d${SECONDS}s, loopback, ${availableParallelism()} cores, 1-min load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end; our server and the bare node:http ceiling ${WORKERS} process(es) each, nginx worker_processes auto`);
  console.log('ratio: ours over the ceiling in requests/s; in brackets the same from CPU time per request (the ceiling\'s over ours), steadier on a shared machine\n');
  console.log(line(['figure', 'ours', 'ceiling', 'ratio', 'goal']));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(r));
}

async function main() {
  const loadAtStart = loadavg()[0]!;
  if (stressOnly) {
    await stressFigures(flags['--dir'] ? path.resolve(flags['--dir']) : null);
    return printTable(loadAtStart);
  }
  if (!hasWrk()) throw new Error('wrk is not installed (Debian/Ubuntu: apt-get install wrk); the throughput figures need it');
  const tmp = mkdtempSync(path.join(tmpdir(), 'odr-bench-'));
  const dir = flags['--dir'] ? path.resolve(flags['--dir']) : path.join(tmp, 'dist');
  const running: Running[] = [];
  try {
    if (!flags['--dir']) await buildFigures(dir, tmp);
    bundleFigures(dir);
    for (const r of workerColdRows(await workerColdFigures(dir))) row(r.figure, r.ours, '', '', r.goal);
    await cpuFigures(dir);

    const [serveCmd, serveArgs] = node('build/serve/main.ts', '--dir', dir, '--port', '0', '--workers', String(WORKERS));
    const ours = await startChild(serveCmd, [...serveArgs], { cwd: repoRoot });
    running.push(ours);
    // The server's processes: the primary, then its workers (npm start's cluster).
    await new Promise((r) => setTimeout(r, 1000));
    const idleRss = treeRssMb(ours.child.pid!);
    const loadedRss: number[] = [];
    const sampler = setInterval(() => treeRssMb(ours.child.pid!).forEach((mb, i) => (loadedRss[i] = Math.max(loadedRss[i] ?? 0, mb))), 100);

    const soc = ((await (await fetch(`${ours.url}/api/v1/occupations?limit=1`)).json()) as { data: Array<{ soc_code: string }> }).data[0]!.soc_code;
    const assessBody = JSON.stringify({ soc_code: soc, personal_factors: { ai_proficiency: 'advanced' } });
    const LIST_OFFSETS = Array.from({ length: 100 }, (_, i) => (i * 9) % 900);
    const targets: Array<{ name: string; url: string; post?: string; nginx?: boolean; rotate?: string[] }> = [
      { name: 'static GET via npm start (small JSON)', url: '/api/v1/displacement/factors', nginx: true },
      { name: 'function: list with offset', url: '/api/v1/occupations?limit=20&offset=400' },
      { name: 'function: search q=nurse', url: '/api/v1/occupations?q=nurse&limit=20' },
      { name: 'function: POST assess', url: '/api/v1/displacement/assess', post: assessBody },
      {
        name: `function: list, ${LIST_OFFSETS.length} offsets in rotation`,
        url: '/api/v1/occupations?limit=20&offset=0',
        rotate: LIST_OFFSETS.map((o) => `/api/v1/occupations?limit=20&offset=${o}`),
      },
      {
        name: `function: search, ${new Set(SEARCH_CASES.map((c) => c.q)).size} queries in rotation`,
        url: '/api/v1/occupations?q=nurse&limit=20',
        rotate: [...new Set(SEARCH_CASES.map((c) => c.q))].map((q) => `/api/v1/occupations?q=${encodeURIComponent(q)}&limit=20`),
      },
    ];
    // The bare server answers each URL with the status, headers and bytes ours sent for it.
    const table: Record<string, { status: number; headers: Array<[string, string]>; body: string }> = {};
    for (const t of targets) {
      for (const u of t.rotate ?? [t.url]) {
        // Identity, as wrk asks (it sends no Accept-Encoding): the bytes and headers wrk gets from us.
        const identity = { 'Accept-Encoding': 'identity' };
        const r = await fetch(ours.url + u, t.post ? { method: 'POST', headers: { ...identity, 'Content-Type': 'application/json' }, body: t.post } : { headers: identity });
        if (r.status !== 200) throw new Error(`${u}: HTTP ${r.status} from our server`);
        const headers = [...r.headers].filter(([k]) => !NODE_OWN_HEADERS.has(k));
        table[`${t.post ? 'POST' : 'GET'} ${u}`] = { status: r.status, headers, body: Buffer.from(await r.arrayBuffer()).toString('base64') };
      }
    }
    writeFileSync(path.join(tmp, 'bare.json'), JSON.stringify(table));
    const bare = await startChild(process.execPath, [path.join(repoRoot, 'bench/bare-server.mjs'), path.join(tmp, 'bare.json'), String(WORKERS)]);
    running.push(bare);
    const nginxBin = findNginx();
    const nginx = nginxBin ? await startNginx(nginxBin, dir) : null;
    if (nginx) running.push(nginx);
    else console.log('nginx not installed (apt-get install nginx-light): the nginx ratio is skipped');

    /** wrk on `url`, and the CPU the server (all its processes) spent per request meanwhile. */
    const measure = async (server: Running, url: string, post?: string, rotate?: string[]) => {
      await runWrk(url, { seconds: 1, post, rotate }); // warm-up: JIT, caches, shard loads
      const before = treeCpuMs(server.child.pid!);
      const r = await runWrk(url, { seconds: SECONDS, post, rotate });
      const after = treeCpuMs(server.child.pid!);
      return { ...r, cpuUs: before === null || after === null ? null : ((after - before) * 1000) / r.requests };
    };
    const cpu = (r: { cpuUs: number | null }) => (r.cpuUs === null ? '' : `, ${r.cpuUs.toFixed(0)} us CPU/req`);
    // Requests per second are the goal; the CPU ratio (theirs per request over ours) says the same
    // with less noise when other work shares the machine.
    const ratios = (o: { rps: number; cpuUs: number | null }, c: { rps: number; cpuUs: number | null }) =>
      `${x(o.rps, c.rps)}${o.cpuUs && c.cpuUs ? ` (CPU ${x(c.cpuUs, o.cpuUs)})` : ''}`;
    for (const t of targets) {
      const o = await measure(ours, ours.url + t.url, t.post, t.rotate);
      const b = await measure(bare, bare.url + t.url, t.post, t.rotate);
      const lat = `p50 ${o.p50ms.toFixed(2)} ms`;
      if (t.nginx) {
        const n = nginx ? await measure(nginx, nginx.url + t.url) : null;
        row(t.name, `${kreq(o)}, ${lat}${cpu(o)}`, n ? `nginx ${kreq(n)}${cpu(n)}` : 'nginx: not installed', n ? ratios(o, n) : 'skipped', '>= 0.5x nginx');
        row(`  same, against bare node:http`, '', `bare ${kreq(b)}${cpu(b)}`, ratios(o, b));
      } else {
        row(t.name, `${kreq(o)}, ${lat}${cpu(o)}`, `bare ${kreq(b)}${cpu(b)}`, ratios(o, b), '>= 0.5x bare');
      }
    }
    clearInterval(sampler);
    const mbs = (xs: number[]) => xs.map((m) => m.toFixed(0)).join(' / ');
    row(`server RSS per process (${idleRss.length}: primary, workers), idle`, `${mbs(idleRss)} MB`, '', '', '');
    row('server RSS per process, highest under the load above', `${mbs(loadedRss)} MB`, '', '', '<= 150 MB per worker');
    await searchAccuracy(ours.url);
    for (const r of running.reverse()) await r.stop();
    running.length = 0;
    await stressFigures(dir);
  } finally {
    for (const r of running.reverse()) await r.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
  printTable(loadAtStart);
}

await main();
