// The function's check of its metadata shard (shardMetaProblem, by hand) and the build's schema
// of it (ShardMeta, zod) refuse the same values.
import { describe, expect, it } from 'vitest';
import { ShardMeta, shardMetaProblem } from '../../../build/contract/request-schemas.ts';

const good = { data_version: 'onet-29.3+oews-may-2025+model-3.1.0', shape: 'percentile', occupation_count: 923, page_shard_size: 50, page_shards: 19 };

describe('shardMetaProblem', () => {
  const samples: unknown[] = [
    good,
    { ...good, shape: 'timeline' },
    { ...good, occupation_count: 0, page_shards: 0 },
    null,
    [],
    'meta',
    {},
    { ...good, extra: 1 },
    { ...good, data_version: 3 },
    { ...good, shape: 'percentiles' },
    { ...good, shape: undefined },
    { ...good, occupation_count: -1 },
    { ...good, occupation_count: 1.5 },
    { ...good, occupation_count: '923' },
    { ...good, page_shard_size: 0 },
    { ...good, page_shards: Number.NaN },
    { ...good, page_shards: 2 ** 53 },
  ];
  it('refuses what the schema refuses and passes what it passes', () => {
    for (const s of samples) expect(shardMetaProblem(s) === null, JSON.stringify(s)).toBe(ShardMeta.safeParse(s).success);
    expect(shardMetaProblem(good)).toBeNull();
    expect(shardMetaProblem({ ...good, extra: 1 })).toMatch(/unknown field\(s\) extra/);
  });
});
