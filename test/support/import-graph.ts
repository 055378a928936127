// The repository's import graph, read from the source text (no bundler): every relative import,
// `node:` builtin and package each TypeScript file names, for the layering tests.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

export interface ImportGraph {
  /** Repository-relative file -> the repository files it imports (resolved, with extension). */
  files: Map<string, string[]>;
  /** Repository-relative file -> the bare specifiers it imports (`node:fs`, `zod/mini`...). */
  external: Map<string, string[]>;
}

// `import ... from 'x'`, `export ... from 'x'`, `import 'x'`, `import('x')`.
const SPECIFIER = /(?:^|[\s;}])(?:import|export)\s(?:[^'";]*?\sfrom\s*)?(['"])([^'"]+)\1|\bimport\(\s*(['"])([^'"]+)\3\s*\)/g;

export function readImportGraph(root: string, folders: readonly string[]): ImportGraph {
  const files = new Map<string, string[]>();
  const external = new Map<string, string[]>();
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, e.name);
      if (e.isDirectory()) walk(child);
      else if (/\.ts$/.test(e.name) && !/\.d\.ts$/.test(e.name)) {
        const text = readFileSync(path.join(root, child), 'utf8').replace(/^\s*(\/\/.*|\/?\*.*)$/gm, '');
        const local: string[] = [];
        const bare: string[] = [];
        for (const m of text.matchAll(SPECIFIER)) {
          const spec = m[2] ?? m[4]!;
          if (spec.startsWith('.')) local.push(path.posix.normalize(path.posix.join(path.posix.dirname(child), spec)));
          else bare.push(spec);
        }
        files.set(child, local);
        external.set(child, bare);
      }
    }
  };
  for (const f of folders) walk(f);
  return { files, external };
}

/** Strongly connected components of more than one file (Tarjan): each is an import cycle. */
export function importCycles(files: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of files.get(v) ?? []) {
      if (!files.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) cycles.push(scc.sort());
    }
  };
  for (const v of files.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/**
 * Where a file sits for the folder-level graph: under build/ and functions/, its first-level
 * subfolder (build/cache, functions/adapters), or the file itself when it lies directly in one of
 * them (build/cli.ts); null elsewhere (tests, bench).
 */
export function folderOf(file: string): string | null {
  const parts = file.split('/');
  if (parts[0] !== 'build' && parts[0] !== 'functions') return null;
  return parts.length <= 2 ? file : `${parts[0]}/${parts[1]}`;
}

/** The import graph between folders (folderOf): a folder imports another when any of its files does. */
export function folderGraph(files: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = folderOf(file);
    if (!from) continue;
    const to = out.get(from) ?? new Set<string>();
    out.set(from, to);
    for (const t of targets) {
      const f = folderOf(t);
      if (f && f !== from) to.add(f);
    }
  }
  return new Map([...out].map(([k, v]) => [k, [...v].sort()]));
}
