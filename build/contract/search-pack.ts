// The search index's numbers packed into strings (search-words.ts says why): fixed-width base-64
// digits that JSON writes unescaped and that a query reads in place with charCodeAt. Pure.

/**
 * The packed fields of a search index and what their lengths are checked against. `titles` and
 * `by_length` are absent from the function's shard of the served index (shards of their own, each
 * checked with the whole index before it was split): each is checked when present.
 */
export interface PackedIndex {
  titles?: readonly string[];
  /** One per occupation: the occupation count. */
  prior: readonly number[];
  /** The sorted words joined by single spaces. */
  vocab: string;
  /** Each word's length, a digit each; where every WORD_AT_STEP-th word begins (search-words.ts). */
  word_len: string;
  word_at: string;
  width: number;
  /** Where each occupation's alternate names end (plain numbers, not packed: search-words.ts). */
  alt_end: readonly number[];
  by_length?: string;
  /** Buckets of POSTING_BUCKET_WORDS words: their lists' bucket-local ends, then the lists, then each listed name's length. */
  postings: ReadonlyArray<string | undefined>;
}

/** Words per posting bucket: about 6 kB of the real index each, 72 buckets. */
export const POSTING_BUCKET_WORDS = 128;
/** Words apart of the starts an index lists (word_at; search-words.ts). */
export const WORD_AT_STEP = 8;

/**
 * Each bucket of POSTING_BUCKET_WORDS lists packed: the lists' ends (bucket-local), then the
 * lists, then the length of each name listed (nameLen[id], a digit each, in the lists' order).
 */
export function packPostings(lists: readonly number[][], width: number, nameLen: readonly number[]): string[] {
  const out: string[] = [];
  for (let at = 0; at < lists.length; at += POSTING_BUCKET_WORDS) {
    const bucket = lists.slice(at, at + POSTING_BUCKET_WORDS);
    const ends: number[] = [];
    bucket.reduce((end, list) => (ends.push(end + list.length), end + list.length), 0);
    const ids = bucket.flat();
    out.push(pack(ends, width) + pack(ids, width) + pack(ids.map((id) => nameLen[id]!), 1));
  }
  return out;
}

/** 64 digits that JSON writes as they are (no escapes), in ascending code order. */
const DIGITS = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i++) VALUE[DIGITS.charCodeAt(i)] = i;
/** Each character code's digit value (-1: not a digit pack() writes), for loops that read one-digit numbers in place without a call each. */
export const DIGIT_VALUE: Readonly<Int8Array> = VALUE;

/** Digits needed to write every number up to `max`. */
export function packWidth(max: number): number {
  let width = 1;
  while (64 ** width <= max) width++;
  return width;
}

/** Non-negative integers as fixed-width base-64 digits, one after another. */
export function pack(numbers: readonly number[], width: number): string {
  let out = '';
  for (const n of numbers) {
    if (!Number.isInteger(n) || n < 0 || n >= 64 ** width) throw new Error(`cannot pack ${n} in ${width} digits`);
    for (let d = width - 1; d >= 0; d--) out += DIGITS[Math.floor(n / 64 ** d) % 64];
  }
  return out;
}

/** The i-th number of a packed string (-1 past its end or on a character pack() never writes). */
export function unpackAt(packed: string, width: number, i: number): number {
  let n = 0;
  for (let at = i * width, end = at + width; at < end; at++) {
    const v = VALUE[packed.charCodeAt(at)] ?? -1;
    if (v < 0) return -1;
    n = n * 64 + v;
  }
  return n;
}

/**
 * `count` numbers of a packed string from its `from`-th (by default its first), in one loop over its characters (no call per
 * number: a cold instance runs this uncompiled); -1 for a number with a character pack() never writes.
 */
export function unpackAll(packed: string, width: number, count: number, from = 0): Int32Array {
  const out = new Int32Array(count);
  for (let i = 0, at = from * width; i < count; i++) {
    let n = 0;
    for (const end = at + width; at < end; at++) {
      const v = VALUE[packed.charCodeAt(at)] ?? -1;
      n = v < 0 || n < 0 ? -1 : n * 64 + v;
    }
    out[i] = n;
  }
  return out;
}

/**
 * `count` one-digit numbers of a packed string from its `from`-th, each written at its key's
 * place: into[keys[i]] = digit from + i (-1 for a character pack() never writes). One loop, no call
 * per number (as unpackAll).
 */
export function unpackDigitsInto(packed: string, from: number, keys: Int32Array, into: Uint8Array | Int32Array): void {
  for (let i = 0; i < keys.length; i++) into[keys[i]!] = VALUE[packed.charCodeAt(from + i)] ?? -1;
}

/** How many numbers a packed string holds. */
export const packedLength = (packed: string, width: number): number => packed.length / width;

/**
 * What is wrong with an index's packed numbers, or null: the lengths agree with the titles and the
 * vocabulary, every digit is one pack() writes, each word's names are ascending, non-empty, real.
 * `postingsElsewhere`: the postings were split off into shards of their own (checked before).
 * The build checks every shard with it (response-schemas.ts); the function trusts the shard.
 */
export function packedProblem(index: PackedIndex, postingsElsewhere = false): string | null {
  const { width } = index;
  const vocab = index.vocab === '' ? [] : index.vocab.split(' ');
  for (let k = 1; k < vocab.length; k++) if (!(vocab[k - 1]! < vocab[k]!)) return `vocab ${k} is empty or not after the word before it`;
  if (vocab[0] === '') return 'vocab 0 is empty';
  const count = (p: string) => (p.length % width === 0 ? p.length / width : NaN);
  if (index.word_len.length !== vocab.length) return 'word_len and vocab disagree in length';
  for (let k = 0; k < vocab.length; k++) if (unpackAt(index.word_len, 1, k) !== vocab[k]!.length) return `word_len ${k} is not word ${k}'s length`;
  if (count(index.word_at) !== Math.floor(vocab.length / WORD_AT_STEP) + 1) return 'word_at and vocab disagree in length';
  for (let k = 0, at = 0; k <= vocab.length; at += (vocab[k]?.length ?? 0) + 1, k++) if (k % WORD_AT_STEP === 0 && unpackAt(index.word_at, width, k / WORD_AT_STEP) !== at) return `word_at ${k / WORD_AT_STEP} is not where word ${k} begins`;
  const occupations = index.prior.length;
  if (index.alt_end.length !== occupations) return 'alt_end and prior disagree in length';
  const alternates = occupations === 0 ? 0 : index.alt_end[occupations - 1]!;
  const names = occupations + alternates;
  if (index.titles !== undefined && index.titles.length !== occupations) return 'prior and titles disagree in length';
  if (postingsElsewhere ? index.postings.length !== 0 : index.postings.length !== Math.ceil(vocab.length / POSTING_BUCKET_WORDS)) return 'postings and vocab disagree in length';
  for (let o = 0, prev = 0; o < occupations; prev = index.alt_end[o]!, o++) if (!(Number.isInteger(index.alt_end[o]) && index.alt_end[o]! >= prev)) return `alt_end ${o} is not a whole number or not ascending`;
  const byLength = index.by_length;
  if (byLength !== undefined && count(byLength) !== vocab.length) return 'by_length and vocab disagree in length';
  const seen = new Uint8Array(vocab.length);
  /** Each name's length as the buckets give it: the same in every bucket that lists it. */
  const lengths = new Uint8Array(names);
  for (let j = 0, prev = -1, prevLen = 0; byLength !== undefined && j < vocab.length; j++) {
    const k = unpackAt(byLength, width, j);
    if (!(k >= 0 && k < vocab.length) || seen[k]) return `by_length ${j} is no vocabulary id or a repeated one`;
    seen[k] = 1;
    const len = vocab[k]!.length;
    if (len < prevLen || (len === prevLen && k < prev)) return `by_length ${j} is out of order (length, then id)`;
    [prev, prevLen] = [k, len];
  }
  for (let b = 0; b < index.postings.length; b++) {
    const bucket = index.postings[b];
    if (bucket === undefined) return `postings bucket ${b} missing`;
    const words = Math.min(POSTING_BUCKET_WORDS, vocab.length - b * POSTING_BUCKET_WORDS);
    let start = 0;
    for (let j = 0; j < words; j++) {
      const k = b * POSTING_BUCKET_WORDS + j;
      const end = unpackAt(bucket, width, j);
      if (!(end > start)) return `word ${k} has no names`;
      for (let i = start, prev = -1; i < end; prev = unpackAt(bucket, width, words + i), i++) {
        const id = unpackAt(bucket, width, words + i);
        if (!(id > prev && id < names)) return `word ${k}: name ids not ascending or out of range`;
      }
      start = end;
    }
    if (bucket.length !== (words + start) * width + start) return `postings bucket ${b} disagrees with its ends in length`;
    for (let i = 0, at = (words + start) * width; i < start; i++) {
      const id = unpackAt(bucket, width, words + i);
      const len = unpackAt(bucket, 1, at + i);
      if (!(len >= 1) || (lengths[id] !== 0 && lengths[id] !== len)) return `postings bucket ${b}: name ${id}'s length is not a positive count or not the same in every bucket`;
      lengths[id] = len;
    }
  }
  return null;
}
