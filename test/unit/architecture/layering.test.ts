// The four rooms (docs/ARCHITECTURE.md), read from the source: the import direction between them,
// no import cycle anywhere, node builtins only in the build and the node adapter. The function
// bundle's inputs are checked against the same rooms in test/contract/bundle.test.ts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderGraph, importCycles, readImportGraph, type ImportGraph } from '../../support/import-graph.ts';
import { layeringViolations, roomOf, stageCacheImports, STAGE_MODULES } from '../../support/layering.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const graph = readImportGraph(ROOT, ['build', 'functions', 'test', 'bench']);

describe('the four rooms', () => {
  it('reads the whole tree (every room has files)', () => {
    const rooms = new Set([...graph.files.keys()].map(roomOf));
    expect([...rooms].filter(Boolean).sort()).toEqual(['build', 'contract', 'model', 'runtime']);
    expect(graph.files.get('functions/api.ts')).toContain('build/contract/routes.ts');
  });

  it('imports only toward the model: model <- contract <- runtime <- build', () => {
    expect(layeringViolations(graph)).toEqual([]);
  });

  it('has no import cycle anywhere (build, functions, tests, bench)', () => {
    expect(importCycles(graph.files)).toEqual([]);
  });

  // A folder is read as a whole: one that imports another and is imported back by it is one room
  // in two places, even when no single file closes the circle.
  it('has no import cycle between the folders of build/ and functions/', () => {
    const folders = folderGraph(graph.files);
    expect(folders.get('functions/handlers')).toContain('functions/http.ts');
    expect(importCycles(folders)).toEqual([]);
  });

  // Guidance may read BLS Table 1.12 and the projections; the score may not (issue 43).
  it('keeps Table 1.12 and the guidance modules out of the score path', () => {
    const guidance = ['build/model/ep-factors.ts', 'build/model/advice.ts', 'build/sources/ep-factors.ts', 'build/model/transitions.ts'];
    const seen = new Set<string>();
    const stack = ['build/model/occupation-scores.ts', 'build/model/draft.ts', 'build/model/displacement.ts', 'build/model/task-assess.ts'];
    while (stack.length > 0) {
      const f = stack.pop()!;
      if (seen.has(f)) continue;
      seen.add(f);
      stack.push(...(graph.files.get(f) ?? []));
    }
    expect(seen.size).toBeGreaterThan(5);
    expect(guidance.filter((g) => seen.has(g))).toEqual([]);
  });

  // Caching wraps a stage (build/cache/stage-cache.ts, in build/pipeline.ts); no stage manages a cache.
  it('has no stage importing a cache module', () => {
    for (const stage of STAGE_MODULES) expect(graph.files.has(stage)).toBe(true);
    expect(graph.files.get('build/pipeline.ts')).toContain('build/cache/stage-cache.ts');
    expect(stageCacheImports(graph)).toEqual([]);
  });

  it('fails on a stage that imports a cache module', () => {
    const bad: ImportGraph = {
      files: new Map([
        ['build/model-stage.ts', ['build/cache/model-cache.ts', 'build/model/index.ts']],
        ['build/stages.ts', ['build/emit/write.ts']],
        ['build/emit/bundle-function.ts', ['build/cache/entry.ts']],
        ['build/pipeline.ts', ['build/cache/stage-cache.ts']],
        // Deeper down: the loaders the model stage runs, and a type the emit names.
        ['build/model/index.ts', ['build/sources/index.ts']],
        ['build/sources/index.ts', ['build/sources/cache.ts']],
        ['build/sources/cache.ts', ['build/cache/file-hashes.ts']],
        ['build/emit/write.ts', ['build/build-types.ts']],
        ['build/build-types.ts', ['build/cache/entry.ts']],
      ]),
      external: new Map(),
    };
    expect(stageCacheImports(bad)).toEqual([
      'build/build-types.ts (run by the stage build/stages.ts) imports build/cache/entry.ts',
      'build/emit/bundle-function.ts (a stage) imports build/cache/entry.ts',
      'build/model-stage.ts (a stage) imports build/cache/model-cache.ts',
      'build/sources/cache.ts (run by the stage build/model-stage.ts) imports build/cache/file-hashes.ts',
    ]);
  });

  // The checks above pass on an empty list: these show that they do fail on what they forbid.
  it('fails on a forbidden import, a builtin outside its place and a cycle', () => {
    const bad: ImportGraph = {
      files: new Map([
        ['build/model/a.ts', ['build/contract/b.ts']],
        ['build/contract/b.ts', ['functions/c.ts']],
        ['functions/c.ts', ['build/emit/d.ts']],
        ['build/emit/d.ts', ['build/model/a.ts']],
        ['functions/adapters/node/e.ts', []],
      ]),
      external: new Map([
        ['build/model/a.ts', ['node:fs', 'zod']],
        ['build/contract/b.ts', ['eta']],
        ['functions/c.ts', ['node:crypto', '@modelcontextprotocol/sdk/server/index.js']],
        ['functions/mcp/f.ts', ['@modelcontextprotocol/sdk/server/index.js']],
        ['functions/adapters/node/e.ts', ['node:http']],
        ['build/emit/d.ts', ['node:fs']],
      ]),
    };
    expect(layeringViolations(bad)).toEqual([
      'build/contract/b.ts (contract) imports functions/c.ts (runtime)',
      'build/contract/b.ts (contract) imports the package eta',
      'build/model/a.ts (model) imports build/contract/b.ts (contract)',
      'build/model/a.ts (model) imports node:fs',
      'functions/c.ts (runtime) imports build/emit/d.ts (build)',
      'functions/c.ts (runtime) imports node:crypto',
      'functions/c.ts (runtime) imports the package @modelcontextprotocol/sdk/server/index.js',
    ]);
    expect(importCycles(bad.files)).toEqual([['build/contract/b.ts', 'build/emit/d.ts', 'build/model/a.ts', 'functions/c.ts']]);
  });

  it('fails on a folder-level cycle that no file-level cycle shows', () => {
    const files = new Map([
      // build/cache <-> build/emit through different files.
      ['build/cache/a.ts', ['build/emit/b.ts']],
      ['build/emit/b.ts', []],
      ['build/emit/c.ts', ['build/cache/d.ts']],
      ['build/cache/d.ts', []],
      // A file directly in build/ is a node of its own: build/cli.ts <-> build/serve.
      ['build/cli.ts', ['build/serve/e.ts']],
      ['build/serve/e.ts', []],
      ['build/serve/f.ts', ['build/cli.ts']],
      // Not a circle: the router over its handlers, the handlers over a helper beside the router.
      ['functions/api.ts', ['functions/handlers/g.ts']],
      ['functions/handlers/g.ts', ['functions/http.ts']],
      ['functions/http.ts', []],
      // Tests are no folder of build/ or functions/.
      ['test/h.test.ts', ['build/cache/a.ts']],
    ]);
    expect(importCycles(files)).toEqual([]);
    expect(importCycles(folderGraph(files))).toEqual([
      ['build/cache', 'build/emit'],
      ['build/cli.ts', 'build/serve'],
    ]);
  });
});
