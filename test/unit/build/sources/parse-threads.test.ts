// Parsing on worker threads gives what parsing on this thread gives: the same bundle and report
// (assembled in a fixed order, whatever thread finishes first) and the same fatal errors.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSources, SourceError } from '../../../../build/sources/index.ts';
import { copyMini, miniFixture } from './helpers/paths.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

describe('loadSources on worker threads', () => {
  it('returns the same bundle and report as on this thread', async () => {
    const here = await loadSources(miniFixture, { threads: 0 });
    for (const threads of [1, 3]) expect(await loadSources(miniFixture, { threads })).toEqual(here);
    // The fixture has rejected rows and notes: the comparison covers what the threads log.
    expect(here.report.problems.length).toBeGreaterThan(0);
    expect(here.report.files.some((f) => f.notes.length > 0)).toBe(true);
  });

  it('throws the same SourceError for a broken header', async () => {
    const mini = copyMini();
    cleanups.push(mini.cleanup);
    const file = path.join(mini.dir, 'downloads/db_29_3_text/Job Zones.txt');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Job Zone\t', 'Zone\t'));
    const here = await loadSources(mini.dir, { threads: 0 }).catch((e: unknown) => e);
    const threaded = await loadSources(mini.dir, { threads: 2 }).catch((e: unknown) => e);
    expect(here).toBeInstanceOf(SourceError);
    expect(threaded).toBeInstanceOf(SourceError);
    expect((threaded as SourceError).message).toBe((here as SourceError).message);
    expect((threaded as SourceError).file).toBe((here as SourceError).file);
    expect((threaded as Error).message).toMatch(/Job Zones\.txt: header lacks required column\(s\) "Job Zone"/);
  });
});
