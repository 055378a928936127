// The schema checks of emitted JSON: here for a small build, on a thread once the JSON passes
// LOCAL_BYTES; either way every failure is reported, in the order the files came.
import { describe, expect, it } from 'vitest';
import { LOCAL_BYTES, validator } from '../../../build/emit/validate-pool.ts';
import type { SchemaRef } from '../../../build/emit/check-json.ts';
import { MODEL_VERSION } from '../../../build/model/version.ts';

const page: SchemaRef = { shard: 'pages/0' };
const okPage = (n: number, pad = 0) => ({ path: `ok-${n}.json`, schema: page, body: `{"offset":${n * 100},"items":[]}${' '.repeat(pad)}` });
const bad = [
  { path: 'negative.json', schema: page, body: '{"offset":-1,"items":[]}' },
  { path: 'no-items.json', schema: page, body: '{"offset":0}' },
  { path: 'cut.json', schema: page, body: '{"offset":' },
  { path: 'extra.json', schema: { problem: true } as SchemaRef, body: `{"type":"about:blank","title":"x","status":404,"detail":"d","model_version":"${MODEL_VERSION}","surprise":1}` },
];
const expected = [/^negative\.json: offset: /, /^no-items\.json: items: /, /^cut\.json: not JSON \(/, /^extra\.json: \(root\): .*surprise/];

describe('validator', () => {
  it('a small build is checked on this thread: each wrong file is named, a file without schema is not checked', async () => {
    const v = validator();
    v.check(okPage(0));
    v.check({ path: 'page.html', body: '<not json' });
    for (const f of bad) v.check(f);
    const problems = await v.done();
    expect(v.threaded).toBe(false);
    expect(problems).toHaveLength(expected.length);
    problems.forEach((p, i) => expect(p).toMatch(expected[i]!));
  });

  it('past LOCAL_BYTES the checks go to a thread, which finds the same failures, after those found here', async () => {
    const v = validator();
    v.check(bad[0]!);
    // Whitespace keeps the JSON valid while it passes the local share.
    for (let n = 0; n < 4; n++) v.check(okPage(n, LOCAL_BYTES / 3));
    for (const f of bad.slice(1)) v.check(f);
    const problems = await v.done();
    expect(v.threaded).toBe(true);
    expect(problems).toHaveLength(expected.length);
    problems.forEach((p, i) => expect(p).toMatch(expected[i]!));
  });

  it('a thread with only good files reports nothing', async () => {
    const v = validator();
    for (let n = 0; n < 6; n++) v.check(okPage(n, LOCAL_BYTES / 3));
    expect(await v.done()).toEqual([]);
    expect(v.threaded).toBe(true);
  });
});
