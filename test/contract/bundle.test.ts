// The function as deployed: the esbuild bundle holds no node:*, fs, csv-parse or eta input, and
// the TS source answers exactly like the bundle for the same shards.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { FUNCTION_BUILD_OPTIONS, FUNCTION_BUNDLE_BUDGET_BYTES, forbiddenInputs, largestInputs, mcpModuleFor } from '../../build/emit/bundle-function.ts';
import { FUNCTION_PATHS } from '../../build/contract/dist-layout.ts';
import { createHandler } from '../../functions/api.ts';
import { roomOf } from '../support/layering.ts';
import { useSites, postJson } from './setup.ts';

const sites = useSites();

describe('function bundle', () => {
  it('metafile lists no node:, fs, csv-parse or eta input', () => {
    const meta = JSON.parse(readFileSync(path.join(sites.percentile.dir, '_functions/api.meta.json'), 'utf8'));
    const inputs = Object.keys(meta.inputs);
    expect(inputs).toContain('functions/api.ts');
    expect(inputs.some((i) => i.includes('build/model/assess.ts'))).toBe(true);
    expect(forbiddenInputs(meta)).toEqual([]);
    for (const i of inputs) expect(i).not.toMatch(/^node:|csv-parse|\/eta\/|(^|\/)fs$/);
  });

  it('takes its code only from the runtime, the contract and the model (the four rooms)', () => {
    const meta = JSON.parse(readFileSync(path.join(sites.percentile.dir, '_functions/api.meta.json'), 'utf8'));
    const ours = Object.keys(meta.inputs).filter((i) => !i.includes('node_modules/'));
    expect(ours.length).toBeGreaterThan(10);
    expect(ours.filter((i) => !['runtime', 'contract', 'model'].includes(roomOf(i) ?? ''))).toEqual([]);
    expect(ours.some((i) => roomOf(i) === 'contract') && ours.some((i) => roomOf(i) === 'model')).toBe(true);
  });

  it(`stays within its size budget (${FUNCTION_BUNDLE_BUDGET_BYTES / 1024} KB) and holds no full zod`, () => {
    const dir = sites.percentile.dir;
    const size = statSync(path.join(dir, '_functions/api.mjs')).size;
    const meta = JSON.parse(readFileSync(path.join(dir, '_functions/api.meta.json'), 'utf8'));
    // On failure, name what grew: the largest inputs and their bytes in the bundle.
    expect({ size, largest: size > FUNCTION_BUNDLE_BUDGET_BYTES ? largestInputs(meta, 15) : [] }).toEqual({ size: expect.any(Number), largest: [] });
    expect(size).toBeLessThanOrEqual(FUNCTION_BUNDLE_BUDGET_BYTES);
    // zod/mini only: the classic API and the locales are what made the bundle large. (The metafile
    // lists the locales as inputs either way; what matters is what reached the output.)
    const emitted = largestInputs(meta, Infinity).filter((i) => i.bytes > 0).map((i) => i.input);
    expect(emitted.filter((i) => /node_modules\/zod\/v4\/(classic|locales)\//.test(i))).toEqual([]);
  });

  // Issue 47: the routes other than /mcp load no MCP code. Each entry bundle reaches the MCP module
  // only through a dynamic import of the file beside it, holds none of the SDK's inputs nor its
  // protocol strings, and the /mcp handler and route add at most 10% to what the bundle would be
  // without them (the same entry bundled with the handler a 404 and the route table without /mcp).
  it('holds no MCP code but the lazy import, within 10% of the bundle without /mcp', async () => {
    const dir = sites.percentile.dir;
    const meta = JSON.parse(readFileSync(path.join(dir, '_functions/api.meta.json'), 'utf8'));
    const emitted = largestInputs(meta, Infinity).filter((i) => i.bytes > 0).map((i) => i.input);
    expect(emitted.filter((i) => /@modelcontextprotocol|@cfworker|node_modules\/ajv|functions\/mcp\//.test(i))).toEqual([]);
    for (const out of Object.values(FUNCTION_PATHS)) {
      const main = readFileSync(path.join(dir, out), 'utf8');
      const lazy = readFileSync(path.join(dir, mcpModuleFor(out)), 'utf8');
      const specifier = `./${path.posix.basename(mcpModuleFor(out))}`;
      expect(main.split(`import("${specifier}")`).length - 1, out).toBe(1);
      // Strings only the SDK holds (minification keeps string literals): the lazy module has each.
      for (const s of ['notifications/initialized', 'Mcp-Session-Id', 'tools/call']) {
        expect(lazy, `${mcpModuleFor(out)}: ${s}`).toContain(s);
        expect(main, `${out}: ${s}`).not.toContain(s);
      }
    }
    // Netlify's "none" bundler ships the entry and included_files only: the MCP module is named there.
    const included = /included_files = (\[.*\])/.exec(readFileSync(path.join(dir, 'netlify.toml'), 'utf8'))?.[1];
    expect(JSON.parse(included ?? '[]')).toEqual([mcpModuleFor(FUNCTION_PATHS.netlify)]);
    const size = statSync(path.join(dir, FUNCTION_PATHS.core)).size;
    const without = await build({
      ...FUNCTION_BUILD_OPTIONS,
      entryPoints: ['functions/api.ts'],
      logLevel: 'silent',
      plugins: [
        {
          name: 'no-mcp',
          setup(b) {
            b.onResolve({ filter: /\/handlers\/mcp\.ts$/ }, () => ({ path: 'no-mcp', namespace: 'no-mcp' }));
            b.onLoad({ filter: /.*/, namespace: 'no-mcp' }, () => ({ contents: 'export const mcpHandler = () => async () => ({ status: 404, headers: {}, body: null });', loader: 'ts' }));
            // The route table without /mcp's entry (up to the next route).
            b.onLoad({ filter: /build\/contract\/routes\.ts$/ }, (args) => {
              const text = readFileSync(args.path, 'utf8');
              const start = text.indexOf("route({\n    id: 'mcp',");
              const end = text.indexOf('\n  route(', start);
              if (start < 0 || end < 0) throw new Error("no route({ id: 'mcp' ... }) entry in routes.ts to leave out");
              return { contents: text.slice(0, start) + text.slice(end + 3), loader: 'ts' };
            });
          },
        },
      ],
    });
    const withoutSize = without.outputFiles[0]!.contents.byteLength;
    expect(withoutSize).toBeLessThan(size);
    expect(size, `main bundle ${size} B, without /mcp ${withoutSize} B`).toBeLessThanOrEqual(Math.floor(withoutSize * 1.1));
  });

  it('createHandler from the TS source answers like the bundled server', async () => {
    const site = sites.timeline;
    const handler = createHandler({ loadShard: async (name) => JSON.parse(readFileSync(path.join(site.dir, '_shards', `${name}.json`), 'utf8')) });
    const soc = (await site.json('/api/v1/occupations?limit=1')).data[0].soc_code;
    const inProcess = await handler(new Request('http://x/api/v1/occupations?q=nurse&limit=3'));
    expect(inProcess.status).toBe(200);
    expect(await inProcess.text()).toBe(await (await site.get('/api/v1/occupations?q=nurse&limit=3')).text());
    const body = JSON.stringify({ soc_code: soc, personal_factors: {} });
    const a = await handler(new Request('http://x/api/v1/displacement/assess', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }));
    expect(await a.text()).toBe(await (await postJson(site, body)).text());
    const bad = await handler(new Request('http://x/api/v1/industries?level=9'));
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
  });
});
