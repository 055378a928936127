// The typo index (search-typos.ts): a misspelling found by lookups of its deletions answers as the
// scan of the vocabulary did, and a query word reads only the few shards its deletions name.
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, buildTypoIndex, type TypoIndex } from '../../../build/search-index.ts';
import { searchOccupations, searchWork } from '../../../functions/search-query.ts';
import { DELETION_PREFIX, deletionKeys, typoEdits, typoShardOf } from '../../../build/contract/search-typos.ts';
import { addTypoShard, takeMissing, vocabulary, type SearchIndex, type WholeSearchIndex } from '../../../build/contract/search-words.ts';
import { prng } from '../../../build/model/num.ts';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One edit at a random place: a letter dropped, inserted, replaced, or swapped with the next. */
function edit(w: string, rnd: () => number): string {
  const i = Math.floor(rnd() * w.length);
  const c = LETTERS[Math.floor(rnd() * LETTERS.length)]!;
  switch (Math.floor(rnd() * 4)) {
    case 0: return w.slice(0, i) + w.slice(i + 1);
    case 1: return w.slice(0, i) + c + w.slice(i);
    case 2: return i + 1 < w.length ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : w;
    default: return w.slice(0, i) + c + w.slice(i + 1);
  }
}

/**
 * Titles of random words of 3-13 letters from a few letters (so that many are a typo or two apart),
 * with near copies of some: an index whose words crowd each other, as the real one's do.
 */
function crowdedTitles(n: number) {
  const rnd = prng(7);
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    const base = i > 0 && rnd() < 0.4 ? words[Math.floor(rnd() * words.length)]! : Array.from({ length: 3 + Math.floor(rnd() * 11) }, () => 'aeinorst'[Math.floor(rnd() * 8)]).join('');
    words.push(rnd() < 0.5 ? edit(base, rnd) : base);
  }
  return words.map((w, i) => ({ soc_code: `11-${String(1000 + i).padStart(4, '0')}.00`, title: `${w} Worker`, labor_data: { employment: 1000 + i, oews_code: `11-${String(1000 + i).padStart(4, '0')}` } }));
}

/** The index as the function holds the served one: its typo index named, every shard of it loaded. */
function withTypos(whole: WholeSearchIndex): { index: SearchIndex; typos: TypoIndex } {
  const { by_length: _, ...rest } = whole;
  const typos = buildTypoIndex(vocabulary(whole), whole.width);
  const index: SearchIndex = { ...rest, typo_shards: typos.parts };
  for (const [part, keys] of typos.shards) addTypoShard(index, part, keys);
  return { index, typos };
}

describe('typo index', () => {
  it('keys a word by the deletions of its start, each once', () => {
    expect(deletionKeys('nurse', 1)).toEqual(['nurse', 'urse', 'nrse', 'nuse', 'nure', 'nurs']);
    expect(deletionKeys('programmer', 0)).toEqual(['progra']);
    // Either "m" of "commit" dropped is one key.
    expect(deletionKeys('committee', 1)).toEqual(['commit', 'ommit', 'cmmit', 'comit', 'commt', 'commi']);
    expect(deletionKeys('programmer', 2)).toHaveLength(1 + DELETION_PREFIX + 15);
    // Every key's shard is two of the word's first characters: 3 with one edit, 6 with two.
    expect(new Set(deletionKeys('nurse', 1).map(typoShardOf)).size).toBeLessThanOrEqual(3);
    expect(new Set(deletionKeys('practitioner', 2).map(typoShardOf)).size).toBeLessThanOrEqual(6);
  });

  it('finds every typo the scan of the vocabulary finds, in the same order, over a crowded vocabulary', () => {
    const whole = buildSearchIndex(crowdedTitles(1500), []);
    const { index } = withTypos(whole);
    const rnd = prng(11);
    const vocab = vocabulary(whole).filter((w) => w.length >= 3);
    let typoAnswers = 0;
    for (let i = 0; i < 1500; i++) {
      const w = vocab[Math.floor(rnd() * vocab.length)]!;
      const q = rnd() < 0.5 ? edit(edit(w, rnd), rnd) : edit(w, rnd);
      const scanned = searchOccupations(whole, q);
      expect(searchOccupations(index, q), q).toEqual(scanned);
      if (scanned.length > 0 && !vocab.some((v) => v.startsWith(q))) typoAnswers++;
    }
    expect(takeMissing(index)).toBeNull();
    // Most of them were found as typos only (the comparison is not of empty answers).
    expect(typoAnswers).toBeGreaterThan(600);
  });

  it('computes edit distances only for the words its lookups list, far fewer than the scan', () => {
    const whole = buildSearchIndex(crowdedTitles(1500), []);
    const { index } = withTypos(whole);
    const count = (ix: SearchIndex, q: string) => {
      const before = searchWork.distances;
      searchOccupations(ix, q);
      return searchWork.distances - before;
    };
    const q = 'sotrenitao';
    expect(count(index, q)).toBeLessThan(count(whole, q) / 3);
  });

  it('reads only the shards a query word\'s deletions name: at most 3 for one edit, 6 for two', () => {
    const whole = buildSearchIndex(crowdedTitles(1500), []);
    const { typos } = withTypos(whole);
    for (const q of ['sotrenitao', 'rnoa', 'aeiosrnt', 'tsetse']) {
      const { by_length: _, ...rest } = whole;
      const cold: SearchIndex = { ...rest, typo_shards: typos.parts };
      searchOccupations(cold, q);
      const wanted = takeMissing(cold)!.typos;
      expect(wanted.length, q).toBeGreaterThan(0);
      expect(wanted.length, q).toBeLessThanOrEqual(typoEdits(q.length) === 1 ? 3 : 6);
      for (const part of wanted) addTypoShard(cold, part, typos.shards.get(part)!);
      expect(searchOccupations(cold, q), q).toEqual(searchOccupations(whole, q));
      expect(takeMissing(cold), q).toBeNull();
    }
  });
});
