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
// This file: the index's shape and the word rules that the build (search-index.ts) and the
// function (search-query.ts) share, so a title and a query are cut into words alike.
import type { NotScoredItem } from './response-schemas.ts';
import { foldWords } from '../model/text.ts';

export interface SearchIndex {
  /** Normalized own title of each occupation, by list position (GET /occupations order). */
  titles: string[];
  /** Names are the titles (ids 0..n-1), then alternate/reported titles: owner of name n+k. */
  alt_occ: number[];
  /** Number of (stemmed, distinct) words of every name, by name id. */
  name_len: number[];
  /** Popularity prior per occupation, 0..1: log employment, a shared OEWS code split among its O*NET children. */
  prior: number[];
  /** Sorted stemmed words, and parallel to them the ascending ids of the names that hold each. */
  vocab: string[];
  postings: number[][];
  /**
   * The occupations the model does not score (no O*NET task statements: the military, the "All
   * Other" groups), indexed alike: the list leaves them out, but a query that names one is told
   * so instead of being matched, through a typo, to a word it does not mean ("infantry" is not
   * "infant"). Absent from an index built without them.
   */
  unscored?: { occupations: NotScoredItem[]; index: SearchIndex };
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
