import { describe, expect, it } from 'vitest';
import { ROUTES, routesFor, preflightHeaders, urlFor } from '../../../build/contract/routes.ts';
import { fileFor } from '../../../build/contract/dist-layout.ts';
import { matchRoute, redirectFor } from '../../../build/contract/route-match.ts';
import { responseHeaders } from '../../../build/contract/http-policy.ts';
import { cloudflareRoutes, headersFile, netlifyToml } from '../../../build/emit/deploy.ts';

describe('route table', () => {
  it('matches concrete paths and rejects traversal-looking params', () => {
    expect(matchRoute('/api/v1/occupations/15-1252.00', 'percentile')?.route.id).toBe('occupation-detail');
    expect(matchRoute('/api/v1/occupations/15-1252.00/tasks', 'percentile')?.route.id).toBe('occupation-tasks');
    expect(matchRoute('/api/v1/occupations/..%2F..', 'percentile')).toBeNull();
    expect(matchRoute('/api/v1/occupations/15-1252.00/votes', 'percentile')).toBeNull();
    expect(matchRoute('/api/v1/occupations/15-1252.00/votes', 'timeline')?.route.id).toBe('occupation-votes');
    expect(matchRoute('/api/v1/industries/31-33', 'timeline')?.params).toEqual({ naics_code: '31-33' });
  });
  it('no file is named after a SOC code (".00" must not pick a content type)', () => {
    expect(fileFor('/api/v1/occupations/15-1252.00', 'json')).toBe('api/v1/occupations/15-1252.00/index.json');
  });
  it('JSON, HTML and preflight headers', () => {
    expect(responseHeaders('json', 'static')).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8', 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=3600' });
    const html = responseHeaders('html', 'static');
    expect(html['Content-Security-Policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors *");
    expect(Object.keys(html).map((k) => k.toLowerCase())).not.toContain('x-frame-options');
    expect(responseHeaders('problem', 'error')['Cache-Control']).toBe('no-store');
    const assess = ROUTES.find((r) => r.id === 'assess')!;
    expect(preflightHeaders(assess)).toMatchObject({ 'Access-Control-Allow-Methods': 'POST, OPTIONS', 'Access-Control-Max-Age': '86400' });
  });
});

describe('the table drives behaviour', () => {
  it('a function route has a handler for each of its methods, a static route none; the methods are those of its operations', () => {
    const handlers = ROUTES.flatMap((r) => r.methods.map((m) => `${r.id} ${m} ${r.ops[m]!.handler ?? '-'}`));
    expect(handlers.filter((h) => !h.endsWith(' -')).sort()).toEqual([
      'assess POST assess',
      'industry-list GET list-industries',
      'isco-list GET list-isco',
      'mcp POST mcp',
      'occupation-list GET list-occupations',
      'occupation-votes GET votes-get',
      'occupation-votes POST votes-post',
    ]);
    for (const r of ROUTES) expect(r.serve, r.id).toBe(r.methods.some((m) => r.ops[m]!.handler) ? 'function' : 'static');
    expect(ROUTES.find((r) => r.id === 'occupation-votes')!.methods).toEqual(['GET', 'POST']);
  });
  it('request bodies and their error statuses live with the operation that takes them', () => {
    const assess = ROUTES.find((r) => r.id === 'assess')!.ops.POST!;
    expect(assess.request?.media).toEqual(['application/json']);
    expect(Object.keys(assess.errors ?? {}).sort()).toEqual(['400', '413', '415', '422']);
    expect(assess.request!.schema['~standard'].validate({ soc_code: '15-1252.00' })).toMatchObject({ value: { soc_code: '15-1252.00' } });
    const vote = ROUTES.find((r) => r.id === 'occupation-votes')!.ops.POST!;
    expect(vote.request?.media).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(vote.status).toBe(201);
    expect(vote.errors).toHaveProperty('429');
  });
  it('urlFor fills and checks parameters, and knows only the table ids', () => {
    expect(urlFor('occupation-votes', { soc_code: '15-1252.00' })).toBe('/api/v1/occupations/15-1252.00/votes');
    expect(urlFor('embed-card', { slug: 'registered-nurses' })).toBe('/embed/registered-nurses');
    expect(urlFor('openapi')).toBe('/api/v1/openapi.json');
    expect(() => urlFor('embed-card', { slug: '../etc' })).toThrow(/bad value for :slug/);
    expect(() => urlFor('occupation-detail')).toThrow(/bad value for :soc_code/);
    expect(() => urlFor('no-such-route')).toThrow(/no route/);
  });
});

describe('CDN configs from the route table', () => {
  it('_headers lists every static route with CORS and its content type', () => {
    const text = headersFile('timeline', 'onet-29.3+oews-may-2025+model-2.1.0');
    for (const r of routesFor('timeline').filter((r) => r.serve === 'static')) expect(text).toContain(`\n${r.pattern}\n`);
    const block = text.split('\n\n').find((b) => b.includes('/api/v1/occupations/:soc_code/tasks\n'))!;
    expect(block).toContain('  Access-Control-Allow-Origin: *');
    expect(block).toContain('  Content-Type: application/json; charset=utf-8');
    // Votes are live (the function answers them), so no static header block for them anywhere.
    expect(headersFile('timeline', 'onet-29.3+oews-may-2025+model-2.1.0')).not.toContain('/votes');
    expect(headersFile('percentile', 'onet-29.3+oews-may-2025+model-2.1.0')).not.toContain('/votes');
    const embed = text.split('\n\n').find((b) => b.startsWith('/embed/:slug'))!;
    expect(embed).toContain("Content-Security-Policy: default-src 'none'");
  });
  it('netlify.toml: exact rewrites, forced function routes, then a catch-all; no _redirects rules', () => {
    const toml = netlifyToml('percentile', [{ path: '/api/v1/occupations/15-1252.00', file: 'api/v1/occupations/15-1252.00/index.json' }]);
    const rules = toml.split('[[redirects]]').slice(1).map((block) => {
      const get = (k: string) => /\s*=\s*(.+)/.exec(block.split('\n').find((l) => l.trim().startsWith(`${k} `)) ?? '')?.[1];
      return { from: get('from'), to: get('to'), status: get('status'), force: get('force') };
    });
    expect(toml).toContain('directory = "_netlify/functions"');
    expect(rules[0]).toEqual({ from: '"/api/v1/occupations/15-1252.00"', to: '"/api/v1/occupations/15-1252.00/index.json"', status: '200', force: undefined });
    expect(rules).toContainEqual({ from: '"/api/v1/displacement/assess"', to: '"/.netlify/functions/api"', status: '200', force: 'true' });
    expect(rules).toContainEqual({ from: '"/api/v1/occupations"', to: '"/.netlify/functions/api"', status: '200', force: 'true' });
    expect(rules).toContainEqual({ from: '"/embed/*"', to: '"/.netlify/functions/api"', status: '200', force: undefined });
    expect(rules).toContainEqual({ from: '"/occupations/*"', to: '"/.netlify/functions/api"', status: '200', force: undefined });
    expect(rules.at(-1)).toMatchObject({ to: '"/.netlify/functions/api"', status: '200', force: undefined });
  });
  it('_routes.json sends the root and the route prefixes to the worker, never the shards', () => {
    const { include } = JSON.parse(cloudflareRoutes('percentile'));
    expect(include.slice(0, 5)).toEqual(['/', '/api', '/api/*', '/assets', '/assets/*']);
    expect(include).toContain('/embed');
    expect(include).toContain('/occupations/*');
    expect(include.some((p: string) => p.startsWith('/_shards'))).toBe(false);
  });
  it('slash variants redirect to the path that exists; real paths never redirect', () => {
    expect(redirectFor('/embed', 'percentile')).toBe('/embed/');
    expect(redirectFor('/embed/registered-nurses/', 'percentile')).toBe('/embed/registered-nurses');
    expect(redirectFor('/api/v1/', 'percentile')).toBe('/api/v1');
    expect(redirectFor('/embed/', 'percentile')).toBeNull();
    expect(redirectFor('/', 'percentile')).toBeNull();
    expect(redirectFor('/api/v1/nope/', 'percentile')).toBeNull();
  });
  it('the root, named files and pages map to files', () => {
    expect(fileFor('/', 'page')).toBe('index.html');
    expect(fileFor('/assets/site.js', 'js')).toBe('assets/site.js');
    expect(fileFor('/occupations/registered-nurses', 'page')).toBe('occupations/registered-nurses/index.html');
  });
});
