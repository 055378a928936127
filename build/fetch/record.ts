// SOURCES.fetched.json as a fetch writes it (its format: build/sources/fetch-record.ts).
// No timestamps, and a stable order, so an unchanged rerun writes the same bytes.
import type { FetchedFile, FetchedSource, FetchRecord } from '../sources/fetch-record.ts';

const ABOUT =
  'Written by `npm run data:fetch`: the official files downloaded from their publishers, ' +
  'and the files extracted from their archives. See data/README.md.';

const byPath = (a: FetchedFile, b: FetchedFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

export interface SourceUpdate {
  source: Omit<FetchedSource, 'files'>;
  /** Files written or verified in this run. */
  files: FetchedFile[];
  /** Paths this run removed or replaced (e.g. files a new archive no longer has). */
  dropped: string[];
}

/**
 * The new record: previous entries are kept unless this run rewrote or dropped their path (a
 * failed or --only-filtered source keeps what the last good run recorded); sources follow `order`.
 */
export function mergeRecord(
  previous: FetchRecord | undefined,
  updates: readonly SourceUpdate[],
  order: readonly string[],
  baseUrl: string | undefined,
  manifestPath?: string,
): FetchRecord {
  const sources = new Map<string, FetchedSource>();
  for (const s of previous?.sources ?? []) sources.set(s.id, s);
  for (const u of updates) {
    const replaced = new Set([...u.dropped, ...u.files.map((f) => f.path)]);
    const kept = (sources.get(u.source.id)?.files ?? []).filter((f) => !replaced.has(f.path));
    const files = [...kept, ...u.files].sort(byPath);
    if (files.length === 0) sources.delete(u.source.id);
    else sources.set(u.source.id, { ...u.source, files });
  }
  const rank = (id: string) => {
    const i = order.indexOf(id);
    return i === -1 ? order.length : i;
  };
  const ordered = [...sources.values()].sort((a, b) => rank(a.id) - rank(b.id) || (a.id < b.id ? -1 : 1));
  return {
    about: ABOUT,
    ...(baseUrl ? { base_url: baseUrl } : {}),
    ...(manifestPath ? { manifest: manifestPath } : {}),
    sources: ordered,
  };
}

export const serializeRecord = (record: FetchRecord): string => `${JSON.stringify(record, null, 2)}\n`;

export function recordedFile(record: FetchRecord | undefined, path: string): FetchedFile | undefined {
  for (const s of record?.sources ?? []) {
    const hit = s.files.find((f) => f.path === path);
    if (hit) return hit;
  }
  return undefined;
}

/** Files the record says were extracted from `archivePath`. */
export function extractedFrom(record: FetchRecord | undefined, archivePath: string): FetchedFile[] {
  return (record?.sources ?? []).flatMap((s) => s.files.filter((f) => f.from === archivePath));
}
