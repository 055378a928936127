// Deciding what to write out of a publisher's zip, before anything is written. Pure: takes the
// entry names from the archive's directory, returns the relative paths to create.

export type EntryVerdict =
  | { kind: 'file'; path: string }
  | { kind: 'dir' }
  | { kind: 'refused'; reason: string };

/**
 * The relative path an entry may be written to, or why it is refused. Zip-slip guard: an entry
 * named ../x, /etc/x or C:\x would write outside data/raw/<source id>/, so it is never taken.
 */
export function judgeEntry(name: string): EntryVerdict {
  if (name.includes('\0')) return { kind: 'refused', reason: 'NUL byte in name' };
  // Some Windows zippers write backslashes; treat them as separators so ..\ is caught too.
  const unified = name.replaceAll('\\', '/');
  if (unified.startsWith('/')) return { kind: 'refused', reason: 'absolute path' };
  if (/^[A-Za-z]:/.test(unified)) return { kind: 'refused', reason: 'drive-letter path' };
  const parts = unified.split('/');
  if (parts.includes('..')) return { kind: 'refused', reason: 'parent-directory (..) segment' };
  const kept = parts.filter((p) => p !== '' && p !== '.');
  if (kept.length === 0 || unified.endsWith('/')) return { kind: 'dir' };
  return { kind: 'file', path: kept.join('/') };
}

export interface ZipPlan {
  /** Archive entry name -> relative output path (official folder and file names kept). */
  files: { entry: string; path: string }[];
  refused: { entry: string; reason: string }[];
  /** Expected official names that no entry has (compared case-insensitively, any folder). */
  missing: string[];
}

export function planZipExtraction(entryNames: readonly string[], expect: readonly string[]): ZipPlan {
  const files: ZipPlan['files'] = [];
  const refused: ZipPlan['refused'] = [];
  const taken = new Set<string>();
  for (const entry of entryNames) {
    const verdict = judgeEntry(entry);
    if (verdict.kind === 'dir') continue;
    if (verdict.kind === 'refused') {
      refused.push({ entry, reason: verdict.reason });
      continue;
    }
    // Two entries landing on one path (a/b and a//b) would make the result depend on order.
    if (taken.has(verdict.path)) {
      refused.push({ entry, reason: `duplicate of ${verdict.path}` });
      continue;
    }
    taken.add(verdict.path);
    files.push({ entry, path: verdict.path });
  }
  const basenames = new Set(files.map((f) => (f.path.split('/').pop() ?? '').toLowerCase()));
  const missing = expect.filter((name) => !basenames.has(name.toLowerCase()));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, refused, missing };
}

/** Whether a plan may be executed; a refused entry rejects the whole archive. */
export const planIsSafe = (plan: ZipPlan): boolean => plan.refused.length === 0 && plan.missing.length === 0;
