// The function within an edge platform's smallest CPU budget, guarded by counts, never by clocks
// (limits.ts says why each budget is what it is):
//  - every shard of the function is within SHARD_MAX_BYTES as a string in memory;
//  - every shard of the function, and every route kind's cold request (a fresh handler: nothing
//    loaded), parses at most COLD_REQUEST_BUDGET bytes and JSON values; the samples are listed
//    per handler id of the route table, so a new handler does not compile until it has one; a
//    search that finds served occupations and names no unscored one does not read their index
//    nor the titles, and none reads the ids by length (UNREAD: typos are looked up, not scanned);
//  - a cold typo search reads at most 3 shards of an index's typo index per query word of 4-7
//    letters and 6 per longer word (search-typos.ts), over 300 generated misspelled queries;
//  - every first-seen search query, over >= 1,000 generated from the titles, expands to at most
//    SEARCH_QUERY_BUDGET edit distances, candidate words and posting ids.
// On the real builds of both shapes (the integration project's global setup).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { COLD_REQUEST_BUDGET, SEARCH_QUERY_BUDGET, SHARD_MAX_BYTES } from '../../build/contract/limits.ts';
import { fileFor, SEARCH_PART_SHARDS, SHARD_DIR, shardFile, UNSCORED_SHARD } from '../../build/contract/dist-layout.ts';
import { routesFor, type HandlerId } from '../../build/contract/routes.ts';
import { searchWork } from '../../functions/search-query.ts';
import { createHandler } from '../../functions/api.ts';
import { realisticQueries, typoQueries } from '../support/realistic-queries.ts';
import { MIN_TYPO_WORD, typoEdits, typoShardName } from '../../build/contract/search-typos.ts';
import { words } from '../../build/contract/search-words.ts';
import { SHAPES } from './setup.ts';

/** JSON values in a parsed value: every object, array, string, number, boolean and null. */
function values(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + values(x), 1);
  if (v !== null && typeof v === 'object') return Object.values(v).reduce((n: number, x) => n + values(x), 1);
  return 1;
}

const base = 'http://localhost';
const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const SOC = '29-1141.00';
/** Cold requests per handler id: the heaviest of each kind we know (a typo search, one that finds nothing, a page far down). */
const SAMPLES: Record<HandlerId, Array<[string, () => Request]>> = {
  'list-occupations': [
    ['list with offset', () => new Request(`${base}/api/v1/occupations?limit=100&offset=850`)],
    ['list sorted, largest page', () => new Request(`${base}/api/v1/occupations?sort=employment&limit=200&offset=400`)],
    ['list filtered and sorted', () => new Request(`${base}/api/v1/occupations?sort=-score&tier=medium&major_group=29&limit=200`)],
    ['search, plain', () => new Request(`${base}/api/v1/occupations?q=nurse&limit=100`)],
    ['search sorted and filtered', () => new Request(`${base}/api/v1/occupations?q=nurse&sort=score&tier=low&limit=100`)],
    ['search, a typo', () => new Request(`${base}/api/v1/occupations?q=sofware%20developer&limit=100`)],
    ['search, typos', () => new Request(`${base}/api/v1/occupations?q=sofware%20develloper%20enginer&limit=100`)],
    ['search, nothing found', () => new Request(`${base}/api/v1/occupations?q=xyzzyq%20quux&limit=100`)],
    ['search, unscored', () => new Request(`${base}/api/v1/occupations?q=infantry&limit=100`)],
    ['search, partial match', () => new Request(`${base}/api/v1/occupations?q=junior%20postal%20worker%20excel%20analyst&limit=100`)],
  ],
  'list-isco': [
    ['ISCO list with offset', () => new Request(`${base}/api/v1/isco?limit=100&offset=400`)],
    ['ISCO search, plain', () => new Request(`${base}/api/v1/isco?q=registered%20nurse`)],
    ['ISCO search, typos', () => new Request(`${base}/api/v1/isco?q=sofware%20develloper`)],
    ['ISCO search, nothing found', () => new Request(`${base}/api/v1/isco?q=xyzzyq%20quux`)],
  ],
  'list-industries': [['industries with level', () => new Request(`${base}/api/v1/industries?level=4`)]],
  assess: [
    ['assess', () => new Request(`${base}/api/v1/displacement/assess`, json({ soc_code: SOC, personal_factors: { ai_proficiency: 'advanced' } }))],
    ['assess with tasks', () => new Request(`${base}/api/v1/displacement/assess`, json({ soc_code: SOC, tasks: [{ task_id: 1840, share: 1 }], other_share: 1 }))],
  ],
  'votes-get': [['votes GET', () => new Request(`${base}/api/v1/occupations/${SOC}/votes`)]],
  'votes-post': [['votes POST', () => new Request(`${base}/api/v1/occupations/${SOC}/votes`, json({ vote: 'agree' }))]],
  mcp: [
    ['MCP find, typos', () => mcpCall('find_occupation', { title: 'sofware develloper enginer', limit: 20 })],
    ['MCP score', () => mcpCall('occupation_score', { soc_code: SOC })],
    ['MCP compare', () => mcpCall('compare_occupations', { soc_code_a: SOC, soc_code_b: '15-1252.00' })],
    ['MCP assess with tasks', () => mcpCall('assess_my_tasks', { soc_code: SOC, tasks: [{ task_id: 1840, share: 1 }], other_share: 1 })],
  ],
};

/** A cold MCP tools/call, as a client sends it (stateless: no initialize first). */
function mcpCall(name: string, args: object): Request {
  return new Request(`${base}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
}

/**
 * Shards of the search that these samples leave unread: finding served occupations and naming no
 * unscored one, neither their index nor the titles (read for suggestions); with no typo, not the
 * ids by length either.
 */
const UNREAD: Record<string, string[]> = {
  'search, plain': [UNSCORED_SHARD, SEARCH_PART_SHARDS.titles, SEARCH_PART_SHARDS.by_length],
  'search, a typo': [UNSCORED_SHARD, SEARCH_PART_SHARDS.titles, SEARCH_PART_SHARDS.by_length],
  'search, typos': [SEARCH_PART_SHARDS.by_length],
};

/** The served occupations' titles, from the page shards. */
function pageTitles(dir: string): string[] {
  const titles: string[] = [];
  const meta = JSON.parse(readFileSync(path.join(dir, shardFile('meta')), 'utf8')) as { page_shards: number };
  for (let n = 0; n < meta.page_shards; n++) titles.push(...(JSON.parse(readFileSync(path.join(dir, shardFile(`pages/${n}`)), 'utf8')) as { items: string[] }).items.map((i) => (JSON.parse(i) as { title: string }).title));
  return titles;
}

function meter(dir: string) {
  const read = { bytes: 0, values: 0, shards: [] as string[] };
  const source = {
    loadShard: async (name: string) => {
      const text = readFileSync(path.join(dir, shardFile(name)), 'utf8');
      const value = JSON.parse(text) as unknown;
      read.bytes += Buffer.byteLength(text);
      read.values += values(value);
      read.shards.push(name);
      return value;
    },
    // A static route's file (what the MCP tools read), counted like a shard.
    loadFile: async (urlPath: string) => {
      const file = path.join(dir, fileFor(urlPath, 'json'));
      if (!existsSync(file)) return null;
      const text = readFileSync(file, 'utf8');
      const value = JSON.parse(text) as unknown;
      read.bytes += Buffer.byteLength(text);
      read.values += values(value);
      read.shards.push(urlPath);
      return value;
    },
  };
  return { read, source };
}

describe('the function within an edge budget (counts)', () => {
  const dists = inject('dists');

  it.each(SHAPES)('%s: no shard is larger than a cold request may parse, nor past V8\'s large-object size as a string', (shape) => {
    const root = path.join(dists[shape], SHARD_DIR);
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(5);
    let largest = { bytes: 0, file: '' };
    for (const f of files) {
      const text = readFileSync(path.join(root, f), 'utf8');
      expect(statSync(path.join(root, f)).size, f).toBeLessThanOrEqual(COLD_REQUEST_BUDGET.bytes);
      expect(values(JSON.parse(text)), f).toBeLessThanOrEqual(COLD_REQUEST_BUDGET.values);
      // One byte a character, two for all of them when one is past U+00FF (how V8 keeps a string).
      const inMemory = text.length * (/[^\u0000-\u00ff]/.test(text) ? 2 : 1);
      if (inMemory > largest.bytes) largest = { bytes: inMemory, file: f };
    }
    console.log(`largest shard, ${shape}: ${largest.file}, ${largest.bytes} bytes as a string`);
    expect(largest.bytes, largest.file).toBeLessThanOrEqual(SHARD_MAX_BYTES);
  });

  it.each(SHAPES)('%s: every route kind, cold, parses within the budget', async (shape) => {
    const served = new Set(routesFor(shape).flatMap((r) => Object.values(r.ops).map((o) => o?.handler)));
    const figures: string[] = [];
    for (const [id, samples] of Object.entries(SAMPLES) as Array<[HandlerId, (typeof SAMPLES)[HandlerId]]>) {
      if (!served.has(id)) continue;
      for (const [name, req] of samples) {
        const { read, source } = meter(dists[shape]);
        const res = await createHandler(source)(req());
        expect(res.status, `${name}: ${await res.clone().text()}`).not.toBe(500); // 503: votes POST with no database
        expect(read.shards.length, name).toBeGreaterThan(0);
        figures.push(`${name}: ${read.bytes} bytes, ${read.values} values (${read.shards.length} shards)`);
        expect(read.bytes, `${name} reads ${read.shards.join(', ')}`).toBeLessThanOrEqual(COLD_REQUEST_BUDGET.bytes);
        expect(read.values, `${name} reads ${read.shards.join(', ')}`).toBeLessThanOrEqual(COLD_REQUEST_BUDGET.values);
        for (const unread of UNREAD[name] ?? []) expect(read.shards, name).not.toContain(unread);
      }
    }
    console.log(`cold requests, ${shape}:\n  ${figures.join('\n  ')}`);
  });

  // Paths no route serves that the function still reads shards for: the codes people have.
  it.each(SHAPES)('%s: the code redirects and hints, cold, parse within the budget', async (shape) => {
    for (const p of ['/api/v1/occupations/29-1141', '/api/v1/occupations/15-1299', '/api/v1/occupations/registered-nurses/risk', '/api/v1/isco/lawyers', '/api/v1/isco/261']) {
      const { read, source } = meter(dists[shape]);
      const res = await createHandler(source)(new Request(`${base}${p}`));
      expect([308, 404, 400], p).toContain(res.status);
      expect(read.bytes, `${p} reads ${read.shards.join(', ')}`).toBeLessThanOrEqual(COLD_REQUEST_BUDGET.bytes);
      expect(read.values, `${p} reads ${read.shards.join(', ')}`).toBeLessThanOrEqual(COLD_REQUEST_BUDGET.values);
    }
  });

  it('a cold typo search reads a few shards of the typo index, bounded by its words', async () => {
    const dir = dists.percentile;
    const queries = typoQueries(pageTitles(dir), 300);
    expect(queries.length).toBe(300);
    let most = { ratio: 0, q: '', read: 0 };
    for (const q of queries) {
      const { read, source } = meter(dir);
      const res = await createHandler(source)(new Request(`${base}/api/v1/occupations?q=${encodeURIComponent(q)}&limit=20`));
      expect(res.status, q).toBe(200);
      // Per index, the words' bounds (a word of 4-7 letters one edit, longer two).
      const bound = words(q).reduce((n, w) => n + (w.length < MIN_TYPO_WORD ? 0 : typoEdits(w.length) === 1 ? 3 : 6), 0);
      for (const index of ['search', UNSCORED_SHARD]) {
        const typoShards = read.shards.filter((n) => n.startsWith(typoShardName(index, '')));
        expect(typoShards.length, `${q}: ${typoShards.join(', ')}`).toBeLessThanOrEqual(bound);
        if (bound > 0 && typoShards.length / bound > most.ratio) most = { ratio: typoShards.length / bound, q, read: typoShards.length };
      }
      expect(read.shards, q).not.toContain(SEARCH_PART_SHARDS.by_length);
    }
    console.log(`typo shards read by a cold typo search, nearest its bound: "${most.q}" ${most.read} (${(100 * most.ratio).toFixed(0)}% of its bound)`);
    expect(most.read).toBeGreaterThan(0);
  });

  it('every handler id of the route table has a cold sample served in some shape', () => {
    const served = new Set(SHAPES.flatMap((s) => routesFor(s).flatMap((r) => Object.values(r.ops).map((o) => o?.handler)).filter(Boolean)));
    for (const id of served) expect(SAMPLES[id as HandlerId]?.length, id).toBeGreaterThan(0);
  });

  it('every first-seen query expands within the search budget', async () => {
    const dir = dists.percentile;
    const { source } = meter(dir);
    const handler = createHandler(source);
    const queries = realisticQueries(pageTitles(dir), 1000);
    expect(queries.length).toBeGreaterThanOrEqual(1000);
    const worst = { distances: 0, candidates: 0, postings: 0 };
    const worstQ = { distances: '', candidates: '', postings: '' };
    for (const q of queries) {
      const before = { ...searchWork };
      const res = await handler(new Request(`${base}/api/v1/occupations?q=${encodeURIComponent(q)}&limit=20`));
      expect(res.status, q).toBe(200);
      for (const k of ['distances', 'candidates', 'postings'] as const) {
        const used = searchWork[k] - before[k];
        if (used > worst[k]) [worst[k], worstQ[k]] = [used, q];
      }
    }
    console.log(`search work over ${queries.length} first-seen queries, the most: ${Object.entries(worst).map(([k, v]) => `${k} ${v} ("${worstQ[k as keyof typeof worstQ]}")`).join(', ')}`);
    expect(worst.distances).toBeGreaterThan(0);
    for (const k of ['distances', 'candidates', 'postings'] as const) expect(worst[k], `${k}: "${worstQ[k]}"`).toBeLessThanOrEqual(SEARCH_QUERY_BUDGET[k]);
  });
});
