// Registered files (issue 44 item 6): every file of releases/forecasts/ and releases/head-to-head/
// is served over HTTP at the URL /api/v1/meta gives, byte for byte, its sha256 the one meta lists
// and the one of the committed file.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, SHAPES, useSites } from './setup.ts';

const sites = useSites();
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The committed files, by the folder of releases/ each kind is kept in. */
const committed = (['forecasts', 'head-to-head'] as const).flatMap((dir) =>
  readdirSync(path.join(REPO_ROOT, 'releases', dir))
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ file: `releases/${dir}/${f}`, sha256: sha256(readFileSync(path.join(REPO_ROOT, 'releases', dir, f))) })),
);

describe.each(SHAPES)('registered files (%s)', (shape) => {
  it('meta lists every committed file with a URL and its sha256, and the URL serves those bytes', async () => {
    const site = sites[shape];
    const meta = (await site.json('/api/v1/meta')) as { registered: Array<{ url: string; file: string; sha256: string; bytes: number }>; forecasts: Array<{ file: string; url: string }> };
    expect(committed.some((c) => c.file.startsWith('releases/head-to-head/'))).toBe(true);
    expect(meta.registered.map((r) => r.file).sort()).toEqual(committed.map((c) => c.file).sort());
    for (const c of committed) {
      const ref = meta.registered.find((r) => r.file === c.file)!;
      expect(ref.sha256, c.file).toBe(c.sha256);
      expect(ref.url, c.file).toMatch(/^\/api\/v1\/registered\/[a-z-]+-\d+\.\d+\.\d+-\d{4}-\d{2}-\d{2}\.json$/);
      const res = await site.get(ref.url);
      expect(res.status, ref.url).toBe(200);
      expect(res.headers.get('content-type'), ref.url).toMatch(/^application\/json/);
      const body = new Uint8Array(await res.arrayBuffer());
      expect(body.byteLength, ref.url).toBe(ref.bytes);
      expect(sha256(body), ref.url).toBe(c.sha256);
    }
    // Each forecast names where it is served, not only its repository path.
    for (const f of meta.forecasts) expect(meta.registered.find((r) => r.file === f.file)?.url, f.file).toBe(f.url);
  });

  it('a registered name that does not exist is a 404 problem', async () => {
    const res = await sites[shape].get('/api/v1/registered/forecast-0.0.0-2000-01-01.json');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
