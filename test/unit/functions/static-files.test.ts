// The local server's file layer (functions/adapters/node/files.ts): what may be read, the size-bounded cache
// that keeps hot files, an ETag per encoding. Counts, not clocks.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseEncoding, encoded, etagFor, fileOf, FileReader, servable, SizedCache, type Sized } from '../../../functions/adapters/node/files.ts';
import { originForm } from '../../../functions/adapters/node/server.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-files-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('FileReader', () => {
  it('reads files of its folder, never dot-files, folders or anything outside', () => {
    mkdirSync(path.join(tmp, 'site', 'a'), { recursive: true });
    mkdirSync(path.join(tmp, 'site', '.git'), { recursive: true });
    writeFileSync(path.join(tmp, 'site', 'a', 'index.json'), '{"a":1}');
    writeFileSync(path.join(tmp, 'site', '.env'), 'SECRET=1');
    writeFileSync(path.join(tmp, 'site', '.git', 'config'), 'x');
    writeFileSync(path.join(tmp, 'outside.json'), '{}');
    const reader = new FileReader(path.join(tmp, 'site'));
    const file = reader.read('a/index.json')!;
    expect(file.body.toString()).toBe('{"a":1}');
    // The identity ETag is the content's sha256, shortened (as the manifest has it).
    expect(etagFor(file, null)).toBe('"015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862"'.slice(0, 33) + '"');
    for (const rel of ['.env', '.git/config', 'a/../.env', '../outside.json', 'a', 'a/', 'missing.json', 'a/index.json/x', '', 'a\\index.json']) {
      expect(reader.read(rel), rel).toBeNull();
      expect(reader.isFile(rel), rel).toBe(false);
    }
    expect(reader.isFile('a/index.json')).toBe(true);
    expect(servable('a/b.json')).toBe(true);
    expect(servable('a/.b.json')).toBe(false);
  });

  it("takes a file's ETag hash from the build's manifest, read again when a new manifest replaces it", () => {
    const site = path.join(tmp, 'listed');
    mkdirSync(path.join(site, 'a'), { recursive: true });
    writeFileSync(path.join(site, 'a', 'index.json'), '{"a":1}');
    writeFileSync(path.join(site, 'b.json'), '{"b":2}');
    // A hash no content has: only the manifest can have given it.
    const listed = (sha: string) => writeFileSync(path.join(site, 'manifest.json'), JSON.stringify({ files: { 'a/index.json': sha.repeat(64) } }));
    listed('c');
    const reader = new FileReader(site);
    expect(reader.read('a/index.json')!.hash).toBe('c'.repeat(32));
    // Not listed: the bytes' own sha256.
    expect(reader.read('b.json')!.hash).toBe(fileOf(Buffer.from('{"b":2}')).hash);
    // A new build's manifest (another file: another inode) is read again.
    rmSync(path.join(site, 'manifest.json'));
    listed('d');
    expect(reader.read('a/index.json')!.hash).toBe('d'.repeat(32));
    // No manifest: hashed.
    rmSync(path.join(site, 'manifest.json'));
    expect(reader.read('a/index.json')!.hash).toBe(fileOf(Buffer.from('{"a":1}')).hash);
  });
});

describe('SizedCache', () => {
  const entry = (size: number): Sized & { id: number } => ({ size, used: false, id: size });

  it('holds at most its size; the oldest entry not asked for since goes first', () => {
    const cache = new SizedCache<Sized>(100);
    for (const [k, size] of [['a', 25], ['b', 25], ['c', 25], ['d', 20]] as const) cache.set(k, entry(size));
    expect(cache.get('a')).toBeDefined(); // a is hot
    cache.set('e', entry(25)); // over by 20: b (the oldest cold one) goes, not a
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.totalSize).toBeLessThanOrEqual(100);
    // An entry over a quarter of the bound is not kept at all.
    expect(cache.set('big', entry(26))).toBe(false);
    expect(cache.get('big')).toBeUndefined();
  });

  it('a compressed variant added to an entry counts against the bound', () => {
    const cache = new SizedCache<Sized>(100);
    const a = entry(20);
    cache.set('a', a);
    for (const k of ['b', 'c', 'd']) cache.set(k, entry(20));
    cache.grow('a', a, 30); // 110 in all: the oldest unused entry goes
    expect(cache.totalSize).toBeLessThanOrEqual(100);
    // Growing an entry no longer in the cache changes nothing.
    const gone = entry(10);
    cache.grow('gone', gone, 50);
    expect(cache.totalSize).toBeLessThanOrEqual(100);
  });

  it('walking more files than it holds keeps it within its bound', () => {
    const cache = new SizedCache<Sized>(10_000);
    for (let i = 0; i < 5000; i++) {
      cache.set(`f${i}`, entry(100 + (i % 50)));
      cache.get(`f${i % 7}`);
    }
    expect(cache.totalSize).toBeLessThanOrEqual(10_000);
    expect(cache.size).toBeLessThan(100);
  });
});

describe('encodings', () => {
  it('br, then gzip, by Accept-Encoding (q=0 refuses); small and compressed files are sent as they are', () => {
    const big = fileOf(Buffer.alloc(4096, 'a'));
    expect(chooseEncoding(big, 'gzip, deflate, br')).toBe('br');
    expect(chooseEncoding(big, 'gzip')).toBe('gzip');
    expect(chooseEncoding(big, 'br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding(big, 'br;q=0.0, gzip;q=0')).toBeNull();
    expect(chooseEncoding(big, 'identity')).toBeNull();
    expect(chooseEncoding(big, undefined)).toBeNull();
    expect(chooseEncoding(fileOf(Buffer.from('{}')), 'br')).toBeNull();
    expect(chooseEncoding({ ...big, compressed: true }, 'br')).toBeNull();
  });

  it('gzip, br and identity each have their own strong ETag', () => {
    const f = fileOf(Buffer.alloc(4096, 'a'));
    expect(encoded(f, 'br').length).toBeLessThan(100);
    expect(encoded(f, 'gzip').length).toBeLessThan(100);
    const tags = [etagFor(f, null), etagFor(f, 'gzip'), etagFor(f, 'br')];
    expect(new Set(tags).size).toBe(3);
    expect(tags[1]).toBe(tags[0]!.replace(/"$/, '-gzip"'));
  });
});

describe('request targets', () => {
  it('absolute-form becomes origin-form (RFC 9112 §3.2.2); other forms become "/"', () => {
    expect(originForm('/api/v1/meta?x=1')).toBe('/api/v1/meta?x=1');
    expect(originForm('http://example.org/api/v1/meta?x=1')).toBe('/api/v1/meta?x=1');
    expect(originForm('HTTPS://example.org:8443/a')).toBe('/a');
    expect(originForm('http://example.org')).toBe('/');
    expect(originForm('http://example.org?q=1')).toBe('/?q=1');
    expect(originForm('*')).toBe('/');
    expect(originForm('example.org:443')).toBe('/');
  });
});
