// The serverless function: (Request) => Promise<Response>. It answers what files cannot:
// POST /api/v1/displacement/assess, list requests with a query string, votes (GET and POST,
// functions/votes.ts, over the VoteStore the adapter passes in), every 404/405/preflight, and
// the slash redirects (/embed -> /embed/). Thin on purpose: parse -> pure model modules ->
// Response. It reads prebuilt shards through loadShard and never recomputes the model.
// No node:*, no fs.
import { assess, type AssessIssue } from '../build/model/assess.ts';
import type { AssessShard, TaskShard, IndustryList, IscoSearchShard, IscoShard, PageShard, SearchByLengthShard, SearchPostingsShard, SearchShard, SearchTyposShard, SearchTitlesShard, UnscoredSearchShard, VotesShard } from '../build/contract/response-schemas.ts';
import { addTypoShard, partsMissing, postingShardName, takeMissing, unscoredOf, type SearchIndex } from '../build/contract/search-words.ts';
import { typoShardName } from '../build/contract/search-typos.ts';
import { AssessRequest, OPTION_NOT_STRING, ShardMeta, TASK_FIELDS } from '../build/contract/request-schemas.ts';
import { SEARCH_PART_SHARDS, taskShardName, UNSCORED_SHARD } from '../build/contract/dist-layout.ts';
import { INDUSTRY_LIST_QUERY, ISCO_LIST_QUERY, OCCUPATION_LIST_QUERY, pageShardName, pageWindow, parseQuery, queryPairs, shardOf } from '../build/contract/paging.ts';
import { LIST_PAGE_HEAD, industryList, iscoListPage, iscoNotScored, listPageJson, listPageTail } from '../build/contract/present.ts';
import { allowedMethods, methodNotAllowedProblem, PARAM_PATTERNS, routeById, urlFor, type HandlerId, type Method, type RouteDef } from '../build/contract/routes.ts';
import { matchRoute, notFoundKind, redirectFor, type RouteMatch } from '../build/contract/route-match.ts';
import { ownTitleHolds, searchOccupations, searchUnscored, suggestOccupations, unscoredTitleHolds, unscoredTitlesMayHold } from '../build/contract/search-query.ts';
import { noIscoUnit, noOccupation, noResourceAt, noResourceAtDotted, type ProblemError } from '../build/contract/problem.ts';
import { ASSESS_MAX_BODY_BYTES, DISCARD_LIMIT_BYTES } from '../build/contract/limits.ts';
import { MODEL_VERSION } from '../build/model/version.ts';
import { etagOf, hash53, json, preflight, problemResponse, redirect, respond, toResponse, type AnyReply, type BodyParts, type Reply, type RequestLike } from './http.ts';
import { discardUnread, encodedBody, readCapped, utf8 } from './body.ts';
import { votesEndpoint, type VoteOptions } from './votes.ts';
import { BoundedCache } from './bounded-cache.ts';

const MAX_BODY_BYTES = ASSESS_MAX_BODY_BYTES;
/** Queries whose ranked matches an instance keeps (at most one number per occupation each), and their bytes. */
const SEARCH_CACHE_ENTRIES = 1000;
const SEARCH_CACHE_BYTES = 2_000_000;
/** Search pages an instance keeps whole (body and ETag), and their total size in bytes (UTF-8). */
const SEARCH_PAGE_CACHE_ENTRIES = 1000;
const SEARCH_PAGE_CACHE_BYTES = 4_000_000;

export interface ShardSource {
  loadShard(name: string): Promise<unknown>;
  /** A JSON file of the build by its URL path (a static route's body, e.g. a risk response), null when the build has none: what /mcp's tools read. */
  loadFile?(urlPath: string): Promise<unknown>;
}

/** What the adapter knows about a request beyond the Request itself (never taken from headers here). */
export interface RequestInfo {
  /** The client's IP address as the adapter established it (socket, trusted proxy, CF-Connecting-IP). */
  clientAddress?: string | null;
}

export type Handler = (req: Request, info?: RequestInfo) => Promise<Response>;
/** The same handler before the Response is made: what the local server calls. */
export type ReplyHandler = (req: RequestLike, info?: RequestInfo) => Promise<AnyReply>;

interface SerializedPage {
  offset: number;
  /** Each item's JSON, as the shard holds it. */
  items: string[];
  /** Each item's hash, made when an item is first asked for (a search needs a few). */
  hashes: Array<string | undefined>;
  /** The whole shard for list pages, made when a list first reads it (joined). */
  whole?: JoinedPage;
}
interface JoinedPage {
  /** The items' JSON joined by commas, as UTF-8; item i is bytes[starts[i], ends[i]). */
  bytes: Uint8Array<ArrayBuffer>;
  starts: number[];
  ends: number[];
  /** Of the offset and the joined items: the shard's content. */
  hash: string;
}

const utf8Encoder = new TextEncoder();

export interface HandlerOptions {
  /** Community votes: the store (null or absent: no database, POST answers 503) and its settings. */
  votes?: VoteOptions;
  /**
   * Bytes of an unwanted request body read and dropped (see DISCARD_LIMIT_BYTES). Hosts that cap
   * bodies themselves pass Infinity: Cloudflare refuses bodies over its plan limit (100 MB and
   * up) before the worker runs, and workerd left the client's next request hanging when the
   * worker cancelled a body instead.
   */
  discardLimitBytes?: number;
}

/**
 * Shards are loaded once per instance and kept: they are immutable per build. The build validated
 * every shard against its full schema before writing it beside this bundle, so only the metadata
 * (which says what kind of build this is) is checked again here; re-parsing megabytes of search
 * index on every cold start would buy nothing.
 */
function shardCache(source: ShardSource) {
  const cache = new Map<string, Promise<unknown>>();
  /** Shards already loaded, for a lookup without a promise once warm (the common case). */
  const loaded = new Map<string, unknown>();
  const load = <T>(name: string): Promise<T> => {
    let p = cache.get(name);
    if (!p) {
      p = source.loadShard(name).then((raw) => {
        const value = name === 'meta' ? ShardMeta.parse(raw) : raw;
        loaded.set(name, value);
        return value;
      });
      // A failed load must not poison the instance: the next request retries.
      p.catch(() => cache.delete(name));
      cache.set(name, p);
    }
    return p as Promise<T>;
  };
  return { load, loaded: <T>(name: string): T | undefined => loaded.get(name) as T | undefined };
}

export function createHandler(source: ShardSource, options: HandlerOptions = {}): Handler {
  const reply = createReplyHandler(source, options);
  return async (req, info) => toResponse(await reply(req, info), req.method);
}

export function createReplyHandler(source: ShardSource, options: HandlerOptions = {}): ReplyHandler {
  const shards = shardCache(source);
  const shard = shards.load;
  const discardLimit = options.discardLimitBytes ?? DISCARD_LIMIT_BYTES;
  const votes = votesEndpoint(options.votes ?? { store: null }, async (soc) => {
    const all = (await shard<VotesShard>('votes')).occupations;
    const o = Object.hasOwn(all, soc) ? all[soc]! : null;
    return o && { slug: o[0], snapshot: { agree: o[1], too_high: o[2], too_low: o[3] } };
  }, notScored);

  /**
   * Page shards as loaded: each item's JSON as a body holds it (the build serialized it), hashed
   * when first asked for (a search needs a few items of several shards). A list page reads a
   * range: the shard's items joined by commas and encoded once (a page is then bytes cut from it,
   * never a string built and encoded per request), where each item starts and ends, and a hash of
   * the whole shard (the ETags hash these instead of the body).
   */
  const serialized = new Map<number, Promise<SerializedPage>>();
  const serializedNow = new Map<number, SerializedPage>();
  const serializedPage = (n: number): Promise<SerializedPage> => {
    let p = serialized.get(n);
    if (!p) {
      p = shard<PageShard>(pageShardName(n)).then((page) => {
        const done: SerializedPage = { offset: page.offset, items: page.items, hashes: [] };
        serializedNow.set(n, done);
        return done;
      });
      p.catch(() => serialized.delete(n));
      serialized.set(n, p);
    }
    return p;
  };
  const itemJson = (page: SerializedPage, i: number): string => page.items[i]!;
  const itemHash = (page: SerializedPage, i: number): string => (page.hashes[i] ??= hash53(itemJson(page, i)));
  function joined(page: SerializedPage): JoinedPage {
    if (page.whole) return page.whole;
    const json = page.items;
    // Each item encoded once, copied into the joined bytes with a comma between.
    const encoded = json.map((j) => utf8Encoder.encode(j));
    const bytes = new Uint8Array(Math.max(0, encoded.reduce((n, e) => n + e.byteLength + 1, -1)));
    const starts: number[] = [];
    const ends: number[] = [];
    let at = 0;
    for (const [k, e] of encoded.entries()) {
      if (k > 0) bytes[at++] = 0x2c; // ','
      starts.push(at);
      bytes.set(e, at);
      at += e.byteLength;
      ends.push(at);
    }
    return (page.whole = { bytes, starts, ends, hash: hash53(`${page.offset}:${json.join(',')}`) });
  }

  /** The items at `positions`, serialized, and their hashes (for the ETag). */
  async function pageItems(positions: ArrayLike<number>, size: number): Promise<{ json: string[]; hashes: string[] }> {
    const json: string[] = [];
    const hashes: string[] = [];
    for (let k = 0; k < positions.length; k++) {
      const p = positions[k]!;
      const n = shardOf(p, size);
      const page = serializedNow.get(n) ?? (await serializedPage(n));
      json.push(itemJson(page, p - page.offset));
      hashes.push(itemHash(page, p - page.offset));
    }
    return { json, hashes };
  }

  /** List positions [start, end) as byte parts cut from the shards' joined items; `tag` names the shards' contents. */
  async function pageRange(start: number, end: number, size: number): Promise<{ parts: BodyParts; tag: string }> {
    const parts: BodyParts = [];
    let tag = '';
    for (let n = shardOf(start, size); start < end && n <= shardOf(end - 1, size); n++) {
      const page = serializedNow.get(n) ?? (await serializedPage(n));
      const whole = joined(page);
      const a = Math.max(start, page.offset) - page.offset;
      const b = Math.min(end, page.offset + page.items.length) - page.offset - 1;
      if (parts.length) parts.push(',');
      parts.push(whole.bytes.subarray(whole.starts[a], whole.ends[b]));
      tag += whole.hash;
    }
    return { parts, tag };
  }

  // Ranked matches per query, kept per instance like the shards they come from (people search
  // for the same few words; a typo-tolerant scan costs far more than a hit). Bounded: oldest out
  // first.
  // A query that finds nothing keeps beside it its suggestions (a trigram pass over every title)
  // and the unscored occupations it names; one that finds some, those unscored occupations when
  // it names them by their official titles and no served occupation by its own.
  // Kept as typed arrays: their elements lie outside the JS heap (past 64 bytes), so the young
  // generation's collections do not copy them while every first-seen query adds one
  // (docs/PERFORMANCE.md, fifth pass).
  type Searched = { matches: Int32Array; suggested?: Int32Array; notScored?: string[] };
  const searches = new BoundedCache<string, Searched>(SEARCH_CACHE_ENTRIES, SEARCH_CACHE_BYTES);
  // The postings come in buckets, each a shard loaded when a query first needs one of its words;
  // the titles, the ids by length and the unscored occupations' index are shards loaded when a
  // query first needs them: a query that met one not loaded is answered again once they are in
  // (search-words.ts).
  const searched = async (index: SearchIndex, q: string): Promise<Searched> => {
    const kept = searches.get(q);
    if (kept) return kept;
    // The matches first: while a bucket they need is missing they are incomplete, and what is
    // worked out from them (suggestions when there are none, the unscored occupations named)
    // would be work thrown away (on a cold search, a trigram pass over every title). Once
    // complete they are kept: what the extras miss (the unscored occupations' index or its
    // buckets) does not change them, so the query's typo scans are not run again.
    let matches: number[] | null = null;
    for (;;) {
      if (!matches) {
        matches = searchOccupations(index, q);
        if (await loadMissing(index)) {
          matches = null;
          continue;
        }
      }
      const hit = searchExtras(index, q, matches);
      if (await loadMissing(index)) continue;
      searches.set(q, hit, hit.matches.byteLength + (hit.suggested?.byteLength ?? 0));
      return hit;
    }
  };
  /** Loads what queries met missing (posting buckets and typo index shards of either index, the served one's titles or ids by length, the unscored occupations' index); false when nothing. */
  const loadMissing = async (index: SearchIndex): Promise<boolean> => {
    const own = takeMissing(index);
    const unscored = index.unscored;
    const theirs = unscored && takeMissing(unscored.index);
    if (!own && !theirs) return false;
    const bucket = (name: string, b: number) => shard<SearchPostingsShard>(postingShardName(name, b)).then((s) => s.postings);
    const typos = (name: string, into: SearchIndex, part: string) => shard<SearchTyposShard>(typoShardName(name, part)).then((s) => addTypoShard(into, part, s.typos));
    await Promise.all([
      ...(own?.buckets ?? []).map(async (b) => (index.postings[b] = await bucket('search', b))),
      ...(theirs?.buckets ?? []).map(async (b) => (unscored!.index.postings[b] = await bucket(UNSCORED_SHARD, b))),
      ...(own?.typos ?? []).map((part) => typos('search', index, part)),
      ...(theirs?.typos ?? []).map((part) => typos(UNSCORED_SHARD, unscored!.index, part)),
      own?.unscored && shard<UnscoredSearchShard>(UNSCORED_SHARD).then((u) => (index.unscored = u)),
      own?.titles && shard<SearchTitlesShard>(SEARCH_PART_SHARDS.titles).then((t) => (index.titles = t.titles)),
      own?.by_length && shard<SearchByLengthShard>(SEARCH_PART_SHARDS.by_length).then((t) => (index.by_length = t.by_length)),
    ]);
    return true;
  };
  /** What is said beside the matches: suggestions when there are none, the unscored occupations q names. */
  const searchExtras = (index: SearchIndex, q: string, found: number[]): Searched => {
    const matches = Int32Array.from(found);
    // Called only once searchUnscored has their index (else it notes it missing and finds none).
    const unscored = () => searchUnscored(index, q).map((i) => JSON.stringify(index.unscored!.occupations[i]));
    if (matches.length === 0) {
      // Their index first (a shard of its own, noted wanted here): without it, the suggestions
      // would be work thrown away (asked again once it is in).
      if (unscoredOf(index) === undefined && index.unscored_words !== undefined) return { matches };
      // Nothing at all: say which unscored occupations q names or, when it names none, which
      // titles come closest, additively (data stays empty, count 0). Titles that merely look
      // like "infantry" are no answer to it.
      const notScored = unscored();
      // Their postings too: a bucket missing, the unscored occupations named are incomplete.
      if (index.unscored && partsMissing(index.unscored.index)) return { matches };
      return { matches, suggested: Int32Array.from(notScored.length > 0 ? [] : suggestOccupations(index, q)), notScored };
    }
    // "military" finds Lawyers and Airline Pilots by alternate titles ("Military Lawyer"),
    // while the occupations whose official titles it names are unscored: say so beside them.
    // Their titles first: most queries hold no one of them, and never need their index.
    const notScored = unscoredTitlesMayHold(index, q) && !ownTitleHolds(index, q) && unscoredTitleHolds(index, q) ? unscored() : [];
    return notScored.length > 0 ? { matches, notScored } : { matches };
  };
  // Search pages whole: the same query, limit and offset always give the same bytes on an
  // instance (its shards never change), and building a page of ranked items scattered over the
  // shards was much of a request's cost. Keyed by the parsed values, so equivalent queries share.
  // A body is kept as its UTF-8 bytes (encoded once, as a Response would encode the text): an
  // ArrayBuffer's contents lie outside the JS heap, so a young-generation collection does not copy
  // and promote the kilobytes each first-seen query adds (as a string it did: most of what
  // survived each collection; docs/PERFORMANCE.md, fifth pass).
  const searchPages = new BoundedCache<string, { body: Uint8Array<ArrayBuffer>; etag: string }>(SEARCH_PAGE_CACHE_ENTRIES, SEARCH_PAGE_CACHE_BYTES);

  async function listOccupations(req: RequestLike, query: string, route: RouteDef): Promise<AnyReply> {
    const parsed = parseQuery(queryPairs(query), OCCUPATION_LIST_QUERY);
    if (!parsed.ok) return problemResponse(req, 400, 'Invalid query parameters.', parsed.errors);
    const limit = parsed.values.limit as number;
    const offset = parsed.values.offset as number;
    const q = parsed.values.q as string | undefined;
    const meta = shards.loaded<ShardMeta>('meta') ?? (await shard<ShardMeta>('meta'));
    // Each body is a function of its items, the envelope numbers and the model version, so is its
    // tag: hashing the shard or item hashes with those is as strong as hashing the body, and cheaper.
    if (q === undefined) {
      const count = meta.occupation_count;
      const { start, end } = pageWindow(count, limit, offset);
      const items = await pageRange(start, end, meta.page_shard_size);
      const etag = etagOf(`${MODEL_VERSION}:${count},${limit},${offset}:${items.tag}`);
      return respond(req, 200, [LIST_PAGE_HEAD, ...items.parts, listPageTail(count, limit, offset)], 'json', route.cache, undefined, etag);
    }
    const pageKey = `${limit} ${offset} ${q}`;
    const kept = searchPages.get(pageKey);
    if (kept) return respond(req, 200, [kept.body], 'json', route.cache, undefined, kept.etag);
    const index: SearchIndex = shards.loaded<SearchShard>('search') ?? (await shard<SearchShard>('search'));
    const { matches, suggested, notScored } = await searched(index, q);
    const count = matches.length;
    const { start, end } = pageWindow(count, limit, offset);
    const items = await pageItems(matches.slice(start, end), meta.page_shard_size);
    const suggestions = suggested && (await pageItems(suggested, meta.page_shard_size));
    const etag = etagOf(`${MODEL_VERSION}:${count},${limit},${offset}:${items.hashes.join('')}${suggestions ? `:s${suggestions.hashes.join('')}` : ''}${notScored ? `:u${notScored.join('')}` : ''}`);
    // Ranked items lie scattered over the shards: one string (a part per item, or their bytes
    // copied into one array, cost more to write).
    const body = utf8Encoder.encode(listPageJson(items.json, count, limit, offset, { ...(suggestions ? { suggestions: suggestions.json } : {}), ...(notScored ? { not_scored: notScored } : {}) }));
    searchPages.set(pageKey, { body, etag }, body.byteLength);
    return respond(req, 200, [body], 'json', route.cache, undefined, etag);
  }

  async function listIndustries(req: RequestLike, query: string, route: RouteDef): Promise<Reply> {
    const parsed = parseQuery(queryPairs(query), INDUSTRY_LIST_QUERY);
    if (!parsed.ok) return problemResponse(req, 400, 'Invalid query parameters.', parsed.errors);
    const level = parsed.values.level as number | undefined;
    const all = await shard<IndustryList>('industries');
    return json(req, industryList(all.data, level), route.cache);
  }

  // ISCO-08 searches, kept per instance like the occupation searches (matches as list positions).
  const iscoSearches = new BoundedCache<string, number[]>(SEARCH_CACHE_ENTRIES);

  /** GET /isco with a query: the list filtered by major group and/or searched, then paged. */
  async function listIsco(req: RequestLike, query: string, route: RouteDef): Promise<Reply> {
    const parsed = parseQuery(queryPairs(query), ISCO_LIST_QUERY);
    if (!parsed.ok) return problemResponse(req, 400, 'Invalid query parameters.', parsed.errors);
    const { limit, offset, q, major } = parsed.values as { limit: number; offset: number; q?: string; major?: number };
    const { items } = shards.loaded<IscoShard>('isco') ?? (await shard<IscoShard>('isco'));
    let positions: number[] | null = null;
    if (q !== undefined) {
      positions = iscoSearches.get(q) ?? null;
      if (!positions) {
        const index = shards.loaded<IscoSearchShard>('isco-search') ?? (await shard<IscoSearchShard>('isco-search'));
        positions = searchOccupations(index, q);
        iscoSearches.set(q, positions);
      }
    }
    const digit = major === undefined ? null : String(major);
    const all = positions ? positions.map((i) => items[i]!) : items;
    const matched = digit === null ? all : all.filter((i) => i.major_group === digit);
    const { start, end } = pageWindow(matched.length, limit, offset);
    return json(req, iscoListPage(matched.slice(start, end), matched.length, limit, offset), route.cache);
  }

  /** A path under /api/v1/isco/ with a code that is not 4 digits: the client's mistake (400), not a missing resource. */
  function malformedIsco(req: RequestLike, pathname: string): Reply | null {
    const prefix = `${urlFor('isco-list')}/`;
    if (!pathname.startsWith(prefix)) return null;
    const code = pathname.slice(prefix.length);
    if (code === '' || code.includes('/') || PARAM_PATTERNS.isco_code!.test(code)) return null;
    return problemResponse(req, 400, `"${code.length > 40 ? `${code.slice(0, 40)}…` : code}" is not an ISCO-08 unit group code: give its 4 digits, for example ${urlFor('isco-detail', { isco_code: '2512' })}.`, [
      { location: 'path.isco_code', message: 'must be 4 digits (an ISCO-08 unit group)' },
    ]);
  }

  /** 404 for a well-formed ISCO-08 code with no file: a unit group of the crosswalk without a score (its own type), or no unit group at all. */
  async function iscoNotFound(req: RequestLike, code: string): Promise<Reply> {
    const { unscored } = shards.loaded<IscoShard>('isco') ?? (await shard<IscoShard>('isco'));
    const u = unscored.find((x) => x.isco_code === code);
    return u
      ? problemResponse(req, 'isco-not-scored', iscoNotScored(u), [{ location: 'path.isco_code', message: 'ISCO-08 unit group not scored' }])
      : problemResponse(req, 404, noIscoUnit(code), [{ location: 'path.isco_code', message: 'unknown ISCO-08 unit group' }]);
  }

  async function assessOne(req: RequestLike, route: RouteDef): Promise<Reply> {
    const type = (req.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      return problemResponse(req, 415, 'Send the request body as JSON with Content-Type: application/json.', [
        { location: 'header.Content-Type', message: type ? `unsupported media type "${type}"` : 'missing', allowed: ['application/json'] },
      ]);
    }
    const encoded = encodedBody(req);
    if (encoded) return encoded;
    const declared = req.headers.get('Content-Length');
    if (declared !== null && Number(declared) > MAX_BODY_BYTES) return tooLarge(req);
    const bytes = await readCapped(req, MAX_BODY_BYTES);
    if (bytes === null) return tooLarge(req);
    let body: unknown;
    try {
      const text = utf8(bytes);
      if (text === null) throw new Error('not UTF-8');
      body = JSON.parse(text);
    } catch {
      return problemResponse(req, 400, 'The request body is not valid UTF-8 JSON.', [{ location: 'body', message: 'invalid JSON' }]);
    }
    const parsed = AssessRequest.safeParse(body);
    if (!parsed.success) {
      const errors: ProblemError[] = parsed.error.issues.map((i) => ({
        location: ['body', ...i.path.map(String)].join('.'),
        message: i.message,
      }));
      // A body whose only faults are task shares or ids names work that cannot be scored: 422.
      const taskOnly = parsed.error.issues.every((i) => i.path.length > 0 && TASK_FIELDS.includes(String(i.path[0])));
      if (taskOnly) return problemResponse(req, 422, `Invalid tasks or shares: each task is {task_id, share > 0} from GET ${routeById('occupation-tasks').pattern}; other_share is a number >= 0.`, errors);
      return problemResponse(req, 400, 'The request body does not match the assessment request schema.', errors);
    }
    const { tasks, other_share: otherShare } = parsed.data;
    if (otherShare !== undefined && tasks === undefined) {
      return problemResponse(req, 422, 'other_share is a share beside tasks; send it with tasks.', [{ location: 'body.other_share', message: 'only with tasks' }]);
    }
    const data = await shard<AssessShard>('assess');
    const occ = Object.hasOwn(data.occupations, parsed.data.soc_code) ? data.occupations[parsed.data.soc_code] : undefined;
    if (!occ) {
      const unscored = await notScored(parsed.data.soc_code);
      return problemResponse(req, 404, unscored ?? noOccupation(parsed.data.soc_code), [{ location: 'body.soc_code', message: unscored ? 'occupation not scored' : 'unknown occupation' }]);
    }
    const personal = factorEntries((body as { personal_factors?: object }).personal_factors);
    if (!(personal instanceof Map)) return problemResponse(req, 400, 'The request body does not match the assessment request schema.', [personal]);
    const soc = parsed.data.soc_code;
    // Only an assessment with tasks loads the occupation's task basis (one small shard).
    const taskPath = tasks && { tasks, other_share: otherShare ?? 0, basis: await shard<TaskShard>(taskShardName(soc)), scale: data.task_scale };
    const occupation = { soc_code: soc, title: occ[0], base_score: occ[1], exposure_score: occ[2], score_low: occ[3], score_high: occ[4] };
    const outcome = assess(occupation, personal, data.factors, data.tiers, taskPath);
    if (!outcome.ok) {
      const errors: ProblemError[] = outcome.issues.map((i) => assessError(i));
      const onTasks = outcome.issues.some((i) => i.kind.endsWith('_task') || i.kind === 'too_many_tasks');
      const detail = onTasks ? `Unknown or repeated task, or more tasks than the occupation has; see GET ${urlFor('occupation-tasks', { soc_code: soc })}.` : `Unknown personal factor or option; see GET ${urlFor('factors')}.`;
      return problemResponse(req, 422, detail, errors);
    }
    return json(req, outcome.result, route.cache);
  }

  function assessError(i: AssessIssue): ProblemError {
    switch (i.kind) {
      case 'unknown_factor':
        return { location: `body.personal_factors.${i.factor}`, message: `unknown factor "${i.factor}"`, allowed: i.allowed };
      case 'unknown_option':
        return { location: `body.personal_factors.${i.factor}`, message: `unknown option "${i.value}" for ${i.factor}`, allowed: i.allowed };
      case 'unknown_task':
        return { location: `body.tasks.${i.index}.task_id`, message: `task ${i.task_id} is not among this occupation's tasks`, allowed: i.allowed.map(String) };
      case 'duplicate_task':
        return { location: `body.tasks.${i.index}.task_id`, message: `task ${i.task_id} is listed more than once` };
      case 'too_many_tasks':
        return { location: 'body.tasks', message: `${i.count} entries, but the occupation has ${i.max} tasks` };
    }
  }

  /**
   * Why an O*NET occupation the model does not score has no resources, in words (null for any
   * other code): GET /occupations/55-3016.00 says what Infantry is missing, not only "no resource".
   */
  async function notScored(soc: string): Promise<string | null> {
    const { occupations } = shards.loaded<UnscoredSearchShard>(UNSCORED_SHARD) ?? (await shard<UnscoredSearchShard>(UNSCORED_SHARD));
    const u = occupations.find((o) => o.soc_code === soc);
    return u ? `${u.soc_code} (${u.title}) is an O*NET occupation that the model does not score: ${u.reason} It is in no list.` : null;
  }

  /** `soc`: the SOC code in the path, when the route has one (an unscored occupation's is named as such). */
  async function notFound(req: RequestLike, pathname: string, soc?: string, detail?: string): Promise<Reply> {
    const kind = notFoundKind(pathname);
    if (kind !== 'problem') {
      const page = (await shard<{ html: string }>(kind === 'html' ? 'embed-404' : 'page-404')).html;
      return respond(req, 404, page, kind, 'error');
    }
    return problemResponse(req, 404, detail ?? ((soc !== undefined && (await notScored(soc))) || noResourceAt(pathname)));
  }

  /** The code behind each handler id of the route table; the type makes a missing one a compile error. */
  const handlers: Record<HandlerId, (req: RequestLike, query: string, match: RouteMatch, info: RequestInfo) => Promise<AnyReply>> = {
    'list-occupations': (req, query, { route }) => listOccupations(req, query, route),
    'list-industries': (req, query, { route }) => listIndustries(req, query, route),
    'list-isco': (req, query, { route }) => listIsco(req, query, route),
    assess: (req, _query, { route }) => assessOne(req, route),
    'votes-get': (req, _query, { route, params }) => votes.get(req, params.soc_code!, route),
    'votes-post': (req, _query, { params }, info) => votes.post(req, params.soc_code!, info.clientAddress ?? null),
    mcp: (req) => mcpReply(req),
  };

  // The MCP server (the SDK and its schemas, some 700 KB) is a module of its own, imported on the
  // first /mcp request: no other route loads or parses it. Its tools ask this handler in process.
  let mcpModule: Promise<typeof import('./mcp/endpoint.ts')> | undefined;
  const mcpReply = async (req: RequestLike): Promise<AnyReply> => {
    const p = (mcpModule ??= import('./mcp/endpoint.ts'));
    p.catch(() => (mcpModule = undefined));
    return (await p).mcpReply(req, { api: (r) => route(r, {}), source });
  };

  return async function handle(req: RequestLike, info: RequestInfo = {}): Promise<AnyReply> {
    const response = await route(req, info);
    // Only a body can be left unread (GET and HEAD have none here).
    if (req.body) await discardUnread(req, discardLimit);
    return response;
  };

  async function route(req: RequestLike, info: RequestInfo): Promise<AnyReply> {
    try {
      // A dot segment (`..`, or `%2e%2e` that URL parsing decodes) would make the path name
      // another resource than the one asked for (/isco/%2e%2e/meta -> /meta): none is ours.
      const dotted = dotSegmentPath(req.url);
      if (dotted !== null) return notFound(req, dotted, undefined, noResourceAtDotted(dotted));
      const { pathname, query } = pathAndQuery(req.url);
      const meta = shards.loaded<ShardMeta>('meta') ?? (await shard<ShardMeta>('meta'));
      const match = matchRoute(pathname, meta.shape);
      // A preflight names what a resource allows: a path with no resource is a 404 like any other.
      if (req.method === 'OPTIONS') return match ? preflight(match.route) : notFound(req, pathname);
      if (!match) {
        const to = req.method === 'GET' || req.method === 'HEAD' ? redirectFor(pathname, meta.shape) : null;
        return to ? redirect(to + new URL(req.url).search) : (malformedIsco(req, pathname) ?? notFound(req, pathname));
      }
      const { route } = match;
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (!Object.hasOwn(route.ops, method)) return methodNotAllowed(req, pathname, route);
      // A static route reaches the function only when no file exists for the path.
      const handler = route.ops[method as Method]!.handler;
      if (handler) return await handlers[handler](req, query, match, info);
      return match.params.isco_code !== undefined ? iscoNotFound(req, match.params.isco_code) : notFound(req, pathname, match.params.soc_code);
    } catch {
      // Only our own faults land here (a missing shard); bad input is answered above with a 4xx.
      return problemResponse(req, 500, 'The server could not answer this request.');
    }
  }
}

/** A path that URL parsing leaves as it is: plain characters, no dot segment, no escapes. */
const PLAIN_PATH = /^\/[A-Za-z0-9_.~/-]*$/;
/** A query whose pairs come out the same parsed raw as after URL serialization: printable ASCII, no fragment. */
const PLAIN_QUERY = /^[\x21-\x22\x24-\x7e]*$/;

/** A path segment that URL parsing removes or resolves upwards: `.`, `..`, and their percent-encoded forms. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=[/?#]|$)/i;

/** The path of an absolute request URL as the client sent it, when it has a dot segment; otherwise null. */
export function dotSegmentPath(url: string): string | null {
  const scheme = url.indexOf('://');
  const at = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
  if (at < 0) return null;
  const end = url.slice(at).search(/[?#]/);
  const raw = end < 0 ? url.slice(at) : url.slice(at, at + end);
  return DOT_SEGMENT.test(raw) ? raw : null;
}

/**
 * The path and the query (without "?") of an absolute request URL, as `new URL` would give them.
 * Cut by hand when nothing needs normalizing (what runtimes hand us, and nearly every request),
 * parsed otherwise: URL construction is a good part of a small request's cost.
 */
export function pathAndQuery(url: string): { pathname: string; query: string } {
  const scheme = url.indexOf('://');
  const at = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
  if (at >= 0) {
    const q = url.indexOf('?', at);
    const pathname = q < 0 ? url.slice(at) : url.slice(at, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    if (PLAIN_PATH.test(pathname) && !pathname.includes('/.') && PLAIN_QUERY.test(query)) return { pathname, query };
  }
  const parsed = new URL(url);
  return { pathname: parsed.pathname, query: parsed.search.slice(1) };
}

/**
 * The factor map as the client sent it (the schema has checked it is an object), or the error in
 * it. Zod's record skips a `__proto__` key, neither checking nor keeping it, so the names come
 * from the raw JSON object into a Map, where such a key is an ordinary, unknown factor (a 422),
 * and its value is checked here as zod checks the others (`{"__proto__":{}}` made String() throw:
 * a 500).
 */
function factorEntries(raw: object | undefined): Map<string, string> | ProblemError {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(raw ?? {})) {
    if (typeof value !== 'string') return { location: `body.personal_factors.${name}`, message: OPTION_NOT_STRING };
    out.set(name, value);
  }
  return out;
}

/** 405: the path as requested (not the route pattern), and the methods it does accept. */
function methodNotAllowed(req: RequestLike, pathname: string, route: RouteDef): Reply {
  const p = methodNotAllowedProblem(req.method, pathname, allowedMethods(route));
  return problemResponse(req, 405, p.detail, p.errors, p.headers);
}

const tooLarge = (req: RequestLike): Reply =>
  problemResponse(req, 413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`, [{ location: 'body', message: `at most ${MAX_BODY_BYTES} bytes` }]);
