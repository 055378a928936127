// `npm start` on a fresh machine: a copy of the repository with no data/raw and no mirror beside
// it, the publishers replaced by a local stand-in server (ODR_FETCH_BASE_URL) that serves, at the
// publishers' URL paths and in their packaging (zip, xlsx, txt, csv, tsv), a small hand-written
// data set (test/fixtures/fetch/publishers, see publisher-files.ts). Then the same copy started
// again as a maintainer does after a source changed: dist/ is brought up to date before it is
// served, unless --no-build says to serve it as it is.
//
// Integrity pins: the built-in manifest pins the sha256 of three files (commit-pinned GitHub URLs).
// Those pins are facts about the real files, so the stand-ins cannot meet them and must not be
// made to. The test instead gives the fetch its own source list (ODR_FETCH_MANIFEST, the
// documented --manifest option): the built-in list with those three files pinned to the fixture's
// bytes. The fetch enforces that list's pins as it would the built-in ones; the second test
// shows it by serving a tampered pinned file.
// Likewise seeds/ep-factor-causes.json classifies the real BLS Table 1.12's statements, and the build
// refuses a table that does not match it; the copy gets the stand-in table's classification instead
// (test/fixtures/fetch/ep-factor-causes.json).
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST } from '../../build/fetch/manifest.ts';
import type { Manifest } from '../../build/sources/registry-schema.ts';
import { publisherFiles } from '../fixtures/fetch/publisher-files.ts';
import { startStandinServer, type Route, type StandinServer } from '../fixtures/fetch/publisher-standins.ts';
import { killStarted, portFreed, servingUrl, startNpm, type NpmStart } from '../support/npm-start.ts';
import { treeDigest } from '../support/tree-digest.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'odr-fresh-'));
const started: ChildProcess[] = [];
const UA = 'odr-tests test@example.org';

const { routes: publisherRoutes, absent } = publisherFiles(MANIFEST);
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const pathOf = (url: string) => new URL(url).pathname;
const pinnedFiles = MANIFEST.flatMap((s) => s.files.filter((f) => f.sha256 !== undefined));

/** The built-in list with every pinned file pinned to the fixture's bytes instead of the real file's. */
const testManifest: Manifest = MANIFEST.map((s) => ({
  ...s,
  files: s.files.map((f) => {
    if (f.sha256 === undefined) return f;
    const body = publisherRoutes.get(pathOf(f.url))!;
    return { ...f, bytes: body.length, sha256: sha256(body) };
  }),
}));
const manifestFile = path.join(tmp, 'sources.test-manifest.json');

beforeAll(() => writeFileSync(manifestFile, JSON.stringify(testManifest, null, 2)));

afterAll(() => {
  killStarted(started);
  rmSync(tmp, { recursive: true, force: true });
});

/** This process's environment without what would choose the port, host, sources or source list for npm start. */
const { PORT: _p, HOST: _h, ODR_SOURCE_DIR: _s, ODR_FETCH_MANIFEST: _m, ...ownEnv } = process.env;

/** The repository as a fresh clone has it, in a folder with no ../shared/data beside it. */
function freshCopy(name: string): string {
  const copy = path.join(tmp, name, 'repo');
  for (const p of ['build', 'functions', 'seeds', 'templates', 'docs', 'releases', 'CITATION.cff', 'package.json', 'tsconfig.json']) cpSync(path.join(repoRoot, p), path.join(copy, p), { recursive: true });
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  cpSync(path.join(repoRoot, 'test/fixtures/fetch/ep-factor-causes.json'), path.join(copy, 'seeds', 'ep-factor-causes.json'));
  return copy;
}

/** `direct`: npm's start script without npm (see startNpm), where the test is about what it does, not about the npm chain. */
function npmStart(cwd: string, standin: StandinServer, sourceList = manifestFile, direct = false): NpmStart {
  return startNpm(started, ['--port', '0', '--workers', '1'], { cwd, env: { ...ownEnv, ODR_FETCH_BASE_URL: standin.baseUrl, ODR_FETCH_MANIFEST: sourceList, ODR_FETCH_USER_AGENT: UA }, direct });
}

const requestedPaths = (standin: StandinServer) => new Set(standin.requests.map((r) => r.path));

describe('npm start on a fresh machine', () => {
  it('has a fixture for every file of every required source, in the packaging the manifest names', () => {
    const optional = new Set(MANIFEST.filter((s) => !s.required).flatMap((s) => s.files.map((f) => f.name)));
    expect(absent.filter((n) => !optional.has(n))).toEqual([]);
    // The pinned files are pinned in the test's list to exactly the bytes the stand-in serves.
    expect(pinnedFiles.map((f) => f.name).sort()).toEqual(['full_labelset.tsv', 'iwa_metrics.csv', 'soc_ai_applicability_scores.csv']);
    for (const f of testManifest.flatMap((s) => s.files).filter((f) => f.sha256)) expect(f.sha256).toBe(sha256(publisherRoutes.get(pathOf(f.url))!));
  });

  /** The copy the first test fetched into and built (the next test starts it again). */
  let fetched: string | null = null;

  it('says what it downloads and from whom, fetches every required file, builds, serves the fixture occupations, and stops on SIGTERM', async () => {
    const copy = freshCopy('ok');
    const standin = await startStandinServer(new Map<string, Route>(publisherRoutes));
    const { proc, out, exited } = npmStart(copy, standin);
    try {
      const url = await servingUrl({ out, exited });

      // The plan: every downloadable source with its publisher, then the fetch with the test's list.
      expect(out()).toContain('No source data found: fetching it from the publishers into data/raw/ first');
      for (const s of MANIFEST.filter((x) => x.files.length > 0)) expect(out()).toContain(`${s.title} (${s.required ? 'required' : 'optional'}) from ${s.publisher}`);
      expect(out()).toContain(`Using the source list in ${manifestFile} (${MANIFEST.length} sources)`);
      const requested = requestedPaths(standin);
      for (const s of MANIFEST.filter((x) => x.required)) for (const f of s.files) expect(requested, f.url).toContain(pathOf(f.url));
      expect(standin.requests.every((r) => r.userAgent === UA)).toBe(true);
      // The optional Excel release has no stand-in (404): reported, and the build goes on without it.
      expect(out()).toContain('failed (optional; the build runs without it): onet-db-excel');
      const record = JSON.parse(readFileSync(path.join(copy, 'data', 'raw', 'SOURCES.fetched.json'), 'utf8'));
      expect(record.manifest).toBe(manifestFile);
      expect(record.base_url).toBe(standin.baseUrl);
      expect(existsSync(path.join(copy, 'data', 'raw', 'oews-industry-2024', 'oesm24in4', 'nat5d_6d_M2024_dl.xlsx'))).toBe(true);
      expect(out()).toContain('has no build; building (shape percentile) first');

      // Real HTTP against the server npm start runs: the fixture's three occupations, nothing else.
      const meta = (await (await fetch(`${url}/api/v1/meta`)).json()) as { counts: { occupations: number; tasks: number } };
      expect(meta.counts).toMatchObject({ occupations: 3, tasks: 9 });
      const nurse = await fetch(`${url}/api/v1/occupations/29-1141.00`);
      expect(nurse.status).toBe(200);
      // Wage and employment are the May 2025 OEWS stand-in's (publishers/oesm25nat.zip, an xlsx in a zip),
      // the projection the EP stand-in's (publishers/occupation.xlsx, sheet "Table 1.2").
      expect(await nurse.json()).toMatchObject({
        soc_code: '29-1141.00',
        title: 'Registered Nurses',
        labor_data: { median_annual_wage: 93600, employment: 3300000, reference_period: 'May 2025', projected_employment_change_pct: 5, projected_openings_annual: 189100 },
      });
      const search = (await (await fetch(`${url}/api/v1/occupations?q=nurse`)).json()) as { count: number; data: Array<{ soc_code: string }> };
      expect(search.count).toBe(1);
      expect(search.data.map((r) => r.soc_code)).toEqual(['29-1141.00']);
      const list = (await (await fetch(`${url}/api/v1/occupations`)).json()) as { count: number; data: Array<{ soc_code: string }> };
      expect(list.data.map((r) => r.soc_code)).toEqual(['15-1252.00', '29-1141.00', '43-4051.00']);
      const home = await fetch(`${url}/`);
      expect(home.status).toBe(200);
      expect(home.headers.get('content-type')).toContain('text/html');
      expect(await home.text()).toContain('Software Developers');
      const page = await fetch(`${url}/occupations/registered-nurses`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Registered Nurses');

      // SIGTERM to npm (a process manager's stop): the server goes and the port is free.
      const port = Number(new URL(url).port);
      proc.kill('SIGTERM');
      await exited;
      expect(await portFreed(port)).toBe(true);
      fetched = copy;
    } finally {
      await standin.close();
    }
  }, 90_000);

  it('started again after a source changed, rebuilds dist/ before serving (--no-build serves it as it was); with nothing changed leaves it alone', async () => {
    expect(fetched, 'the test before fetched and built the copy this one restarts').not.toBeNull();
    const copy = fetched!;
    // The sources are in data/raw now: no fetch, and no stand-in to fetch from. The start script
    // runs without npm (the test before went through npm).
    const title = async (args: string[] = []) => {
      const run = startNpm(started, ['--port', '0', '--workers', '1', ...args], { cwd: copy, env: ownEnv, direct: true });
      const url = await servingUrl(run);
      const nurse = (await (await fetch(`${url}/api/v1/occupations/29-1141.00`)).json()) as { title: string };
      run.proc.kill('SIGTERM');
      await run.exited;
      return { title: nurse.title, out: run.out() };
    };
    const occupations = readdirSync(path.join(copy, 'data', 'raw'), { recursive: true, encoding: 'utf8' }).filter((f) => path.basename(f) === 'Occupation Data.txt');
    expect(occupations).toHaveLength(1);
    const file = path.join(copy, 'data', 'raw', occupations[0]!);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('\tRegistered Nurses\t');
    writeFileSync(file, text.replace('\tRegistered Nurses\t', '\tRegistered Nurses (Edited)\t'));
    // As a fetch of the changed source records it: the build refuses a file that differs from its record.
    const recordFile = path.join(copy, 'data', 'raw', 'SOURCES.fetched.json');
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as { sources: Array<{ files: Array<{ path: string; bytes: number; sha256: string }> }> };
    const entry = record.sources.flatMap((s) => s.files).find((f) => path.join(copy, 'data', 'raw', f.path) === file)!;
    const edited = readFileSync(file);
    Object.assign(entry, { bytes: edited.length, sha256: sha256(edited) });
    writeFileSync(recordFile, `${JSON.stringify(record, null, 2)}\n`);

    const asItWas = await title(['--no-build']);
    expect(asItWas.title).toBe('Registered Nurses');
    expect(asItWas.out).not.toContain('up to date');

    const rebuilt = await title();
    expect(rebuilt.out).toContain(`Bringing ${path.join(copy, 'dist')} (shape percentile) up to date with the sources and the code first`);
    expect(rebuilt.out).toMatch(/\(sources: 1 of \d+ files parsed, the others read from the cache\)/);
    expect(rebuilt.title).toBe('Registered Nurses (Edited)');

    const again = await title();
    expect(again.out).toContain(`already holds this build's`);
    expect(again.title).toBe('Registered Nurses (Edited)');

    // A source broken since: the build fails, nothing is served, dist/ stays as it was (byte for
    // byte; the start after this one serves it).
    const dist = treeDigest(path.join(copy, 'dist'));
    writeFileSync(file, 'this is not the O*NET occupation table\n');
    const broken = startNpm(started, ['--port', '0', '--workers', '1'], { cwd: copy, env: ownEnv, direct: true });
    expect(await broken.exited).toBe(1);
    expect(broken.out()).toContain('Occupation Data.txt');
    expect(broken.out()).toContain(`The build failed (see above) and left ${path.join(copy, 'dist')} as it was; nothing is served.`);
    expect(broken.out()).not.toContain('Serving ');
    expect(treeDigest(path.join(copy, 'dist'))).toBe(dist);

    // No sources at all any more: dist/ is served as it was built, and npm start says so.
    renameSync(path.join(copy, 'data', 'raw'), path.join(copy, 'data', 'raw-moved'));
    const noSources = await title();
    expect(noSources.out).toContain(`No source data found (see data/README.md): serving ${path.join(copy, 'dist')} as it was built, shape percentile`);
    expect(noSources.title).toBe('Registered Nurses (Edited)');
  }, 90_000);

  it('rejects a pinned file whose bytes differ from its pin: nothing is built, nothing served', async () => {
    const copy = freshCopy('tampered');
    const routes = new Map<string, Route>(publisherRoutes);
    const labels = pathOf(pinnedFiles.find((f) => f.name === 'full_labelset.tsv')!.url);
    const tampered = new Uint8Array(publisherRoutes.get(labels)!);
    const at = tampered.length - 2;
    tampered[at] = tampered[at]! ^ 1;
    routes.set(labels, tampered);
    const standin = await startStandinServer(routes);
    const { out, exited } = npmStart(copy, standin, manifestFile, true);
    const code = await exited;
    await standin.close();
    expect(code).toBe(1);
    expect(out()).toMatch(/FAILED full_labelset\.tsv: .*: sha256 [0-9a-f]{64} differs from the pinned [0-9a-f]{64}/);
    expect(out()).toContain('The data fetch failed (see above); nothing was built.');
    expect(out()).not.toContain('Serving ');
    expect(existsSync(path.join(copy, 'data', 'raw', 'eloundou-2023', 'full_labelset.tsv'))).toBe(false);
    expect(existsSync(path.join(copy, 'dist'))).toBe(false);
  }, 60_000);

  it('stops with a plain message when a download is corrupt (an xlsx that is not one), and never serves a half-made dist', async () => {
    const copy = freshCopy('corrupt');
    const routes = new Map<string, Route>(publisherRoutes);
    const projections = MANIFEST.find((s) => s.id === 'bls-ep-occupation')!.files[0]!;
    routes.set(pathOf(projections.url), strToU8('<html><body>Access Denied</body></html>\n'));
    const standin = await startStandinServer(routes);
    const { out, exited } = npmStart(copy, standin, manifestFile, true);
    const code = await exited;
    await standin.close();
    expect(code).toBe(1);
    // The fetch cannot know an xlsx is bad (BLS pins nothing); the build names the file.
    expect(out()).toContain('has no build; building (shape percentile) first');
    expect(out()).toContain('bls-ep-occupation/occupation.xlsx: not a readable xlsx workbook');
    expect(out()).not.toContain('Serving ');
    expect(out()).not.toMatch(/\n\s+at .*\.ts:\d+/);
    expect(existsSync(path.join(copy, 'dist', 'manifest.json'))).toBe(false);
  }, 60_000);

  it('stops in one line, before any download, when ODR_FETCH_MANIFEST names no valid source list', async () => {
    const copy = freshCopy('bad-list');
    const standin = await startStandinServer(new Map<string, Route>(publisherRoutes));
    const missing = path.join(tmp, 'no-such-list.json');
    const { out, exited } = npmStart(copy, standin, missing);
    const code = await exited;
    await standin.close();
    expect(code).toBe(1);
    expect(out().trim()).toMatch(new RegExp(`^cannot read the source list ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ENOENT`));
    expect(out().trim().split('\n')).toHaveLength(1);
    expect(standin.requests).toEqual([]);
    expect(existsSync(path.join(copy, 'data'))).toBe(false);
  }, 60_000);
});
