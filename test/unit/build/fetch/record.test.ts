import { describe, expect, it } from 'vitest';
import { extractedFrom, mergeRecord, serializeRecord, type SourceUpdate } from '../../../../build/fetch/record.ts';

const sha = (c: string) => c.repeat(64);
const meta = (id: string) => ({ id, title: id, publisher: 'p', license: 'l', attribution: 'a' });

describe('mergeRecord', () => {
  const first: SourceUpdate = {
    source: meta('onet-db-text'),
    files: [
      { path: 'onet-db-text/db_29_3_text/Old.txt', from: 'onet-db-text/db_29_3_text.zip', bytes: 1, sha256: sha('1') },
      { path: 'onet-db-text/db_29_3_text.zip', url: 'https://u/z.zip', bytes: 9, sha256: sha('2') },
    ],
    dropped: [],
  };

  it('orders sources by manifest and files by path', () => {
    const r = mergeRecord(undefined, [{ source: meta('b'), files: [], dropped: [] }, first], ['onet-db-text', 'b'], undefined);
    expect(r.sources.map((s) => s.id)).toEqual(['onet-db-text']);
    expect(r.sources[0]?.files.map((f) => f.path)).toEqual(['onet-db-text/db_29_3_text.zip', 'onet-db-text/db_29_3_text/Old.txt']);
    expect(r.base_url).toBeUndefined();
  });

  it('replaces rewritten paths, removes dropped ones and keeps other sources', () => {
    const base = mergeRecord(undefined, [first, { source: meta('x'), files: [{ path: 'x/f', url: 'u', bytes: 1, sha256: sha('3') }], dropped: [] }], ['onet-db-text', 'x'], undefined);
    const next = mergeRecord(
      base,
      [{ source: meta('onet-db-text'), files: [{ path: 'onet-db-text/db_29_3_text.zip', url: 'https://u/z.zip', bytes: 10, sha256: sha('4') }], dropped: ['onet-db-text/db_29_3_text/Old.txt'] }],
      ['onet-db-text', 'x'],
      'http://127.0.0.1:1',
    );
    expect(next.sources.map((s) => s.id)).toEqual(['onet-db-text', 'x']);
    expect(next.sources[0]?.files).toEqual([{ path: 'onet-db-text/db_29_3_text.zip', url: 'https://u/z.zip', bytes: 10, sha256: sha('4') }]);
    expect(next.base_url).toBe('http://127.0.0.1:1');
    expect(extractedFrom(base, 'onet-db-text/db_29_3_text.zip').map((f) => f.path)).toEqual(['onet-db-text/db_29_3_text/Old.txt']);
  });

  it('serializes identically for identical input (no timestamps)', () => {
    const a = serializeRecord(mergeRecord(undefined, [first], ['onet-db-text'], undefined));
    const b = serializeRecord(mergeRecord(undefined, [first], ['onet-db-text'], undefined));
    expect(a).toBe(b);
    expect(a).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });
});
