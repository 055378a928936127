import { describe, expect, it } from 'vitest';
import { originAndPath, pathAndQuery } from '../../../functions/request-url.ts';
import { queryPairs } from '../../../build/contract/paging.ts';

// The function cuts the path and query out of the request URL by hand when nothing needs
// normalizing; the platform's URL parser is the reference for every case, cut or parsed.
describe('pathAndQuery: the path and query new URL gives', () => {
  const cases = [
    'http://127.0.0.1:8080/api/v1/occupations?limit=20&offset=400',
    'http://127.0.0.1:8080/api/v1/occupations?q=nurse&limit=20',
    'https://example.org/api/v1/occupations',
    'http://localhost/',
    'http://localhost/?',
    'http://localhost/embed',
    'http://localhost/api/v1/occupations/15-1252.00/tasks',
    'http://localhost/api/v1/../v1/occupations?q=a',
    'http://localhost/api/v1/./occupations',
    'http://localhost/api/v1/occupations/..',
    'http://localhost/api/v1/%2e%2e/x',
    'http://localhost/api/v1/occupations?q=a b',
    'http://localhost/api/v1/occupations?q="x"&limit=<1>',
    'http://localhost/api/v1/occupations?q=caf\u00e9',
    'http://localhost/api/v1/occupations?q=x#frag',
    'http://localhost/api/v1/occupations#frag',
    'http://localhost/api/v1/occ upations',
    'http://localhost//api//v1',
    'http://localhost/a\\b',
    'http://localhost/api/v1/occupations?q=%41&limit=2',
    'http://localhost/api/v1/occupations??q=a',
    'http://localhost/api/v1/occupations??q=%41',
  ];
  for (const url of cases) {
    it(url, () => {
      const u = new URL(url);
      const got = pathAndQuery(url);
      expect(got.pathname).toBe(u.pathname);
      // Pairs, not text: the raw query may keep characters that URL serialization escapes.
      expect([...queryPairs(got.query)]).toEqual([...u.searchParams]);
    });
  }
});

// The Cloudflare worker cuts the origin and path out of a Request's URL (serialized: no
// credentials, host lowercased, default port dropped); URL is the reference.
describe("originAndPath: a Request URL's origin and path as new URL gives them", () => {
  const cases = [
    'http://127.0.0.1:8080/api/v1/occupations?q=nurse&limit=20',
    'https://Example.ORG:443/api/v1/occupations',
    'http://localhost:80/',
    'https://odr.pages.dev/embed?x=/y',
    'http://[::1]:8788/api/v1/isco?q=a/b',
    'http://localhost/api/v1/../v1/occupations?q=a',
    'http://localhost/api/v1/%2e%2e/x',
    'http://localhost/api/v1/occ upations?q=caf\u00e9#frag',
    'http://xn--caf-dma.example/a',
    'http://caf\u00e9.example/a',
  ];
  for (const raw of cases) {
    it(raw, () => {
      const href = new Request(raw).url;
      const u = new URL(href);
      expect(originAndPath(href)).toEqual({ origin: u.origin, pathname: u.pathname });
    });
  }
});
