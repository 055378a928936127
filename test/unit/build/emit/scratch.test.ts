// The emit's scratch folder: made fresh for each emit, and what stopped builds left removed, never
// what a running build is using.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openScratch } from '../../../../build/emit/scratch.ts';
import { processId } from '../../../../build/process-id.ts';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

describe('openScratch', () => {
  it("removes the folders of builds that are gone and keeps this one's and other files", () => {
    const root = mkdtempSync(path.join(tmpdir(), 'odr-scratch-test-'));
    roots.push(root);
    // This pid with another start time: a process that has ended (its pid now reused by this one).
    const gone = path.join(root, `odr-emit-${process.pid}-1-abcdef`);
    const running = path.join(root, `odr-emit-${processId()}-ghijkl`);
    const other = path.join(root, 'odr-emit-notes');
    for (const d of [gone, running, other]) mkdirSync(d);
    writeFileSync(path.join(gone, 'occupation-risk.sqlite'), 'x');
    const scratch = openScratch(root);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(running)).toBe(true);
    expect(existsSync(other)).toBe(true);
    expect(path.dirname(scratch.dir)).toBe(root);
    expect(path.basename(scratch.dir)).toMatch(new RegExp(`^odr-emit-${processId()}-[A-Za-z0-9]{6}$`));
    writeFileSync(path.join(scratch.dir, 'odr-data.jsonl.gz'), 'y');
    scratch.remove();
    expect(existsSync(scratch.dir)).toBe(false);
  });
});
