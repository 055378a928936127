// The folders beside an out folder while a build replaces it, and what a stopped build left of them.
//
// A build writes its new tree as .<out>-tmp-<id> (id: the build's pid and start time, see
// build/process-id.ts). Once every file is written the tree is renamed .<out>-tmp-done-<id>: a
// tree under that name is complete (a rename is atomic, and it comes after the last write). The
// swap is then two renames, out -> .<out>-tmp-old-<id> and .<out>-tmp-done-<id> -> out; a process
// stopped between them leaves no out folder, but a complete tree under each of the two names.
// tidyOutput(), run by every build and by npm start before anything else, puts the new one back
// at the out path (the old one where the new is missing), and removes what builds that are gone
// left: trees being written (each as large as a whole out folder) and complete trees not needed.
// A tree still being written is never put in place. A build running beside this one keeps its own.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { processGone, processId } from '../process-id.ts';

/** .<base>-<suffix> beside the out folder. */
export const sibling = (out: string, suffix: string): string => path.join(path.dirname(out), `.${path.basename(out)}-${suffix}`);

/** The names of this process's trees beside `out`, and the previous generation (build/emit/write.ts). */
export const treeNames = (out: string) => ({
  writing: sibling(out, `tmp-${processId()}`),
  done: sibling(out, `tmp-done-${processId()}`),
  old: sibling(out, `tmp-old-${processId()}`),
  previous: sibling(out, 'previous'),
});

type Kind = 'writing' | 'done' | 'old';
interface Leftover {
  path: string;
  kind: Kind;
  gone: boolean;
}

/** tmp-<pid>[-<start>], tmp-done-..., tmp-old-... after ".<out>-" (builds before the start time was part of the name wrote tmp-<pid> and tmp-old-<pid>). */
const LEFT = /^tmp-(?:(done|old)-)?(\d+(?:-\d+)?)$/;

function leftovers(out: string): Leftover[] {
  const prefix = `.${path.basename(out)}-`;
  let names: string[];
  try {
    names = readdirSync(path.dirname(out));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const m = name.startsWith(prefix) ? LEFT.exec(name.slice(prefix.length)) : null;
    if (!m) return [];
    return [{ path: path.join(path.dirname(out), name), kind: (m[1] ?? 'writing') as Kind, gone: processGone(m[2]!) }];
  });
}

const mtime = (p: string) => {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return 0;
  }
};

/** What tidyOutput did: the tree put back at the out path (null: none), and the trees removed or kept as the previous generation. */
export interface Tidied {
  restored: string | null;
  removed: string[];
  keptAsPrevious: string | null;
}

/** How long to wait for a running build that is between its two renames (a few microseconds apart) to put its tree in place. */
const WAIT_FOR_SWAP_MS = 5_000;

/**
 * Restores a complete tree at `out` when a build stopped between the two renames of its swap, and
 * removes what builds that are gone left beside it. Leftovers of a running build are not touched;
 * when out is missing while one is between its two renames, this waits for it to finish the swap.
 */
export async function tidyOutput(out: string, opts: { waitMs?: number } = {}): Promise<Tidied> {
  out = path.resolve(out);
  const waitMs = opts.waitMs ?? WAIT_FOR_SWAP_MS;
  const swapping = (l: Leftover) => !l.gone && l.kind !== 'writing';
  let left = leftovers(out);
  for (let waited = 0; !existsSync(out) && left.some(swapping) && waited < waitMs; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
    left = leftovers(out);
  }
  const gone = left.filter((l) => l.gone);
  const done: Tidied = { restored: null, removed: [], keptAsPrevious: null };
  if (!existsSync(out) && !left.some(swapping)) {
    // The new tree first (the swap is finished as its build meant it), the newest when several; else the one it replaced.
    const complete = [...gone.filter((l) => l.kind === 'done').sort((a, b) => mtime(b.path) - mtime(a.path)), ...gone.filter((l) => l.kind === 'old')];
    for (const c of complete) {
      try {
        await rename(c.path, out);
        done.restored = c.path;
        break;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') continue; // another process took it first
        if (code === 'EEXIST' || code === 'ENOTEMPTY') break; // out is back
        throw e;
      }
    }
  }
  const previous = sibling(out, 'previous');
  for (const l of gone) {
    if (l.path === done.restored) continue;
    // A complete tree can serve as the generation the next build updates in place, when there is none.
    if (l.kind !== 'writing' && !done.keptAsPrevious && !existsSync(previous)) {
      const kept = await rename(l.path, previous).then(() => true, () => false);
      if (kept) {
        done.keptAsPrevious = l.path;
        continue;
      }
    }
    await rm(l.path, { recursive: true, force: true });
    done.removed.push(l.path);
  }
  return done;
}

/** Lines saying what tidyOutput did (none when it did nothing). */
export function describeTidied(out: string, t: Tidied): string[] {
  const name = (p: string) => path.basename(p);
  const lines: string[] = [];
  if (t.restored) {
    const which = /-tmp-done-/.test(t.restored) ? 'the complete new tree' : 'the tree it was replacing';
    lines.push(`${out} was missing (a build stopped between the two renames of its swap): put back ${which}, ${name(t.restored)}`);
  }
  if (t.removed.length > 0) lines.push(`removed ${t.removed.length} folder(s) that stopped builds left beside ${out}: ${t.removed.map(name).join(', ')}`);
  if (t.keptAsPrevious) lines.push(`kept ${name(t.keptAsPrevious)}, a complete tree a stopped build left, as ${name(sibling(out, 'previous'))} (the next build updates it in place)`);
  return lines;
}

/** Tests: ODR_TEST_CRASH_AT=<point> stops the process there as a crash would (SIGKILL: nothing more runs, no handler, no cleanup). */
export function crashPoint(point: string): void {
  if (process.env.ODR_TEST_CRASH_AT === point) process.kill(process.pid, 'SIGKILL');
}
