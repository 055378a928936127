import net from 'node:net';
import { expect, test } from 'vitest';
import { explainFailure, stageProgress } from '../../../build/cli.ts';
import { BuildError } from '../../../build/pipeline.ts';
import { stageLabel } from '../../../build/report-format.ts';
import { SourceError } from '../../../build/sources/errors.ts';

test('expected failures are told without a stack trace', () => {
  expect(explainFailure(new BuildError(['a.txt:3: bad row']))).toBe('build failed with 1 problem(s):\n  - a.txt:3: bad row');
  const source = explainFailure(new SourceError('no source directory; run npm run data:fetch'));
  expect(source).toContain('npm run data:fetch');
  expect(source).not.toMatch(/\n\s+at /);
});

test('a taken port names the address and how to choose another', async () => {
  const first = net.createServer();
  await new Promise<void>((r) => first.listen(0, '127.0.0.1', r));
  const { port } = first.address() as net.AddressInfo;
  const second = net.createServer();
  const err = await new Promise<unknown>((r) => second.once('error', r).listen(port, '127.0.0.1'));
  first.close();
  expect(explainFailure(err)).toBe(`cannot listen on 127.0.0.1:${port}: it is already in use; choose another with --port N / --host H (or PORT / HOST)`);
});

test('anything else is a bug and keeps its stack', () => {
  expect(explainFailure(new TypeError('boom'))).toMatch(/^TypeError: boom\n\s+at /);
});

test('stage progress: shown on a terminal and overwritten by the timing line, silent elsewhere', () => {
  const written: string[] = [];
  const tty = { isTTY: true, write: (s: string) => (written.push(s), true) } as unknown as NodeJS.WriteStream;
  stageProgress(tty)!('sources');
  expect(written).toEqual(['  sources     running…\r']);
  // The timing line the pipeline logs next is at least as long, so nothing of "running…" remains.
  expect(`${stageLabel('sources')} ${'1234'.padStart(6)} ms`.length).toBeGreaterThanOrEqual(written[0]!.length - 1);
  expect(stageProgress({ isTTY: false } as unknown as NodeJS.WriteStream)).toBeUndefined();
});
