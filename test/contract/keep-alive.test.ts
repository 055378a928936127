// A client that pools connections must not see failures after a request whose body the server
// rejected without wanting it (413, 415): each oversized or unwanted body is followed on the SAME
// keep-alive socket (one-socket agent) by a GET and a POST, and all three are answered.
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { DISCARD_LIMIT_BYTES } from '../../build/contract/limits.ts';
import { SHAPES, useSites } from './setup.ts';

const sites = useSites();
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
afterAll(() => agent.destroy());

interface Sent {
  status: number;
  connection: string | undefined;
}

/** One request through the pooled agent; `chunks` are written one by one (chunked when no length). */
function send(base: string, method: string, path: string, headers: Record<string, string>, chunks: Buffer[] = []): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, agent }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
    });
    req.once('error', reject);
    // The server may answer before the upload ends; a write after its close is not our failure.
    req.on('error', () => undefined);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

const ASSESS = '/api/v1/displacement/assess';
const big = (bytes: number) => Buffer.alloc(bytes, 'x');
const cases: Array<[string, Record<string, string>, Buffer[], number]> = [
  ['2 MB declared', { 'Content-Type': 'application/json', 'Content-Length': String(2_000_000) }, [big(2_000_000)], 413],
  ['2 MB chunked', { 'Content-Type': 'application/json' }, Array.from({ length: 32 }, () => big(62_500)), 413],
  ['past the discard limit, chunked', { 'Content-Type': 'application/json' }, Array.from({ length: 20 }, () => big(Math.ceil((DISCARD_LIMIT_BYTES * 1.5) / 20))), 413],
  ['100 KB text/plain', { 'Content-Type': 'text/plain', 'Content-Length': String(100_000) }, [big(100_000)], 415],
];

describe.each(SHAPES)('keep-alive after an unwanted body (%s)', (shape) => {
  it.each(cases)('%s, then two more requests on the pooled connection', async (_name, headers, chunks, status) => {
    const base = sites[shape].url;
    const first = await send(base, 'POST', ASSESS, headers, chunks);
    expect(first.status).toBe(status);
    const get = await send(base, 'GET', '/api/v1/displacement/factors', {});
    expect(get.status).toBe(200);
    const body = Buffer.from(JSON.stringify({ soc_code: '15-1252.00' }));
    const post = await send(base, 'POST', ASSESS, { 'Content-Type': 'application/json', 'Content-Length': String(body.length) }, [body]);
    expect(post.status).toBe(200);
  });
});

describe('keep-alive after an oversized vote (timeline)', () => {
  it('2 MB chunked to the votes endpoint, then two more requests on the pooled connection', async () => {
    const base = sites.timeline.url;
    const votes = '/api/v1/occupations/15-1252.00/votes';
    const first = await send(base, 'POST', votes, { 'Content-Type': 'application/json' }, Array.from({ length: 32 }, () => big(62_500)));
    expect(first.status).toBe(413);
    expect((await send(base, 'GET', votes, {})).status).toBe(200);
    expect((await send(base, 'GET', '/api/v1/displacement/factors', {})).status).toBe(200);
  });
});
