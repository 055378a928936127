// The pipeline on the fixture model: determinism, atomic swap on failure, path safety, CLI flags.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BuildError, runBuild } from '../../../build/pipeline.ts';
import { parseBuildArgs } from '../../../build/main.ts';
import { parseServeArgs, withoutTsx, WORKER_SEMI_SPACE_MB, workerExecArgv } from '../../../build/serve/main.ts';
import { SERVER_DEFAULTS, defaultMaxConnections } from '../../../functions/adapters/node/server.ts';
import { checkPaths, checkRouteFiles, ISCO_UNIT_ROUTES } from '../../../build/emit/files.ts';
import { routesFor } from '../../../build/contract/routes.ts';
import { resolveInside, writeTree } from '../../../build/emit/write.ts';
import { fixtureModel } from '../../fixtures/serving/model.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'odr-pipeline-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const manifest = (dir: string) => readFileSync(path.join(dir, 'manifest.json'), 'utf8');

describe('runBuild on the fixture model', () => {
  it('the same inputs give a byte-identical dist (manifest hashes every file)', async () => {
    const a = path.join(tmp, 'a');
    const b = path.join(tmp, 'b');
    await runBuild({ shape: 'timeline', out: a, repoRoot, inputs: fixtureModel() });
    await runBuild({ shape: 'timeline', out: b, repoRoot, inputs: fixtureModel() });
    expect(manifest(a)).toBe(manifest(b));
    const files = JSON.parse(manifest(a)).files as Record<string, string>;
    expect(Object.keys(files)).toContain('api/v1/occupations/15-1251.00/votes/index.json');
    expect(JSON.parse(manifest(a)).data_version).toBe('test-1');
  }, 60_000);

  it('a schema violation fails the build, lists the problem and leaves the previous dist untouched', async () => {
    const out = path.join(tmp, 'c');
    await runBuild({ shape: 'percentile', out, repoRoot, inputs: fixtureModel() });
    const before = manifest(out);
    const broken = fixtureModel();
    broken.model.factors.ai_proficiency![0]!.label = '';
    const err = await runBuild({ shape: 'percentile', out, repoRoot, inputs: broken }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BuildError);
    expect((err as BuildError).problems.join('\n')).toContain('api/v1/displacement/factors/index.json');
    expect(manifest(out)).toBe(before);
    expect(readdirSync(tmp).filter((n) => n.includes('-tmp-'))).toEqual([]);
  }, 60_000);

  it('a rebuild updates the generation before the current one in place: wrong bytes are rewritten, files no longer produced are removed', async () => {
    const out = path.join(tmp, 'gen');
    const previous = path.join(tmp, '.gen-previous');
    await runBuild({ shape: 'timeline', out, repoRoot, inputs: fixtureModel() });
    await runBuild({ shape: 'timeline', out, repoRoot, inputs: fixtureModel() });
    // The first build's tree is now the previous generation: damage it the ways a tree can be wrong.
    expect(existsSync(previous)).toBe(true);
    const meta = 'api/v1/meta/index.json';
    writeFileSync(path.join(previous, meta), '{"tampered":true}');
    rmSync(path.join(previous, 'api/v1/displacement/factors/index.json'));
    mkdirSync(path.join(previous, 'no-such-route/deeper'), { recursive: true });
    writeFileSync(path.join(previous, 'no-such-route/deeper/index.json'), '{}');
    await runBuild({ shape: 'timeline', out, repoRoot, inputs: fixtureModel() });
    // Every file is what the manifest says, the manifest is the fresh build's, nothing else is there.
    const files = JSON.parse(manifest(out)).files as Record<string, string>;
    for (const [rel, sha] of Object.entries(files)) expect(createHash('sha256').update(readFileSync(path.join(out, rel))).digest('hex'), rel).toBe(sha);
    const onDisk = (readdirSync(out, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[]).filter((e) => e.isFile()).map((e) => path.relative(out, path.join(e.parentPath, e.name)));
    expect(onDisk.sort()).toEqual([...Object.keys(files), 'manifest.json'].sort());
    expect(existsSync(path.join(out, 'no-such-route'))).toBe(false);
    expect(manifest(out)).toBe(manifest(path.join(tmp, 'a')));
  }, 60_000);

  it('refuses an output folder that is the repository itself', async () => {
    await expect(runBuild({ shape: 'percentile', out: '.', repoRoot, inputs: fixtureModel() })).rejects.toBeInstanceOf(BuildError);
  });
});

describe('output path safety', () => {
  it('never writes outside the out folder', async () => {
    expect(() => resolveInside('/x/out', '../etc/passwd')).toThrow(/outside/);
    expect(resolveInside('/x/out', 'a/b.json')).toBe('/x/out/a/b.json');
    await expect(writeTree(path.join(tmp, 'w'), [{ path: '../escape.txt', body: 'x' }])).rejects.toThrow(/outside/);
  });
  it('flags duplicate and unsafe paths', () => {
    expect(checkPaths([{ path: 'a/index.json' }, { path: 'a/index.json' }, { path: 'b/../c' }, { path: '/abs' }])).toHaveLength(3);
  });
  it('flags a route the table serves from files but the build left without one, and files for a function-only route', () => {
    const one = (routeId: string) => ({ path: `${routeId}.x`, routeId });
    const all = routesFor('percentile').filter((r) => r.serve === 'static' || r.defaultFile).map((r) => one(r.id));
    expect(checkRouteFiles(all, 'percentile')).toEqual([]);
    expect(checkRouteFiles(all.filter((f) => f.routeId !== 'meta'), 'percentile')).toEqual(['route meta (/api/v1/meta) has no file']);
    // A build without the optional ISCO-08 crosswalks has no unit group: those routes may have no file, others still must.
    const noIsco = all.filter((f) => !ISCO_UNIT_ROUTES.has(f.routeId ?? ''));
    expect(checkRouteFiles(noIsco, 'percentile', ISCO_UNIT_ROUTES)).toEqual([]);
    expect(checkRouteFiles(noIsco.filter((f) => f.routeId !== 'meta'), 'percentile', ISCO_UNIT_ROUTES)).toEqual(['route meta (/api/v1/meta) has no file']);
    expect(checkRouteFiles([...all, one('assess')], 'percentile')).toEqual(['route assess is answered by the function only, yet 1 file(s) were emitted for it']);
  });
});

describe('CLI flags', () => {
  it('build: defaults, values, unknown flags', () => {
    expect(parseBuildArgs([])).toEqual({ targets: [{ shape: 'percentile', out: 'dist' }], caches: ['sources', 'model', 'function', 'output'], reuse: true });
    expect(parseBuildArgs(['--shape', 'timeline', '--out=x', '--source', 'y'])).toEqual({ targets: [{ shape: 'timeline', out: 'x' }], source: 'y', caches: ['sources', 'model', 'function', 'output'], reuse: true });
    expect(parseBuildArgs(['--shape', 'both', '--out', 'x', '--no-cache'])).toEqual({
      targets: [{ shape: 'percentile', out: path.join('x', 'percentile') }, { shape: 'timeline', out: path.join('x', 'timeline') }],
      caches: [],
      reuse: false,
    });
    expect(parseBuildArgs(['--no-reuse'])).toEqual({ targets: [{ shape: 'percentile', out: 'dist' }], caches: ['sources', 'model', 'function', 'output'], reuse: false });
    // --cache names the caches to use, in any order; none is none (the out folder still updated in place).
    expect(parseBuildArgs(['--cache', 'model,sources']).caches).toEqual(['sources', 'model']);
    expect(parseBuildArgs(['--cache-dir', '/tmp/c']).cacheDir).toBe('/tmp/c');
    expect(parseBuildArgs(['--strict', '--out', 'x'])).toEqual({ targets: [{ shape: 'percentile', out: 'x' }], caches: ['sources', 'model', 'function', 'output'], reuse: true, strict: true });
    expect(parseBuildArgs(['--cache=none'])).toEqual({ targets: [{ shape: 'percentile', out: 'dist' }], caches: [], reuse: true });
    expect(() => parseBuildArgs(['--cache', 'sources,parsed'])).toThrow('--cache takes a comma-separated list of sources, model, function, output (or none), got sources,parsed');
    expect(() => parseBuildArgs(['--cache', 'model,model'])).toThrow(/comma-separated list/);
    expect(() => parseBuildArgs(['--cache', 'model', '--no-cache'])).toThrow('--cache and --no-cache cannot be used together');
    expect(() => parseBuildArgs(['--no-cache', '--cache-dir', 'c'])).toThrow('--cache-dir and --no-cache cannot be used together');
    expect(() => parseBuildArgs(['--shape', 'cubist'])).toThrow(/percentile, timeline or both/);
    expect(() => parseBuildArgs(['--fast'])).toThrow(/unknown argument/);
    expect(() => parseBuildArgs(['--out'])).toThrow(/needs a value/);
  });
  it('serve: workers get a small young generation unless the command line sets one', () => {
    expect(workerExecArgv(['--import', 'tsx'])).toEqual(['--import', 'tsx', `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`]);
    expect(workerExecArgv(['--import', 'tsx', '--max-semi-space-size=8'])).toEqual(['--import', 'tsx', '--max-semi-space-size=8']);
  });
  it('serve: workers run their bundle without tsx, keeping the other node flags', () => {
    expect(withoutTsx(['--import', 'tsx', '--max-old-space-size=200'])).toEqual(['--max-old-space-size=200']);
    expect(withoutTsx(['--import=tsx', '--import', 'other'])).toEqual(['--import', 'other']);
  });
  it('serve: defaults from env, flags win', () => {
    expect(parseServeArgs([], {})).toEqual({ dir: 'dist', port: 8080, host: '127.0.0.1', workers: availableParallelism(), build: true, limits: {} });
    expect(parseServeArgs(['--port', '0'], { PORT: '9000', HOST: '0.0.0.0', WORKERS: '3' })).toEqual({ dir: 'dist', port: 0, host: '0.0.0.0', workers: 3, build: true, limits: {} });
    expect(parseServeArgs(['--workers', '1'], { WORKERS: '3' }).workers).toBe(1);
    expect(() => parseServeArgs(['--workers', '0'], {})).toThrow('--workers must be a whole number from 1 to 256, got "0"');
    expect(() => parseServeArgs(['--port', 'x'], {})).toThrow('--port must be a whole number from 0 to 65535, got "x"');
    expect(() => parseServeArgs([], { PORT: '70000' })).toThrow('PORT must be a whole number from 0 to 65535, got "70000"');
    expect(() => parseServeArgs(['--port', '1e3'], {})).toThrow(/whole number/);
    expect(() => parseServeArgs(['--verbose', '1'], {})).toThrow(/unknown argument --verbose/);
    expect(() => parseServeArgs(['--bogus'], {})).toThrow(/unknown argument --bogus/);
    expect(parseServeArgs(['--dir=out', '--host=::1'], { WORKERS: '1' })).toEqual({ dir: 'out', port: 8080, host: '::1', workers: 1, build: false, limits: {} });
    // --no-build serves dist/ as it is; a --dir is never built.
    expect(parseServeArgs(['--no-build', '--port', '0'], {})).toMatchObject({ dir: 'dist', port: 0, build: false });
    expect(parseServeArgs(['--dir', 'out', '--no-build'], {})).toMatchObject({ dir: 'out', build: false });
    expect(() => parseServeArgs(['--no-build=1'], {})).toThrow(/unknown argument --no-build=1/);
    expect(() => parseServeArgs(['--host', '0.0.0.0.1'], {})).toThrow(/^--host must be an IP address or a host name, got "0.0.0.0.1"/);
    expect(() => parseServeArgs([], { HOST: 'a b' })).toThrow(/^HOST must be/);
    expect(parseServeArgs(['--host', 'localhost'], {}).host).toBe('localhost');
  });
  it('serve: the connection cap, the request timeout (headers: at most 10 s of it) and the file cache', () => {
    expect(SERVER_DEFAULTS).toEqual({ maxConnections: 1000, requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, cacheBytes: 16 * 1024 * 1024, keepAliveTimeoutMs: 5_000 });
    expect(parseServeArgs(['--max-connections', '50', '--request-timeout', '2.5', '--cache-mb', '4'], {}).limits).toEqual({ maxConnections: 50, requestTimeoutMs: 2500, headersTimeoutMs: 2500, cacheBytes: 4 * 1024 * 1024 });
    expect(parseServeArgs(['--request-timeout=60'], {}).limits).toEqual({ requestTimeoutMs: 60_000, headersTimeoutMs: 10_000 });
    // The cap stays under the open-file limit when that is low (see the ulimit -n 256 test of npm start).
    expect(defaultMaxConnections()).toBeLessThanOrEqual(1000);
    expect(() => parseServeArgs(['--max-connections', '0'], {})).toThrow(/^--max-connections must be a whole number from 1 to 1000000, got "0"/);
    expect(() => parseServeArgs(['--request-timeout', '-1'], {})).toThrow(/needs a value|--request-timeout must be/);
    expect(() => parseServeArgs(['--request-timeout', '1e3'], {})).toThrow(/^--request-timeout must be a number of seconds from 0.1 to 3600, got "1e3"/);
    expect(() => parseServeArgs(['--cache-mb', 'lots'], {})).toThrow(/^--cache-mb must be/);
  });
});
