// The output tree's writing thread: files land with their bytes and come back with their sha256, a
// write that cannot be done fails the tree (never silently), and a reused tree leaves files that
// are already right alone.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OutputTree, writeTree } from '../../../build/emit/write.ts';
import { fileBody } from '../../../build/emit/file-body.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'odr-tree-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('TreeWriter', () => {
  it('writes every file, in folders of their own, across many batches', async () => {
    const root = tmp();
    const files = Array.from({ length: 300 }, (_, i) => ({ path: `x/${i}/index.json`, body: i % 2 ? `{"n":${i}}` : new Uint8Array([i % 256, 1, 2]) }));
    const written = await writeTree(root, [...files, { path: 'empty.txt', body: '' }]);
    expect(written).toHaveLength(301);
    expect(readFileSync(path.join(root, 'x/7/index.json'), 'utf8')).toBe('{"n":7}');
    expect([...readFileSync(path.join(root, 'x/8/index.json'))]).toEqual([8, 1, 2]);
    expect(statSync(path.join(root, 'empty.txt')).size).toBe(0);
  });

  it('writes files of any size byte for byte, through batch buffers that are filled again', async () => {
    const root = tmp();
    const bytesOf = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) & 0xff);
    // 300 KB files fill a 1 MB batch buffer 3 at a time: 40 of them reuse the returned buffers many
    // times over; a file larger than a batch buffer gets one of its own size, between two others.
    const sizes = [...Array.from({ length: 20 }, () => 300_000), 2_500_000, 1 << 20, (1 << 20) + 1, ...Array.from({ length: 20 }, () => 300_000), 1];
    const files = sizes.map((n, i) => ({ path: `f/${i}.bin`, body: i % 3 === 0 ? bytesOf(n, i) : Buffer.from(bytesOf(n, i)).toString('latin1').replace(/[\x80-\xff]/g, 'a') }));
    const written = await writeTree(root, files);
    expect(written.map((w) => w.path)).toEqual(files.map((f) => f.path));
    for (const [i, f] of files.entries()) {
      const want = typeof f.body === 'string' ? Buffer.from(f.body) : Buffer.from(f.body);
      expect(readFileSync(path.join(root, f.path)).equals(want)).toBe(true);
      // The hash the writing thread sends back, for the batch the file was in.
      expect(written[i]).toEqual({ path: f.path, bytes: want.length, sha256: createHash('sha256').update(want).digest('hex') });
    }
  });

  it('copies a body kept on disk between other files, with the size and sha256 read from its file', async () => {
    const scratch = tmp();
    const big = Uint8Array.from({ length: 3_000_001 }, (_, i) => (i * 13) & 0xff);
    writeFileSync(path.join(scratch, 'db.sqlite'), big);
    const body = fileBody(path.join(scratch, 'db.sqlite'));
    expect(body).toEqual({ file: path.join(scratch, 'db.sqlite'), bytes: big.length, sha256: createHash('sha256').update(big).digest('hex') });
    const root = tmp();
    const written = await writeTree(root, [{ path: 'a.json', body: '{}' }, { path: 'downloads/db.sqlite', body }, { path: 'b.json', body: '[]' }]);
    expect(readFileSync(path.join(root, 'downloads/db.sqlite')).equals(big)).toBe(true);
    expect(written.map((w) => [w.path, w.bytes, w.sha256])).toEqual([
      ['a.json', 2, createHash('sha256').update('{}').digest('hex')],
      ['downloads/db.sqlite', big.length, body.sha256],
      ['b.json', 2, createHash('sha256').update('[]').digest('hex')],
    ]);
  });

  it('leaves a body kept on disk alone in a reused tree when the file there has its bytes, and replaces it otherwise', async () => {
    const scratch = tmp();
    writeFileSync(path.join(scratch, 'same.bin'), 'same bytes');
    writeFileSync(path.join(scratch, 'changed.bin'), 'new bytes');
    const base = tmp();
    const out = path.join(base, 'dist');
    mkdirSync(path.join(base, '.dist-previous'), { recursive: true });
    writeFileSync(path.join(base, '.dist-previous/same.bin'), 'same bytes');
    writeFileSync(path.join(base, '.dist-previous/changed.bin'), 'old bytes, longer');
    const tree = await OutputTree.open(out, { reuse: true });
    await tree.add('same.bin', fileBody(path.join(scratch, 'same.bin')));
    await tree.add('changed.bin', fileBody(path.join(scratch, 'changed.bin')));
    await tree.commit();
    expect(tree.unchanged).toBe(1);
    expect(readFileSync(path.join(out, 'same.bin'), 'utf8')).toBe('same bytes');
    expect(readFileSync(path.join(out, 'changed.bin'), 'utf8')).toBe('new bytes');
  });

  it('fails when a file cannot be written (a file stands where its folder must go)', async () => {
    const root = tmp();
    await expect(writeTree(root, [{ path: 'a', body: 'file' }, { path: 'a/b.json', body: '{}' }])).rejects.toThrow(/ENOTDIR|EEXIST/);
  });

  it('counts the files a reused tree already holds, and rewrites the others', async () => {
    const base = tmp();
    const out = path.join(base, 'dist');
    // The generation before the current one, as a swap leaves it.
    const previous = path.join(base, '.dist-previous');
    mkdirSync(path.join(previous, 'a'), { recursive: true });
    writeFileSync(path.join(previous, 'a/same.json'), '{"same":true}');
    writeFileSync(path.join(previous, 'a/longer.json'), '{"x":1}   ');
    const tree = await OutputTree.open(out, { reuse: true });
    expect(tree.reused).toBe(true);
    await tree.add('a/same.json', '{"same":true}');
    await tree.add('a/longer.json', '{"x":1}');
    await tree.add('b/new.json', '{}');
    const written = await tree.commit();
    expect(tree.unchanged).toBe(1);
    // A file left alone is listed with its hash like any other.
    expect(written.map((w) => w.sha256)).toEqual(['{"same":true}', '{"x":1}', '{}'].map((t) => createHash('sha256').update(t).digest('hex')));
    expect(readFileSync(path.join(out, 'a/longer.json'), 'utf8')).toBe('{"x":1}');
    expect(readFileSync(path.join(out, 'b/new.json'), 'utf8')).toBe('{}');
  });

  it('replaces, in a reused tree, a file that became a folder and a folder that became a file', async () => {
    const base = tmp();
    const out = path.join(base, 'dist');
    const previous = path.join(base, '.dist-previous');
    // The generation before: _worker.js one bundle file, and a folder of pages where a file now goes.
    mkdirSync(path.join(previous, 'pages/old'), { recursive: true });
    writeFileSync(path.join(previous, '_worker.js'), 'one file');
    writeFileSync(path.join(previous, 'pages/old/index.html'), '<p>old</p>');
    const tree = await OutputTree.open(out, { reuse: true });
    await tree.add('_worker.js/index.js', 'entry');
    await tree.add('_worker.js/mcp.js', 'module');
    await tree.add('pages', 'now a file');
    const written = await tree.commit();
    expect(written.map((w) => w.path)).toEqual(['_worker.js/index.js', '_worker.js/mcp.js', 'pages']);
    expect(readFileSync(path.join(out, '_worker.js/index.js'), 'utf8')).toBe('entry');
    expect(readFileSync(path.join(out, 'pages'), 'utf8')).toBe('now a file');
  });
});
