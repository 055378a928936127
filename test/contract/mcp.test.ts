// POST /mcp driven by the MCP SDK's own client over HTTP, in both interface shapes (the local server
// with the function bundle, and workerd in the cloudflare project): initialize, the lists, every
// tool with good and bad input, resources and the prompt; each tool's answer equals the API's for
// the same question, and its errors are the API's errors. Then the HTTP edges: limits, CORS, 405.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPE } from '../../build/model/scope.ts';
import { MCP_MAX_BATCH, MCP_MAX_BODY_BYTES } from '../../build/contract/limits.ts';
import { postJson, SHAPES, useSites, type Site } from './setup.ts';

const sites = useSites();

type CallResult = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const rpc = (site: Site, body: string, headers: Record<string, string> = MCP_HEADERS) => site.get('/mcp', { method: 'POST', headers, body });

describe.each(SHAPES)('MCP endpoint (%s)', (shape) => {
  let client: Client;
  let site: Site;
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallResult;
  /** The problem the API answers for a request, to compare a tool error with. */
  const problemOf = async (res: Response) => {
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    return res.json() as Promise<{ detail: string; errors?: unknown[] }>;
  };

  beforeAll(async () => {
    site = sites[shape];
    client = new Client({ name: 'contract-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${site.url}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
  });

  it('initializes: server name, version and the capabilities it implements', () => {
    expect(client.getServerVersion()?.name).toBe('occupation-displacement-risk');
    const caps = client.getServerCapabilities()!;
    expect(Object.keys(caps).sort()).toEqual(['prompts', 'resources', 'tools']);
    expect(client.getInstructions()).toMatch(/find_occupation/);
  });

  it('lists six tools, each with a JSON Schema input; the score tools say what the score leaves out', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['assess_my_tasks', 'compare_occupations', 'find_occupation', 'isco_unit_group', 'occupation_guidance', 'occupation_score']);
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.description!.length, t.name).toBeGreaterThan(80);
      if (t.name !== 'find_occupation') expect(t.description, t.name).toContain('It leaves out other automation');
    }
  });

  it('find_occupation: U.S. and ISCO-08 matches, typos included, equal to the API lists', async () => {
    const r = await call('find_occupation', { title: 'sofware developer', limit: 5 });
    expect(r.isError).toBeFalsy();
    const q = encodeURIComponent('sofware developer');
    expect(r.structuredContent.occupations).toEqual(await site.json(`/api/v1/occupations?q=${q}&limit=5`));
    expect(r.structuredContent.isco).toEqual(await site.json(`/api/v1/isco?q=${q}&limit=5`));
    expect(r.structuredContent.occupations.data[0].soc_code).toBe('15-1252.00');
    expect(r.content[0]!.text).toContain('Software Developers (15-1252.00)');
  });

  it('find_occupation: a non-U.S. title finds its ISCO-08 unit group, equal to the API lists', async () => {
    const r = await call('find_occupation', { title: 'lorry driver', limit: 3 });
    expect(r.isError).toBeFalsy();
    const q = encodeURIComponent('lorry driver');
    expect(r.structuredContent.isco).toEqual(await site.json(`/api/v1/isco?q=${q}&limit=3`));
    expect(r.structuredContent.occupations).toEqual(await site.json(`/api/v1/occupations?q=${q}&limit=3`));
    expect(r.structuredContent.isco.data.map((u: { isco_code: string }) => u.isco_code)).toContain('8332');
    expect(r.content[0]!.text).toContain('(ISCO 8332)');
  });

  it('find_occupation: nothing found says so; bad input is a tool error, never a protocol failure', async () => {
    const none = await call('find_occupation', { title: 'xyzzyq quux' });
    expect(none.isError).toBeFalsy();
    expect(none.structuredContent.occupations).toEqual(await site.json('/api/v1/occupations?q=xyzzyq%20quux&limit=5'));
    expect(none.content[0]!.text).toMatch(/^No occupation matches/);
    for (const args of [{}, { title: '' }, { title: 'x'.repeat(101) }, { title: 'nurse', limit: 0 }, { title: 'nurse', extra: 1 }, { title: 7 }]) {
      const bad = await call('find_occupation', args);
      expect(bad.isError, JSON.stringify(args)).toBe(true);
      expect(bad.content[0]!.text).toMatch(/^Invalid arguments for find_occupation/);
    }
  });

  it("occupation_score: the risk response's score, explanation and the scope sentence", async () => {
    const soc = '29-1141.00';
    const risk = await site.json(`/api/v1/occupations/${soc}/risk`);
    const r = await call('occupation_score', { soc_code: soc });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ soc_code: soc, title: risk.title, risk_score: risk.risk_score, explanation: risk.explanation, scope: SCOPE.sentence, model_version: risk.model_version, ...('evidence' in risk ? { evidence: risk.evidence } : {}) });
    expect(r.content[0]!.text).toContain(`${risk.title} (${soc}): score `);
    expect(r.content[0]!.text).toContain(SCOPE.sentence);
  });

  it("occupation_score: an unknown or unscored occupation is a tool error with the API's words", async () => {
    for (const soc of ['99-9999.99', '55-3016.00']) {
      const r = await call('occupation_score', { soc_code: soc });
      expect(r.isError, soc).toBe(true);
      expect(r.content[0]!.text).toBe((await problemOf(await site.get(`/api/v1/occupations/${soc}/risk`))).detail);
    }
    const malformed = await call('occupation_score', { soc_code: '29-1141' });
    expect(malformed.isError).toBe(true);
  });

  it("occupation_guidance: the risk response's guidance, moves and skill gaps", async () => {
    const soc = '43-9021.00';
    const risk = await site.json(`/api/v1/occupations/${soc}/risk`);
    const r = await call('occupation_guidance', { soc_code: soc });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ soc_code: soc, title: risk.title, guidance: risk.guidance, transition_options: risk.transition_options, transition_note: risk.transition_note, skill_gaps: risk.skill_gaps, scope: SCOPE.sentence, model_version: risk.model_version });
    expect((await call('occupation_guidance', { soc_code: '99-9999.99' })).isError).toBe(true);
  });

  it('assess_my_tasks: the same answer as POST assess, and its errors', async () => {
    const soc = '29-1141.00';
    const tasks = (await site.json(`/api/v1/occupations/${soc}/tasks`)).tasks as Array<{ task_id: number }>;
    const good = { soc_code: soc, personal_factors: { ai_proficiency: 'advanced' }, tasks: [{ task_id: tasks[0]!.task_id, share: 2 }, { task_id: tasks[1]!.task_id, share: 1 }], other_share: 1 };
    const r = await call('assess_my_tasks', good);
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual(await (await postJson(site, good)).json());
    for (const bad of [
      { soc_code: soc, tasks: [{ task_id: 1, share: 1 }] },
      { soc_code: soc, personal_factors: { nope: 'x' } },
      { soc_code: soc, other_share: 1 },
      { soc_code: '99-9999.99' },
      // An own __proto__ key, as JSON carries it (a literal { __proto__ } would set the prototype).
      JSON.parse(`{"soc_code":"${soc}","personal_factors":{"__proto__":"x"}}`),
      { soc_code: 12 },
    ]) {
      const t = await call('assess_my_tasks', bad);
      const p = await problemOf(await postJson(site, bad));
      expect(t.isError, JSON.stringify(bad)).toBe(true);
      expect({ text: t.content[0]!.text, errors: t.structuredContent.errors }).toEqual({ text: p.detail, errors: p.errors ?? [] });
    }
  });

  it('compare_occupations: both scores as occupation_score gives them, and the difference', async () => {
    const [a, b] = ['29-1141.00', '15-1252.00'];
    const r = await call('compare_occupations', { soc_code_a: a, soc_code_b: b });
    expect(r.isError).toBeFalsy();
    const [sa, sb] = [(await call('occupation_score', { soc_code: a })).structuredContent, (await call('occupation_score', { soc_code: b })).structuredContent];
    expect(r.structuredContent.a).toEqual(sa);
    expect(r.structuredContent.b).toEqual(sb);
    expect(r.structuredContent.difference).toBeCloseTo(sb.risk_score.final_score - sa.risk_score.final_score, 10);
    expect((await call('compare_occupations', { soc_code_a: a })).isError).toBe(true);
    expect((await call('compare_occupations', { soc_code_a: a, soc_code_b: '99-9999.99' })).isError).toBe(true);
  });

  it('isco_unit_group: the API detail; unknown, unscored and malformed codes are tool errors', async () => {
    const r = await call('isco_unit_group', { isco_code: '2512' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual(await site.json('/api/v1/isco/2512'));
    for (const code of ['9999', '0110']) {
      const t = await call('isco_unit_group', { isco_code: code });
      expect(t.isError, code).toBe(true);
      expect(t.content[0]!.text).toBe((await problemOf(await site.get(`/api/v1/isco/${code}`))).detail);
    }
    expect((await call('isco_unit_group', { isco_code: '25' })).isError).toBe(true);
  });

  it('an unknown tool is a JSON-RPC error (invalid params)', async () => {
    await expect(call('no_such_tool', {})).rejects.toThrow(/Unknown tool/);
  });

  it('params that do not match the method are invalid params (-32602) naming the field, not an internal error', async () => {
    const cases: [string, object, RegExp][] = [
      ['initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 7 } }, /clientInfo\.name/],
      ['tools/call', { name: 5 }, /name/],
      ['tools/call', { name: 'find_occupation', arguments: 'nurse' }, /arguments/],
      ['resources/read', {}, /uri/],
      ['prompts/get', { name: ['check_my_job'] }, /name/],
    ];
    for (const [method, params, field] of cases) {
      const res = await rpc(site, JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }));
      expect(res.status, method).toBeLessThan(500);
      const body = (await res.json()) as { id: number; error?: { code: number; message: string } };
      expect(body.id).toBe(7);
      expect(body.error?.code, `${method} ${JSON.stringify(params)}: ${body.error?.message}`).toBe(-32602);
      expect(body.error?.message).toMatch(field);
    }
  });

  it('resources: the methodology summary and the data release, read from meta', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.name).sort()).toEqual(['data-release', 'methodology']);
    const meta = await site.json('/api/v1/meta');
    const release = await client.readResource({ uri: resources.find((r) => r.name === 'data-release')!.uri });
    const body = JSON.parse((release.contents[0] as { text: string }).text);
    expect(body).toMatchObject({ data_version: meta.data_version, model_version: meta.model_version, license: meta.license, attribution: meta.attribution });
    const method = await client.readResource({ uri: resources.find((r) => r.name === 'methodology')!.uri });
    expect((method.contents[0] as { text: string }).text).toContain(SCOPE.sentence);
    await expect(client.readResource({ uri: `${site.url}/nowhere` })).rejects.toThrow(/Unknown resource/);
  });

  it('prompts: "check my job" names the tools and the scope', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['check_my_job']);
    const p = await client.getPrompt({ name: 'check_my_job', arguments: { job_title: 'nurse' } });
    expect((p.messages[0]!.content as { text: string }).text).toMatch(/"nurse".*find_occupation.*occupation_score/s);
    await expect(client.getPrompt({ name: 'check_my_job', arguments: {} })).rejects.toThrow();
  });

  it('HTTP: CORS as the API, GET 405, and limits answered as JSON-RPC errors with a 4xx', async () => {
    const ok = await rpc(site, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(await ok.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const get = await site.get('/mcp');
    expect(get.status).toBe(405);
    await get.arrayBuffer();
    const pre = await site.get('/mcp', { method: 'OPTIONS', headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    // The API's CORS headers (a POST's and a preflight's), and the MCP version header allowed besides.
    const apiPost = await postJson(site, JSON.stringify({ soc_code: '29-1141.00' }));
    await apiPost.arrayBuffer();
    const cors = (res: Response) => Object.fromEntries([...res.headers].filter(([k]) => k.startsWith('access-control-')));
    expect(cors(ok)).toEqual(cors(apiPost));
    const apiPre = await site.get('/api/v1/displacement/assess', { method: 'OPTIONS', headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'POST' } });
    expect({ ...cors(pre), 'access-control-allow-headers': undefined }).toEqual({ ...cors(apiPre), 'access-control-allow-headers': undefined });
    expect(pre.headers.get('access-control-allow-headers')).toBe(`${apiPre.headers.get('access-control-allow-headers')}, Mcp-Protocol-Version`);
    // A batch within the cap is answered message by message.
    const batch = await rpc(site, JSON.stringify(Array.from({ length: MCP_MAX_BATCH }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))));
    expect(batch.status).toBe(200);
    expect(((await batch.json()) as Array<{ id: number }>).map((m) => m.id).sort()).toEqual(Array.from({ length: MCP_MAX_BATCH }, (_, i) => i));
    const cases: Array<[string, string, number, number]> = [
      ['not JSON', '{', 400, -32700],
      ['too large', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(MCP_MAX_BODY_BYTES) } }), 413, -32600],
      ['batch over the cap', JSON.stringify(Array.from({ length: MCP_MAX_BATCH + 1 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))), 400, -32600],
    ];
    for (const [name, body, status, code] of cases) {
      const res = await rpc(site, body);
      expect(res.status, name).toBe(status);
      expect(res.headers.get('access-control-allow-origin'), name).toBe('*');
      expect((await res.json()).error.code, name).toBe(code);
    }
    const wrongVersion = await rpc(site, JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'ping' }));
    expect(wrongVersion.status).toBe(400);
    await wrongVersion.arrayBuffer();
    // Answers are JSON whatever Accept says (no event stream is ever sent).
    const plain = await rpc(site, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { 'Content-Type': 'application/json' });
    expect(plain.status).toBe(200);
    expect(await plain.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});
