// The occupation search's queries, answered by the function against the index the build made
// (search-words.ts says how a search works). Pure.
import { byLengthOf, nameLength, nameTables, typoListOf, namesOfOccupation, normalize, occupationCount, occupationsHolding, partsMissing, postingsOf, stem, titlesOf, unscoredOf, wordCount, wordLength, wordStart, words, type SearchIndex, type Words } from '../build/contract/search-words.ts';
import { unpackAll, unpackAt } from '../build/contract/search-pack.ts';
import { TYPO_DISTANCE_BUDGET } from '../build/contract/limits.ts';
import { deletionKeys, MIN_TYPO_WORD, typoEdits, typoShardOf } from '../build/contract/search-typos.ts';

/**
 * Everyday words and abbreviations O*NET's titles do not (or barely) carry, as the words that do;
 * a key of two words stands for that pair of query words. Keys are stemmed as query words are
 * ("shop assistant", not "shop assistants"). Most abbreviations (RN, LPN, CNA, CEO, HR, UX, EMT)
 * and many British names (solicitor, barrister, estate agent, GP, postman) are alternate titles
 * already and need none. A Map: query words are looked up in it, and a plain object would take
 * "constructor" (a name every object inherits) for an alias.
 */
export const ALIASES: ReadonlyMap<string, readonly string[]> = new Map(Object.entries({
  dev: ['developer'],
  doctor: ['physician'],
  doc: ['physician'],
  coder: ['programmer'],
  cop: ['police officer'],
  uber: ['taxi driver'],
  lyft: ['taxi driver'],
  rideshare: ['taxi driver'],
  ceo: ['chief executive'],
  cfo: ['financial manager'],
  cto: ['computer and information systems manager'],
  hr: ['human resources'],
  ux: ['user experience'],
  ui: ['interface designer'],
  cna: ['nursing assistant'],
  lpn: ['licensed practical nurse'],
  rn: ['registered nurse'],
  np: ['nurse practitioner'],
  emt: ['emergency medical technician'],
  cpa: ['accountant'],
  it: ['information technology'],
  swe: ['software engineer'],
  sde: ['software developer'],
  sre: ['site reliability engineer'],
  ml: ['machine learning'],
  ea: ['executive assistant'],
  sysadmin: ['systems administrator'],
  pt: ['physical therapist'],
  // O*NET lists a bare "Police" among the alternate titles of Secretaries and Administrative
  // Assistants (the largest of the two): the word alone means the officers.
  police: ['police and sheriff patrol officer'],
  // "Delivery Nurse" and "Labor and Delivery Nurse" are alternate titles of Registered Nurses, the
  // largest occupation, which ranked first: the word alone means the drivers.
  delivery: ['delivery driver'],
  'virtual assistant': ['administrative assistant'],
  youtuber: ['video producer'],
  vlogger: ['video producer'],
  // British names, as the US occupation that does the work (O*NET's titles are American).
  lorry: ['truck'],
  parcel: ['package'],
  'shop assistant': ['retail salesperson'],
  'shelf stacker': ['stocker'],
  'till operator': ['cashier'],
  'checkout assistant': ['cashier'],
  binman: ['refuse collector'],
  'bin man': ['refuse collector'],
  binmen: ['refuse collector'],
  'bin men': ['refuse collector'],
  dustman: ['refuse collector'],
  childminder: ['childcare worker'],
  builder: ['construction laborer'],
  joiner: ['carpenter'],
  postie: ['mail carrier'],
  cabbie: ['taxi driver'],
  carer: ['personal care aide'],
  'care assistant': ['personal care aide'],
  'healthcare assistant': ['nursing assistant'],
  'car park': ['parking'],
  'traffic warden': ['parking enforcement'],
  'train driver': ['locomotive engineer'],
  'engine driver': ['locomotive engineer'],
  headteacher: ['principal'],
  'head teacher': ['principal'],
  publican: ['food service manager'],
  'letting agent': ['property manager'],
}));

const MAX_WORD = 64;
// Three reused rows: the typo scan runs this over thousands of words per query.
const rows = [new Int32Array(MAX_WORD + 1), new Int32Array(MAX_WORD + 1), new Int32Array(MAX_WORD + 1)];

/**
 * Optimal string alignment distance (a swap of neighbours is one edit), or max+1 once it must
 * exceed max. `b` may be a stretch of a longer string: bLen characters from bAt (a vocabulary word
 * read in place).
 */
export function editDistance(a: string, b: string, max: number, bAt = 0, bLen = b.length): number {
  if (Math.abs(a.length - bLen) > max) return max + 1;
  if (a.length > MAX_WORD || bLen > MAX_WORD) return a.length === bLen && b.startsWith(a, bAt) ? 0 : max + 1;
  // Plain assignments and comparisons, no destructuring or Math.min: a cold instance runs this
  // uncompiled, where each of those is a call (an iterator, an array) per character.
  let prev2 = rows[0]!;
  let prev = rows[1]!;
  let cur = rows[2]!;
  for (let j = 0; j <= bLen; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let best = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= bLen; j++) {
      const bj = b.charCodeAt(bAt + j - 1);
      let v = prev[j - 1]! + (ai === bj ? 0 : 1);
      if (prev[j]! + 1 < v) v = prev[j]! + 1;
      if (cur[j - 1]! + 1 < v) v = cur[j - 1]! + 1;
      if (i > 1 && j > 1 && ai === b.charCodeAt(bAt + j - 2) && a.charCodeAt(i - 2) === bj && prev2[j - 2]! + 1 < v) v = prev2[j - 2]! + 1;
      cur[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    const done = prev2;
    prev2 = prev;
    prev = cur;
    cur = done;
  }
  return prev[bLen]!;
}

/**
 * Each vocabulary word's letter set, per index, filled in as the typo scan first meets the word
 * (0: not yet; a word's set is never 0): no pass over the vocabulary before a cold query.
 */
const lettersOf = new WeakMap<SearchIndex, Int32Array>();

/** Position in by_length (the index's) of the first word at least `len` long. */
function lengthStart(index: SearchIndex, byLength: string, len: number): number {
  let lo = 0;
  let hi = wordCount(index);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const k = unpackAt(byLength, index.width, mid);
    if (wordLength(index, k) < len) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A word's characters as a set of bits (letters one each, digits sharing a few). One edit changes
 * at most two bits of it (a substitution: one character out, one in; a swap none), so a word whose
 * set differs from the query word's in more than 2 * max bits is not within max edits: most of
 * the vocabulary is ruled out without computing a distance.
 */
function letterSet(w: string, at = 0, end = w.length): number {
  let set = 0;
  for (let i = at; i < end; i++) {
    const c = w.charCodeAt(i);
    set |= 1 << (c >= 97 && c <= 122 ? c - 97 : 26 + (c % 6));
  }
  return set;
}
function bitCount(n: number): number {
  n -= (n >>> 1) & 0x55555555;
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0xf0f0f0f) * 0x1010101) >>> 24;
}

/**
 * What queries cost, counted (never timed): edit distances computed and candidate words found, so
 * that a test can hold a query's work to a budget on any machine. Only counts; nothing reads it to
 * decide anything.
 */
export const searchWork = { distances: 0, candidates: 0, postings: 0 };

/** The word of `text` at [at, end) against w, in code-unit order (as < compares strings): <0, 0 or >0. */
function compareAt(text: string, at: number, end: number, w: string): number {
  const len = end - at;
  const n = Math.min(len, w.length);
  for (let i = 0; i < n; i++) {
    const d = text.charCodeAt(at + i) - w.charCodeAt(i);
    if (d !== 0) return d;
  }
  return len - w.length;
}

/** Word k of the index's vocabulary against w (compareAt). */
function compareWord(index: Words, k: number, w: string): number {
  const at = wordStart(index, k);
  return compareAt(index.vocab, at, at + wordLength(index, k), w);
}

/** First word id in the sorted vocabulary not below w. */
function lowerBound(index: Words, w: string): number {
  let lo = 0;
  let hi = wordCount(index);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareWord(index, mid, w) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const MAX_PREFIX_WORDS = 300;

/** Words only: an index's vocabulary, or the words of another index that one lacks (lexiconOf). */
type Lexicon = Pick<SearchIndex, 'vocab'>;
const lexicons = new WeakMap<SearchIndex, Lexicon>();
/**
 * The words that are words for a query of this index, never typos or splits of them: the unscored
 * occupations' words this index lacks (unscored_words). Only those can matter: the lexicon is
 * asked only about a query word this index's vocabulary does not hold (candidates, variants).
 */
function lexiconOf(index: SearchIndex): Lexicon | undefined {
  if (index.unscored_words === undefined) return undefined;
  let l = lexicons.get(index);
  if (!l) lexicons.set(index, (l = { vocab: index.unscored_words }));
  return l;
}

/**
 * The names holding a query word, with how well: their ids ascending, each once, and the quality
 * of each (its best candidate word's). Arrays, not a Map: a query met thousands of names per word
 * ("operators"), and their Map entries were most of what a query allocated (its garbage the
 * collections of a warm instance; docs/PERFORMANCE.md).
 */
interface Names {
  ids: Int32Array;
  /** Per id; or null when every id's is `uniform` (a word standing for one vocabulary word). */
  q: Float64Array | null;
  uniform: number;
}
const qualityAt = (names: Names, i: number): number => (names.q ? names.q[i]! : names.uniform);

/**
 * One query's words against one index, each worked out once (partial matches try many subsets of
 * the same words): the vocabulary words it stands for, and the names holding them with how well.
 */
interface QueryWords {
  candidates(w: string): Map<number, number>;
  names(w: string): Names;
  /** Words that are words here too, never typos or splits of them (queryWords). */
  lexicon: Lexicon | undefined;
}

/**
 * `lexicon`: words that are words here too, never typos of near ones: for the served
 * occupations the unscored ones' ("infantry" is not "infant"; lexiconOf), and the other way round ("chef" is
 * not "chief", which would make "assistant chef" name an unscored occupation by an alternate title).
 * `typos`: false when typo matches would not count anyway (ownTitleHolds), so none is looked for;
 * else the query's typo lookups share TYPO_DISTANCE_BUDGET.
 */
function queryWords(index: SearchIndex, lexicon: Lexicon | undefined = lexiconOf(index), typos = true): QueryWords {
  const cands = new Map<string, Map<number, number>>();
  // One budget for the whole query's typo lookups (every word, every variant; queryWords is per query).
  const budget = { distances: TYPO_DISTANCE_BUDGET };
  const names = new Map<string, Names>();
  const self: QueryWords = {
    lexicon,
    candidates(w) {
      let c = cands.get(w);
      if (!c) cands.set(w, (c = candidates(index, w, lexicon, typos ? budget : null)));
      return c;
    },
    names(w) {
      let byName = names.get(w);
      if (!byName) {
        const lists: Array<{ ids: Int32Array; q: number }> = [];
        // Entries read by index, not destructured (an iterator protocol more to compile cold).
        for (const entry of self.candidates(w)) {
          const ids = postingsOf(index, entry[0]);
          searchWork.postings += ids.length;
          lists.push({ ids, q: entry[1] });
        }
        names.set(w, (byName = mergeNames(lists)));
      }
      return byName;
    },
  };
  return self;
}

/** The names of several candidate words' postings (each ascending) as one ascending list, a name's best quality kept. */
function mergeNames(lists: ReadonlyArray<{ ids: Int32Array; q: number }>): Names {
  if (lists.length === 0) return { ids: new Int32Array(0), q: null, uniform: 0 };
  if (lists.length === 1) return { ids: lists[0]!.ids, q: null, uniform: lists[0]!.q };
  // Each (name, list) as one number, name first: sorted, the names come ascending, each name's lists together.
  const m = lists.length;
  // Indexed loops, no iterators: a cold instance runs this uncompiled over hundreds of names.
  let total = 0;
  for (let i = 0; i < m; i++) total += lists[i]!.ids.length;
  const order = new Float64Array(total);
  let at = 0;
  for (let i = 0; i < m; i++) {
    const list = lists[i]!.ids;
    for (let j = 0; j < list.length; j++) order[at++] = list[j]! * m + i;
  }
  order.sort();
  const ids = new Int32Array(total);
  const q = new Float64Array(total);
  let n = 0;
  for (let k = 0; k < total; k++) {
    const key = order[k]!;
    const id = Math.floor(key / m);
    const quality = lists[key - id * m]!.q;
    if (n > 0 && ids[n - 1] === id) {
      if (quality > q[n - 1]!) q[n - 1] = quality;
    } else {
      ids[n] = id;
      q[n++] = quality;
    }
  }
  return { ids: ids.subarray(0, n), q: q.subarray(0, n), uniform: 0 };
}

/** First position in ids (ascending) at or after `from` whose id is not below `id`. */
function seek(ids: Int32Array, id: number, from: number): number {
  let lo = from;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Per index, a count per occupation that scoreVariant fills and clears again (no Map per call). */
const hitsScratch = new WeakMap<SearchIndex, Int32Array>();

/**
 * Vocabulary words a query word stands for, with how well (1 exact, less for prefix and typo).
 * `typos`: what is left of the query's typo budget (null: no typos looked for). Typos are taken
 * nearest lengths first (the word's own, then one off, then two), so a query that runs out of
 * budget keeps the likelier typos; the real queries stay well within it (limits.ts).
 */
function candidates(index: SearchIndex, w: string, lexicon: Lexicon | undefined, typos: { distances: number } | null): Map<number, number> {
  const out = new Map<number, number>();
  const text = index.vocab;
  const count = wordCount(index);
  const at = lowerBound(index, w);
  const exact = at < count && compareWord(index, at, w) === 0;
  if (exact) out.set(at, 1);
  if (w.length >= 3) {
    // A word holding w from its start (w has no space, so it cannot run into the next word).
    for (let k = exact ? at + 1 : at, from = wordStart(index, k); k < count && k - at < MAX_PREFIX_WORDS && text.startsWith(w, from); k++) {
      const len = wordLength(index, k);
      out.set(k, 0.7 + (0.2 * w.length) / len);
      from += len + 1;
    }
  }
  // A word of the other index's titles is a word, not a typo of a near one (queryWords).
  if (typos && !exact && w.length >= MIN_TYPO_WORD && !inVocabulary(lexicon, w)) {
    if (index.typo_shards !== undefined) typoLookup(index, w, out, typos);
    else typoScan(index, w, out, typos);
  }
  searchWork.candidates += out.size;
  return out;
}

/** A length difference's place in the order typos are taken: the word's own length, one shorter, one longer, two shorter, two longer. */
const lengthRank = (d: number): number => (d < 0 ? -2 * d - 1 : 2 * d);

/**
 * The typos of w found through the index's typo index (search-typos.ts): the vocabulary words
 * listed under w's deletions, within typoEdits(w) edits of it, taken as the scan took them (the
 * nearest lengths first, then by id) and under the same budget. A shard not loaded: none now
 * (noted; asked again).
 */
function typoLookup(index: SearchIndex, w: string, out: Map<number, number>, typos: { distances: number }): void {
  const max = typoEdits(w.length);
  const { width, vocab: text } = index;
  const count = wordCount(index);
  // Each word found as one number, its length's rank first: sorted, they come in the scan's order
  // (sorted as a typed array: numerically, with no comparator called per pair).
  const found: number[] = [];
  let complete = true;
  for (const key of deletionKeys(w, max)) {
    const list = typoListOf(index, typoShardOf(key), key);
    if (list === null) complete = false;
    if (!complete) continue;
    const ids = unpackAll(list!, width, list!.length / width);
    for (let i = 0; i < ids.length; i++) {
      const k = ids[i]!;
      const d = wordLength(index, k) - w.length;
      if (d >= -max && d <= max) found.push(lengthRank(d) * count + k);
    }
  }
  if (!complete) return;
  const sorted = Float64Array.from(found).sort();
  for (let i = 0; i < sorted.length && typos.distances > 0; i++) {
    if (i > 0 && sorted[i] === sorted[i - 1]) continue;
    const k = sorted[i]! % count;
    if (out.has(k)) continue;
    typos.distances--;
    searchWork.distances++;
    const from = wordStart(index, k);
    const d = editDistance(w, text, max, from, wordLength(index, k));
    if (d <= max) out.set(k, d === 1 ? 0.65 : 0.5);
  }
}

/**
 * The typos of w found by a scan of the vocabulary, for an index without a typo index (the
 * ISCO-08 one): the words of the near lengths from by_length, its own length first, then one
 * off, then two, so a query that runs out of budget keeps the likelier typos. The ids by length
 * are a shard of their own where split off: not loaded, no typo now (noted; asked again).
 */
function typoScan(index: SearchIndex, w: string, out: Map<number, number>, typos: { distances: number }): void {
  const byLength = byLengthOf(index);
  if (byLength === undefined) return;
  const text = index.vocab;
  const max = typoEdits(w.length);
  let letters = lettersOf.get(index);
  if (!letters) lettersOf.set(index, (letters = new Int32Array(wordCount(index))));
  const set = letterSet(w);
  for (let off = 0; off <= 2 * max && typos.distances > 0; off++) {
    const len = w.length + (off % 2 === 0 ? off / 2 : -(off + 1) / 2);
    for (let j = lengthStart(index, byLength, len), end = lengthStart(index, byLength, len + 1); j < end && typos.distances > 0; j++) {
      const k = unpackAt(byLength, index.width, j);
      const from = wordStart(index, k);
      if (out.has(k) || bitCount(set ^ (letters[k] ||= letterSet(text, from, from + len))) > 2 * max) continue;
      typos.distances--;
      searchWork.distances++;
      const d = editDistance(w, text, max, from, len);
      if (d <= max) out.set(k, d === 1 ? 0.65 : 0.5);
    }
  }
}

/**
 * Whether w is a word of the lexicon: a binary search over the text's characters, each step
 * comparing the word around its middle (no table of where the words begin).
 */
function inVocabulary(lexicon: Lexicon | undefined, w: string): boolean {
  if (lexicon === undefined) return false;
  const text = lexicon.vocab;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    // The word holding mid, or the one after it when mid is a space.
    const at = text.lastIndexOf(' ', mid) + 1;
    let end = text.indexOf(' ', at);
    if (end < 0) end = text.length;
    const c = compareAt(text, at, end, w);
    if (c === 0) return true;
    if (c < 0) lo = end + 1;
    else hi = Math.min(at, mid);
  }
  return false;
}

/** A word split in two has at least MIN_SPLIT_WORD letters, each part MIN_SPLIT_PART (shorter splits are mostly chance: "cannon" is not "can non"). */
const MIN_SPLIT_WORD = 7;
const MIN_SPLIT_PART = 3;

/** The query's word lists to try: as typed, adjacent words joined or one split, and aliases expanded. */
function variants(index: SearchIndex, ws: string[], qw: QueryWords): Array<{ words: string[]; weight: number }> {
  const out = [{ words: ws, weight: 1 }];
  const known = (w: string) => inVocabulary(index, w);
  for (let i = 0; i + 1 < ws.length; i++) {
    const joined = stem(ws[i]! + ws[i + 1]!);
    if (known(joined)) out.push({ words: [...ws.slice(0, i), joined, ...ws.slice(i + 2)], weight: 1 });
  }
  // And the other way: a word that matches nothing, not even as a typo, split into two known
  // words ("gravedigger" -> grave digger); not a word of the other index's titles (queryWords).
  ws.forEach((w, i) => {
    if (w.length < MIN_SPLIT_WORD || qw.candidates(w).size > 0 || inVocabulary(qw.lexicon, w)) return;
    for (let at = MIN_SPLIT_PART; at + MIN_SPLIT_PART <= w.length; at++) {
      const [a, b] = [w.slice(0, at), w.slice(at)];
      if (known(a) && known(b)) out.push({ words: [...ws.slice(0, i), a, b, ...ws.slice(i + 1)], weight: 0.95 });
    }
  });
  ws.forEach((w, i) => {
    for (const alias of ALIASES.get(w) ?? []) out.push({ words: [...ws.slice(0, i), ...words(alias), ...ws.slice(i + 1)], weight: 0.97 });
    if (i + 1 < ws.length) for (const alias of ALIASES.get(`${w} ${ws[i + 1]}`) ?? []) out.push({ words: [...ws.slice(0, i), ...words(alias), ...ws.slice(i + 2)], weight: 0.97 });
  });
  return out.slice(0, 8);
}

/**
 * An official title counts as at least half covered by a query word it holds: it often names
 * several related jobs ("Tree Trimmers and Pruners", "Subway and Streetcar Operators"), and by
 * coverage alone a two-word alternate title of a far larger occupation ("Tree Mover" among the
 * laborers') outranked it for the word it is named by. For the same reason "manager" gave
 * Financial Managers before General and Operations Managers (3.5 million, the catch-all); now
 * both count as half covered and employment decides.
 */
const OWN_TITLE_MIN_COVERAGE = 0.5;

/** Best name score per occupation for one word list; every word must match within one name. */
function scoreVariant(index: SearchIndex, ws: string[], weight: number, best: Map<number, { score: number; hits: number }>, qw: QueryWords): void {
  const n = occupationCount(index);
  const perWord: Names[] = [];
  // A word with no names ends it; but while parts of the index are missing (an answer that will be
  // asked again), the other words are read too, so that one pass notes every bucket the query needs
  // (a cold partial match took a round of loads per word, each pass redoing the ones before).
  for (const w of new Set(ws)) {
    const byName = qw.names(w);
    if (byName.ids.length === 0 && !partsMissing(index)) return;
    perWord.push(byName);
  }
  if (perWord.some((p) => p.ids.length === 0)) return;
  perWord.sort((a, b) => a.ids.length - b.ids.length);
  let hits = hitsScratch.get(index);
  if (!hits) hitsScratch.set(index, (hits = new Int32Array(n)));
  const seen: number[] = [];
  // Each list ascending: where the last id was found in each, so the next is sought from there.
  const at = new Array<number>(perWord.length).fill(0);
  const first = perWord[0]!;
  const { ids: firstIds, q: firstQ, uniform } = first;
  // The ids ascend, so their owners do: ownerOf as a walk along the alternates' ends (as
  // occupationsHolding), and the names' lengths read from their table, no call per name.
  const { ends, lengths } = nameTables(index);
  let owner = 0;
  for (let i = 0; i < firstIds.length; i++) {
    const id = firstIds[i]!;
    let sum = firstQ ? firstQ[i]! : uniform;
    let ok = true;
    for (let k = 1; k < perWord.length && ok; k++) {
      const list = perWord[k]!;
      const j = (at[k] = seek(list.ids, id, at[k]!));
      if (list.ids[j] !== id) ok = false;
      else sum += qualityAt(list, j);
    }
    if (!ok) continue;
    let occ = id;
    if (id >= n) {
      while (owner < n && ends[owner]! <= id - n) owner++;
      occ = owner;
    }
    const len = lengths[id]!;
    if (len === 0) nameLength(index, id); // throws: a name scored before its postings were read
    const coverage = Math.max(id < n ? OWN_TITLE_MIN_COVERAGE : 0, Math.min(1, perWord.length / len));
    const score = weight * (sum / perWord.length) * (0.6 + 0.4 * coverage) * (id < n ? 1 : 0.92);
    if (hits[occ]!++ === 0) seen.push(occ);
    const cur = best.get(occ);
    if (!cur) best.set(occ, { score, hits: 0 });
    else if (score > cur.score) cur.score = score;
  }
  for (const occ of seen) {
    const cur = best.get(occ)!;
    if (hits[occ]! > cur.hits) cur.hits = hits[occ]!;
    hits[occ] = 0;
  }
}

/** Positions (into the full list) of the matching occupations, best first. */
export function searchOccupations(index: SearchIndex, query: string): number[] {
  return rank(index, query, true);
}

/**
 * `dropUnmatched`: when nothing matches, search again without the words that match nothing.
 * `lexicon`: whose words are not typos here (queryWords; undefined: the unscored occupations').
 */
function rank(index: SearchIndex, query: string, dropUnmatched: boolean, lexicon?: Lexicon): number[] {
  const ws = words(query);
  if (ws.length === 0) return [];
  const best = new Map<number, { score: number; hits: number }>();
  const qw = queryWords(index, lexicon);
  for (const v of variants(index, ws, qw)) scoreVariant(index, v.words, v.weight, best, qw);
  // A word that matches nothing at all, not even with a typo ("xyzzy plumbing"), would empty the
  // result: the rest of the query is searched instead, ranked lower than a full match would be;
  // unless the whole query names an unscored occupation ("artillery officer" is not a police officer).
  // Not while parts of either index are missing (buckets, ids by length, their index or its
  // buckets): the caller loads them and asks again (a cold search must not load their index
  // because its first, incomplete pass found nothing, nor match partially in a pass it throws away).
  if (dropUnmatched && best.size === 0 && ws.length > 1 && !partsMissing(index) && namesNoUnscored(index, query)) {
    const known = ws.filter((w) => qw.candidates(w).size > 0);
    if (known.length > 0 && known.length < ws.length) for (const v of variants(index, known, qw)) scoreVariant(index, v.words, 0.8 * v.weight, best, qw);
    if (best.size === 0 && known.length > 1) partialMatches(index, known, best, qw);
  }
  const ranked = [...best].map(([i, b]) => ({ i, score: b.score + 0.3 * index.prior[i]! + 0.05 * Math.min(1, Math.log2(1 + b.hits) / 5) + 0.05 * Math.min(1, b.hits / namesOfOccupation(index, i)) }));
  ranked.sort((x, y) => y.score - x.score || x.i - y.i);
  return ranked.map((r) => r.i);
}

/**
 * Whether the query names no unscored occupation, known only with their index and the buckets it
 * needs (false until then, which are noted as wanted: unscoredOf, postingsOf).
 */
function namesNoUnscored(index: SearchIndex, query: string): boolean {
  if (index.unscored_words === undefined) return true;
  const unscored = unscoredOf(index);
  return unscored !== undefined && searchUnscored(index, query, 1).length === 0 && !partsMissing(unscored.index);
}

/**
 * Words of rank rather than of trade. In a partial match they count a quarter of their
 * information: rare in titles, they would otherwise decide ("junior mechanic" gave the "Junior
 * High" teachers, "mechanic apprentice" the electricians' apprentices, not the mechanics).
 */
const RANK_WORDS = new Set(['junior', 'jr', 'senior', 'sr', 'apprentice', 'trainee', 'intern', 'entry', 'level']); // as words() gives them (each its own stem)
const RANK_WORD_INFO = 0.25;

/**
 * How sure it is that a query word means the title words it matches: 1 for a word found as typed,
 * less for one found only as the start of longer words or as a typo (its best match's quality,
 * from 0.5, the farthest typo, to 1). A rare word matched only that way is weak evidence: "excel
 * analyst" matched "excel" to "Excelsior" (two machine operators' titles) and, being the rarer
 * word, it decided over "analyst".
 */
const MIN_CERTAINTY = 0.1; // never none: the shares below divide by the sum
function certainty(qw: QueryWords, w: string): number {
  let q = 0;
  for (const v of qw.candidates(w).values()) if (v > q) q = v;
  return Math.max(MIN_CERTAINTY, (q - 0.5) / 0.5);
}

/** Words of a query tried in partial matches at most (their subsets number 2^n). */
const MAX_PARTIAL_WORDS = 6;

/**
 * When every word matches some name but no name holds them all ("postal worker": the postal
 * occupations' names hold "postal", thousands of others "worker"): the names that hold the most
 * of the words, all subsets of that size together, each weighted by the share of the query's
 * information it keeps. A word held by few occupations says more (inverse document frequency,
 * log(1 + occupations / occupations holding it)), so the rare word decides: Postal Service Clerks,
 * not the largest occupation with "Workers" in its name. Ranked below what a full match would be.
 */
function partialMatches(index: SearchIndex, ws: string[], best: Map<number, { score: number; hits: number }>, qw: QueryWords): void {
  const uniq = [...new Set(ws)].slice(0, MAX_PARTIAL_WORDS);
  const info = uniq.map((w) => {
    return Math.log(1 + occupationCount(index) / occupationsHolding(index, qw.names(w).ids)) * (RANK_WORDS.has(w) ? RANK_WORD_INFO : 1) * certainty(qw, w);
  });
  const total = info.reduce((a, b) => a + b, 0);
  for (let size = uniq.length - 1; size >= 1 && best.size === 0; size--) {
    for (let mask = 1; mask < 1 << uniq.length; mask++) {
      const kept = uniq.flatMap((_, i) => (mask & (1 << i) ? [i] : []));
      if (kept.length !== size) continue;
      const share = kept.reduce((s, i) => s + info[i]!, 0) / total;
      for (const v of variants(index, kept.map((i) => uniq[i]!), qw)) scoreVariant(index, v.words, 0.8 * share * v.weight, best, qw);
    }
  }
}

/** A word as typed or as the prefix of a title word; a typo's match quality is below it. */
const NO_TYPO = 0.7;

/**
 * Whether some occupation's own (official) title holds every word of the query, as typed or as the
 * prefix of a title word (not as a typo: "preacher" is a reported title of Clergy, and "teacher"
 * is a typo away); alternate and reported titles do not count.
 */
export function ownTitleHolds(index: SearchIndex, query: string): boolean {
  const ws = [...new Set(words(query))];
  if (ws.length === 0) return false;
  const qw = queryWords(index, undefined, false);
  const n = occupationCount(index);
  let held: Set<number> | null = null;
  let none = false;
  for (const w of ws) {
    // As in scoreVariant: while parts are missing, every word is read (its buckets noted), then no.
    if (none) {
      qw.names(w);
      continue;
    }
    const own = new Set<number>();
    const names = qw.names(w);
    for (let i = 0; i < names.ids.length; i++) {
      const id = names.ids[i]!;
      if (qualityAt(names, i) >= NO_TYPO && id < n && (!held || held.has(id))) own.add(id);
    }
    if (own.size === 0) {
      if (!partsMissing(index)) return false;
      none = true;
    }
    held = own;
  }
  return !none;
}

/**
 * The unscored occupations a query names, every word of it (positions into
 * `index.unscored.occupations`), best first, at most `n`.
 */
export function searchUnscored(index: SearchIndex, query: string, n = 5): number[] {
  const unscored = unscoredOf(index);
  return unscored ? rank(unscored.index, query, false, index).slice(0, n) : [];
}

/** unscored_titles joined by newlines, per index (joined once). */
const titlesText = new WeakMap<SearchIndex, string>();

/**
 * Whether `text` (words joined by single spaces, titles by newlines) holds w as a word or, when w
 * has 3 letters or more, as a word's start. By indexOf over the text as it is: splitting each
 * title into words (a runtime call per title, slow its first times) was most of a cold search's
 * look at these titles.
 */
function holdsWord(text: string, w: string): boolean {
  for (let p = text.indexOf(w); p >= 0; p = text.indexOf(w, p + 1)) {
    const before = p === 0 ? 32 : text.charCodeAt(p - 1);
    if (before !== 32 && before !== 10) continue;
    const end = p + w.length;
    const after = end === text.length ? 32 : text.charCodeAt(end);
    if (w.length >= 3 || after === 32 || after === 10) return true;
  }
  return false;
}

/**
 * Whether some unscored occupation's own title may hold every word of the query, from their titles
 * alone (unscored_titles, no index loaded): false means unscoredTitleHolds is false. One title
 * must hold every word as typed or as a word's start, which ownTitleHolds asks too.
 */
export function unscoredTitlesMayHold(index: SearchIndex, query: string): boolean {
  const ws = [...new Set(words(query))];
  if (ws.length === 0) return false;
  const titles = index.unscored_titles ?? [];
  let text = titlesText.get(index);
  if (text === undefined) titlesText.set(index, (text = titles.join('\n')));
  // Most queries hold a word no title does: answered by the whole text, not title by title.
  for (let i = 0; i < ws.length; i++) if (!holdsWord(text, ws[i]!)) return false;
  // Loops, not some/every: closures made per title were most of this once.
  for (let t = 0; t < titles.length; t++) {
    let all = true;
    for (let i = 0; i < ws.length && all; i++) all = holdsWord(titles[t]!, ws[i]!);
    if (all) return true;
  }
  return false;
}

/**
 * Whether some unscored occupation's own title holds every word of the query (ownTitleHolds on
 * their index). Their titles are read first (unscoredTitlesMayHold): most queries are answered
 * no without their index, which a query that gets past them needs (unscoredOf).
 */
export function unscoredTitleHolds(index: SearchIndex, query: string): boolean {
  if (!unscoredTitlesMayHold(index, query)) return false;
  const unscored = unscoredOf(index);
  return unscored !== undefined && ownTitleHolds(unscored.index, query);
}

/** Distinct trigrams per own title (0: not counted yet), per index. */
const trigramCounts = new WeakMap<SearchIndex, Int32Array>();

const trigrams = (s: string): Set<string> => {
  const p = `  ${s} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= p.length; i++) out.add(p.slice(i, i + 3));
  return out;
};

/**
 * Every own title padded as trigrams() pads it ("  title "), joined by newlines (no trigram holds
 * one, so none spans two titles), and where each begins: a query's trigram is looked for in the
 * one text by indexOf, not in each title, which a cold instance ran uncompiled title by title.
 */
interface TitleText {
  text: string;
  starts: Int32Array;
}
const titleTexts = new WeakMap<string[], TitleText>();
function titleText(titles: string[]): TitleText {
  let t = titleTexts.get(titles);
  if (!t) {
    const starts = new Int32Array(titles.length);
    for (let i = 1; i < titles.length; i++) starts[i] = starts[i - 1]! + titles[i - 1]!.length + 4;
    titleTexts.set(titles, (t = { text: `  ${titles.join(' \n  ')} `, starts }));
  }
  return t;
}

/**
 * When nothing matches: the occupations whose own titles look most like the query (trigram
 * overlap, Dice coefficient), best first, at most `n`, only those sharing something with it.
 */
export function suggestOccupations(index: SearchIndex, query: string, n = 5): number[] {
  const q = trigrams(normalize(query));
  if (q.size === 0) return [];
  // A shard of their own: not loaded, none now (noted; asked again).
  const titles = titlesOf(index);
  if (titles === undefined) return [];
  const { text, starts } = titleText(titles);
  // Per title, how many of the query's trigrams it holds, each counted once (the last one counted,
  // by its number from 1); and the titles that hold any, as first met.
  const common = new Int32Array(titles.length);
  const counted = new Int32Array(titles.length);
  const held: number[] = [];
  let g = 0;
  for (const gram of q) {
    g++;
    // The hits come in text order, so their titles ascend: each hit's is sought from the last
    // one's on, by halves (a walk along the starts took a step per title passed, for every trigram).
    for (let at = text.indexOf(gram), i = 0; at >= 0; at = text.indexOf(gram, at + 1)) {
      for (let hi = starts.length; i + 1 < hi; ) {
        const mid = (i + hi) >> 1;
        if (starts[mid]! <= at) i = mid;
        else hi = mid;
      }
      if (counted[i] !== g) {
        counted[i] = g;
        if (common[i]!++ === 0) held.push(i);
      }
    }
  }
  // A title's own set is made only for a title that shares a trigram, once (for its size).
  let counts = trigramCounts.get(index);
  if (!counts) trigramCounts.set(index, (counts = new Int32Array(titles.length)));
  const scored: Array<{ i: number; s: number }> = [];
  for (const i of held) scored.push({ i, s: (2 * common[i]!) / (q.size + (counts[i] ||= trigrams(titles[i]!).size)) });
  // Best first, then by position: the order they were met in does not matter.
  scored.sort((a, b) => b.s - a.s || a.i - b.i);
  return scored.slice(0, n).map((x) => x.i);
}
