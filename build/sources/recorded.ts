// Sizes and sha256 that the source folder itself records for its files: SOURCES.fetched.json,
// written by `npm run data:fetch` (build/fetch/record.ts), and the SOURCES*.md notes of the data
// mirror (a table row "| path | ... | size | sha256 |" or a "## path" section with "- Size: N bytes"
// and "- sha256: `hex`"). A file the build reads that differs from its record was cut short or
// replaced: the build stops, --strict or not. Files without a record are not checked here.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { FetchRecord, RECORD_FILE } from './fetch-record.ts';
import { SourceError, sourceProblems } from './errors.ts';
import { readWhole } from '../whole-file.ts';

export interface Recorded {
  bytes: number;
  sha256: string | null;
  /** The file that records it, relative to the source folder. */
  by: string;
}

interface Entry {
  path: string;
  bytes: number;
  sha256: string | null;
}

const SHA = /^[0-9a-f]{64}$/;
const SIZE = /^\d[\d,]*$/;
const bytesOf = (s: string) => Number(s.replace(/,/g, ''));
const unquote = (s: string) => s.trim().replace(/^`|`$/g, '');

/** The files a SOURCES*.md note records, with the paths as written. */
export function parseSourcesNote(text: string): Entry[] {
  const out: Entry[] = [];
  let section: Entry | null = null;
  const close = () => {
    if (section && section.bytes >= 0) out.push(section);
    section = null;
  };
  for (const line of text.split(/\r?\n/)) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading) {
      close();
      section = { path: unquote(heading[1]!), bytes: -1, sha256: null };
      continue;
    }
    if (section) {
      const size = /^-\s*Size:\s*([\d,]+)\s*bytes/i.exec(line);
      if (size) section.bytes = bytesOf(size[1]!);
      const sha = /^-\s*sha256:\s*`?([0-9a-f]{64})`?/i.exec(line);
      if (sha) section.sha256 = sha[1]!.toLowerCase();
    }
    if (line.startsWith('|')) {
      const cells = line.split('|').slice(1, -1).map((c) => c.trim());
      const at = cells.findIndex((c, i) => i > 1 && SHA.test(c) && SIZE.test(cells[i - 1]!));
      if (at > 0) out.push({ path: unquote(cells[0]!), bytes: bytesOf(cells[at - 1]!), sha256: cells[at]! });
    }
  }
  close();
  return out;
}

/** What every record file among `files` (paths relative to the source folder) records, by the path of the file recorded. */
export async function recordedFiles(root: string, files: readonly string[]): Promise<Map<string, Recorded>> {
  const present = new Set(files);
  const out = new Map<string, Recorded>();
  for (const by of files) {
    const name = path.posix.basename(by);
    let entries: Entry[];
    if (name === RECORD_FILE) {
      const parsed = FetchRecord.safeParse(JSON.parse(await readFile(path.join(root, by), 'utf8')));
      if (!parsed.success) throw new SourceError(`${by}: not a record data:fetch writes (${parsed.error.issues[0]?.message ?? 'invalid'})`, by);
      entries = parsed.data.sources.flatMap((s) => s.files.map((f) => ({ path: f.path, bytes: f.bytes, sha256: f.sha256 })));
    } else if (/^SOURCES.*\.md$/i.test(name)) {
      entries = parseSourcesNote(await readFile(path.join(root, by), 'utf8'));
    } else continue;
    const dir = path.posix.dirname(by);
    for (const e of entries) {
      // A path is relative to the note's folder, or (as some notes write it) to the source folder.
      const rel = [path.posix.normalize(path.posix.join(dir, e.path)), path.posix.normalize(e.path)].find((r) => present.has(r));
      if (rel !== undefined && !out.has(rel)) out.set(rel, { bytes: e.bytes, sha256: e.sha256, by });
    }
  }
  return out;
}

/**
 * Checks each of `rels` that has a record: its size, then its sha256 (from `known` when the
 * caller hashed it already). Throws a SourceError naming every file that differs.
 */
export async function checkRecorded(root: string, rels: readonly string[], recorded: ReadonlyMap<string, Recorded>, known?: ReadonlyMap<string, string>): Promise<void> {
  const wrong: string[] = [];
  for (const rel of rels) {
    const r = recorded.get(rel);
    if (!r) continue;
    const abs = path.join(root, rel);
    const size = (await stat(abs)).size;
    const sha = r.sha256 ? ` (sha256 ${r.sha256})` : '';
    if (size !== r.bytes) {
      wrong.push(`${rel}: ${size.toLocaleString('en-US')} bytes, but ${r.by} records ${r.bytes.toLocaleString('en-US')}${sha}: the file was ${size < r.bytes ? 'cut short' : 'changed'}; get it again`);
      continue;
    }
    if (!r.sha256) continue;
    const hash = known?.get(rel) ?? createHash('sha256').update(await readWhole(abs)).digest('hex');
    if (hash !== r.sha256) wrong.push(`${rel}: sha256 ${hash}, but ${r.by} records ${r.sha256}: the file is not the one recorded; get it again`);
  }
  if (wrong.length > 0) throw sourceProblems(wrong);
}
