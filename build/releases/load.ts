// The recorded releases (releases/*.json in the repository: each published release's summary,
// written by `npm run release:record` from a build) and what a build compares itself with.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { ModelOutput } from '../model/record-schemas.ts';
import { compareReleases, previousRelease, releaseSummary, ReleaseSummary, type Changes } from '../contract/releases.ts';

export const RELEASES_DIR = 'releases';

/** The file a release's summary is kept in: its data version names it. */
export const releaseFileName = (dataVersion: string): string => `${dataVersion}.json`;

/**
 * The .json files of a folder of our own records (releases, forecasts), in file-name order, each
 * checked against its schema: a file that does not parse is an error naming it. No folder: none.
 */
export function readRecords<T>(dir: string, label: string, what: string, schema: z.ZodType<T>): Array<{ file: string; value: T }> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return names.map((file) => {
    const parsed = schema.safeParse(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    if (!parsed.success) throw new Error(`${label}/${file}: not ${what}: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return { file, value: parsed.data };
  });
}

/** Every recorded release, in file-name order; a file that does not parse is a build error. */
export function loadRecordedReleases(repoRoot: string): ReleaseSummary[] {
  return readRecords(path.join(repoRoot, RELEASES_DIR), RELEASES_DIR, 'a release summary', ReleaseSummary).map(({ file: n, value }) => {
    if (n !== releaseFileName(value.data_version)) throw new Error(`${RELEASES_DIR}/${n}: holds release ${value.data_version}, expected in ${releaseFileName(value.data_version)}`);
    return value;
  });
}

/** This build's summary and its changes since the previous recorded release. */
export interface ReleaseContext {
  summary: ReleaseSummary;
  changes: Changes;
}

export function releaseContext(model: ModelOutput, recorded: readonly ReleaseSummary[]): ReleaseContext {
  const summary = releaseSummary(model);
  return { summary, changes: compareReleases(previousRelease(recorded, summary), summary) };
}
