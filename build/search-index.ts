// The occupation search's index, made by the build from every occupation's own, alternate and
// reported titles (search-words.ts says how a search works). Pure.
import type { OccupationTitle } from './model/inputs.ts';
import type { IscoRecord, OccupationRecord } from './model/record-schemas.ts';
import type { NotScoredItem } from './contract/response-schemas.ts';
import { compareText } from './model/text.ts';
import { normalize, vocabulary, wordPositions, words, type WholeSearchIndex } from './contract/search-words.ts';
import { pack, packPostings, packWidth, POSTING_BUCKET_WORDS } from './contract/search-pack.ts';
import { deletionKeys, listedEdits, packTypoShard, typoShardOf } from './contract/search-typos.ts';

/** Words that do not make a name more specific ("Managers, Except ..."): not counted in its length. */
const FILLER = new Set(['and', 'or', 'of', 'the', 'a', 'an', 'in', 'for', 'to', 'except', 'other', 'all', 's']);

export function buildSearchIndex(
  records: Array<Pick<OccupationRecord, 'soc_code' | 'title'> & { labor_data?: { employment: number | null; oews_code: string | null } }>,
  titles: Array<Pick<OccupationTitle, 'soc_code' | 'title' | 'short_title'>>,
  unscored?: readonly NotScoredItem[],
): WholeSearchIndex {
  const position = new Map(records.map((r, i) => [r.soc_code, i]));
  const alts = new Map<number, Set<string>>();
  for (const t of titles) {
    const i = position.get(t.soc_code);
    if (i === undefined) continue;
    const set = alts.get(i) ?? new Set<string>();
    for (const s of [t.title, t.short_title]) {
      const n = s ? normalize(s) : '';
      if (n) set.add(n);
    }
    alts.set(i, set);
  }
  const own = records.map((r) => normalize(r.title));
  const names: string[] = [...own];
  const altOcc: number[] = [];
  records.forEach((_, i) => {
    for (const a of [...(alts.get(i) ?? [])].filter((x) => x !== own[i]).sort(compareText)) {
      names.push(a);
      altOcc.push(i);
    }
  });
  const nameLen: number[] = [];
  const posting = new Map<string, number[]>();
  names.forEach((name, id) => {
    const ws = [...new Set(words(name))];
    nameLen.push(Math.max(1, ws.filter((w) => !FILLER.has(w)).length));
    for (const w of ws) {
      const list = posting.get(w);
      if (list) list.push(id);
      else posting.set(w, [id]);
    }
  });
  const vocab = [...posting.keys()].sort(compareText);
  const lists = vocab.map((w) => posting.get(w)!);
  // Every packed number: name ids and lengths, vocabulary ids, where words begin (to one past the
  // text's end), and each bucket's ends (at most its ids' count).
  let largest = Math.max(names.length, vocab.length, vocab.reduce((n, w) => n + w.length + 1, 0));
  for (let at = 0; at < lists.length; at += POSTING_BUCKET_WORDS) largest = Math.max(largest, lists.slice(at, at + POSTING_BUCKET_WORDS).reduce((n, l) => n + l.length, 0));
  const width = packWidth(largest);
  const index: WholeSearchIndex = {
    titles: own,
    prior: priors(records),
    vocab: vocab.join(' '),
    ...wordPositions(vocab, width),
    width,
    alt_end: altEnds(altOcc, records.length),
    by_length: pack(vocab.map((_, k) => k).sort((a, b) => vocab[a]!.length - vocab[b]!.length || a - b), width),
    postings: packPostings(lists, width, nameLen),
  };
  if (unscored) {
    const occupations = unscored.map(({ soc_code, title, reason }) => ({ soc_code, title, reason }));
    const own = buildSearchIndex(occupations, titles);
    index.unscored = { occupations, index: own };
    // What a search reads of them before it needs their index (search-words.ts).
    const served = new Set(vocab);
    index.unscored_words = vocabulary(own).filter((w) => !served.has(w)).join(' ');
    index.unscored_titles = own.titles.map((t) => words(t).join(' '));
  }
  return index;
}

/** Where each occupation's alternate names end (alt_end): owners ascending, as the names were numbered. */
function altEnds(owners: number[], occupations: number): number[] {
  const ends = new Array<number>(occupations).fill(0);
  for (const o of owners) ends[o]!++;
  for (let o = 1; o < occupations; o++) ends[o]! += ends[o - 1]!;
  return ends;
}

/**
 * The ISCO-08 search: each unit group's own title, and as alternate names the titles of the U.S.
 * occupations it links to ("registered nurse" finds 2221 Nursing professionals) and the seed's
 * common non-U.S. titles ("solicitor" finds 2611 Lawyers). A shard of its own, far smaller than
 * the occupations' index, so an ISCO search costs little on a cold instance.
 * No popularity prior: there is no employment by ISCO-08 unit group.
 */
export function buildIscoSearchIndex(
  units: ReadonlyArray<Pick<IscoRecord, 'isco_code' | 'title' | 'us_occupations'>>,
  alternates: ReadonlyArray<{ isco_code: string; title: string }>,
): WholeSearchIndex {
  return buildSearchIndex(
    units.map((u) => ({ soc_code: u.isco_code, title: u.title })),
    [
      ...units.flatMap((u) => u.us_occupations.map((o) => ({ soc_code: u.isco_code, title: o.title, short_title: null }))),
      ...alternates.map((a) => ({ soc_code: a.isco_code, title: a.title, short_title: null })),
    ],
  );
}

/**
 * log10(employment) scaled so ~4 million (the largest occupations) is 1. O*NET children share
 * their parent's OEWS employment; it is split among them, the .00 occupation keeping the most,
 * so the parent ranks first. No employment figure: 0 (unknown is not popular).
 */
function priors(records: Array<{ soc_code: string; labor_data?: { employment: number | null; oews_code: string | null } }>): number[] {
  const sharing = new Map<string, number>();
  for (const r of records) {
    const code = r.labor_data?.oews_code;
    if (code) sharing.set(code, (sharing.get(code) ?? 0) + 1);
  }
  return records.map((r) => {
    const emp = r.labor_data?.employment;
    const code = r.labor_data?.oews_code;
    if (!emp || !code) return 0;
    const n = sharing.get(code)!;
    const share = n > 1 && !r.soc_code.endsWith('.00') ? emp / (2 * n) : emp;
    return Math.round(Math.min(1, Math.log10(1 + share) / 6.6) * 1e4) / 1e4;
  });
}

/** The typo index of one search index, as the function reads it (search-typos.ts): its shards, each deletion key's vocabulary ids. */
export interface TypoIndex {
  /** The shards' names (two characters each), sorted, joined by single spaces: the index's `typo_shards`. */
  parts: string;
  /** Per shard, its deletion keys (sorted) and the ascending ids of the vocabulary words listed under each, packed in the index's width (packTypoShard). */
  shards: Map<string, string>;
}

/** Lists every vocabulary word under the deletions of its start (search-typos.ts), cut into shards. */
export function buildTypoIndex(vocab: readonly string[], width: number): TypoIndex {
  const lists = new Map<string, number[]>();
  vocab.forEach((w, k) => {
    const edits = listedEdits(w.length);
    if (edits === 0) return;
    for (const key of deletionKeys(w, edits)) {
      const list = lists.get(key);
      if (list) list.push(k);
      else lists.set(key, [k]);
    }
  });
  const parts = new Map<string, Array<[string, string]>>();
  for (const key of [...lists.keys()].sort(compareText)) {
    const part = typoShardOf(key);
    let shard = parts.get(part);
    if (!shard) parts.set(part, (shard = []));
    shard.push([key, pack(lists.get(key)!, width)]);
  }
  return { parts: [...parts.keys()].join(' '), shards: new Map([...parts].map(([part, keys]) => [part, packTypoShard(keys)])) };
}
