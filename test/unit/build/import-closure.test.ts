// The import closure cache keys are made from (build/cache/import-closure.ts): every file a stage
// runs, found through static, dynamic and re-exporting imports and workers started by path; not
// the files it names for their types only, in comments, or does not name at all.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importClosure } from '../../../build/cache/import-closure.ts';
import { REPO_ROOT } from '../../../build/repo-root.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'odr-closure-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const put = (rel: string, text: string) => {
  mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
  writeFileSync(path.join(tmp, rel), text);
};

describe('importClosure', () => {
  it('follows every kind of import that runs code, and nothing else', () => {
    put('src/entry.ts', [
      "import { a } from './a.ts';",
      "import type { T } from './types.ts';",
      "export { b } from '../lib/b.ts';",
      "import './side-effect.ts';",
      "import zod from 'zod';",
      "// import { c } from './commented.ts';",
      "const w = new URL('./worker.ts', import.meta.url);",
      "export const load = () => import('./lazy');",
      "export const x: T = a;",
    ].join('\n'));
    put('src/a.ts', "import { entry } from './entry.ts';\nexport const a = 1;"); // a cycle back to the entry
    put('src/types.ts', 'export type T = number;');
    put('lib/b.ts', "export * from './dir';");
    put('lib/dir/index.ts', 'export const b = 2;');
    put('src/side-effect.ts', '');
    put('src/commented.ts', '');
    put('src/worker.ts', '');
    put('src/lazy.ts', '');
    put('src/unused.ts', '');
    expect(importClosure(tmp, ['src/entry.ts', 'src/missing.ts'])).toEqual([
      'lib/b.ts',
      'lib/dir/index.ts',
      'src/a.ts',
      'src/entry.ts',
      'src/lazy.ts',
      'src/side-effect.ts',
      'src/worker.ts',
    ]);
  });

  it("covers the real model stage's loaders, parsing threads and model, and not the emit", () => {
    const files = importClosure(REPO_ROOT, ['build/model-stage.ts']);
    expect(files).toEqual(expect.arrayContaining(['build/sources/index.ts', 'build/sources/parse-worker.ts', 'build/model/index.ts', 'build/search-index.ts', 'build/seeds-load.ts']));
    expect(files.filter((f) => f.startsWith('build/emit/'))).toEqual([]);
  });
});
