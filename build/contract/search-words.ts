// Occupation search. The build makes an inverted index over every occupation's own title and
// its O*NET alternate and reported titles (stemmed tokens -> the names holding them); the
// function ranks against it per request. Pure.
//
// A query matches a name when every query word matches one of the name's words: exactly, as the
// start of it (3+ letters: "prog" -> programmer), or within a small edit distance when the word
// is not in the vocabulary at all ("nurce" -> nurse; 1 edit from 4 letters, 2 from 8). Words are
// stemmed alike on both sides (nurses -> nurse, secretaries -> secretary), two query words that
// form a known word are joined ("fire fighter" -> firefighter), and a few everyday words, British
// names and abbreviations the titles lack are expanded (ALIASES, a word or two), and a word
// matching nothing is split in two known words ("gravedigger"). When no name holds the whole query,
// a word matching nothing at all is dropped if the rest still matches, and failing that the names
// holding most of the words answer, the rarer words counting more ("postal worker": the postal
// occupations, not the largest one with "Workers" in its name). An occupation's score is
// its best name (how exactly the words matched, how much of the name they cover, own title over
// alternate title), plus a popularity prior from its employment, so "teacher" puts K-12 teachers
// before postsecondary ones and "nurse" Registered Nurses before the nurse specialties, plus a
// little for how many of its names match and for what share of them: an occupation most of whose
// names hold the query is about it ("cybersecurity": Information Security Analysts, not Lawyers
// for one "Cybersecurity Lawyer"). Ties: list position. Deterministic for a given index. The
// occupations the model does not score are indexed beside (`unscored`): their words are not typos,
// and a search that matches none of the served ones names them (searchUnscored).
//
// This file: the index's shape and the word rules that the build (build/search-index.ts) and the
// function (search-query.ts) share, so a title and a query are cut into words alike.
import type { NotScoredItem } from './response-schemas.ts';
import { foldWords } from '../model/text.ts';
import { typoListIn } from './search-typos.ts';
import { DIGIT_VALUE, pack, POSTING_BUCKET_WORDS, unpackAll, unpackAt, unpackDigitsInto, WORD_AT_STEP } from './search-pack.ts';
export { POSTING_BUCKET_WORDS } from './search-pack.ts';

export interface SearchIndex {
  /**
   * Normalized own title of each occupation, by list position (GET /occupations order). Read only
   * for suggestions when nothing is found: the function's shard of the served index leaves it out
   * (a shard of its own, SEARCH_PART_SHARDS in dist-layout.ts, loaded when a query first needs it; titlesOf).
   */
  titles?: string[];
  /**
   * Popularity prior per occupation, 0..1: log employment, a shared OEWS code split among its O*NET
   * children. One per occupation in every shard of an index: its length is the occupation count.
   */
  prior: number[];
  /**
   * The sorted stemmed words, joined by single spaces (words have none): one JSON string parses
   * far faster than 9,000 (each of which JSON.parse internalizes), and a query reads the words in
   * place (word_len, word_at: where each begins).
   */
  vocab: string;
  /**
   * Each word's length, a digit each (search-pack.ts), and where every WORD_AT_STEP-th word
   * begins, packed (the last entry, at the word count, the text's length plus one when the count
   * is a multiple of the step): a query finds where word k begins from these in place (wordStart),
   * not from a table made by a scan of the text on an instance's first query (an uncompiled loop
   * over every word). Every start, packed, would have taken search.json past SHARD_MAX_BYTES; the build checks the digits (packedProblem).
   */
  word_len: string;
  word_at: string;
  // The per-name and per-word numbers are packed (pack() below): strings that JSON.parse copies
  // in one pass and a query reads in place, so a cold instance parses about 10,000 values, not
  // the 250,000 numbers they were as arrays (49 ms for the first search).
  /** Digits per packed number, enough for the largest (a name id). */
  width: number;
  /**
   * Names are the titles (ids 0..n-1), then the alternate/reported titles, occupation by
   * occupation: where occupation o's alternates end (counted from name n). Plain numbers, not
   * packed: read as JSON.parse gives them, with no loop over digits on a cold instance (that loop,
   * about a thousand numbers, was hot enough for V8 to optimize it during the first search).
   */
  alt_end: number[];
  /**
   * Every vocabulary id once, ordered by its word's length (then id), packed: the typo scan reads
   * the words of the near lengths as they are, with nothing derived per instance first (deriving
   * it cost a cold search about 1 ms). Read only by the typo scan: the function's shard of the
   * served index leaves it out, like `titles` (byLengthOf).
   */
  by_length?: string;
  /**
   * The shards of the index's typo index (search-typos.ts; two characters each, sorted, joined by
   * single spaces), each a shard of its own loaded when a query word first needs it (typoListOf):
   * a typo is found by a few lookups, not a scan of the vocabulary. An index without it (the
   * ISCO-08 one, small and a shard whole) scans `by_length` instead.
   */
  typo_shards?: string;
  /**
   * The ascending ids of the names that hold each vocabulary word, in buckets of
   * POSTING_BUCKET_WORDS consecutive words (so of one stretch of the alphabet): bucket b packs the
   * bucket-local ends of its words' lists (where each ends, counted in numbers), then the lists one
   * after another, then the length of each name listed (its distinct stemmed words, filler words
   * not counted; a digit each, at most 63), in the lists' order: a query reads the lengths of the
   * names it meets, not a table of every name's (53 kB of the real index's shard, parsed by every
   * cold search). The function's shard leaves them out (an empty array) and reads a bucket, a
   * shard of its own (postingShardName), when a query first needs one of its words: a cold search
   * parses a few kB of them, not all (420 kB).
   */
  postings: Array<string | undefined>;
  /**
   * The occupations the model does not score (no O*NET task statements: the military, the "All
   * Other" groups), indexed alike: the list leaves them out, but a query that names one is told
   * so instead of being matched, through a typo, to a word it does not mean ("infantry" is not
   * "infant"). Absent from an index built without them.
   */
  unscored?: UnscoredIndex;
  /**
   * With unscored occupations, what a search needs of them before it knows it needs them whole
   * (the function's shard of the served index leaves `unscored` out: a shard of its own,
   * UNSCORED_SHARD in dist-layout.ts, loaded when a query first needs it; a cold search mostly does not):
   * `unscored_words`, their index's words that this one lacks, sorted and joined by single spaces
   * (a query word not in this vocabulary is a word, not a typo, if it is one of these), and
   * `unscored_titles`, the words of each of their own titles (as words() cuts them, joined by
   * single spaces: a query whose words no one of these holds, as typed or as a word's start,
   * names no unscored occupation by its official title).
   */
  unscored_words?: string;
  unscored_titles?: string[];
}

/** The parts of an index that the function's shard of the served one leaves out besides the postings (dist-layout.ts: SEARCH_PART_SHARDS). */
export type SplitPart = 'titles' | 'by_length';
/** An index as the build makes it, every part in it. */
export type WholeSearchIndex = SearchIndex & Required<Pick<SearchIndex, SplitPart>>;

/** The occupations the model does not score, and their own index. */
export interface UnscoredIndex {
  occupations: NotScoredItem[];
  index: SearchIndex;
}

/** The index's vocabulary as a list (word k at position k): for the build and the tests; a query reads index.vocab in place. */
export const vocabulary = (index: Pick<SearchIndex, 'vocab'>): string[] => (index.vocab === '' ? [] : index.vocab.split(' '));

/** An index's words: the text, each word's length and where every WORD_AT_STEP-th begins. */
export type Words = Pick<SearchIndex, 'vocab' | 'word_len' | 'word_at' | 'width'>;
/** How many words the vocabulary has. */
export const wordCount = (index: Words): number => index.word_len.length;
/** Word k's length. */
export const wordLength = (index: Words, k: number): number => DIGIT_VALUE[index.word_len.charCodeAt(k)]!;
/** Where word k of index.vocab begins (k = the word count: the text's length plus one): the listed start before it, plus the lengths between. */
export function wordStart(index: Words, k: number): number {
  let at = unpackAt(index.word_at, index.width, Math.floor(k / WORD_AT_STEP));
  const lengths = index.word_len;
  for (let j = k - (k % WORD_AT_STEP); j < k; j++) at += DIGIT_VALUE[lengths.charCodeAt(j)]! + 1;
  return at;
}
/** word_len and word_at of a vocabulary (the build's). */
export function wordPositions(vocab: readonly string[], width: number): Pick<SearchIndex, 'word_len' | 'word_at'> {
  const starts: number[] = [];
  for (let k = 0, at = 0; k <= vocab.length; at += (vocab[k]?.length ?? 0) + 1, k++) if (k % WORD_AT_STEP === 0) starts.push(at);
  return { word_len: pack(vocab.map((w) => w.length), 1), word_at: pack(starts, width) };
}
/** How many occupations the index has (prior: one each, in every shard; titles may be elsewhere). */
export const occupationCount = (index: Pick<SearchIndex, 'prior'>): number => index.prior.length;

/** The occupation (list position) a name id belongs to: names 0..n-1 are the own titles. */
export function ownerOf(index: SearchIndex, id: number): number {
  const n = occupationCount(index);
  if (id < n) return id;
  const ends = altEndsOf(index);
  // The first occupation whose alternates end past this one.
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ends[mid]! <= id - n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
const altEndsOf = (index: SearchIndex): readonly number[] => index.alt_end;
/**
 * How many distinct occupations own the names `ids` (ascending, as a word's names come): what
 * ownerOf says of each, found by one walk along the alternates' ends and counted with a mark per
 * occupation, not a binary search and a Set entry per name ("worker": thousands of names).
 */
export function occupationsHolding(index: SearchIndex, ids: Int32Array): number {
  const n = occupationCount(index);
  const ends = altEndsOf(index);
  const marked = new Uint8Array(n + 1);
  let count = 0;
  let o = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    let owner = id;
    if (id >= n) {
      // The ids ascend, so the owners of alternates do: the walk goes on from the last one's.
      while (o < n && ends[o]! <= id - n) o++;
      owner = o;
    }
    if (marked[owner] === 0) {
      marked[owner] = 1;
      count++;
    }
  }
  return count;
}
/** How many names (own title and alternates) occupation o has. */
export function namesOfOccupation(index: SearchIndex, o: number): number {
  const ends = altEndsOf(index);
  return 1 + ends[o]! - (o === 0 ? 0 : ends[o - 1]!);
}
/** Each name's length as read from the posting buckets (0: not read yet), per index. */
const lengthsOf = new WeakMap<SearchIndex, Uint8Array>();
function lengthsTable(index: SearchIndex): Uint8Array {
  let t = lengthsOf.get(index);
  if (!t) {
    const n = occupationCount(index);
    lengthsOf.set(index, (t = new Uint8Array(n === 0 ? 0 : n + index.alt_end[n - 1]!)));
  }
  return t;
}
/** A name's number of distinct words: of a name met in postingsOf (every name a query scores is). */
export function nameLength(index: SearchIndex, id: number): number {
  const len = lengthsOf.get(index)?.[id] ?? 0;
  if (len === 0) throw new Error(`search index: name ${id}'s length asked for before its postings were read`);
  return len;
}
/**
 * What a loop over names reads per name, once per index (a scoring loop runs uncompiled on a cold
 * instance: a call, a WeakMap look-up and a binary search per name were most of a cold search):
 * where each occupation's alternates end (alt_end), and each name's length as read so far (0: its
 * postings not read yet).
 */
export function nameTables(index: SearchIndex): { ends: readonly number[]; lengths: Uint8Array } {
  return { ends: altEndsOf(index), lengths: lengthsTable(index) };
}
/** The shard holding bucket b of the postings of the index kept in shard `index` ("search"). */
export const postingShardName = (index: string, b: number): string => `${index}/postings/${b}`;
/** How many posting buckets an index of `words` vocabulary words has. */
export const postingBuckets = (words: number): number => Math.ceil(words / POSTING_BUCKET_WORDS);

/** What queries asked for that the index did not hold, per index (takeMissing). */
interface Missing {
  buckets: Set<number>;
  typos: Set<string>;
  unscored: boolean;
  titles: boolean;
  by_length: boolean;
}
const missingOf = new WeakMap<SearchIndex, Missing>();
function missing(index: SearchIndex): Missing {
  let m = missingOf.get(index);
  if (!m) missingOf.set(index, (m = { buckets: new Set(), typos: new Set(), unscored: false, titles: false, by_length: false }));
  return m;
}

/** The typo index's shards loaded so far, per index (addTypoShard), and its shards' names padded with spaces (" ab cd "). */
const typoShards = new WeakMap<SearchIndex, Map<string, string>>();
const typoParts = new WeakMap<SearchIndex, string>();
/** Puts a loaded shard of the index's typo index in place (the caller loaded what takeMissing named). */
export function addTypoShard(index: SearchIndex, part: string, keys: string): void {
  let m = typoShards.get(index);
  if (!m) typoShards.set(index, (m = new Map()));
  m.set(part, keys);
}
/**
 * The vocabulary ids listed under a deletion key in the index's typo index (packed, ascending), ''
 * when none; null when its shard is not loaded, which is noted as wanted (takeMissing), like a
 * posting bucket. `part`: the key's shard (search-typos.ts typoShardOf).
 */
export function typoListOf(index: SearchIndex, part: string, key: string): string | null {
  let parts = typoParts.get(index);
  if (parts === undefined) typoParts.set(index, (parts = ` ${index.typo_shards ?? ''} `));
  if (!parts.includes(` ${part} `)) return '';
  const shard = typoShards.get(index)?.get(part);
  if (shard === undefined) {
    missing(index).typos.add(part);
    return null;
  }
  return typoListIn(shard, key);
}

/**
 * The ids of the names holding vocabulary word k, ascending (read from the packed postings). When
 * the word's bucket is not loaded: none, and the bucket is noted as wanted (takeMissingBuckets):
 * the caller loads it and asks again.
 */
export function postingsOf(index: SearchIndex, k: number): Int32Array {
  const b = Math.floor(k / POSTING_BUCKET_WORDS);
  const bucket = index.postings[b];
  if (bucket === undefined) {
    missing(index).buckets.add(b);
    return new Int32Array(0);
  }
  const { width } = index;
  const words = Math.min(POSTING_BUCKET_WORDS, wordCount(index) - b * POSTING_BUCKET_WORDS);
  const j = k - b * POSTING_BUCKET_WORDS;
  const start = j === 0 ? 0 : unpackAt(bucket, width, j - 1);
  const end = unpackAt(bucket, width, j);
  // The names' lengths follow the bucket's lists, which end where its last word's list does.
  const lengthsAt = (words + unpackAt(bucket, width, words - 1)) * width;
  const lengths = lengthsTable(index);
  const out = unpackAll(bucket, width, Math.max(0, end - start), words + start);
  unpackDigitsInto(bucket, lengthsAt + start, out, lengths);
  return out;
}

/**
 * The unscored occupations' index, when loaded. When the index has them (unscored_words) but they
 * are not loaded: undefined, and they are noted as wanted (takeMissing), like a posting bucket.
 */
export function unscoredOf(index: SearchIndex): UnscoredIndex | undefined {
  if (index.unscored === undefined && index.unscored_words !== undefined) missing(index).unscored = true;
  return index.unscored;
}

/** The own titles (suggestions read them), when loaded; else undefined, noted as wanted (takeMissing). */
export function titlesOf(index: SearchIndex): string[] | undefined {
  if (index.titles === undefined) missing(index).titles = true;
  return index.titles;
}

/** The vocabulary ids by word length (the typo scan reads them), when loaded; else undefined, noted as wanted (takeMissing). */
export function byLengthOf(index: SearchIndex): string | undefined {
  if (index.by_length === undefined) missing(index).by_length = true;
  return index.by_length;
}

/** Whether a query has met parts of the index not loaded since the last takeMissing (its answer will be asked again). */
export const partsMissing = (index: SearchIndex): boolean => missingOf.has(index);

/**
 * What queries asked for since the last call and the index did not hold: posting buckets
 * (ascending), typo index shards (sorted), whether the unscored occupations' index, the titles, the ids by length; forgotten
 * once told. The caller loads them and asks again (the answers given without them are incomplete).
 */
export function takeMissing(index: SearchIndex): { buckets: number[]; typos: string[]; unscored: boolean; titles: boolean; by_length: boolean } | null {
  const m = missingOf.get(index);
  if (!m) return null;
  missingOf.delete(index);
  return { buckets: [...m.buckets].sort((a, b) => a - b), typos: [...m.typos].sort(), unscored: m.unscored, titles: m.titles, by_length: m.by_length };
}
/** Lower-case, letters and digits only, single spaces: "Registered Nurse (RN)" -> "registered nurse rn". */
export function normalize(s: string): string {
  return foldWords(s, ' ');
}

/** Plural to singular, the same on both sides; the result only has to agree, not be English. */
export function stem(w: string): string {
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('sses') || w.endsWith('ches') || w.endsWith('shes') || w.endsWith('xes')) return w.slice(0, -2);
  if (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w;
  if (w.endsWith('s')) return w.slice(0, -1);
  return w;
}

/** A text's search words: normalized, stemmed. */
export const words = (s: string): string[] => normalize(s).split(' ').filter((w) => w !== '').map(stem);
