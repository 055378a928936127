// End to end against a local HTTP server standing in for the publishers (no internet here).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { strToU8, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../build/fetch/cli.ts';
import { MANIFEST } from '../../build/fetch/manifest.ts';
import { FetchRecord, RECORD_FILE } from '../../build/sources/fetch-record.ts';
import {
  OCCUPATION_DATA,
  type Route,
  type StandinServer,
  standinRoutes,
  startStandinServer,
  withoutPins,
} from '../fixtures/fetch/publisher-standins.ts';

const run = promisify(execFile);
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const pathOf = (url: string) => new URL(url).pathname;
const fileUrl = (name: string) => {
  const f = MANIFEST.flatMap((s) => s.files).find((x) => x.name === name);
  if (!f) throw new Error(name);
  return f.url;
};

/** Every file under dir, relative, '/'-separated. */
async function listTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1).replaceAll('\\', '/'))
    .sort();
}

let server: StandinServer;
let work: string;
let out: string;
let lines: string[];
const manifest = withoutPins(MANIFEST);
/** The stand-ins' bodies, made once: each test serves a map of its own, which it may change. */
const standins = standinRoutes(manifest);

async function fetchInProcess(...argv: string[]): Promise<number> {
  lines = [];
  return main(['--base-url', server.baseUrl, '--out', out, ...argv], {
    env: { ODR_FETCH_TIMEOUT_SECONDS: '20' },
    log: (l) => lines.push(l),
    manifest,
  });
}

beforeEach(async () => {
  server = await startStandinServer(new Map<string, Route>(standins));
  work = await mkdtemp(join(tmpdir(), 'odr-fetch-'));
  out = join(work, 'raw');
});

afterEach(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

describe('data:fetch against local stand-ins', () => {
  it('puts every file under its official name, extracts zips and records url, bytes, sha256', async () => {
    expect(await fetchInProcess()).toBe(0);

    const tree = await listTree(out);
    for (const s of manifest) for (const f of s.files) expect(tree).toContain(`${s.id}/${f.name}`);
    expect(tree).toContain('census-naics-2022/2-6 digit_2022_Codes.xlsx');
    expect(tree).toContain('oews-industry-2024/oesm24in4/nat4d_M2024_dl.xlsx');
    const occ = await readFile(join(out, 'onet-db-text/db_29_3_text/Occupation Data.txt'), 'utf8');
    expect(occ).toBe(OCCUPATION_DATA);
    expect(tree.some((p) => p.endsWith('.part'))).toBe(false);

    // The record, checked against hashes computed here from the bytes on disk.
    const record = FetchRecord.parse(JSON.parse(await readFile(join(out, RECORD_FILE), 'utf8')));
    const recorded = record.sources.flatMap((s) => s.files);
    expect(recorded.map((f) => f.path).sort()).toEqual(tree.filter((p) => p !== RECORD_FILE));
    for (const f of recorded) {
      const bytes = await readFile(join(out, f.path));
      expect({ path: f.path, bytes: f.bytes, sha256: f.sha256 }).toEqual({ path: f.path, bytes: bytes.length, sha256: sha256(bytes) });
    }
    const naics = recorded.find((f) => f.path === 'census-naics-2022/2-6 digit_2022_Codes.xlsx');
    expect(naics?.url).toBe('https://www.census.gov/naics/2022NAICS/2-6%20digit_2022_Codes.xlsx');
    const occRec = recorded.find((f) => f.path === 'onet-db-text/db_29_3_text/Occupation Data.txt');
    expect(occRec).toMatchObject({ from: 'onet-db-text/db_29_3_text.zip', sha256: sha256(strToU8(OCCUPATION_DATA)) });
    expect(record.base_url).toBe(server.baseUrl);
    expect(record.sources.find((s) => s.id === 'onet-db-text')?.attribution).toMatch(/CC BY 4\.0/);

    // Requests went to the publishers' paths, with a User-Agent carrying a contact.
    expect(server.requests.map((r) => r.path)).toContain('/naics/2022NAICS/2-6%20digit_2022_Codes.xlsx');
    for (const r of server.requests) expect(r.userAgent).toMatch(/contact: \S+@/);

    // The command names the sources it cannot download and says the build treats them as optional.
    const text = lines.join('\n');
    expect(text).toMatch(/cannot download \(the build treats them as optional/);
    for (const id of ['aei-2025-09-15', 'aei-2026-01-15', 'aei-2026-03-24', 'onet-30-derived', 'onet-30-1-skills']) expect(text).toContain(`    ${id}: `);
    expect(text).toMatch(/Summary: 13 fetched, 0 already present, 0 failed, 5 not downloadable/);
  });

  it('skips files already present with the recorded size and sha256, and rewrites the same record', async () => {
    expect(await fetchInProcess()).toBe(0);
    const firstRecord = await readFile(join(out, RECORD_FILE), 'utf8');
    const requestsAfterFirst = server.requests.length;

    expect(await fetchInProcess()).toBe(0);
    expect(server.requests.length).toBe(requestsAfterFirst);
    expect(lines.join('\n')).toMatch(/Summary: 0 fetched, 13 already present/);
    expect(await readFile(join(out, RECORD_FILE), 'utf8')).toBe(firstRecord);

    // A lost extracted file comes back from the zip on disk, without downloading again.
    await rm(join(out, 'onet-db-text/db_29_3_text/Occupation Data.txt'));
    expect(await fetchInProcess('--only', 'onet-db-text')).toBe(0);
    expect(server.requests.length).toBe(requestsAfterFirst);
    expect(await readFile(join(out, 'onet-db-text/db_29_3_text/Occupation Data.txt'), 'utf8')).toBe(OCCUPATION_DATA);

    // A changed file is fetched again; --force fetches regardless.
    await writeFile(join(out, 'eloundou-2023/full_labelset.tsv'), 'tampered');
    expect(await fetchInProcess('--only', 'eloundou-2023')).toBe(0);
    expect(server.requests.length).toBe(requestsAfterFirst + 1);
    expect(await fetchInProcess('--only', 'census-naics-2022', '--force')).toBe(0);
    expect(server.requests.length).toBe(requestsAfterFirst + 2);
    expect(await readFile(join(out, RECORD_FILE), 'utf8')).toBe(firstRecord);
  });

  it('exits non-zero naming a required source and its URL on a 404; an optional failure does not', async () => {
    server.routes.set(pathOf(fileUrl('occupation.xlsx')), 404);
    server.routes.set(pathOf(fileUrl('db_29_3_excel.zip')), 404);
    expect(await fetchInProcess()).toBe(1);
    const text = lines.join('\n');
    expect(text).toContain(`FAILED (required): bls-ep-occupation: ${server.baseUrl}/emp/ind-occ-matrix/occupation.xlsx: HTTP 404`);
    expect(text).toContain('failed (optional; the build runs without it): onet-db-excel');
    expect(text).toMatch(/Required source\(s\) failed: bls-ep-occupation\./);
    expect(existsSync(join(out, 'bls-ep-occupation/occupation.xlsx'))).toBe(false);

    // With only the optional one failing, the exit code is 0.
    server.routes.set(pathOf(fileUrl('occupation.xlsx')), standins.get(pathOf(fileUrl('occupation.xlsx')))!);
    expect(await fetchInProcess()).toBe(0);
  });

  it('refuses a zip with an entry that escapes the folder, and extracts nothing from it', async () => {
    const onet = manifest.find((s) => s.id === 'onet-db-text')!.files[0]!;
    const evil = zipSync({ 'db_29_3_text/Occupation Data.txt': strToU8(OCCUPATION_DATA), '../evil.txt': strToU8('pwned') });
    server.routes.set(pathOf(onet.url), evil);
    expect(await fetchInProcess('--only', 'onet-db-text')).toBe(1);
    expect(lines.join('\n')).toMatch(/FAILED \(required\): onet-db-text: .*db_29_3_text\.zip: db_29_3_text\.zip rejected, nothing extracted: refused entry "\.\.\/evil\.txt" \(parent-directory/);
    expect(existsSync(join(out, 'evil.txt'))).toBe(false);
    expect(existsSync(join(work, 'evil.txt'))).toBe(false);
    expect(await listTree(out)).toEqual([RECORD_FILE]);
  });

  it('rejects an archive missing an expected official file', async () => {
    const onet = manifest.find((s) => s.id === 'onet-db-text')!.files[0]!;
    server.routes.set(pathOf(onet.url), zipSync({ 'db_29_3_text/Job Zones.txt': strToU8('x') }));
    expect(await fetchInProcess('--only', 'onet-db-text')).toBe(1);
    expect(lines.join('\n')).toMatch(/missing expected files: Occupation Data\.txt, /);
  });

  it('leaves no partial file when the connection drops, and keeps the previous good file', async () => {
    const path = pathOf(fileUrl('occupation.xlsx'));
    const dropMidway: Route = (_req, res) => {
      res.writeHead(200, { 'content-length': 100_000 });
      res.write(Buffer.alloc(1000, 1));
      setTimeout(() => res.socket?.destroy(), 20);
    };
    server.routes.set(path, dropMidway);
    expect(await fetchInProcess('--only', 'bls-ep-occupation')).toBe(1);
    expect(lines.join('\n')).toMatch(/FAILED \(required\): bls-ep-occupation: http:\/\/127\.0\.0\.1:\d+\/emp\/ind-occ-matrix\/occupation\.xlsx/);
    expect(await listTree(out)).toEqual([RECORD_FILE]);

    // A good copy on disk survives a failed --force download untouched.
    server.routes.set(path, strToU8('good copy'));
    expect(await fetchInProcess('--only', 'bls-ep-occupation')).toBe(0);
    server.routes.set(path, dropMidway);
    expect(await fetchInProcess('--only', 'bls-ep-occupation', '--force')).toBe(1);
    expect(await readFile(join(out, 'bls-ep-occupation/occupation.xlsx'), 'utf8')).toBe('good copy');
    expect((await listTree(out)).filter((p) => p.endsWith('.part'))).toEqual([]);
  });

  it('rejects a download that differs from the pinned sha256 of a commit-pinned URL', async () => {
    lines = [];
    const code = await main(['--base-url', server.baseUrl, '--out', out, '--only', 'eloundou-2023'], {
      env: {},
      log: (l) => lines.push(l),
      manifest: MANIFEST, // pins kept: the stand-in's bytes are not the real file's
    });
    expect(code).toBe(1);
    expect(lines.join('\n')).toMatch(/eloundou-2023: .*full_labelset\.tsv: got \d+ bytes, expected 3893248 \(pinned/);
    expect(await listTree(out)).toEqual([RECORD_FILE]);
  });

  it('takes a source list from --manifest and enforces its pins: a matching file is kept, another rejected', async () => {
    const labels = MANIFEST.find((s) => s.id === 'eloundou-2023')!;
    const served = standins.get(pathOf(labels.files[0]!.url))!;
    const pinTo = (sha: string) => [{ ...labels, files: [{ ...labels.files[0]!, bytes: served.length, sha256: sha }] }];
    const list = join(work, 'sources.json');
    const fetchWith = async () => {
      lines = [];
      return main(['--base-url', server.baseUrl, '--out', out, '--manifest', list], { env: {}, log: (l) => lines.push(l) });
    };

    await writeFile(list, JSON.stringify(pinTo('0'.repeat(64))));
    expect(await fetchWith()).toBe(1);
    expect(lines.join('\n')).toMatch(/full_labelset\.tsv: sha256 [0-9a-f]{64} differs from the pinned 0{64}/);
    expect(await listTree(out)).toEqual([RECORD_FILE]);

    await writeFile(list, JSON.stringify(pinTo(sha256(served))));
    expect(await fetchWith()).toBe(0);
    expect(lines[0]).toBe(`Using the source list in ${list} (1 sources) instead of the built-in one (--manifest / ODR_FETCH_MANIFEST); its pinned sizes and sha256 are enforced.`);
    const record = FetchRecord.parse(JSON.parse(await readFile(join(out, RECORD_FILE), 'utf8')));
    expect(record.manifest).toBe(list);
    expect(record.sources.map((s) => s.id)).toEqual(['eloundou-2023']);
  });

  it('refuses a --manifest file that is not a valid source list, in one line, before any download', async () => {
    const list = join(work, 'bad.json');
    await writeFile(list, JSON.stringify([{ id: 'x', files: [{ url: 'ftp://example.org/a', name: '../a' }] }]));
    lines = [];
    expect(await main(['--base-url', server.baseUrl, '--out', out, '--manifest', list], { env: {}, log: (l) => lines.push(l) })).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^data:fetch: the source list .*bad\.json is not a valid manifest: .*name: must be a bare file name/);
    expect(server.requests).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it('rejects unknown source ids', async () => {
    expect(await fetchInProcess('--only', 'no-such-source')).toBe(2);
    expect(lines.join('\n')).toMatch(/unknown source id\(s\): no-such-source/);
  });
});

describe('data:fetch CLI (node --import tsx build/fetch/main.ts, what npm run data:fetch runs without npm)', () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, ['--import', 'tsx', 'build/fetch/main.ts', ...args], { env: { ...process.env, ...env }, cwd: process.cwd() }).then(
      (r) => ({ code: 0, stdout: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
    );

  it('fetches from the base URL into --out and exits 0', async () => {
    const r = await cli(['--base-url', server.baseUrl, '--out', out, '--only', 'onet-db-text,census-naics-2022']);
    expect(r.stdout).toContain('[census-naics-2022] ok');
    expect(r.code).toBe(0);
    expect(await readFile(join(out, 'onet-db-text/db_29_3_text/Occupation Data.txt'), 'utf8')).toBe(OCCUPATION_DATA);
    const record = FetchRecord.parse(JSON.parse(await readFile(join(out, RECORD_FILE), 'utf8')));
    expect(record.sources.map((s) => s.id)).toEqual(['onet-db-text', 'census-naics-2022']);
  });

  it('exits 1 naming the required source and URL on a 404 (base URL from ODR_FETCH_BASE_URL)', async () => {
    server.routes.set(pathOf(fileUrl('occupation.xlsx')), 404);
    const r = await cli(['--out', out, '--only', 'bls-ep-occupation'], { ODR_FETCH_BASE_URL: server.baseUrl });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`FAILED (required): bls-ep-occupation: ${server.baseUrl}/emp/ind-occ-matrix/occupation.xlsx: HTTP 404`);
  });
});
