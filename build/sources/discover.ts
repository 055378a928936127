// Finding source files by their official names anywhere under the source directory, so the
// mirror layout and a fresh download (zips extracted into arbitrary subfolders) both work.
import { readdir } from 'node:fs/promises';
import path from 'node:path';

const SKIP_DIRS = new Set(['node_modules', '.git']);

/** Every file under `dir` as a POSIX path relative to it, sorted (deterministic choice). */
export async function listSourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string): Promise<void> {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    for (const entry of entries) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) await walk(child);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        out.push(child);
      }
    }
  }
  await walk('');
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function baseName(relPath: string): string {
  return relPath.slice(relPath.lastIndexOf('/') + 1);
}

/** A file name pattern, matched case-insensitively against the whole base name. */
export type NamePattern = string | RegExp;

function matches(pattern: NamePattern, name: string): RegExpMatchArray | null {
  if (typeof pattern === 'string') return pattern.toLowerCase() === name.toLowerCase() ? [name] : null;
  return name.match(new RegExp(`^(?:${pattern.source})$`, 'i'));
}

export interface Found {
  path: string;
  /** Index of the pattern that matched: lower = preferred. */
  rank: number;
  match: RegExpMatchArray;
}

/**
 * All files matching any pattern, best first: by pattern order, then the newest release where the
 * pattern captures one (group 1: ep_occupation_2024-34 before 2023-33), then by path.
 */
export function findAll(files: string[], patterns: NamePattern[]): Found[] {
  const out: Found[] = [];
  for (const file of files) {
    const name = baseName(file);
    for (let rank = 0; rank < patterns.length; rank++) {
      const match = matches(patterns[rank]!, name);
      if (match) {
        out.push({ path: file, rank, match });
        break;
      }
    }
  }
  const release = (f: Found): string => f.match[1] ?? '';
  return out.sort(
    (a, b) =>
      a.rank - b.rank ||
      (release(a) > release(b) ? -1 : release(a) < release(b) ? 1 : 0) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}

/** The preferred file plus the paths passed over (reported so a stale duplicate is visible). */
export function pickOne(files: string[], patterns: NamePattern[]): { found: Found; others: string[] } | null {
  const all = findAll(files, patterns);
  const [found, ...rest] = all;
  return found ? { found, others: rest.map((f) => f.path) } : null;
}
