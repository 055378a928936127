// The code a stage runs, read from its source: the entry files and every repository file they
// import, statically or dynamically, followed to the end, plus modules started by path (a worker's
// code: `new URL('./x.ts', import.meta.url)`); type-only imports are not. Packages are not followed: the lockfile stands for
// them in every key. A cache key made from this set changes with any edit the stage can see, and
// with no other.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// `import ... from 'x'`, `export ... from 'x'`, `import 'x'`, `import('x')`, `new URL('x', import.meta.url)`.
const SPECIFIER = /(?:^|[\s;}])(?:import|export)\s(?:[^'";]*?\sfrom\s*)?(['"])([^'"]+)\1|\bimport\(\s*(['"])([^'"]+)\3\s*\)|\bnew URL\(\s*(['"])([^'"]+)\5\s*,\s*import\.meta\.url\s*\)/g;

const isFile = (abs: string) => statSync(abs, { throwIfNoEntry: false })?.isFile() === true;

/** A relative specifier as a repository file (as written, or with .ts or /index.ts), or null. */
function resolve(repoRoot: string, from: string, spec: string): string | null {
  const rel = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const c of [rel, `${rel}.ts`, `${rel}/index.ts`]) if (isFile(path.join(repoRoot, c))) return c;
  return null;
}

/** The entries' import closure, as repository-relative POSIX paths in code-unit order. */
export function importClosure(repoRoot: string, entries: readonly string[]): string[] {
  const seen = new Set<string>();
  // An entry that does not exist runs nothing (a test repository may hold only some of them).
  const stack = entries.filter((e) => isFile(path.join(repoRoot, e)));
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    // Comments are dropped first: a specifier quoted in a comment is no import.
    const text = readFileSync(path.join(repoRoot, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[2] ?? m[4] ?? m[6]!;
      // A type-only import runs nothing: what it names cannot change what the stage makes.
      if (!spec.startsWith('.') || /^\W?\s*(?:import|export)\s+type\s/.test(m[0])) continue;
      const to = resolve(repoRoot, file, spec);
      if (to) stack.push(to);
    }
  }
  return [...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
