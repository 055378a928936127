// Community votes over HTTP, on the local server (SQLite) and on Cloudflare's runtime (local D1):
// every status of the endpoint, one vote per client per occupation, the per-client budget,
// 200 concurrent votes all counted, persistence across a restart, hosts without a database,
// fuzzed bodies. Each test votes on occupations and client addresses of its own, so the tests
// share one database without seeing each other's votes.
import { prng } from '../../build/validation/stats.ts';
import type { ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { VotesResponse } from '../../build/contract/response-schemas.ts';
import { VOTE_CHOICES, VOTE_POLICY } from '../../build/contract/votes.ts';
import { startServer } from '../../functions/adapters/node/server.ts';
import { VOTE_SQL } from '../../functions/votes.ts';
import { patternOf } from '../../build/contract/routes.ts';
import { openSqliteVotes } from '../../functions/adapters/node/vote-store-sqlite.ts';
import { cloudflareSites, localD1File, startWrangler } from '../support/wrangler.ts';
import { killStarted, servingUrl, startNpm } from '../support/npm-start.ts';
import { CLIENT_HEADER, REPO_ROOT, TARGET, useSites, type Site } from './setup.ts';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const sites = useSites();
const PROBLEM = 'application/problem+json; charset=utf-8';

type Stats = ReturnType<typeof VotesResponse.parse>;

/** Occupations in list order; each test takes its own slice so counts never interfere. */
let socs: Array<{ soc_code: string; slug: string }> | null = null;
async function occupations(from: number, n: number): Promise<Array<{ soc_code: string; slug: string }>> {
  socs ??= (await sites.timeline.json('/api/v1/occupations?limit=200')).data;
  const out = socs!.slice(from, from + n);
  if (out.length !== n) throw new Error(`need ${n} occupations from ${from}`);
  return out;
}

/** Filled without the pattern check on purpose: some tests send malformed codes. */
const votesPath = (soc: string) => patternOf('occupation-votes').replace(':soc_code', soc);

function vote(site: Site | { url: string }, soc: string, body: unknown, client: string | null, headers: Record<string, string> = {}) {
  return fetch(`${site.url}${votesPath(soc)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(client ? { [CLIENT_HEADER]: client } : {}), ...headers },
    body: typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body),
    redirect: 'manual',
  });
}

/**
 * A vote as a careful client sends it: sent again when `wrangler pages dev` itself (not our
 * worker) answers that it restarted the worker mid-request and asks for the request again, which
 * it does only for GET and HEAD by itself. Seen on a loaded machine; the first send was never
 * acknowledged, so sending again loses or doubles nothing (a vote it did record answers 409).
 */
async function voteAsClient(site: Site, soc: string, body: unknown, client: string): Promise<{ res: Response; resent: boolean }> {
  for (let attempt = 0; ; attempt++) {
    const res = await vote(site, soc, body, client);
    if (res.status !== 503 || attempt === 2) return { res, resent: attempt > 0 };
    if (!/worker restarted mid-request/i.test(await res.clone().text())) return { res, resent: attempt > 0 };
  }
}

async function stats(site: { url: string }, soc: string): Promise<Stats> {
  const r = await fetch(`${site.url}${votesPath(soc)}`);
  expect(r.status).toBe(200);
  return VotesResponse.parse(await r.json());
}

async function expectProblem(r: Response, status: number): Promise<{ errors?: Array<{ location: string; allowed?: string[] }>; detail: string }> {
  expect({ status: r.status, type: r.headers.get('content-type') }).toEqual({ status, type: PROBLEM });
  expect(r.headers.get('access-control-allow-origin')).toBe('*');
  expect(r.headers.get('cache-control')).toBe('no-store');
  const p = await r.json();
  expect(p.status).toBe(status);
  // Its type is documented on the same site (409, 429 and 503 are new with votes).
  const doc = await fetch(new URL(p.type, r.url));
  expect({ type: p.type, status: doc.status }).toEqual({ type: p.type, status: 200 });
  expect(await doc.json()).toMatchObject({ type: p.type, title: p.title, status });
  return p;
}

describe('GET votes', () => {
  it('exist in the timeline shape with consistent counts, one-decimal percentages and a cache of at most 60 s', async () => {
    for (const o of await occupations(0, 10)) {
      const res = await sites.timeline.get(votesPath(o.soc_code));
      expect(res.status).toBe(200);
      const cc = res.headers.get('cache-control')!;
      for (const m of cc.matchAll(/(?:^|[ ,])(?:s-)?max-age=(\d+)/g)) expect(Number(m[1])).toBeLessThanOrEqual(60);
      expect(cc).toMatch(/s-maxage=60/);
      const text = await res.text();
      const v = VotesResponse.parse(JSON.parse(text));
      expect(v.agree + v.too_high + v.too_low).toBe(v.total);
      for (const k of VOTE_CHOICES) {
        expect(new RegExp(`"${k}_pct":\\d+(\\.\\d)?[,}]`).test(text)).toBe(true);
        expect(v[`${k}_pct`]).toBeCloseTo(v.total === 0 ? 0 : (v[k] / v.total) * 100, 1);
      }
    }
  });

  it('do not exist in the percentile shape: GET and POST are 404 problem+json', async () => {
    const soc = (await sites.percentile.json('/api/v1/occupations?limit=1')).data[0].soc_code;
    await expectProblem(await sites.percentile.get(votesPath(soc)), 404);
    await expectProblem(await vote(sites.percentile, soc, { vote: 'agree' }, '10.0.0.1'), 404);
  });
});

describe('POST votes', () => {
  it('records a vote: 201 with the updated statistics, and GET shows it at once', async () => {
    const [o] = await occupations(10, 1);
    const before = await stats(sites.timeline, o!.soc_code);
    const r = await vote(sites.timeline, o!.soc_code, { vote: 'too_high' }, '10.1.0.1');
    expect(r.status).toBe(201);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    const body = VotesResponse.parse(await r.json());
    expect(body).toMatchObject({ total: before.total + 1, too_high: before.too_high + 1, agree: before.agree, too_low: before.too_low });
    expect(await stats(sites.timeline, o!.soc_code)).toEqual(body);
  });

  it('answers every error with problem+json and changes nothing', async () => {
    const [o] = await occupations(11, 1);
    const soc = o!.soc_code;
    const before = await stats(sites.timeline, soc);
    const client = '10.2.0.1';
    await expectProblem(await vote(sites.timeline, soc, '{"vote":', client), 400);
    await expectProblem(await vote(sites.timeline, soc, new Uint8Array([0x7b, 0xff, 0x7d]), client), 400);
    const missing = await expectProblem(await vote(sites.timeline, soc, {}, client), 422);
    expect(missing.errors).toEqual([{ location: 'body.vote', message: 'missing', allowed: ['agree', 'too_high', 'too_low'] }]);
    const unknown = await expectProblem(await vote(sites.timeline, soc, { vote: 'about_right' }, client), 422);
    expect(unknown.errors![0]!.allowed).toEqual(['agree', 'too_high', 'too_low']);
    await expectProblem(await vote(sites.timeline, soc, ['agree'], client), 422);
    await expectProblem(await vote(sites.timeline, '99-9999.99', { vote: 'agree' }, client), 404);
    // An occupation the model does not score: named, with the reason.
    expect((await expectProblem(await vote(sites.timeline, '55-3016.00', { vote: 'agree' }, client), 404)).detail).toMatch(/^55-3016\.00 \(Infantry\) is an O\*NET occupation that the model does not score/);
    // A six-digit SOC code is a 308 to its .00 occupation (the method and body kept), recording nothing.
    const sixDigit = await vote(sites.timeline, '15-1252', { vote: 'agree' }, client);
    expect(sixDigit.status).toBe(308);
    expect(new URL(sixDigit.headers.get('location')!, sites.timeline.url).pathname).toBe(votesPath('15-1252.00'));
    await sixDigit.arrayBuffer();
    await expectProblem(await vote(sites.timeline, 'not-a-code', { vote: 'agree' }, client), 404);
    const wrongType = await expectProblem(await vote(sites.timeline, soc, '{"vote":"agree"}', client, { 'Content-Type': 'text/plain' }), 415);
    expect(wrongType.errors![0]!.allowed).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    const big = JSON.stringify({ vote: 'agree', pad: 'x'.repeat(VOTE_POLICY.maxBodyBytes) });
    await expectProblem(await vote(sites.timeline, soc, big, client), 413);
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const r = await fetch(`${sites.timeline.url}${votesPath(soc)}`, { method, headers: { [CLIENT_HEADER]: client } });
      await expectProblem(r, 405);
      expect(r.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    }
    expect(await stats(sites.timeline, soc)).toEqual(before);
    // A body of exactly the limit is accepted (the limit is "over 1 KB", not "at 1 KB").
    const exact = `{"vote":"agree"}`.padEnd(VOTE_POLICY.maxBodyBytes, ' ');
    expect((await vote(sites.timeline, soc, exact, client)).status).toBe(201);
  });

  it('one vote per client per occupation: a repeat (even a different choice) is 409 and changes nothing', async () => {
    const [a, b] = await occupations(12, 2);
    const client = '10.3.0.1';
    expect((await vote(sites.timeline, a!.soc_code, { vote: 'agree' }, client)).status).toBe(201);
    const after = await stats(sites.timeline, a!.soc_code);
    for (const v of VOTE_CHOICES) await expectProblem(await vote(sites.timeline, a!.soc_code, { vote: v }, client), 409);
    expect(await stats(sites.timeline, a!.soc_code)).toEqual(after);
    // The same client on another occupation, and another client on the same one, are fine.
    expect((await vote(sites.timeline, b!.soc_code, { vote: 'too_low' }, client)).status).toBe(201);
    expect((await vote(sites.timeline, a!.soc_code, { vote: 'too_low' }, '10.3.0.2')).status).toBe(201);
    // IPv6: one subscriber's /64 is one client.
    expect((await vote(sites.timeline, b!.soc_code, { vote: 'agree' }, '2001:db8:1:2::10')).status).toBe(201);
    await expectProblem(await vote(sites.timeline, b!.soc_code, { vote: 'agree' }, '2001:db8:1:2:ffff::99'), 409);
  });

  it('200 concurrent votes from distinct clients are all counted', async () => {
    const [o] = await occupations(14, 1);
    const before = await stats(sites.timeline, o!.soc_code);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => voteAsClient(sites.timeline, o!.soc_code, { vote: VOTE_CHOICES[i % 3] }, `10.4.${i >> 8}.${i & 255}`)),
    );
    // Recorded: 201, or 409 for a vote sent again after the dev server lost its first answer.
    const statuses = results.map(({ res, resent }) => (resent && res.status === 409 ? 201 : res.status));
    const bodies = await Promise.all(results.map(({ res }) => res.text()));
    const refused = [...new Set(bodies.filter((_, i) => statuses[i] !== 201).map((b) => b.slice(0, 300)))];
    const tally = JSON.stringify(Object.fromEntries(statuses.reduce((m, s) => m.set(s, (m.get(s) ?? 0) + 1), new Map<number, number>())));
    expect(statuses.filter((s) => s === 201), `statuses ${tally} ${refused.join(' | ')}`).toHaveLength(200);
    const after = await stats(sites.timeline, o!.soc_code);
    expect(after.total).toBe(before.total + 200);
    expect([after.agree - before.agree, after.too_high - before.too_high, after.too_low - before.too_low]).toEqual([67, 67, 66]);
  });

  it(`the default budget: ${VOTE_POLICY.defaultBudget} votes per client per hour, then 429 with Retry-After and nothing recorded`, async () => {
    const n = VOTE_POLICY.defaultBudget;
    const occs = await occupations(20, n + 1);
    const client = '10.5.0.1';
    for (const o of occs.slice(0, n)) expect((await vote(sites.timeline, o.soc_code, { vote: 'agree' }, client)).status).toBe(201);
    const last = occs[n]!.soc_code;
    const before = await stats(sites.timeline, last);
    const r = await vote(sites.timeline, last, { vote: 'agree' }, client);
    await expectProblem(r, 429);
    const retry = Number(r.headers.get('retry-after'));
    expect(Number.isInteger(retry) && retry >= 1 && retry <= 3600).toBe(true);
    expect(await stats(sites.timeline, last)).toEqual(before);
    // Another client is not affected.
    expect((await vote(sites.timeline, last, { vote: 'agree' }, '10.5.0.2')).status).toBe(201);
  });

  it("the card's form post (form-encoded) comes back to the card with its state", async () => {
    const [o] = await occupations(60, 1);
    const form = (client: string, body: string) => vote(sites.timeline, o!.soc_code, body, client, { 'Content-Type': 'application/x-www-form-urlencoded' });
    const before = await stats(sites.timeline, o!.soc_code);
    const r = await form('10.6.0.1', 'vote=too_low');
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`/embed/${o!.slug}#voted`);
    expect((await stats(sites.timeline, o!.soc_code)).too_low).toBe(before.too_low + 1);
    const again = await form('10.6.0.1', 'vote=agree');
    expect({ status: again.status, location: again.headers.get('location') }).toEqual({ status: 303, location: `/embed/${o!.slug}#vote-repeat` });
    await expectProblem(await form('10.6.0.2', 'vote=maybe'), 422);
    await expectProblem(await form('10.6.0.2', 'vote=agree&vote=too_low'), 422);
    // The card it comes back to exists and carries the state's element.
    const card = await (await sites.timeline.get(`/embed/${o!.slug}`)).text();
    expect(card).toContain('id="voted"');
    expect(card).toContain(`action="${votesPath(o!.soc_code)}"`);
  });

  it('a browser request from another site is refused with 403 (JSON, form post, fetch); same-origin, same-site with our Origin and non-browser requests count', async () => {
    const [o] = await occupations(62, 1);
    const soc = o!.soc_code;
    const own = new URL(sites.timeline.url).origin;
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const before = await stats(sites.timeline, soc);
    const refused: Array<[unknown, Record<string, string>]> = [
      // What a foreign page's form post sends (Chromium, to an https or localhost target) ...
      ['vote=agree', { ...form, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }],
      // ... its fetch() (CORS, JSON), an older browser's (Origin only), a sandboxed frame's (Origin null).
      [{ vote: 'agree' }, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'cors' }],
      [{ vote: 'agree' }, { Origin: 'https://evil.example' }],
      ['vote=agree', { ...form, Origin: 'null' }],
      [{ vote: 'agree' }, { 'Sec-Fetch-Site': 'cross-site' }],
      // A same-site page is another tenant's subdomain as well: same-site counts only with our Origin.
      [{ vote: 'too_low' }, { Origin: 'https://blog.example', 'Sec-Fetch-Site': 'same-site' }],
      [{ vote: 'too_low' }, { 'Sec-Fetch-Site': 'same-site' }],
    ];
    for (const [i, [body, headers]] of refused.entries()) {
      const p = await expectProblem(await vote(sites.timeline, soc, body, `10.12.0.${i}`, headers), 403);
      expect(p.detail).toMatch(/another site/);
    }
    expect(await stats(sites.timeline, soc)).toEqual(before);
    // The card's own page posting (same origin), a same-site page, a sandboxed frame that keeps
    // its origin (Origin null, the browser's own verdict same-origin), and a client with neither header.
    const accepted: Array<[unknown, Record<string, string>]> = [
      ['vote=agree', { ...form, Origin: own, 'Sec-Fetch-Site': 'same-origin' }],
      ['vote=agree', { ...form, Origin: own }],
      [{ vote: 'too_low' }, { Origin: own, 'Sec-Fetch-Site': 'same-site' }],
      ['vote=too_high', { ...form, Origin: 'null', 'Sec-Fetch-Site': 'same-origin' }],
      [{ vote: 'agree' }, {}],
    ];
    for (const [i, [body, headers]] of accepted.entries()) {
      const r = await vote(sites.timeline, soc, body, `10.12.1.${i}`, headers);
      expect({ i, status: r.status }).toEqual({ i, status: typeof body === 'string' ? 303 : 201 });
      if (r.status === 303) expect(r.headers.get('location')).toBe(`/embed/${o!.slug}#voted`);
    }
    expect((await stats(sites.timeline, soc)).total).toBe(before.total + accepted.length);
  });

  it('fuzzed bodies, content types and sizes never get a 5xx', { timeout: 120_000 }, async () => {
    const [o] = await occupations(61, 1);
    const rand = prng(20261123);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const types = ['application/json', 'application/json; charset=utf-8', 'application/x-www-form-urlencoded', 'text/plain', '', 'multipart/form-data; boundary=x', 'APPLICATION/JSON'];
    const atoms = ['agree', 'too_high', 'too_low', 'AGREE', '', null, 0, -1, 1e309, true, [], {}, '\u0000', '__proto__', 'x'.repeat(50)];
    const value = (depth: number): unknown => {
      const k = rand();
      if (depth > 2 || k < 0.5) return pick(atoms);
      if (k < 0.75) return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(rand() * 4) }, () => [pick(['vote', '__proto__', 'constructor', 'v', '']), value(depth + 1)]));
    };
    const body = (): string | Uint8Array => {
      const k = rand();
      if (k < 0.35) return JSON.stringify({ vote: value(1) });
      if (k < 0.55) return JSON.stringify(value(0)) ?? '';
      if (k < 0.7) return `vote=${encodeURIComponent(String(pick(atoms)))}&${pick(['vote=agree', 'x=1', '%zz', '&&=', ''])}`;
      if (k < 0.85) return new Uint8Array(Array.from({ length: Math.floor(rand() * 1100) }, () => Math.floor(rand() * 256)));
      return JSON.stringify({ vote: 'agree' }).slice(0, Math.floor(rand() * 16)) + ' '.repeat(Math.floor(rand() * 2048));
    };
    const seen = new Map<number, number>();
    for (let i = 0; i < 150; i++) {
      const b = body();
      const r = await fetch(`${sites.timeline.url}${votesPath(rand() < 0.9 ? o!.soc_code : '99-9999.99')}`, {
        method: 'POST',
        headers: { 'Content-Type': pick(types), [CLIENT_HEADER]: `10.7.${i >> 8}.${i & 255}` },
        body: b as BodyInit,
        redirect: 'manual',
      });
      seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
      expect({ i, status: r.status, ok: r.status < 500 }).toMatchObject({ ok: true });
      if (r.status >= 400) expect(r.headers.get('content-type')).toBe(PROBLEM);
      await r.arrayBuffer();
    }
    // The generator reached the interesting outcomes, not just one kind of refusal.
    for (const s of [201, 400, 413, 415, 422]) expect(seen.get(s) ?? 0, `status ${s} in ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
  });
});

describe.runIf(TARGET === 'node')('votes on the local server (npm start)', () => {
  const scratch = () => mkdtempSync(path.join(tmpdir(), 'odr-votes-node-'));

  it('counts survive a restart of the server and of the database', async () => {
    const dir = scratch();
    try {
      const file = path.join(dir, 'votes.sqlite');
      const [o] = await occupations(70, 1);
      let db = openSqliteVotes(file);
      let server = await startServer({ dir: sites.timeline.dir, port: 0, host: '127.0.0.1', votes: { store: db.store }, trustProxy: true });
      for (let i = 0; i < 5; i++) expect((await vote(server, o!.soc_code, { vote: VOTE_CHOICES[i % 3] }, `10.8.0.${i}`)).status).toBe(201);
      const before = await stats(server, o!.soc_code);
      await server.close();
      db.close();
      db = openSqliteVotes(file);
      expect(db.applied).toEqual([]);
      server = await startServer({ dir: sites.timeline.dir, port: 0, host: '127.0.0.1', votes: { store: db.store }, trustProxy: true });
      expect(before).toMatchObject({ total: 5, agree: 2, too_high: 2, too_low: 1 });
      expect(await stats(server, o!.soc_code)).toEqual(before);
      // The repeat rule survives too: the same client is still refused after the restart.
      await expectProblem(await vote(server, o!.soc_code, { vote: 'agree' }, '10.8.0.0'), 409);
      await server.close();
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('GET counts read the per-occupation rollup kept with each insert (at most 3 rows), not the votes themselves', async () => {
    const dir = scratch();
    const db = openSqliteVotes(path.join(dir, 'votes.sqlite'));
    const server = await startServer({ dir: sites.timeline.dir, port: 0, host: '127.0.0.1', votes: { store: db.store }, trustProxy: true });
    try {
      const [o] = await occupations(100, 1);
      for (let i = 0; i < 4; i++) expect((await vote(server, o!.soc_code, { vote: VOTE_CHOICES[i % 3] }, `10.7.0.${i}`)).status).toBe(201);
      const rollup = () => db.db.prepare('SELECT vote, n FROM vote_counts WHERE soc_code = ? ORDER BY vote').all(o!.soc_code);
      // Kept in the same statement as each insert.
      expect(rollup()).toEqual([
        { vote: 'agree', n: 2 },
        { vote: 'too_high', n: 1 },
        { vote: 'too_low', n: 1 },
      ]);
      // GET answers from the rollup: a million more in it show, though the rows are still four.
      db.db.prepare("UPDATE vote_counts SET n = n + 1000000 WHERE soc_code = ? AND vote = 'agree'").run(o!.soc_code);
      expect(await stats(server, o!.soc_code)).toMatchObject({ total: 1_000_004, agree: 1_000_002 });
      expect(db.db.prepare('SELECT COUNT(*) AS n FROM votes WHERE soc_code = ?').get(o!.soc_code)).toEqual({ n: 4 });
      // Its lookup is the rollup's primary key, never a scan of the votes.
      const plan = db.db.prepare(`EXPLAIN QUERY PLAN ${VOTE_SQL.counts}`).all({ 1: o!.soc_code }) as Array<{ detail: string }>;
      expect(plan.map((p) => p.detail)).toEqual(['SEARCH vote_counts USING PRIMARY KEY (soc_code=?)']);
    } finally {
      await server.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('DNS rebinding: on loopback without a proxy, a vote sent to another host name is refused (403) even when Origin and Sec-Fetch-Site match it', async () => {
    const dir = scratch();
    const db = openSqliteVotes(path.join(dir, 'votes.sqlite'));
    const server = await startServer({ dir: sites.timeline.dir, port: 0, host: '127.0.0.1', votes: { store: db.store } });
    const { port } = new URL(server.url);
    const post = (host: string, headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${server.url}${votesPath(soc)}`, { method: 'POST', headers: { Host: host, 'Content-Type': 'application/json', ...headers }, agent: false }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        req.end('{"vote":"agree"}');
      });
    const [o] = await occupations(102, 1);
    const soc = o!.soc_code;
    try {
      // evil.example resolved to 127.0.0.1: to the browser the page and the server are one origin.
      const rebound: Array<Record<string, string>> = [{ Origin: `http://evil.example:${port}` }, { Origin: `http://evil.example:${port}`, 'Sec-Fetch-Site': 'same-origin' }, {}];
      for (const headers of rebound) {
        const r = await post(`evil.example:${port}`, headers);
        expect({ status: r.status, detail: JSON.parse(r.body).detail }).toEqual({ status: 403, detail: expect.stringMatching(/Host "evil\.example:\d+" is not a name of this server/) });
      }
      expect(db.db.prepare('SELECT COUNT(*) AS n FROM votes').get()).toEqual({ n: 0 });
      // Its own names: localhost and the address.
      expect((await post(`localhost:${port}`, { Origin: `http://localhost:${port}`, 'Sec-Fetch-Site': 'same-origin' })).status).toBe(201);
      expect((await post(`127.0.0.1:${port}`, {})).status).toBe(409);
    } finally {
      await server.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the budget is configurable, and without --trust-proxy X-Forwarded-For is ignored (the socket is the client)', async () => {
    const dir = scratch();
    const db = openSqliteVotes(path.join(dir, 'votes.sqlite'));
    const server = await startServer({ dir: sites.timeline.dir, port: 0, host: '127.0.0.1', votes: { store: db.store, budget: 3 } });
    try {
      const occs = await occupations(80, 4);
      // Different forged X-Forwarded-For values, one socket address: one client.
      for (const [i, o] of occs.slice(0, 3).entries()) expect((await vote(server, o.soc_code, { vote: 'agree' }, `192.0.2.${i}`)).status).toBe(201);
      const r = await vote(server, occs[3]!.soc_code, { vote: 'agree' }, '192.0.2.99');
      await expectProblem(r, 429);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      await expectProblem(await vote(server, occs[0]!.soc_code, { vote: 'agree' }, '192.0.2.200'), 409);
    } finally {
      await server.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stores no address: only keyed hashes, and salts of today and yesterday at most', async () => {
    const dir = scratch();
    const db = openSqliteVotes(path.join(dir, 'votes.sqlite'));
    const server = await startServer({ dir: sites.timeline.dir, port: 0, host: '127.0.0.1', votes: { store: db.store }, trustProxy: true });
    try {
      const [o] = await occupations(90, 1);
      expect((await vote(server, o!.soc_code, { vote: 'agree' }, '203.0.113.77')).status).toBe(201);
      const rows = db.db.prepare('SELECT * FROM votes').all() as Array<Record<string, unknown>>;
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain('203.0.113');
      expect(rows[0]!.client_key).toMatch(/^[0-9a-f]{64}$/);
      expect(Object.keys(rows[0]!).sort()).toEqual(['client_key', 'created_at', 'id', 'soc_code', 'vote']);
      expect((db.db.prepare('SELECT COUNT(*) AS n FROM vote_salts').get() as { n: number }).n).toBe(1);
    } finally {
      await server.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('behind a proxy, the public host counts (from X-Forwarded-Host, or a Host passed on) only with --trust-proxy', async () => {
    const dir = scratch();
    const db = openSqliteVotes(path.join(dir, 'votes.sqlite'));
    const servers = await Promise.all(
      [true, false].map((trustProxy) => startServer({ dir: sites.timeline.dir, port: 0, host: '127.0.0.1', trustProxy, votes: { store: db.store, trustProxy } })),
    );
    try {
      const [o] = await occupations(91, 1);
      const proxied = { Origin: 'https://risk.example', 'X-Forwarded-Host': 'risk.example' };
      const [trusting, plain] = servers;
      expect((await vote(trusting!, o!.soc_code, { vote: 'agree' }, '10.13.0.1', proxied)).status).toBe(201);
      await expectProblem(await vote(trusting!, o!.soc_code, { vote: 'agree' }, '10.13.0.2', { ...proxied, 'X-Forwarded-Host': 'evil.example' }), 403);
      await expectProblem(await vote(plain!, o!.soc_code, { vote: 'agree' }, '10.13.0.3', proxied), 403);
      // A proxy that passes Host on (nginx: proxy_set_header Host $host) to a loopback server looks
      // exactly like DNS rebinding (another name resolved to 127.0.0.1): it needs --trust-proxy
      // (fetch cannot set Host: node:http can).
      const viaHost = (server: { url: string }, ip: string) =>
        new Promise<number>((resolve, reject) => {
          const body = JSON.stringify({ vote: 'agree' });
          const req = http.request(
            `${server.url}${votesPath(o!.soc_code)}`,
            { method: 'POST', headers: { Host: 'risk.example', Origin: 'https://risk.example', 'X-Forwarded-For': ip, 'Content-Type': 'application/json', 'Content-Length': body.length } },
            (res) => {
              res.resume();
              resolve(res.statusCode!);
            },
          );
          req.on('error', reject);
          req.end(body);
        });
      expect(await viaHost(plain!, '10.13.0.4')).toBe(403);
      expect(await viaHost(trusting!, '10.13.0.5')).toBe(201);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('whoever holds the database file cannot map its keys back to addresses: npm start keeps a secret apart from it (0600), and the files are 0600', { timeout: 60_000 }, async () => {
    const dir = scratch();
    const db = path.join(dir, 'votes.sqlite');
    const started: ChildProcess[] = [];
    const { PORT: _p, HOST: _h, ODR_VOTE_SECRET: _s, ODR_VOTE_SECRET_FILE: _f, ...env } = process.env;
    const serve = async (extraEnv: Record<string, string> = {}) => {
      // The secret file beside the database, named (its default is the repository's var/vote-secret).
      const run = startNpm(started, ['--no-build', '--dir', sites.timeline.dir, '--workers', '1', '--port', '0', '--trust-proxy', '--db', db, '--vote-secret-file', path.join(dir, 'vote-secret')], {
        cwd: REPO_ROOT,
        env: { ...env, ...extraEnv },
      });
      const url = await servingUrl(run);
      return { url, run, stop: async () => (process.kill(-run.proc.pid!, 'SIGTERM'), await run.exited) };
    };
    try {
      // Voters from one /16: the attacker knows the range and tries all 65,536 addresses.
      const occs = await occupations(92, 2);
      const voters = Array.from({ length: 40 }, (_, i) => `198.18.${(i * 37) % 256}.${(i * 101) % 256}`);
      let server = await serve();
      expect(server.run.out()).toMatch(new RegExp(`secret ${escapeRe(path.join(dir, 'vote-secret'))} \\(generated now\\)`));
      for (const [i, ip] of voters.entries()) expect((await vote(server, occs[i % 2]!.soc_code, { vote: 'agree' }, ip)).status).toBe(201);
      for (const f of [db, `${db}-wal`, `${db}-shm`, path.join(dir, 'vote-secret')]) expect({ f, mode: statSync(f).mode & 0o777 }).toEqual({ f, mode: 0o600 });
      await server.stop();

      // The attack, with everything the database holds: its salts and keys, and the code.
      const held = new Database(db, { readonly: true });
      const salts = (held.prepare('SELECT salt FROM vote_salts').all() as Array<{ salt: string }>).map((r) => r.salt);
      const keys = new Set((held.prepare('SELECT client_key FROM votes').all() as Array<{ client_key: string }>).map((r) => r.client_key));
      held.close();
      expect(keys.size).toBe(voters.length);
      const mapped = (pepper: string) => {
        const found = new Map<string, string>();
        for (const salt of salts) {
          for (let a = 0; a < 65_536; a++) {
            const ip = `198.18.${a >> 8}.${a & 255}`;
            const k = createHmac('sha256', `${pepper}:${salt}`).update(ip).digest('hex');
            if (keys.has(k)) found.set(k, ip);
          }
        }
        return found;
      };
      expect(mapped('').size).toBe(0);
      // The same attack with the secret file maps every key: the attack is real, the secret is what stops it.
      const secret = readFileSync(path.join(dir, 'vote-secret'), 'utf8').trim();
      expect(new Set(mapped(secret).values())).toEqual(new Set(voters));

      // ODR_VOTE_SECRET wins over the file (which is left as it is).
      server = await serve({ ODR_VOTE_SECRET: 'from-the-environment-'.repeat(3) });
      expect(server.run.out()).toMatch(/secret from ODR_VOTE_SECRET/);
      expect((await vote(server, occs[0]!.soc_code, { vote: 'too_low' }, '198.18.255.254')).status).toBe(201);
      await server.stop();
      const last = new Database(db, { readonly: true });
      const key = (last.prepare('SELECT client_key FROM votes ORDER BY id DESC LIMIT 1').get() as { client_key: string }).client_key;
      const today = (last.prepare('SELECT salt FROM vote_salts ORDER BY day DESC LIMIT 1').get() as { salt: string }).salt;
      last.close();
      expect(key).toBe(createHmac('sha256', `${'from-the-environment-'.repeat(3)}:${today}`).update('198.18.255.254').digest('hex'));
      expect(readFileSync(path.join(dir, 'vote-secret'), 'utf8').trim()).toBe(secret);
    } finally {
      killStarted(started);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without a database: GET serves the build snapshot, POST is 503 (the card form comes back with its state)', async () => {
    const server = await startServer({ dir: sites.timeline.dir, port: 0, host: '127.0.0.1' });
    try {
      const [o] = await occupations(0, 1);
      const snapshot = await stats(server, o!.soc_code);
      const file = await import('node:fs').then((fs) => JSON.parse(fs.readFileSync(path.join(sites.timeline.dir, 'api/v1/occupations', o!.soc_code, 'votes/index.json'), 'utf8')));
      expect(snapshot).toEqual(file);
      const p = await expectProblem(await vote(server, o!.soc_code, { vote: 'agree' }, '10.9.0.1'), 503);
      expect(p.detail).toMatch(/not enabled/);
      const form = await vote(server, o!.soc_code, 'vote=agree', '10.9.0.1', { 'Content-Type': 'application/x-www-form-urlencoded' });
      expect({ status: form.status, location: form.headers.get('location') }).toEqual({ status: 303, location: `/embed/${o!.slug}#vote-off` });
      expect(await stats(server, o!.soc_code)).toEqual(snapshot);
    } finally {
      await server.close();
    }
  });
});

describe.runIf(TARGET === 'cloudflare')('votes on Cloudflare (D1)', () => {
  it('counts survive a restart: runtimes started and stopped on the same local D1 keep the counts and the repeat rule; one without VOTE_SECRET refuses votes (503)', { timeout: 180_000 }, async () => {
    const { d1 } = await cloudflareSites(inject('cloudflare')!);
    const [o] = await occupations(70, 1);
    for (let i = 0; i < 5; i++) expect((await vote(sites.timeline, o!.soc_code, { vote: VOTE_CHOICES[i % 3] }, `10.8.0.${i}`)).status).toBe(201);
    const before = await stats(sites.timeline, o!.soc_code);
    expect(before).toMatchObject({ total: 5, agree: 2, too_high: 2, too_low: 1 });
    const cwd = mkdtempSync(path.join(tmpdir(), 'odr-wrangler-'));
    try {
      // A second runtime on the same persisted D1 reads the same counts and keeps the repeat rule;
      // a vote it takes is still there after it has exited, in a third, freshly started runtime.
      const second = await startWrangler(sites.timeline.dir, cwd, d1);
      let after: Stats;
      try {
        expect(await stats(second, o!.soc_code)).toEqual(before);
        await expectProblem(await vote(second, o!.soc_code, { vote: 'agree' }, '10.8.0.0'), 409);
        expect((await vote(second, o!.soc_code, { vote: 'too_low' }, '10.8.0.9')).status).toBe(201);
        after = await stats(second, o!.soc_code);
        expect(after).toMatchObject({ total: 6, too_low: 2 });
      } finally {
        await second.stop();
      }
      // The third has no VOTE_SECRET (a deployment that forgot it): it reads the counts, and
      // refuses votes with its own 503, a missing setting (the card's form: voting is off).
      const third = await startWrangler(sites.timeline.dir, cwd, d1, { secret: false });
      try {
        expect(await stats(third, o!.soc_code)).toEqual(after);
        const p = await expectProblem(await vote(third, o!.soc_code, { vote: 'agree' }, '10.8.0.10'), 503);
        expect(p).toMatchObject({ type: '/api/v1/problems/vote-secret-missing', title: 'Vote Secret Not Configured' });
        expect(p.detail).toMatch(/VOTE_SECRET/);
        const form = await vote(third, o!.soc_code, 'vote=agree', '10.8.0.10', { 'Content-Type': 'application/x-www-form-urlencoded' });
        expect({ status: form.status, location: form.headers.get('location') }).toEqual({ status: 303, location: `/embed/${o!.slug}#vote-off` });
        expect(await stats(third, o!.soc_code)).toEqual(after);
      } finally {
        await third.stop();
      }
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('GET counts read the per-occupation rollup the migration keeps with each insert, not the votes themselves', { timeout: 180_000 }, async () => {
    const { d1 } = await cloudflareSites(inject('cloudflare')!);
    const [o] = await occupations(101, 1);
    for (let i = 0; i < 4; i++) expect((await vote(sites.timeline, o!.soc_code, { vote: VOTE_CHOICES[i % 3] }, `10.7.1.${i}`)).status).toBe(201);
    // The runtime's own database file, changed beside the running runtime as `wrangler d1 execute
    // --local` would (localD1File): the rollup read before the UPDATE changes it.
    const soc = o!.soc_code;
    const db = new Database(localD1File(d1));
    try {
      expect(db.prepare('SELECT vote, n FROM vote_counts WHERE soc_code = ? ORDER BY vote').all(soc)).toEqual([
        { vote: 'agree', n: 2 },
        { vote: 'too_high', n: 1 },
        { vote: 'too_low', n: 1 },
      ]);
      db.prepare("UPDATE vote_counts SET n = n + 1000000 WHERE soc_code = ? AND vote = 'agree'").run(soc);
      expect(db.prepare('SELECT COUNT(*) AS n FROM votes WHERE soc_code = ?').get(soc)).toEqual({ n: 4 });
    } finally {
      db.close();
    }
    // Through the suite's GET, which sends again a request wrangler's proxy reset.
    expect(VotesResponse.parse(await sites.timeline.json(votesPath(o!.soc_code)))).toMatchObject({ total: 1_000_004, agree: 1_000_002 });
  });

  it('without a D1 binding: GET serves the build snapshot, POST is 503', { timeout: 180_000 }, async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'odr-wrangler-'));
    const bare = await startWrangler(sites.timeline.dir, cwd);
    try {
      const [o] = await occupations(0, 1);
      const snapshot = await stats(bare, o!.soc_code);
      expect(snapshot.total).toBeGreaterThanOrEqual(0);
      const p = await expectProblem(await vote(bare, o!.soc_code, { vote: 'agree' }, '10.9.0.1'), 503);
      expect(p.detail).toMatch(/not enabled/);
    } finally {
      await bare.stop();
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
