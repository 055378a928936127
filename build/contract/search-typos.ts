// The typo index's rules, shared by the build (build/search-index.ts makes it) and the function
// (search-query.ts reads it), so that both cut a word into the same keys. Pure.
//
// A misspelling is found without a scan of the vocabulary: two words within k edits (optimal
// string alignment: a substitution, an insertion, a deletion or a swap of neighbours each one
// edit) share a string that each reaches by at most k deletions of characters (a substitution is
// one deletion on each side, an insertion one on one side, a swap one on each). So the build lists
// every vocabulary word under each such deletion of its start (DELETION_PREFIX characters: a word's
// end changes which words are near only through its length, which the query checks), and a query
// word looks up its own deletions and checks the few words found with an edit distance. The lists
// are cut into shards by the first two characters of the deletion, which are two of a word's first
// three characters (one edit) or four (two edits): a query word reads at most 3 or 6 shards.
// A word cut to its start still meets the words it is near: where the prefixes differ only past
// an edit, the extra characters are each one deletion more on one side, counted by that side's
// edits that moved them there.

/** Characters of a word's start that the typo index keys hold. */
export const DELETION_PREFIX = 6;
/** Query words shorter than this are not looked up as typos (too many short words are a letter apart). */
export const MIN_TYPO_WORD = 4;

/** Edits a query word of `length` characters may be from the vocabulary word it means (1 from 4 letters, 2 from 8). */
export const typoEdits = (length: number): number => (length >= 8 ? 2 : 1);
/**
 * Edits a vocabulary word must be listed for: a query word of 4-7 characters (1 edit) meets
 * words of 3-8, one of 8 or more (2 edits) words of 6 or more. Shorter words are never typos' matches.
 */
export const listedEdits = (length: number): number => (length < 3 ? 0 : length <= 5 ? 1 : 2);

/** Every string made by deleting at most `edits` characters from w's first DELETION_PREFIX, w's start itself included, each once, in a fixed order. */
export function deletionKeys(w: string, edits: number): string[] {
  const out = [w.slice(0, DELETION_PREFIX)];
  const seen = new Set(out);
  for (let from = 0, e = 0; e < edits; e++) {
    const to = out.length;
    for (let i = from; i < to; i++) {
      const s = out[i]!;
      for (let at = 0; at < s.length; at++) {
        const d = s.slice(0, at) + s.slice(at + 1);
        if (!seen.has(d)) {
          seen.add(d);
          out.push(d);
        }
      }
    }
    from = to;
  }
  return out;
}

/** The shard a deletion key's list is in: its first two characters (every listed key has two or more). */
export const typoShardOf = (key: string): string => key.slice(0, 2);
/** The shard `part` ("ab") of the typo index of the index kept in shard `index` ("search"). */
export const typoShardName = (index: string, part: string): string => `${index}/typos/${part}`;

/**
 * One shard of the typo index as one string: " key:ids key:ids ..." (keys sorted; ids packed,
 * search-pack.ts, whose digits hold neither a space nor a colon). One string, not an object of
 * hundreds of keys: JSON.parse copies it in one pass, where it made each key a property (most
 * of a cold typo search's parsing, docs/PERFORMANCE.md), and a query finds a key with indexOf.
 */
export function packTypoShard(lists: ReadonlyArray<readonly [key: string, ids: string]>): string {
  return lists.map(([key, ids]) => ` ${key}:${ids}`).join('');
}

/** The packed ids listed under `key` in a shard packTypoShard made, '' when none. */
export function typoListIn(shard: string, key: string): string {
  const at = shard.indexOf(` ${key}:`);
  if (at < 0) return '';
  const from = at + key.length + 2;
  const end = shard.indexOf(' ', from);
  return shard.slice(from, end < 0 ? shard.length : end);
}
