// Ranked matches per query, kept per instance like the shards they come from (people search for
// the same few words; a typo-tolerant scan costs far more than a hit). Bounded: oldest out first.
// A query that finds nothing keeps beside it its suggestions (each of its trigrams looked for in every title)
// and the unscored occupations it names; one that finds some, those unscored occupations when it
// names them by their official titles and no served occupation by its own.
import type { SearchByLengthShard, SearchPostingsShard, SearchTyposShard, SearchTitlesShard, UnscoredSearchShard } from '../build/contract/response-schemas.ts';
import { addTypoShard, partsMissing, postingShardName, takeMissing, titlesOf, unscoredOf, type SearchIndex } from '../build/contract/search-words.ts';
import { typoShardName } from '../build/contract/search-typos.ts';
import { SEARCH_PART_SHARDS, UNSCORED_SHARD } from '../build/contract/dist-layout.ts';
import { ownTitleHolds, searchOccupations, searchUnscored, suggestOccupations, unscoredTitleHolds, unscoredTitlesMayHold } from './search-query.ts';
import { BoundedCache } from './bounded-cache.ts';
import type { ShardStore } from './shard-store.ts';

/** Queries whose ranked matches an instance keeps (at most one number per occupation each), and their bytes. */
export const SEARCH_CACHE_ENTRIES = 1000;
const SEARCH_CACHE_BYTES = 2_000_000;

/**
 * Kept as typed arrays: their elements lie outside the JS heap (past 64 bytes), so the young
 * generation's collections do not copy them while every first-seen query adds one.
 */
export type Searched = { matches: Int32Array; suggested?: Int32Array; notScored?: string[] };

export const searchCache = (): BoundedCache<string, Searched> => new BoundedCache<string, Searched>(SEARCH_CACHE_ENTRIES, SEARCH_CACHE_BYTES);

/**
 * The matches of `q` and what is said beside them. The postings come in buckets, each a shard
 * loaded when a query first needs one of its words; the titles, the ids by length and the unscored
 * occupations' index are shards loaded when a query first needs them: a query that met one not
 * loaded is answered again once they are in (search-words.ts).
 */
export async function searched(shards: ShardStore, searches: BoundedCache<string, Searched>, index: SearchIndex, q: string): Promise<Searched> {
  const kept = searches.get(q);
  if (kept) return kept;
  // The matches first: while a bucket they need is missing they are incomplete, and what is
  // worked out from them (suggestions when there are none, the unscored occupations named) would
  // be work thrown away (on a cold search, a trigram look-up in every title). Once complete they
  // are kept: what the extras miss (the unscored occupations' index or its buckets) does not
  // change them, so the query's typo scans are not run again.
  let matches: number[] | null = null;
  for (;;) {
    if (!matches) {
      matches = searchOccupations(index, q);
      if (await loadMissing(shards, index)) {
        matches = null;
        continue;
      }
    }
    const hit = searchExtras(index, q, matches);
    if (await loadMissing(shards, index)) continue;
    searches.set(q, hit, hit.matches.byteLength + (hit.suggested?.byteLength ?? 0));
    return hit;
  }
}

/** Loads what queries met missing (posting buckets and typo index shards of either index, the served one's titles or ids by length, the unscored occupations' index); false when nothing. */
async function loadMissing(shards: ShardStore, index: SearchIndex): Promise<boolean> {
  const own = takeMissing(index);
  const unscored = index.unscored;
  const theirs = unscored && takeMissing(unscored.index);
  if (!own && !theirs) return false;
  const shard = <T>(name: string) => shards.load<T>(name);
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
}

/** What is said beside the matches: suggestions when there are none, the unscored occupations q names. */
function searchExtras(index: SearchIndex, q: string, found: number[]): Searched {
  const matches = Int32Array.from(found);
  // Called only once searchUnscored has their index (else it notes it missing and finds none).
  const unscored = () => searchUnscored(index, q).map((i) => JSON.stringify(index.unscored!.occupations[i]));
  if (matches.length === 0) {
    // Their index first (a shard of its own, noted wanted here): without it, the suggestions
    // would be work thrown away (asked again once it is in). The titles the suggestions read are
    // asked for with it, one round of loads and of this query, not two; a query that names an
    // unscored occupation reads them for nothing.
    if (unscoredOf(index) === undefined && index.unscored_words !== undefined) {
      titlesOf(index);
      return { matches };
    }
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
}
