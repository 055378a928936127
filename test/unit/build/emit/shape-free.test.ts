// Files made without the shape (build/emit/files.ts, shapeFree): each is the same in both shapes, and
// a build of both shapes makes them once, for the first shape, and links them into the second's
// folder, which then holds exactly what a build of that shape alone writes.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild, runBuilds } from '../../../../build/pipeline.ts';
import { emitFiles, type EmittedFile } from '../../../../build/emit/files.ts';
import { renderSite } from '../../../../build/emit/site.ts';
import { metaDocument } from '../../../../build/emit/meta.ts';
import { releaseContext } from '../../../../build/releases/load.ts';
import { stageOf } from '../../../../build/model-stage.ts';
import { isFileBody } from '../../../../build/emit/file-body.ts';
import type { Shape } from '../../../../build/model/record-schemas.ts';
import { fixtureModel } from '../../../fixtures/serving/model.ts';
import { treeDigest } from '../../../support/tree-digest.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'odr-shape-free-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SHAPES: Shape[] = ['percentile', 'timeline'];
const text = (f: EmittedFile) => (typeof f.body === 'string' ? f.body : isFileBody(f.body) ? null : Buffer.from(f.body).toString('latin1'));

async function emitted(shape: Shape): Promise<EmittedFile[]> {
  const { model, search, digest } = stageOf(fixtureModel());
  const meta = metaDocument(model, shape, digest);
  const files: EmittedFile[] = [];
  const releases = releaseContext(model, []);
  const scratch = mkdtempSync(path.join(tmp, `scratch-${shape}-`));
  for await (const f of emitFiles(model, shape, { search, meta, releases }, null, renderSite(model, shape, meta, releases, scratch))) files.push(f);
  return files;
}

describe('shape-free files', () => {
  it('are the same bytes in both shapes, and there are files of every kind among them', async () => {
    const [a, b] = await Promise.all(SHAPES.map(emitted));
    const other = new Map(b!.map((f) => [f.path, f]));
    const free = a!.filter((f) => f.shapeFree);
    expect(free.length).toBeGreaterThan(0);
    for (const f of free) {
      const twin = other.get(f.path);
      expect(twin?.shapeFree, f.path).toBe(true);
      expect(text(twin!), f.path).toBe(text(f));
      // The same schema object: a file checked in one shape is checked for the other.
      expect(twin!.schema === f.schema, f.path).toBe(true);
    }
    expect(b!.filter((f) => f.shapeFree).map((f) => f.path).sort()).toEqual(free.map((f) => f.path).sort());
    for (const kind of ['api/v1/occupations/15-1251.00/tasks/index.json', '_shards/tasks/', '_shards/search/postings/', '_shards/pages/', 'api/v1/industries/', 'industries/', 'isco/', 'overview/']) {
      expect(free.some((f) => f.path.startsWith(kind)), kind).toBe(true);
    }
  });

  it('a build of both shapes writes what each shape alone writes, the second linking the first\'s shape-free files', async () => {
    const both = path.join(tmp, 'both');
    const [first, second] = SHAPES;
    await runBuilds({ repoRoot, inputs: fixtureModel() }, [{ shape: first!, out: path.join(both, first!) }, { shape: second!, out: path.join(both, second!) }]);
    for (const shape of SHAPES) await runBuild({ shape, out: path.join(tmp, 'alone', shape), repoRoot, inputs: fixtureModel() });
    for (const shape of SHAPES) expect(treeDigest(path.join(both, shape)), shape).toBe(treeDigest(path.join(tmp, 'alone', shape)));
    // A shape-free file is one file in both folders; a file of the shape is not.
    const tasks = 'api/v1/occupations/15-1251.00/tasks/index.json';
    expect(statSync(path.join(both, second!, tasks)).ino).toBe(statSync(path.join(both, first!, tasks)).ino);
    const detail = 'api/v1/occupations/15-1251.00/index.json';
    expect(statSync(path.join(both, second!, detail)).ino).not.toBe(statSync(path.join(both, first!, detail)).ino);
    expect(readdirSync(path.join(both, second!)).length).toBeGreaterThan(0);
  }, 120_000);
});
