// The emit's scratch folder, for the downloads kept on disk until the output tree has copied them
// (file-body.ts). Its name carries the build's process (build/process-id.ts): a build stopped
// during its emit (killed, or a test's crash point) leaves its folder, which the next emit removes.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { processGone, processId } from '../process-id.ts';

const PREFIX = 'odr-emit-';
/** odr-emit-<process id>-<mkdtemp's six characters>. */
const NAME = /^odr-emit-(\d+(?:-\d+)?)-[A-Za-z0-9]{6}$/;

/** A new scratch folder in `root` (the system's temporary folder), after removing those of builds that are gone. */
export function openScratch(root: string = tmpdir()): { dir: string; remove: () => void } {
  let names: string[] = [];
  try {
    names = readdirSync(root);
  } catch {
    // No listing, nothing to tidy: mkdtemp below says what is wrong with the folder.
  }
  for (const name of names) {
    const m = NAME.exec(name);
    if (m && processGone(m[1]!)) rmSync(path.join(root, name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(path.join(root, `${PREFIX}${processId()}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
