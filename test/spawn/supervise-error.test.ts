// npm start's primary when a worker's process emits 'error' (EPIPE when the primary hands a
// connection to a worker that has just died): it logs it and keeps running, rather than throwing
// from the event and ending every worker with it. The worker's exit, if it follows, replaces it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

describe('the primary and a worker error', () => {
  it('logs the error and keeps its workers', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test/fixtures/serving/supervise-error.ts')], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toMatch(/a server worker \(pid \d+\): write EPIPE/);
    expect(r.stdout).toContain('still running with 2 workers');
    expect(r.status).toBe(0);
  });
});
