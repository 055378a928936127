// The largest download (the SQLite database, 15.6 MB) on the local server (issue 42): sent as it is
// on disk, never compressed at request time, under its plain and its release name; and a client
// that asks for it and does not read holds a chunk of it in the server, not the whole file.
// Node only: on Cloudflare the platform's asset server sends it.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { releaseUrlFor, routeById } from '../../build/contract/routes.ts';
import { SERVER_DEFAULTS } from '../../functions/adapters/node/server.ts';
import { TARGET, manifestOf, useSites } from './setup.ts';

const sites = useSites();
const sqlite = routeById('download-sqlite').pattern;

describe.runIf(TARGET === 'node')('the largest download on the local server', () => {
  it('is larger than the file cache keeps, and is sent as it is (no Content-Encoding) by GET and HEAD, under both names', async () => {
    const site = sites.percentile;
    const file = path.join(site.dir, sqlite);
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(SERVER_DEFAULTS.cacheBytes / 4);
    const meta = await site.json('/api/v1/meta');
    const sha256 = manifestOf(site).files[sqlite.slice(1)];
    for (const p of [sqlite, releaseUrlFor('download-sqlite', meta.data_version)]) {
      for (const method of ['HEAD', 'GET']) {
        const res = await site.get(p, { method, headers: { 'Accept-Encoding': 'br, gzip' } });
        expect({ p, method, status: res.status, encoding: res.headers.get('content-encoding'), length: res.headers.get('content-length') }).toEqual({
          p,
          method,
          status: 200,
          encoding: null,
          length: String(size),
        });
        const body = Buffer.from(await res.arrayBuffer());
        if (method === 'GET') expect(createHash('sha256').update(body).digest('hex')).toBe(sha256);
        // Its ETag validates it.
        expect((await site.get(p, { headers: { 'If-None-Match': res.headers.get('etag')! } })).status).toBe(304);
      }
    }
  });

  it('40 clients that ask for it and do not read hold well under 1 MB each in the server', async () => {
    const site = sites.percentile;
    const { port } = new URL(site.url);
    const sockets: net.Socket[] = [];
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().arrayBuffers;
    try {
      for (let i = 0; i < 40; i++) {
        const s = net.connect(Number(port), '127.0.0.1');
        sockets.push(s);
        await new Promise<void>((resolve, reject) => {
          s.once('error', reject);
          // The first bytes of the answer arrive; then the client stops reading.
          s.once('data', () => (s.pause(), resolve()));
          s.write(`GET ${sqlite} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br, gzip\r\n\r\n`);
        });
      }
      // Until the server has sent what the connections take and holds the rest.
      await new Promise((r) => setTimeout(r, 1000));
      const held = process.memoryUsage().arrayBuffers - before;
      // Each held the whole file (15.6 MB, in a buffer of 32 MiB) before.
      expect(held / sockets.length).toBeLessThan(1024 * 1024);
    } finally {
      for (const s of sockets) s.destroy();
    }
  });
});
