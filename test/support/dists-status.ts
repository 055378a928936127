// What the global setup's build (build-dists-child.ts) reports when it ends, and the waiting for
// it (distsBuilt): the test files that use the builds wait in their setup file (dists-ready.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { Shape } from '../../build/model/record-schemas.ts';
import { waitForFile } from './wait-for-file.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Every interface shape, as the build's schema names them: the tests build and check each. */
export const SHAPES: Shape[] = [...Shape.options];

/** The build's outcome; `caches`: how it used them (model 'miss': the model was computed, not read back). */
export type DistsStatus = { ok: true; caches: Record<string, string> } | { ok: false; error: string };

/** The longest the builds may take before a waiting test file gives up (a fresh 2-core machine: about 30 s). */
const BUILD_DEADLINE_MS = 15 * 60_000;

/** Waits for the global setup's builds (inject('dists')) to end; throws with the build's error if they failed. */
export async function distsBuilt(): Promise<{ caches: Record<string, string> }> {
  const file = inject('distsStatus');
  await waitForFile(file, BUILD_DEADLINE_MS, "the global setup's builds did not end");
  const status = JSON.parse(readFileSync(file, 'utf8')) as DistsStatus;
  if (!status.ok) throw new Error(`the global setup's builds failed:\n${status.error}`);
  return { caches: status.caches };
}
