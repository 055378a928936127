import { describe, expect, it } from 'vitest';
import { DEFAULT_USER_AGENT, parseFetchArgs } from '../../../../build/fetch/args.ts';

describe('parseFetchArgs', () => {
  it('defaults: data/raw, publishers, placeholder User-Agent with a contact', () => {
    const p = parseFetchArgs([], {});
    expect(p).toEqual({
      kind: 'run',
      options: { outDir: 'data/raw', baseUrl: undefined, only: undefined, force: false, userAgent: DEFAULT_USER_AGENT, timeoutMs: 900_000, manifestPath: undefined },
    });
    expect(DEFAULT_USER_AGENT).toMatch(/contact: \S+@\S+/);
  });

  it('reads flags, with --base-url winning over the environment', () => {
    const p = parseFetchArgs(['--out', '/tmp/x', '--only', 'onet-db-text, census-naics-2022', '--force', '--base-url=http://127.0.0.1:9'], {
      ODR_FETCH_BASE_URL: 'http://other',
      ODR_FETCH_USER_AGENT: 'me me@example.org',
    });
    expect(p.kind === 'run' && p.options).toMatchObject({
      outDir: '/tmp/x',
      only: ['onet-db-text', 'census-naics-2022'],
      force: true,
      baseUrl: 'http://127.0.0.1:9',
      userAgent: 'me me@example.org',
    });
  });

  it('takes a replacement source list from --manifest, else ODR_FETCH_MANIFEST (also for --list)', () => {
    const flag = parseFetchArgs(['--manifest', 'a.json'], { ODR_FETCH_MANIFEST: 'b.json' });
    expect(flag.kind === 'run' && flag.options.manifestPath).toBe('a.json');
    const env = parseFetchArgs([], { ODR_FETCH_MANIFEST: ' b.json ' });
    expect(env.kind === 'run' && env.options.manifestPath).toBe('b.json');
    expect(parseFetchArgs(['--list'], { ODR_FETCH_MANIFEST: 'b.json' })).toEqual({ kind: 'list', manifestPath: 'b.json' });
  });

  it('takes the base URL from ODR_FETCH_BASE_URL', () => {
    const p = parseFetchArgs([], { ODR_FETCH_BASE_URL: 'http://127.0.0.1:7' });
    expect(p.kind === 'run' && p.options.baseUrl).toBe('http://127.0.0.1:7');
  });

  it.each([[['--bogus']], [['--base-url', 'ftp://x']], [['--only', ',']], [['positional']]])('rejects %j', (argv) => {
    expect(parseFetchArgs(argv, {}).kind).toBe('error');
  });
});
