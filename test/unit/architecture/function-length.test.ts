// Small functions a reader can hold at once: none outside the tests over 120 lines, and each of the
// function's route handlers (functions/handlers/) under 80 (issue 45).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { functionLengths, overLimit, readFunctionLengths } from '../../support/function-length.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const FOLDERS = ['build', 'functions', 'bench'];
const limit = (file: string): number => (file.startsWith('functions/handlers/') ? 79 : 120);

describe('function length', () => {
  const all = readFunctionLengths(ROOT, FOLDERS);

  it('reads every function of the build, the function and the bench', () => {
    expect(all.some((f) => f.file === 'functions/adapters/node/server.ts' && f.name === 'startServer')).toBe(true);
    expect(all.some((f) => f.file.startsWith('functions/handlers/'))).toBe(true);
    expect(all.some((f) => f.file.startsWith('bench/'))).toBe(true);
  });

  it('has no function over 120 lines, and no route handler over 79', () => {
    expect(overLimit(all, limit)).toEqual([]);
  });

  // The check above passes on an empty list: this shows it fails on what it forbids.
  it('fails on a long function, a long handler and a long arrow inside a short file', () => {
    const body = (n: number): string => Array.from({ length: n - 2 }, (_, i) => `  const x${i} = ${i};`).join('\n');
    const long = `export function long() {\n${body(121)}\n}\nexport function short() {\n${body(120)}\n}\n`;
    const handler = `export const handle = async (req: Request): Promise<Response> => {\n${body(80)}\n};\n`;
    const method = `class C {\n  m() {\n${body(121)}\n  }\n}\n`;
    const found = [
      ...functionLengths('build/x.ts', long),
      ...functionLengths('functions/handlers/y.ts', handler),
      ...functionLengths('functions/z.ts', handler),
      ...functionLengths('bench/w.ts', method),
    ];
    expect(overLimit(found, limit)).toEqual([
      'bench/w.ts:2 m is 121 lines (limit 120)',
      'build/x.ts:1 long is 121 lines (limit 120)',
      'functions/handlers/y.ts:1 handle is 80 lines (limit 79)',
    ]);
  });
});
