// List items as the page shards hold them, for pages cut from them: each item's JSON as a body
// holds it (the build serialized it), with its hash (the build's). A list page reads a range: the shard's items joined by commas and encoded once
// (a page is then bytes cut from it, never a string built and encoded per request), where each
// item starts and ends. The ETags hash the items' and the shards' hashes, which the build wrote
// into each shard (content-hash.ts), instead of the body.
import type { PageShard } from '../build/contract/response-schemas.ts';
import { pageShardName, shardOf } from '../build/contract/paging.ts';
import { itemHashAt } from '../build/contract/content-hash.ts';
import type { BodyParts } from './http.ts';
import type { ShardStore } from './shard-store.ts';

interface SerializedPage {
  offset: number;
  /** Each item's JSON, as the shard holds it. */
  items: string[];
  /** Each item's hash, packed one after another (itemHashAt), and the shard's. */
  item_hashes: string;
  hash: string;
  /** The whole shard for list pages, made when a list first reads it (joined). */
  whole?: JoinedPage;
}
interface JoinedPage {
  /** The items' JSON joined by commas, as UTF-8; item i is bytes[starts[i], ends[i]). */
  bytes: Uint8Array<ArrayBuffer>;
  starts: number[];
  ends: number[];
  /** The shard's hash (of its offset and joined items: its content). */
  hash: string;
}

const utf8Encoder = new TextEncoder();

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
  return (page.whole = { bytes, starts, ends, hash: page.hash });
}

const itemHash = (page: SerializedPage, i: number): string => itemHashAt(page.item_hashes, i);

export class PageItems {
  // Declared, set in the constructor (as BoundedCache's: no field initializer to compile).
  declare private readonly pending: Map<number, Promise<SerializedPage>>;
  declare private readonly ready: Map<number, SerializedPage>;
  declare private readonly shards: ShardStore;

  constructor(shards: ShardStore) {
    this.pending = new Map();
    this.ready = new Map();
    this.shards = shards;
  }

  private load(n: number): Promise<SerializedPage> {
    let p = this.pending.get(n);
    if (!p) {
      p = this.shards.load<PageShard>(pageShardName(n)).then((page) => {
        const done: SerializedPage = { offset: page.offset, items: page.items, item_hashes: page.item_hashes, hash: page.hash };
        this.ready.set(n, done);
        return done;
      });
      p.catch(() => this.pending.delete(n));
      this.pending.set(n, p);
    }
    return p;
  }

  /** The items at list `positions` (shards of `size` items), serialized, and their hashes (for the ETag). */
  async items(positions: ArrayLike<number>, size: number): Promise<{ json: string[]; hashes: string[] }> {
    const json: string[] = [];
    const hashes: string[] = [];
    for (let k = 0; k < positions.length; k++) {
      const p = positions[k]!;
      const n = shardOf(p, size);
      const page = this.ready.get(n) ?? (await this.load(n));
      json.push(page.items[p - page.offset]!);
      hashes.push(itemHash(page, p - page.offset));
    }
    return { json, hashes };
  }

  /** List positions [start, end) as byte parts cut from the shards' joined items; `tag` names the shards' contents. */
  async range(start: number, end: number, size: number): Promise<{ parts: BodyParts; tag: string }> {
    const parts: BodyParts = [];
    let tag = '';
    for (let n = shardOf(start, size); start < end && n <= shardOf(end - 1, size); n++) {
      const page = this.ready.get(n) ?? (await this.load(n));
      const whole = joined(page);
      const a = Math.max(start, page.offset) - page.offset;
      const b = Math.min(end, page.offset + page.items.length) - page.offset - 1;
      if (parts.length) parts.push(',');
      parts.push(whole.bytes.subarray(whole.starts[a], whole.ends[b]));
      tag += whole.hash;
    }
    return { parts, tag };
  }
}
