// The generated CDN configs, pinned byte for byte per shape. A change here is a deployment change:
// review the diff of the snapshot file (npx vitest run -u), never accept it blind.
import { describe, expect, it } from 'vitest';
import { cloudflareRoutes, headersFile, netlifyToml } from '../../../../build/emit/deploy.ts';
import type { Shape } from '../../../../build/model/record-schemas.ts';
import { fileFor } from '../../../../build/contract/dist-layout.ts';
import { fillPattern, releaseUrlFor, routeHeaders, routesFor } from '../../../../build/contract/routes.ts';

const SHAPES: Shape[] = ['percentile', 'timeline'];
/** A data version as the model writes it: release files get a block under their versioned name too. */
const DATA_VERSION = 'onet-29.3+oews-may-2025+model-2.1.0';

/** Two files of a real build's kinds: a JSON route under /api and a card (netlify.toml rewrites one rule per file). */
const STATIC_PATHS = [
  { path: '/api/v1/occupations/15-1252.00', file: 'api/v1/occupations/15-1252.00/index.json' },
  { path: '/embed/software-developers', file: 'embed/software-developers/index.html' },
];

describe.each(SHAPES)('generated CDN configs (%s)', (shape) => {
  it('_headers', async () => {
    await expect(headersFile(shape, DATA_VERSION)).toMatchFileSnapshot(`__snapshots__/${shape}._headers`);
  });
  it('_routes.json', async () => {
    await expect(cloudflareRoutes(shape)).toMatchFileSnapshot(`__snapshots__/${shape}._routes.json`);
  });
  it('netlify.toml', async () => {
    await expect(netlifyToml(shape, STATIC_PATHS)).toMatchFileSnapshot(`__snapshots__/${shape}.netlify.toml`);
  });
});

/** The blocks of a _headers file: each path pattern and its header lines as [name, value]. */
function blocksOf(file: string): Array<{ pattern: string; headers: Array<[string, string]> }> {
  return file.split('\n\n').flatMap((block) => {
    const [pattern, ...lines] = block.split('\n').filter((l) => l && !l.startsWith('#'));
    return pattern ? [{ pattern, headers: lines.map((l): [string, string] => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]) }] : [];
  });
}
const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** Hosts apply every _headers block whose path matches (":name" one segment, "*" the rest) and join repeated headers. */
function headersAt(file: string, urlPath: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { pattern, headers } of blocksOf(file)) {
    if (!new RegExp(`^${escape(pattern).replace(/:[a-z_]+/g, '[^/]+').replace(/\*/g, '.*')}$`).test(urlPath)) continue;
    for (const [k, v] of headers) (out[k] ??= []).push(v);
  }
  return out;
}

/**
 * Netlify's reading: every matching block's headers, merged in file order, a later block's value
 * replacing an earlier one's (netlify-cli's headersForPath; ":name" one segment, a trailing slash allowed).
 */
function netlifyHeadersAt(file: string, urlPath: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { pattern, headers } of blocksOf(file)) {
    const parts = pattern.split('/').filter(Boolean);
    const re = new RegExp(parts.length === 0 ? '^/$' : `^${parts.map((p) => (p.startsWith(':') ? '/[^/]+' : p === '*' ? '/.*' : `/${escape(p)}`)).join('')}/?$`);
    if (re.test(urlPath)) for (const [k, v] of headers) out[k] = v;
  }
  return out;
}

/** Values for every path parameter of the table's static routes. */
const SAMPLE: Record<string, string> = { soc_code: '15-1252.00', naics_code: '31-33', slug: 'registered-nurses', isco_code: '2512', isco_slug: 'software-developers', problem: 'not-found', registered_file: 'forecast-3.0.0-2026-11-25.json' };

describe.each(SHAPES)('_headers as a host applies it (%s)', (shape) => {
  it('on Netlify, every URL and every file of a static route ends with its own route headers', () => {
    // Netlify serves a route's file at its own path too (/embed/index.html beside /embed/), and
    // that path also matches placeholder blocks (/embed/:slug): the file's block must come later.
    const file = headersFile(shape, DATA_VERSION);
    for (const r of routesFor(shape).filter((x) => x.serve === 'static')) {
      const url = fillPattern(r.pattern, SAMPLE);
      const release = r.release ? [releaseUrlFor(r.id, DATA_VERSION)] : [];
      for (const at of [url, `/${fileFor(url, r.body)}`, ...release]) expect(netlifyHeadersAt(file, at), `${r.id} ${at}`).toEqual(routeHeaders(r));
    }
  });
  it('every published URL of a static route gets its own route headers once, from no other block', () => {
    const file = headersFile(shape, DATA_VERSION);
    for (const r of routesFor(shape).filter((x) => x.serve === 'static')) {
      const url = fillPattern(r.pattern, SAMPLE);
      const want = Object.fromEntries(Object.entries(routeHeaders(r)).map(([k, v]) => [k, [v]]));
      expect(headersAt(file, url), url).toEqual(want);
    }
  });
});
