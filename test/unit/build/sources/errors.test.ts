import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSources, resolveSourceDir, SourceError } from '../../../../build/sources/index.ts';
import { copyMini } from './helpers/paths.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'odr-locate-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('fatal source errors', () => {
  it('names a missing required file and says how to get the data', async () => {
    const mini = copyMini();
    cleanups.push(mini.cleanup);
    unlinkSync(path.join(mini.dir, 'downloads/db_29_3_text/Task Statements.txt'));
    const error = await loadSources(mini.dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toContain('Task Statements.txt');
    expect((error as Error).message).toContain('npm run data:fetch');
    expect((error as Error).message).toContain('ODR_SOURCE_DIR');
  });

  it('fails on a header without a required column, naming file and column', async () => {
    const mini = copyMini();
    cleanups.push(mini.cleanup);
    const file = path.join(mini.dir, 'downloads/db_29_3_text/Job Zones.txt');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Job Zone\t', 'Zone\t'));
    const error = await loadSources(mini.dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toMatch(/Job Zones\.txt: header lacks required column\(s\) "Job Zone"; expected the official Job Zones\.txt columns, found: "O\*NET-SOC Code", "Title", "Zone", "Date", "Domain Source"/);
  });

  it('refuses an empty source directory with the same advice', async () => {
    await expect(loadSources(tempDir())).rejects.toThrow(/npm run data:fetch/);
  });
});

describe('resolveSourceDir', () => {
  function repoWith(opts: { raw?: boolean; mirror?: boolean }): string {
    const root = tempDir();
    const repo = path.join(root, 'main');
    mkdirSync(repo);
    if (opts.raw) {
      mkdirSync(path.join(repo, 'data/raw'), { recursive: true });
      writeFileSync(path.join(repo, 'data/raw/x.txt'), 'x');
    }
    if (opts.mirror) {
      mkdirSync(path.join(root, 'shared/data'), { recursive: true });
      writeFileSync(path.join(root, 'shared/data/README.md'), 'x');
    }
    return repo;
  }

  it('prefers --source, then ODR_SOURCE_DIR, then data/raw, then the sibling mirror', () => {
    const repo = repoWith({ raw: true, mirror: true });
    const other = tempDir();
    writeFileSync(path.join(other, 'f.csv'), 'x');
    const envDir = tempDir();
    writeFileSync(path.join(envDir, 'f.csv'), 'x');
    expect(resolveSourceDir({ cliSource: other, env: { ODR_SOURCE_DIR: envDir }, repoRoot: repo })).toBe(other);
    expect(resolveSourceDir({ env: { ODR_SOURCE_DIR: envDir }, repoRoot: repo })).toBe(envDir);
    expect(resolveSourceDir({ env: {}, repoRoot: repo })).toBe(path.join(repo, 'data/raw'));
    const noRaw = repoWith({ mirror: true });
    expect(resolveSourceDir({ env: {}, repoRoot: noRaw })).toBe(path.resolve(noRaw, '../shared/data'));
  });

  it('skips an empty data/raw and errors clearly when nothing is found', () => {
    const repo = repoWith({});
    mkdirSync(path.join(repo, 'data/raw'), { recursive: true });
    expect(() => resolveSourceDir({ env: {}, repoRoot: repo })).toThrow(/npm run data:fetch/);
  });

  it('does not fall back when an explicit directory is missing', () => {
    const repo = repoWith({ raw: true });
    expect(() => resolveSourceDir({ cliSource: 'nope', env: {}, repoRoot: repo })).toThrow(/--source .* does not exist/);
    expect(() => resolveSourceDir({ env: { ODR_SOURCE_DIR: '/nonexistent/odr' }, repoRoot: repo })).toThrow(SourceError);
  });
});
