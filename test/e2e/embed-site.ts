// The site under test. With the real pipeline and server in the tree: build dist from the real
// data (source defaults to ../shared/data; E2E_SOURCE overrides) and serve it with the local
// server. E2E_DIST=<dir> reuses an existing build instead. Without them, or with
// E2E_SITE=fixture: the fixture stand-in.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Shape } from '../../build/model/records.ts';
import { startFixtureSite } from './fixture-site.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Site {
  url: string;
  /** 'real' = runBuild + startServer on the real data; 'fixture' = synthetic stand-in. */
  mode: 'real' | 'fixture';
  close(): Promise<void>;
}

interface Pipeline {
  runBuild(o: { shape: Shape; source?: string; out: string; repoRoot: string }): Promise<unknown>;
}
interface Server {
  startServer(o: { dir: string; port: number; host: string }): Promise<{ url: string; close(): Promise<void> | void }>;
}

const pipelineFile = join(repoRoot, 'build', 'pipeline.ts');
const serverFile = join(repoRoot, 'build', 'serve', 'server.ts');

/** Known when tests are collected, so tests that only make sense on the real site can be skipped. */
export function realSiteAvailable(): boolean {
  return process.env.E2E_SITE !== 'fixture' && existsSync(pipelineFile) && existsSync(serverFile);
}

export async function startSite(): Promise<Site> {
  if (!realSiteAvailable()) {
    const f = await startFixtureSite();
    return { ...f, mode: 'fixture' };
  }
  // Imported by URL so this file type-checks while those modules are still being written.
  const { runBuild } = (await import(pathToFileURL(pipelineFile).href)) as Pipeline;
  const { startServer } = (await import(pathToFileURL(serverFile).href)) as Server;
  let dir = process.env.E2E_DIST ? resolve(process.env.E2E_DIST) : '';
  if (!dir) {
    dir = join(repoRoot, 'dist-e2e-embed');
    const shape = (process.env.E2E_SHAPE as Shape | undefined) ?? 'timeline';
    await runBuild({ shape, out: dir, repoRoot, ...(process.env.E2E_SOURCE ? { source: resolve(process.env.E2E_SOURCE) } : {}) });
  }
  const server = await startServer({ dir, port: 0, host: '127.0.0.1' });
  return { url: server.url.replace(/\/$/, ''), mode: 'real', close: async () => void (await server.close()) };
}
