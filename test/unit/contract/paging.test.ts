import { describe, expect, it } from 'vitest';
import { MAX_OFFSET, OCCUPATION_LIST_QUERY, INDUSTRY_LIST_QUERY, pageShardName, pageWindow, parseQuery, queryPairs, shardOf } from '../../../build/contract/paging.ts';
import { buildOpenApi } from '../../../build/emit/openapi.ts';

const q = (s: string) => parseQuery(new URLSearchParams(s), OCCUPATION_LIST_QUERY);

describe('paging maths', () => {
  it('windows clamp to the total and are empty past the end', () => {
    expect(pageWindow(1016, 50, 0)).toEqual({ start: 0, end: 50 });
    expect(pageWindow(1016, 200, 1000)).toEqual({ start: 1000, end: 1016 });
    expect(pageWindow(10, 5, 99)).toEqual({ start: 10, end: 10 });
  });
  it('a list position lives in the shard that starts at or before it', () => {
    expect([0, 199, 200, 201, 399, 400].map((p) => shardOf(p, 200))).toEqual([0, 0, 1, 1, 1, 2]);
    expect(pageShardName(3)).toBe('pages/3');
  });
});

describe('list query validation', () => {
  it('defaults limit 50, offset 0', () => {
    expect(q('')).toEqual({ ok: true, values: { q: undefined, limit: 50, offset: 0 } });
  });
  it.each(['limit=0', 'limit=201', 'limit=1.5', 'limit=abc', 'limit=', 'limit=+5', 'limit=05', 'offset=-1', 'offset=1e3', 'q=', 'q=%20%20', 'limit=5&limit=6', 'page=2'])(
    'rejects %s naming the parameter',
    (s) => {
      const r = q(s);
      expect(r.ok).toBe(false);
      const name = s.split('=')[0];
      if (!r.ok) expect(r.errors.map((e) => e.location)).toContain(`query.${name}`);
    },
  );
  it('collects every problem at once', () => {
    const r = q('limit=0&offset=x&zzz=1');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.location).sort()).toEqual(['query.limit', 'query.offset', 'query.zzz']);
  });
  it('accepts the bounds', () => {
    expect(q('limit=1&offset=0').ok).toBe(true);
    expect(q('limit=200&offset=100000').ok).toBe(true);
  });
  it('industry level must be 2, 3 or 4', () => {
    expect(parseQuery(new URLSearchParams('level=3'), INDUSTRY_LIST_QUERY)).toEqual({ ok: true, values: { level: 3 } });
    for (const bad of ['level=1', 'level=5', 'level=two', 'level=']) expect(parseQuery(new URLSearchParams(bad), INDUSTRY_LIST_QUERY).ok).toBe(false);
  });
});

describe('parseQuery: encoding and messages', () => {
  it('rejects malformed percent-encoding instead of searching for garbled text', () => {
    const out = parseQuery(new URLSearchParams('q=%E0%A4%A'), OCCUPATION_LIST_QUERY);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.errors).toEqual([{ location: 'query.q', message: 'parameter "q" is not valid percent-encoded UTF-8' }]);
  });
  it('accepts correctly encoded non-ASCII text', () => {
    const out = parseQuery(new URLSearchParams('q=%C3%A9lectricien'), OCCUPATION_LIST_QUERY);
    expect(out).toEqual({ ok: true, values: { q: 'électricien', limit: 50, offset: 0 } });
  });
  it('says the allowed range when a number is not plain digits', () => {
    const out = parseQuery(new URLSearchParams('limit=abc&offset=-1'), OCCUPATION_LIST_QUERY);
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.errors).toContainEqual({ location: 'query.limit', message: 'parameter "limit" must be an integer from 1 to 200 in plain decimal digits, got "abc"' });
      expect(out.errors).toContainEqual({ location: 'query.offset', message: 'parameter "offset" must be an integer from 0 to 1000000000 in plain decimal digits, got "-1"' });
    }
  });

  it('an offset past its maximum (the OpenAPI maximum) is out of range, however many digits', () => {
    for (const v of ['9007199254740991', '1000000001', '1'.repeat(40)]) {
      const out = parseQuery(new URLSearchParams(`offset=${v}`), OCCUPATION_LIST_QUERY);
      expect(out).toEqual({ ok: false, errors: [{ location: 'query.offset', message: expect.stringMatching(/^parameter "offset" must be between 0 and 1000000000, got /) }] });
    }
    expect(parseQuery(new URLSearchParams(`offset=${MAX_OFFSET}`), OCCUPATION_LIST_QUERY)).toMatchObject({ ok: true, values: { offset: MAX_OFFSET } });
    const doc = buildOpenApi('percentile', 'test') as { paths: Record<string, { get: { parameters: Array<{ name: string; schema: object }> } }> };
    expect(doc.paths['/api/v1/occupations']!.get.parameters.find((p) => p.name === 'offset')!.schema).toMatchObject({ minimum: 0, maximum: MAX_OFFSET });
  });
});

describe('queryPairs: the same pairs as URL.searchParams', () => {
  // The platform's URL parser is the reference; queryPairs only skips it when nothing needs decoding.
  const cases = [
    '', 'q=nurse&limit=20', 'limit=20&offset=400', '&&q=a&&', 'q', 'q=', '=x', 'q=a=b', 'a&b=&c=d',
    'q=a+b', 'q=%41%42', 'q=%E0%A4%A', 'q=caf\u00e9', 'q=\ud800', 'q=x%2By', 'limit=1&limit=2', 'q=;;', 'x=/?:@', '?q=a', '?q=%41', '??q=a+b',
    'q=sofware%20developer&limit=20', 'q=a%2', 'q=%zz', 'q=%C0%80', 'q=%ED%A0%80', 'q=%FF', 'q=%25', 'q=%2541', 'q%20x=a+%2B+b', 'q=%C3%A9+x', 'q=%F0%9F%98%80', 'q=%0A%00',
  ];
  for (const s of cases) {
    it(JSON.stringify(s), () => {
      expect([...queryPairs(s)]).toEqual([...new URL(`http://localhost/?${s}`).searchParams]);
    });
  }
  it('a query that needs no decoding is parsed the same through either', () => {
    expect(parseQuery(queryPairs('q=nurse&limit=20&offset=3'), OCCUPATION_LIST_QUERY)).toEqual(q('q=nurse&limit=20&offset=3'));
    expect(parseQuery(queryPairs('zeta=1&alpha=2&limit=x'), OCCUPATION_LIST_QUERY)).toEqual(q('zeta=1&alpha=2&limit=x'));
  });
});
