// The hash the function's ETags are made of, in the contract: the build writes each list item's
// and each page shard's beside them (PageShard), so a cold request reads them instead of hashing
// kilobytes of JSON, and the build's check of every shard holds them to this. Pure.
import { pack, unpackAt } from './search-pack.ts';

/** cyrb53: a fast 53-bit string hash, as 14 hex digits; ETags need stability, not cryptographic strength. */
export function hash53(s: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(HASH53_DIGITS, '0');
}
/** Hex digits of a hash53. */
export const HASH53_DIGITS = 14;

/** Base-64 digits of a hash53 in a page shard's item_hashes (search-pack.ts: 64^9 > 2^53); 14 hex digits would read 5 more per item. */
const PACKED_HASH_DIGITS = 9;

/** A page shard's items hashed (item_hashes: each item's hash53, packed, one after another) and the shard's own (hash: of its offset and items joined by commas). */
export const pageHashes = (offset: number, items: readonly string[]): { item_hashes: string; hash: string } => ({
  item_hashes: pack(items.map((i) => parseInt(hash53(i), 16)), PACKED_HASH_DIGITS),
  hash: hash53(`${offset}:${items.join(',')}`),
});

/** Item i's hash53 (hex, as hash53 writes it) from a page shard's item_hashes. */
export const itemHashAt = (itemHashes: string, i: number): string => unpackAt(itemHashes, PACKED_HASH_DIGITS, i).toString(16).padStart(HASH53_DIGITS, '0');
