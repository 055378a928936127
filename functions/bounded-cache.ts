// A per-instance memo with a bound on entries and on total size: the oldest entry goes first
// (insertion order; a hit does not refresh it, which keeps a lookup to one Map read).

export class BoundedCache<K, V> {
  // Declared, set in the constructor: class fields would make V8 compile an initializer of their
  // own (the class body parsed again) on a cold instance's first request.
  declare private readonly map: Map<K, { value: V; size: number }>;
  declare private total: number;
  declare private readonly maxEntries: number;
  declare private readonly maxSize: number;

  constructor(maxEntries: number, maxSize = Infinity) {
    this.map = new Map();
    this.total = 0;
    this.maxEntries = maxEntries;
    this.maxSize = maxSize;
  }

  get(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  /** Keeps `value` (of `size` units) unless it alone exceeds the size bound. */
  set(key: K, value: V, size = 0): void {
    if (size > this.maxSize) return;
    const old = this.map.get(key);
    if (old) {
      this.total -= old.size;
      this.map.delete(key);
    }
    while (this.map.size > 0 && (this.map.size >= this.maxEntries || this.total + size > this.maxSize)) {
      const [k, v] = this.map.entries().next().value!;
      this.map.delete(k);
      this.total -= v.size;
    }
    this.map.set(key, { value, size });
    this.total += size;
  }

  get size(): number {
    return this.map.size;
  }

  get totalSize(): number {
    return this.total;
  }
}
