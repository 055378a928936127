// `npm start` on a fresh machine: a copy of the repository with no data/raw and no mirror beside
// it, the publishers replaced by the local stand-in server (ODR_FETCH_BASE_URL). npm start must
// say what it will download, fetch every required file into data/raw, and only then build.
// The stand-ins are tiny made-up files (test/fixtures/fetch), not real data, so the build that
// follows must fail with a plain message, and the server must not start on a half-made dist.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { MANIFEST } from '../../../build/fetch/manifest.ts';
import { startStandinServer, standinRoutes, type Route } from '../../fixtures/fetch/publisher-standins.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'odr-fresh-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A file of the mirror whose name ends with `name` and whose sha256 is `sha`, if any. */
function mirrorFile(name: string, sha: string): Uint8Array | null {
  const mirror = path.resolve(repoRoot, '..', 'shared', 'data');
  if (!existsSync(mirror)) return null;
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const f of walk(mirror).filter((f) => f.endsWith(name))) {
    const body = readFileSync(f);
    if (createHash('sha256').update(body).digest('hex') === sha) return body;
  }
  return null;
}

it('fetches the sources from the publishers (stand-ins) before building, and never serves a failed build', async () => {
  // The repository as a fresh clone has it, in a folder with no ../shared/data beside it.
  const copy = path.join(tmp, 'repo');
  for (const p of ['build', 'functions', 'seeds', 'templates', 'docs', 'package.json', 'tsconfig.json']) cpSync(path.join(repoRoot, p), path.join(copy, p), { recursive: true });
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'), 'dir');

  const routes: Map<string, Route> = standinRoutes(MANIFEST);
  // Files pinned by sha256 in the manifest must be the real bytes: taken from the mirror when it has them.
  for (const s of MANIFEST) {
    for (const f of s.files) {
      if (!f.sha256) continue;
      const real = mirrorFile(f.name, f.sha256);
      if (real) routes.set(new URL(f.url).pathname, real);
    }
  }
  const standin = await startStandinServer(routes);
  const { PORT: _p, HOST: _h, ODR_SOURCE_DIR: _s, ...env } = process.env;
  const proc = spawn('npm', ['start', '--silent', '--', '--port', '0'], {
    cwd: copy,
    env: { ...env, ODR_FETCH_BASE_URL: standin.baseUrl, ODR_FETCH_USER_AGENT: 'odr-tests test@example.org' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((r) => proc.once('exit', (c) => r(c)));
  await standin.close();

  // It said what it would fetch, from whom, then fetched every required file from the publisher paths.
  expect(out).toContain('No source data found: fetching it from the publishers into data/raw/ first');
  expect(out).toContain('from U.S. Bureau of Labor Statistics');
  const requested = new Set(standin.requests.map((r) => r.path));
  for (const s of MANIFEST.filter((x) => x.required)) for (const f of s.files) expect(requested, f.url).toContain(new URL(f.url).pathname);
  expect(standin.requests.every((r) => r.userAgent === 'odr-tests test@example.org')).toBe(true);
  const record = JSON.parse(readFileSync(path.join(copy, 'data', 'raw', 'SOURCES.fetched.json'), 'utf8'));
  expect(JSON.stringify(record)).toContain('onet-db-text');
  // Then it built from data/raw; the stand-ins are not real data, so the build stops, plainly.
  expect(out).toContain('has no build; building (shape percentile) first');
  expect(out).not.toContain('Serving ');
  expect(code).toBe(1);
  expect(out).not.toMatch(/\n\s+at .*\.ts:\d+/);
  expect(existsSync(path.join(copy, 'dist', 'manifest.json'))).toBe(false);
}, 240_000);
