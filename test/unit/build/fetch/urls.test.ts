import { describe, expect, it } from 'vitest';
import { rewriteOrigin } from '../../../../build/fetch/urls.ts';

describe('rewriteOrigin', () => {
  const naics = 'https://www.census.gov/naics/2022NAICS/2-6%20digit_2022_Codes.xlsx';

  it('leaves the URL alone without a base', () => {
    expect(rewriteOrigin(naics, undefined)).toBe(naics);
    expect(rewriteOrigin(naics, '')).toBe(naics);
  });

  it('swaps the origin, keeping the encoded path and the query', () => {
    expect(rewriteOrigin(naics, 'http://127.0.0.1:8123')).toBe('http://127.0.0.1:8123/naics/2022NAICS/2-6%20digit_2022_Codes.xlsx');
    expect(rewriteOrigin('https://h.example/a/b.csv?download=true', 'http://127.0.0.1:1/')).toBe('http://127.0.0.1:1/a/b.csv?download=true');
  });

  it('keeps a path prefix on the base', () => {
    expect(rewriteOrigin('https://www.bls.gov/oes/special-requests/oesm24in4.zip', 'https://mirror.example/raw/')).toBe(
      'https://mirror.example/raw/oes/special-requests/oesm24in4.zip',
    );
  });

  it('refuses a non-http base', () => {
    expect(() => rewriteOrigin(naics, 'file:///tmp/x')).toThrow(/http/);
  });
});
