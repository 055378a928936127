// Issue 8: every JSON body the API serves names the model version, top-level `model_version`
// (problem+json included, as an RFC 9457 extension member). Walks every JSON route of the table
// in both shapes, every method, plus the function's answers with a query and its error bodies.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARAM_EXAMPLES, routesFor, urlFor } from '../../build/contract/routes.ts';
import { CLIENT_HEADER, REPO_ROOT, SHAPES, useSites, type Site } from './setup.ts';

/** The model's own statement of its version (the seeds), not the constant the code quotes. */
const EXPECTED = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'seeds/model-params.json'), 'utf8')) as { model_version: string }).model_version;

const sites = useSites();

async function bodyOf(site: Site, p: string, init?: RequestInit): Promise<{ status: number; type: string; body: Record<string, unknown> }> {
  const res = await site.get(p, init);
  const type = res.headers.get('content-type') ?? '';
  expect(type, `${init?.method ?? 'GET'} ${p}`).toMatch(/^application\/(problem\+)?json/);
  return { status: res.status, type, body: (await res.json()) as Record<string, unknown> };
}

describe.each(SHAPES)('model_version in every JSON body (%s)', (shape) => {
  it('the version is the one the issue asks for', () => {
    expect(EXPECTED).toBe('3.1.0');
  });

  it('every JSON route of the table, every method', async () => {
    const site = sites[shape];
    const occ = (await site.json('/api/v1/occupations?limit=1')).data[0] as { soc_code: string };
    const ind = (await site.json('/api/v1/industries')).data[0] as { naics_code: string };
    const isco = (await site.json('/api/v1/isco?limit=1')).data[0] as { isco_code: string };
    const values: Record<string, string> = { soc_code: occ.soc_code, naics_code: ind.naics_code, isco_code: isco.isco_code, problem: 'not-found', registered_file: PARAM_EXAMPLES.registered_file!.example };
    // /mcp answers JSON-RPC, whose shape is the protocol's: its version is the server's, checked below.
    // A registered file is served byte for byte as committed, naming the model it was registered for
    // (test/contract/registered.test.ts checks its sha256).
    const routes = routesFor(shape).filter((r) => r.body === 'json' && r.id !== 'mcp' && r.id !== 'registered-file');
    expect(routes.length).toBeGreaterThan(10);
    let checked = 0;
    for (const r of routes) {
      const p = urlFor(r.id, Object.fromEntries([...r.pattern.matchAll(/:([a-z_]+)/g)].map((m) => [m[1]!, values[m[1]!]!])));
      for (const method of r.methods) {
        const init: RequestInit =
          method === 'GET'
            ? {}
            : r.id === 'assess'
              ? { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ soc_code: occ.soc_code }) }
              : { method, headers: { 'Content-Type': 'application/json', [CLIENT_HEADER]: '198.51.100.77' }, body: JSON.stringify({ vote: 'agree' }) };
        const { status, body } = await bodyOf(site, p, init);
        expect([200, 201], `${method} ${p}`).toContain(status);
        // The OpenAPI root admits only x- extensions beside its own fields.
        const version = r.id === 'openapi' ? body['x-model-version'] : body.model_version;
        expect(version, `${method} ${p}`).toBe(EXPECTED);
        checked++;
      }
    }
    expect(checked).toBe(routes.reduce((n, r) => n + r.methods.length, 0));
  });

  it('/mcp names the model version as its server version when a client initializes', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'model-version-test', version: '0' } } };
    const { status, body } = await bodyOf(sites[shape], '/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify(init) });
    expect(status).toBe(200);
    expect((body.result as { serverInfo: { version: string } }).serverInfo.version).toBe(EXPECTED);
  });

  it('function answers with a query: search, no match with suggestions, paging, level filter', async () => {
    const site = sites[shape];
    for (const p of ['/api/v1/occupations?q=nurse', '/api/v1/occupations?q=zzqxv', '/api/v1/occupations?limit=3&offset=7', '/api/v1/industries?level=2']) {
      const { status, body } = await bodyOf(site, p);
      expect(status, p).toBe(200);
      expect(body.model_version, p).toBe(EXPECTED);
    }
  });

  it('problem+json bodies carry it as an extension member (static 404 file, function 400/404/405/415/422)', async () => {
    const site = sites[shape];
    const soc = (await site.json('/api/v1/occupations?limit=1')).data[0].soc_code as string;
    const json = (body: unknown) => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const cases: Array<[number, string, RequestInit?]> = [
      [400, '/api/v1/occupations?limit=0'],
      [404, '/api/v1/occupations/99-9999.99'],
      [404, '/api/v1/no-such'],
      [404, '/api/v1/industries/999999'],
      [405, '/api/v1/displacement/assess'],
      [415, '/api/v1/displacement/assess', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' }],
      [400, '/api/v1/displacement/assess', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' }],
      [422, '/api/v1/displacement/assess', json({ soc_code: soc, personal_factors: { no_such_factor: 'x' } })],
    ];
    for (const [want, p, init] of cases) {
      const { status, type, body } = await bodyOf(site, p, init);
      expect(status, p).toBe(want);
      expect(type, p).toMatch(/^application\/problem\+json/);
      expect(body.model_version, `${want} ${p}`).toBe(EXPECTED);
    }
    const votes = await bodyOf(site, `/api/v1/occupations/${soc}/votes`, shape === 'timeline' ? json({ vote: 'maybe' }) : undefined);
    expect(votes.status).toBe(shape === 'timeline' ? 422 : 404);
    expect(votes.body.model_version).toBe(EXPECTED);
  });

  it('the published static 404 body and /api/v1/meta agree', async () => {
    const site = sites[shape];
    const file = JSON.parse(readFileSync(path.join(site.dir, 'api/v1/404.json'), 'utf8')) as { model_version: string };
    expect(file.model_version).toBe(EXPECTED);
    expect((await site.json('/api/v1/meta')).model_version).toBe(EXPECTED);
  });
});
