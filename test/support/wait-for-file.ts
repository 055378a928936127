// Waiting for a file another process writes when it is done (the builds' status, the Cloudflare
// runtimes' state): both write it atomically, so its existence means it is complete.
import { existsSync } from 'node:fs';

/** Resolves once `file` exists; throws "`what` within N s (file not written)" after `timeoutMs`. */
export async function waitForFile(file: string, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${what} within ${Math.round(timeoutMs / 1000)} s (${file} not written)`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
