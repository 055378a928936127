import { describe, expect, it } from 'vitest';
import { voteStats } from '../../../build/model/vote-stats.ts';
import { crossSiteVote } from '../../../functions/votes.ts';

describe('voteStats', () => {
  it('is all zero without votes', () => {
    expect(voteStats({ agree: 0, too_high: 0, too_low: 0 })).toEqual({ total: 0, agree: 0, too_high: 0, too_low: 0, agree_pct: 0, too_high_pct: 0, too_low_pct: 0 });
  });
  it('rounds each share to one decimal', () => {
    // 1/3 = 33.33..%, 2/3 = 66.66..%
    expect(voteStats({ agree: 1, too_high: 2, too_low: 0 })).toMatchObject({ total: 3, agree_pct: 33.3, too_high_pct: 66.7, too_low_pct: 0 });
    expect(voteStats({ agree: 1, too_high: 7, too_low: 0 })).toMatchObject({ total: 8, agree_pct: 12.5, too_high_pct: 87.5 });
  });
  it('counts always sum to total', () => {
    const v = voteStats({ agree: 17, too_high: 5, too_low: 9 });
    expect(v.agree + v.too_high + v.too_low).toBe(v.total);
    expect(v.total).toBe(31);
  });
});

describe('crossSiteVote: browser requests from another site', () => {
  const req = (headers: Record<string, string>, url = 'http://127.0.0.1:8080/api/v1/occupations/15-1252.00/votes') => ({ method: 'POST', url, headers: new Headers(headers), body: null });
  const verdict = (headers: Record<string, string>, trustProxy = false, url?: string) => crossSiteVote(req(headers, url), trustProxy)?.header ?? 'accepted';

  it('Sec-Fetch-Site decides when present: same-origin and none pass, same-site only with our own Origin, cross-site and unknown values do not', () => {
    for (const v of ['same-origin', 'none', 'Same-Origin']) expect(verdict({ 'Sec-Fetch-Site': v })).toBe('accepted');
    // same-site is another page of the registrable domain (another tenant's subdomain included): its Origin decides.
    expect(verdict({ 'Sec-Fetch-Site': 'same-site' })).toBe('Origin');
    expect(verdict({ 'Sec-Fetch-Site': 'same-site', Origin: 'http://127.0.0.1:8080' })).toBe('accepted');
    expect(verdict({ 'Sec-Fetch-Site': 'same-site', Origin: 'http://blog.127.0.0.1:8080' })).toBe('Origin');
    for (const v of ['cross-site', 'bogus', '']) expect(verdict({ 'Sec-Fetch-Site': v })).toBe('Sec-Fetch-Site');
    // A sandboxed frame with allow-same-origin... and without: the browser's verdict, not Origin, counts.
    expect(verdict({ 'Sec-Fetch-Site': 'same-origin', Origin: 'null' })).toBe('accepted');
    expect(verdict({ 'Sec-Fetch-Site': 'cross-site', Origin: 'http://127.0.0.1:8080' })).toBe('Sec-Fetch-Site');
  });

  it('without it, Origin must name the host the request was sent to (Host, the URL, or a trusted X-Forwarded-Host)', () => {
    expect(verdict({ Origin: 'http://127.0.0.1:8080' })).toBe('accepted');
    expect(verdict({ Origin: 'https://risk.example', Host: 'risk.example' })).toBe('accepted');
    expect(verdict({ Origin: 'https://risk.example', Host: 'risk.example:443' })).toBe('accepted');
    expect(verdict({ Origin: 'https://RISK.example:8443', Host: 'risk.example:8443' })).toBe('accepted');
    expect(verdict({ Origin: 'https://evil.example', Host: 'risk.example' })).toBe('Origin');
    expect(verdict({ Origin: 'http://127.0.0.1:9999' })).toBe('Origin');
    for (const o of ['null', '', 'garbage', 'http://', 'http://127.0.0.1:8080/path', 'http://a@127.0.0.1:8080']) expect(verdict({ Origin: o })).toBe('Origin');
    // Behind a proxy that rewrote Host: X-Forwarded-Host only when trusted, its last value.
    const proxied = { Origin: 'https://risk.example', Host: '127.0.0.1:8080', 'X-Forwarded-Host': 'evil.example, risk.example' };
    expect(verdict(proxied, true)).toBe('accepted');
    expect(verdict(proxied, false)).toBe('Origin');
    // Earlier values are the client's own: only the last (our proxy's) counts.
    expect(verdict({ Origin: 'https://risk.example', 'X-Forwarded-Host': 'risk.example, evil.example' }, true)).toBe('Origin');
  });

  it('with neither header (curl, a server) the request is accepted', () => {
    expect(verdict({})).toBe('accepted');
    expect(verdict({ Host: 'anything' })).toBe('accepted');
  });
});
