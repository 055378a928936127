// The recorded releases (releases/*.json in the repository: each published release's summary,
// written by `npm run release:record` from a build) and what a build compares itself with.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ModelOutput } from '../model/record-schemas.ts';
import { compareReleases, previousRelease, releaseSummary, ReleaseSummary, type Changes } from '../contract/releases.ts';

export const RELEASES_DIR = 'releases';

/** The file a release's summary is kept in: its data version names it. */
export const releaseFileName = (dataVersion: string): string => `${dataVersion}.json`;

/** Every recorded release, in file-name order; a file that does not parse is a build error. */
export function loadRecordedReleases(repoRoot: string): ReleaseSummary[] {
  const dir = path.join(repoRoot, RELEASES_DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return names.map((n) => {
    const parsed = ReleaseSummary.safeParse(JSON.parse(readFileSync(path.join(dir, n), 'utf8')));
    if (!parsed.success) throw new Error(`${RELEASES_DIR}/${n}: not a release summary: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    if (n !== releaseFileName(parsed.data.data_version)) throw new Error(`${RELEASES_DIR}/${n}: holds release ${parsed.data.data_version}, expected in ${releaseFileName(parsed.data.data_version)}`);
    return parsed.data;
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
