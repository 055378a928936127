// Files a stopped build left half-written in the caches (build/cache/aside.ts): removed when the
// process that wrote them is gone, kept while it runs, and nothing else is touched.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { asideName, removeLeftAside } from '../../../build/cache/aside.ts';
import { processGone, processId, processStart } from '../../../build/process-id.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-aside-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('files left aside in the caches', () => {
  it('names a file written aside after this process and thread', () => {
    expect(asideName('/c/model/k.parts')).toBe(`/c/model/k.parts.${process.pid}-${threadId}.tmp`);
  });

  it('removes those of gone processes, at the top and one folder down, and keeps the rest', async () => {
    // A process that has exited: its pid names no running process.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const dir = path.join(tmp, 'cache');
    mkdirSync(path.join(dir, 'model'), { recursive: true });
    mkdirSync(path.join(dir, 'sources', 'deeper'), { recursive: true });
    const put = (rel: string) => writeFileSync(path.join(dir, rel), 'x');
    const left = ['file-hashes.json.' + gone + '-0.tmp', path.join('model', `k.parts.${gone}-3.tmp`)];
    const kept = [
      path.join('sources', `s.parts.${process.pid}-1.tmp`), // a build still running
      path.join('sources', 's.parts'),
      'file-hashes.json',
      path.join('model', `notes.${gone}.tmp`), // not an aside name
      path.join('sources', 'deeper', `d.parts.${gone}-0.tmp`), // two folders down: not a cache's
    ];
    for (const rel of [...left, ...kept]) put(rel);

    const removed = await removeLeftAside(dir);
    expect(removed.map((f) => path.relative(dir, f)).sort()).toEqual([...left].sort());
    for (const rel of left) expect(existsSync(path.join(dir, rel))).toBe(false);
    for (const rel of kept) expect(existsSync(path.join(dir, rel))).toBe(true);
    expect(await removeLeftAside(dir)).toEqual([]);
    expect(await removeLeftAside(path.join(tmp, 'no-such-folder'))).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['file-hashes.json', 'model', 'sources']);
  });

  it('tells a process that has ended from a running one, and a later process that reuses its pid from it', () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    expect(processGone(processId())).toBe(false);
    expect(processGone(String(process.pid))).toBe(false);
    expect(processGone(String(gone))).toBe(true);
    expect(processGone(`${gone}-12345`)).toBe(true);
    const start = processStart(process.pid);
    if (start === null) return; // no /proc: ids are pids alone, and a running pid counts as its build
    expect(processId()).toBe(`${process.pid}-${start}`);
    // This pid with another start time: the process so named has ended and this one reuses its pid.
    expect(processGone(`${process.pid}-${Number(start) + 1}`)).toBe(true);
  });
});
