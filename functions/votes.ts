// Community votes (timeline shape): GET and POST /api/v1/occupations/<soc_code>/votes.
// Pure apart from the VoteStore the adapter passes in (SQLite under npm start, D1 on Cloudflare,
// none on a static host). No node:*: HMAC comes from Web Crypto.
//
// The client is its IP address (clientSubject), stored only as an HMAC-SHA-256 under a random
// salt of the UTC day and a deployment secret that never enters the database (the salt alone is
// no protection: it sits beside the keys, and IPv4 is small enough to try whole). Salts older
// than yesterday are deleted, so old keys cannot be linked to anybody afterwards. The repeat and
// budget windows cross midnight: a request is checked against its key under today's and under
// yesterday's salt.
//
// Votes are refused (403) to browser requests that say they come from another site: see
// crossSiteVote.
import { CARD_VOTE_STATES, VOTE_CHOICES, VOTE_MEDIA_TYPES, VOTE_POLICY, isVoteChoice, type VoteChoice, type VoteCounts } from '../build/contract/votes.ts';
import { voteStats } from '../build/model/vote-stats.ts';
import { noOccupation, type ProblemError } from '../build/contract/problem.ts';
import { corsHeaders, CACHE_CONTROL } from '../build/contract/http-policy.ts';
import { urlFor, type RouteDef } from '../build/contract/routes.ts';
import { declaredOver, encodedBody, mediaType, readCapped, utf8 } from './body.ts';
import { clientSubject } from './client-address.ts';
import { appendVersion } from '../build/model/version.ts';
import { json, problemResponse, respond, type Reply, type RequestLike } from './http.ts';

export type SqlValue = string | number | null;

/** The few calls the vote store needs from a SQL database: better-sqlite3 and D1 both provide them. */
export interface SqlRunner {
  /** Runs one statement; returns the number of rows it changed. */
  run(sql: string, params: SqlValue[]): Promise<number>;
  all<T>(sql: string, params: SqlValue[]): Promise<T[]>;
}

export interface VoteRecord {
  soc_code: string;
  vote: VoteChoice;
  /** The client's key under today's salt, then under yesterday's (the same twice if none). */
  keys: [string, string];
  now: number;
  budget: number;
}

export type RecordOutcome =
  | { ok: true; counts: VoteCounts }
  | { ok: false; reason: 'repeat' }
  | { ok: false; reason: 'budget'; retryAfterSeconds: number };

export interface VoteStore {
  /** Today's salt (stored from `candidate` if there is none yet) and yesterday's if still kept. */
  salts(today: string, yesterday: string, candidate: string): Promise<{ today: string; yesterday: string | null }>;
  record(v: VoteRecord): Promise<RecordOutcome>;
  counts(soc_code: string): Promise<VoteCounts>;
}

// The same statements run on SQLite and D1 (the schema is migrations/*.sql, shared by both).
export const VOTE_SQL = {
  // One statement, so the repeat check, the budget check and the insert are one transaction on
  // every SQLite (D1 included): concurrent votes can neither slip past a check nor be lost.
  insertIfAllowed:
    'INSERT INTO votes (soc_code, vote, client_key, created_at) SELECT ?1, ?2, ?3, ?5 ' +
    'WHERE NOT EXISTS (SELECT 1 FROM votes WHERE soc_code = ?1 AND client_key IN (?3, ?4) AND created_at > ?5 - ?6) ' +
    'AND (SELECT COUNT(*) FROM votes WHERE client_key IN (?3, ?4) AND created_at > ?5 - ?7) < ?8',
  repeated: 'SELECT COUNT(*) AS n FROM votes WHERE soc_code = ?1 AND client_key IN (?2, ?3) AND created_at > ?4 - ?5',
  oldestInBudget: 'SELECT MIN(created_at) AS oldest FROM votes WHERE client_key IN (?1, ?2) AND created_at > ?3 - ?4',
  // The rollup kept by migrations/0002_vote_counts.sql: at most three rows, however many votes.
  counts: 'SELECT vote, n FROM vote_counts WHERE soc_code = ?1',
  allCounts: 'SELECT soc_code, vote, COUNT(*) AS n FROM votes GROUP BY soc_code, vote ORDER BY soc_code, vote',
  insertSalt: 'INSERT OR IGNORE INTO vote_salts (day, salt) VALUES (?1, ?2)',
  pruneSalts: 'DELETE FROM vote_salts WHERE day < ?1',
  salts: 'SELECT day, salt FROM vote_salts WHERE day IN (?1, ?2)',
} as const;

const zero = (): VoteCounts => ({ agree: 0, too_high: 0, too_low: 0 });

export function countsFrom(rows: Array<{ vote: string; n: number }>): VoteCounts {
  const c = zero();
  for (const r of rows) if (isVoteChoice(r.vote)) c[r.vote] = Number(r.n);
  return c;
}

/** The vote store over any SqlRunner. */
export function sqlVoteStore(db: SqlRunner): VoteStore {
  return {
    async salts(today, yesterday, candidate) {
      await db.run(VOTE_SQL.insertSalt, [today, candidate]);
      await db.run(VOTE_SQL.pruneSalts, [yesterday]);
      const rows = await db.all<{ day: string; salt: string }>(VOTE_SQL.salts, [today, yesterday]);
      const of = (d: string) => rows.find((r) => r.day === d)?.salt ?? null;
      const t = of(today);
      if (!t) throw new Error('vote salt of today missing after insert');
      return { today: t, yesterday: of(yesterday) };
    },
    async record({ soc_code, vote, keys: [k1, k2], now, budget }) {
      const p = VOTE_POLICY;
      const changed = await db.run(VOTE_SQL.insertIfAllowed, [soc_code, vote, k1, k2, now, p.repeatWindowMs, p.budgetWindowMs, budget]);
      // D1 counts the rollup trigger's row too (2), SQLite only the vote (1); refused, nothing changes (0).
      if (changed > 0) return { ok: true, counts: await this.counts(soc_code) };
      // Refused: say why (repeat first). Reads after the fact; nothing was written either way.
      const [rep] = await db.all<{ n: number }>(VOTE_SQL.repeated, [soc_code, k1, k2, now, p.repeatWindowMs]);
      if (Number(rep?.n ?? 0) > 0) return { ok: false, reason: 'repeat' };
      const [old] = await db.all<{ oldest: number | null }>(VOTE_SQL.oldestInBudget, [k1, k2, now, p.budgetWindowMs]);
      const oldest = old?.oldest ?? now;
      return { ok: false, reason: 'budget', retryAfterSeconds: Math.max(1, Math.ceil((Number(oldest) + p.budgetWindowMs - now) / 1000)) };
    },
    async counts(soc_code) {
      return countsFrom(await db.all<{ vote: string; n: number }>(VOTE_SQL.counts, [soc_code]));
    },
  };
}

// --- The client key ---

const enc = new TextEncoder();
const hex = (buf: ArrayBuffer | Uint8Array) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export async function hmacHex(key: string, message: string): Promise<string> {
  const k = await crypto.subtle.importKey('raw', enc.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(await crypto.subtle.sign('HMAC', k, enc.encode(message)));
}

export const randomSalt = (): string => hex(crypto.getRandomValues(new Uint8Array(32)));

// --- The endpoint ---

// --- The deployment secret ---

/** The least a deployment secret must have: its characters, and different ones among them. */
export const SECRET_RULE = { minLength: 32, minDistinct: 10 } as const;

/**
 * Why `secret` is too weak to keep stored keys from being mapped back to addresses, or null. A
 * short or repetitive secret (" ", "a", "password") is guessed as quickly as the addresses are
 * tried: with one, whoever holds the database is back to trying every IPv4 address per salt.
 */
export function weakSecret(secret: string): string | null {
  const s = secret.trim();
  if (s.length < SECRET_RULE.minLength) return `it has ${s.length} characters (besides surrounding spaces); at least ${SECRET_RULE.minLength} are needed`;
  const distinct = new Set(s).size;
  if (distinct < SECRET_RULE.minDistinct) return `it uses only ${distinct} different characters; at least ${SECRET_RULE.minDistinct} are needed`;
  return null;
}

export interface VoteOptions {
  store: VoteStore | null;
  /** The deployment secret mixed into every key; never stored, never logged. */
  secret?: string;
  /**
   * Refuse votes (503, vote-secret-missing) when there is a store but no secret: `npm start`
   * always has one (its own, generated once), Cloudflare only when the VOTE_SECRET binding is set.
   */
  requireSecret?: boolean;
  /** The last X-Forwarded-Host names the public host (set by our own proxy; `npm start --trust-proxy`). */
  trustProxy?: boolean;
  /** Votes per client per hour across occupations (default VOTE_POLICY.defaultBudget). */
  budget?: number;
  /**
   * The Host names this server answers votes for (the local server on a loopback address without a
   * proxy: loopback names and IP literals, see localHost). A page on any other name that resolves
   * to us (DNS rebinding: evil.example pointed at 127.0.0.1) is its own origin to the browser, so
   * its Origin and Sec-Fetch-Site look like ours; only the Host it had to send gives it away.
   */
  hostAllowed?: (host: string) => boolean;
  now?: () => number;
}

/** What the function knows about one occupation for votes: its card slug and the build's counts. */
export interface VoteTarget {
  slug: string;
  snapshot: VoteCounts;
}

/** `target`: the occupation a code names, if served; `whyNot`: why a code that is not has none, when known (an unscored occupation). */
export function votesEndpoint(opts: VoteOptions, target: (soc: string) => Promise<VoteTarget | null>, whyNot: (soc: string) => Promise<string | null> = async () => null) {
  const unknown = async (soc: string) => (await whyNot(soc)) ?? noOccupation(soc);
  const now = opts.now ?? Date.now;
  const budget = opts.budget ?? VOTE_POLICY.defaultBudget;
  const saltCache = new Map<string, Promise<{ today: string; yesterday: string | null }>>();

  async function clientKeys(store: VoteStore, subject: string, at: number): Promise<[string, string]> {
    const today = utcDay(at);
    let salts = saltCache.get(today);
    if (!salts) {
      saltCache.clear();
      salts = store.salts(today, utcDay(at - 86_400_000), randomSalt());
      salts.catch(() => saltCache.delete(today));
      saltCache.set(today, salts);
    }
    const s = await salts;
    const pepper = opts.secret ?? '';
    const k1 = await hmacHex(`${pepper}:${s.today}`, subject);
    return [k1, s.yesterday ? await hmacHex(`${pepper}:${s.yesterday}`, subject) : k1];
  }

  async function get(req: RequestLike, soc: string, route: RouteDef): Promise<Reply> {
    const t = await target(soc);
    if (!t) return problemResponse(req, 404, await unknown(soc));
    const counts = opts.store ? await opts.store.counts(soc) : t.snapshot;
    return json(req, voteStats(counts), route.cache);
  }

  async function post(req: RequestLike, soc: string, clientAddress: string | null): Promise<Reply> {
    // First: a browser request from another site learns nothing else (not even whether the code exists).
    const foreign = crossSiteVote(req, opts.trustProxy === true, opts.hostAllowed);
    if (foreign) {
      return problemResponse(req, 403, `Votes are not accepted from another site's pages (${foreign.why}); nothing was recorded.`, [
        { location: `header.${foreign.header}`, message: foreign.why },
      ]);
    }
    const t = await target(soc);
    if (!t) return problemResponse(req, 404, await unknown(soc));
    const type = mediaType(req);
    const form = type === 'application/x-www-form-urlencoded';
    if (type !== 'application/json' && !form) {
      return problemResponse(req, 415, 'Send the vote as JSON with Content-Type: application/json.', [
        { location: 'header.Content-Type', message: type ? `unsupported media type "${type}"` : 'missing', allowed: [...VOTE_MEDIA_TYPES] },
      ]);
    }
    const encoded = encodedBody(req);
    if (encoded) return encoded;
    // The card's form comes back to the card (303) with a state its CSS shows; API clients get statuses.
    const backToCard = (state: string): Reply => ({
      status: 303,
      headers: { ...corsHeaders(), Location: `${urlFor('embed-card', { slug: t.slug })}#${state}`, 'Cache-Control': CACHE_CONTROL['no-store'] },
      body: null,
    });
    if (!opts.store) {
      if (form) return backToCard(CARD_VOTE_STATES.disabled);
      return problemResponse(req, 503, 'Voting is not enabled on this deployment (no vote database); GET returns the published counts.');
    }
    const weak = opts.secret ? weakSecret(opts.secret) : null;
    if (opts.requireSecret && (!opts.secret || weak)) {
      // A missing setting, not bad input: the card says voting is off, the API names the setting.
      if (form) return backToCard(CARD_VOTE_STATES.disabled);
      const what = weak ? `a VOTE_SECRET too weak to protect them (${weak})` : 'no VOTE_SECRET';
      return problemResponse(req, 'vote-secret-missing', `Voting is off: this deployment has a vote database but ${what}, without which stored client keys could be mapped back to IP addresses. GET returns the counts.`);
    }
    const max = VOTE_POLICY.maxBodyBytes;
    const bytes = declaredOver(req, max) ? null : await readCapped(req, max);
    if (bytes === null) return problemResponse(req, 413, `The request body is larger than ${max} bytes.`, [{ location: 'body', message: `at most ${max} bytes` }]);
    const text = utf8(bytes);
    let vote: unknown;
    if (form) {
      if (text === null) return problemResponse(req, 400, 'The form body is not valid UTF-8.', [{ location: 'body', message: 'invalid UTF-8' }]);
      const values = new URLSearchParams(text).getAll('vote');
      vote = values.length === 1 ? values[0] : values.length === 0 ? undefined : values;
    } else {
      let body: unknown;
      try {
        if (text === null) throw new Error('utf-8');
        body = JSON.parse(text);
      } catch {
        return problemResponse(req, 400, 'The request body is not valid UTF-8 JSON.', [{ location: 'body', message: 'invalid JSON' }]);
      }
      vote = body !== null && typeof body === 'object' && !Array.isArray(body) && Object.hasOwn(body, 'vote') ? (body as { vote: unknown }).vote : undefined;
    }
    if (!isVoteChoice(vote)) {
      const error: ProblemError = { location: 'body.vote', message: vote === undefined ? 'missing' : 'unknown vote', allowed: [...VOTE_CHOICES] };
      return problemResponse(req, 422, `"vote" must be one of ${VOTE_CHOICES.join(', ')}.`, [error]);
    }
    const subject = clientSubject(clientAddress);
    if (!subject) {
      return problemResponse(req, 400, 'The client address could not be determined, so the vote cannot be counted.', [{ location: 'client', message: 'no valid IP address' }]);
    }
    const at = now();
    const keys = await clientKeys(opts.store, subject, at);
    const outcome = await opts.store.record({ soc_code: soc, vote, keys, now: at, budget });
    if (outcome.ok) {
      if (form) return backToCard(CARD_VOTE_STATES.recorded);
      return respond(req, 201, appendVersion(JSON.stringify(voteStats(outcome.counts))), 'json', 'no-store');
    }
    if (outcome.reason === 'repeat') {
      if (form) return backToCard(CARD_VOTE_STATES.repeat);
      return problemResponse(req, 409, 'This client already voted on this occupation in the last 24 hours; nothing was changed.');
    }
    if (form) return backToCard(CARD_VOTE_STATES.budget);
    return problemResponse(req, 429, `Vote budget used: at most ${budget} votes per hour from one client.`, undefined, {
      'Retry-After': String(outcome.retryAfterSeconds),
    });
  }

  return { get, post };
}

export { zero as zeroCounts };

// --- Cross-site votes ---

const SAME_PARTY = new Set(['same-origin', 'same-site', 'none']);

/**
 * Why a vote is a browser request from another site, or null when it is not. Browsers say where
 * a request comes from, and no page can forge what they say:
 * - `Host`, when `hostAllowed` is given (the local server on loopback), must be one of its names:
 *   DNS rebinding makes another site's page same-origin to the browser.
 * - `Sec-Fetch-Site`, when present: same-origin and none (typed or bookmarked) are accepted;
 *   same-site (a page of the same registrable domain, another tenant's subdomain included) only
 *   with an `Origin` of this site (below); cross-site, and any value browsers do not send, are
 *   refused. It is the browser's own verdict over the whole redirect
 *   chain, and it is right where `Origin` is not (a same-site page, a sandboxed frame's `null`).
 * - Without it (older browsers; browsers send it only to https and localhost origins), `Origin`
 *   decides: its host (and port) must be the host the request was sent to, which is the `Host`
 *   header (a browser sets it from the URL; no page can change it), the request URL's host, or,
 *   behind our own proxy (`trustProxy`), the last `X-Forwarded-Host`. The scheme is not compared
 *   (a TLS-terminating proxy hands us http). `Origin: null` (a sandboxed frame without
 *   allow-same-origin, among others) is refused here.
 * - With neither header the client is not a browser (curl, a server), or one too old to send
 *   them: accepted. Such a client votes as itself, from its own address; it is not a visitor
 *   made to vote by another site.
 */
export function crossSiteVote(req: RequestLike, trustProxy: boolean, hostAllowed?: (host: string) => boolean): { header: 'Sec-Fetch-Site' | 'Origin' | 'Host'; why: string } | null {
  const host = req.headers.get('Host');
  if (hostAllowed && host !== null && !hostAllowed(host)) return { header: 'Host', why: `Host ${JSON.stringify(clip(host))} is not a name of this server` };
  const fetchSite = req.headers.get('Sec-Fetch-Site');
  const v = fetchSite?.trim().toLowerCase();
  if (fetchSite !== null && !SAME_PARTY.has(v!)) return { header: 'Sec-Fetch-Site', why: `Sec-Fetch-Site is ${JSON.stringify(clip(fetchSite))}` };
  // same-origin and none are the browser's own verdict; same-site only says "a page of the same
  // registrable domain", which another tenant's subdomain is too: its Origin must be ours.
  if (v === 'same-origin' || v === 'none') return null;
  const origin = req.headers.get('Origin');
  if (origin === null) return v === 'same-site' ? { header: 'Origin', why: 'a same-site request without Origin' } : null;
  const from = hostOfOrigin(origin);
  if (from !== null && ownHosts(req, trustProxy).includes(from)) return null;
  return { header: 'Origin', why: `Origin ${JSON.stringify(clip(origin))} is not this site` };
}

/** A Host header naming this machine by a loopback name (localhost, *.localhost) or by an IP address: no DNS name that could be rebound. */
export function localHost(host: string): boolean {
  const h = host.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[^:]+)(?::\d{1,5})?$/.exec(h);
  if (!m) return false;
  const name = m[1]!;
  return name === 'localhost' || name.endsWith('.localhost') || name.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(name);
}

const clip = (s: string) => (s.length > 100 ? `${s.slice(0, 100)}...` : s);

/** The host[:port] of a serialized origin (default port dropped, lower case), or null (`null`, garbage). */
function hostOfOrigin(origin: string): string | null {
  const text = origin.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#@\s]+$/i.test(text)) return null;
  try {
    return new URL(text).host || null;
  } catch {
    return null;
  }
}

/** The hosts this request was sent to, as host[:port] with default ports dropped. */
function ownHosts(req: RequestLike, trustProxy: boolean): string[] {
  const hosts: string[] = [];
  const add = (host: string | null | undefined) => {
    if (!host) return;
    const h = host.trim().toLowerCase();
    if (!h || /[\s/?#@]/.test(h)) return;
    hosts.push(h, h.replace(/:(80|443)$/, ''));
  };
  try {
    add(new URL(req.url).host);
  } catch {
    // the adapters always give an absolute URL; nothing to add otherwise
  }
  add(req.headers.get('Host'));
  if (trustProxy) add(req.headers.get('X-Forwarded-Host')?.split(',').pop());
  return hosts;
}
