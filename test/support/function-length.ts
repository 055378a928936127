// Function lengths read with the TypeScript parser: every function, method, constructor and arrow
// function with its lines counted from its first line to its last (nested functions included in
// their parent's count, as a reader opening the parent meets them).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface FunctionLength {
  /** Repository-relative file. */
  file: string;
  /** The function's name, or `<anonymous>` with its parent's name when it has none. */
  name: string;
  /** 1-based line the function starts on. */
  line: number;
  lines: number;
}

/** Every function in one file's text. */
export function functionLengths(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, name: nameOf(node, source), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) {
    return parent.name.getText(source);
  }
  return '<anonymous>';
}

/** The `.ts`/`.mts`/`.mjs` files under the given folders, read from disk. */
export function readFunctionLengths(root: string, folders: readonly string[]): FunctionLength[] {
  const all: FunctionLength[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(child);
      } else if (/\.(m?ts|mjs)$/.test(e.name) && !/\.d\.ts$/.test(e.name)) {
        all.push(...functionLengths(child, readFileSync(path.join(root, child), 'utf8')));
      }
    }
  };
  for (const f of folders) walk(f);
  return all;
}

/** The functions over their limit: `limit(file)` gives the most lines a function in that file may have. */
export function overLimit(functions: readonly FunctionLength[], limit: (file: string) => number): string[] {
  return functions
    .filter((f) => f.lines > limit(f.file))
    .map((f) => `${f.file}:${f.line} ${f.name} is ${f.lines} lines (limit ${limit(f.file)})`)
    .sort();
}
