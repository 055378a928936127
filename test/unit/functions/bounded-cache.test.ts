import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../../functions/bounded-cache.ts';

describe('BoundedCache', () => {
  it('keeps at most maxEntries, dropping the oldest first', () => {
    const c = new BoundedCache<string, number>(2);
    c.set('a', 1);
    c.set('b', 2);
    c.set('c', 3);
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([undefined, 2, 3]);
    expect(c.size).toBe(2);
  });

  it('keeps the total size under maxSize, and refuses a value larger than the bound alone', () => {
    const c = new BoundedCache<string, string>(10, 10);
    c.set('a', 'aaaa', 4);
    c.set('b', 'bbbb', 4);
    c.set('c', 'cccc', 4); // 12 > 10: 'a' goes
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([undefined, 'bbbb', 'cccc']);
    expect(c.totalSize).toBe(8);
    c.set('big', 'x'.repeat(11), 11);
    expect(c.get('big')).toBeUndefined();
    expect([c.get('b'), c.get('c')]).toEqual(['bbbb', 'cccc']);
  });

  it('replacing a key counts its new size only', () => {
    const c = new BoundedCache<string, string>(10, 10);
    c.set('a', 'aaaaaa', 6);
    c.set('a', 'aa', 2);
    c.set('b', 'bbbbbbbb', 8);
    expect([c.get('a'), c.get('b')]).toEqual(['aa', 'bbbbbbbb']);
    expect(c.totalSize).toBe(10);
  });
});
