// The global setup's real builds, in a process of their own (build-dists.ts starts it): one
// reading of the sources and one model for both shapes, strict (a rejected row fails the run).
// Writes its outcome to the status file, atomically: what dists-ready.ts waits for.
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runBuilds } from '../../build/pipeline.ts';
import { REPO_ROOT, SHAPES, type DistsStatus } from './dists-status.ts';

const [root, status] = process.argv.slice(2);
if (!root || !status) throw new Error('usage: build-dists-child.ts ROOT STATUS_FILE');

const write = (s: DistsStatus) => {
  writeFileSync(`${status}.tmp`, JSON.stringify(s));
  renameSync(`${status}.tmp`, status);
};
const t0 = performance.now();
try {
  const summaries = await runBuilds({ repoRoot: REPO_ROOT, strict: true }, SHAPES.map((shape) => ({ shape, out: path.join(root, shape) })));
  console.log(`[setup] built ${summaries.map((s) => `${s.shape} (${s.files} files)`).join(', ')} in ${Math.round(performance.now() - t0)} ms; caches ${JSON.stringify(summaries[0]!.caches)}`);
  write({ ok: true, caches: { ...summaries[0]!.caches } });
} catch (e) {
  write({ ok: false, error: String((e as Error).stack ?? e) });
  process.exitCode = 1;
}
