// The site under test: dist built by the real pipeline and served by the real local server.
// Data: the real build of the integration setup (test/support/build-dists.ts; E2E_SHAPE picks the
// shape, timeline by default), or with E2E_DATA=fixture the synthetic fixture model (which
// carries the hostile and the over-long title). E2E_DIST=<dir> serves an existing build instead.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { runBuild } from '../../build/pipeline.ts';
import { startServer } from '../../functions/adapters/node/server.ts';
import type { Shape } from '../../build/model/record-schemas.ts';
import { fixtureModel } from '../fixtures/embed/model.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Site {
  url: string;
  /** The folder served (a build: each URL's file as the server reads it). */
  dir: string;
  data: 'real' | 'fixture';
  close(): Promise<void>;
}

/** Known when tests are collected, so tests that need the real data can be skipped otherwise. */
export function realData(): boolean {
  return process.env.E2E_DATA !== 'fixture';
}

export async function startSite(): Promise<Site> {
  let dir = process.env.E2E_DIST ? resolve(process.env.E2E_DIST) : '';
  let scratch = '';
  const shape = (process.env.E2E_SHAPE as Shape | undefined) ?? 'timeline';
  if (!dir && realData()) dir = inject('dists')[shape];
  if (!dir) {
    scratch = mkdtempSync(join(tmpdir(), 'embed-e2e-'));
    dir = join(scratch, 'dist');
    await runBuild({ shape, out: dir, repoRoot, inputs: { model: fixtureModel(), titles: [] } });
  }
  const server = await startServer({ dir, port: 0, host: '127.0.0.1' });
  return {
    url: server.url.replace(/\/$/, ''),
    dir,
    data: realData() ? 'real' : 'fixture',
    close: async () => {
      await server.close();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    },
  };
}
