// The local server's own faults answer like the function's: RFC 9457 problem+json with CORS and
// no-store, never text/plain. Node only (the Cloudflare runtime has no local server in front).
import net from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { startServer, type FunctionModule } from '../../functions/adapters/node/server.ts';
import { ProblemSchema } from '../../build/contract/response-schemas.ts';
import { TARGET } from './setup.ts';

/** A function that always fails the way a broken deployment would (a rejected promise, or a throw). */
const failing = (how: 'reject' | 'throw'): FunctionModule => ({
  createReplyHandler: () => async () => {
    if (how === 'throw') throw new Error('broken function');
    return Promise.reject(new Error('broken function'));
  },
});

describe.skipIf(TARGET === 'cloudflare')('local server faults', () => {
  it.each(['reject', 'throw'] as const)('a function that fails (%s) gives a problem+json 500; files are still served', async (how) => {
    const server = await startServer({ dir: inject('dists').percentile, port: 0, host: '127.0.0.1', functionModule: failing(how) });
    try {
      const res = await fetch(`${server.url}/api/v1/occupations?q=nurse`);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const body = ProblemSchema.parse(await res.json());
      expect(body).toMatchObject({ status: 500, type: '/api/v1/problems/internal-error' });
      const file = await fetch(`${server.url}/api/v1/meta`);
      expect(file.status).toBe(200);
      await file.arrayBuffer();
    } finally {
      await server.close();
    }
  });
});

/** Writes `request` (and `more` after `delayMs`), then resolves with everything the server sent until it closed. */
function exchange(url: string, request: string, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(new URL(url).port), '127.0.0.1', () => s.write(request));
    let out = '';
    const timer = setTimeout(() => {
      s.destroy();
      resolve(`${out}[no close within ${timeoutMs} ms]`);
    }, timeoutMs);
    s.on('data', (d) => (out += d));
    s.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    s.on('error', reject);
  });
}

/** The status line and the problem+json body of a raw answer. */
function problemOf(out: string): { statusLine: string; contentType: string | undefined; body: ReturnType<typeof ProblemSchema.parse> } {
  const at = out.indexOf('\r\n\r\n');
  const head = out.slice(0, at).split('\r\n');
  const contentType = head.find((h) => /^content-type:/i.test(h))?.replace(/^content-type:\s*/i, '');
  return { statusLine: head[0]!, contentType, body: ProblemSchema.parse(JSON.parse(out.slice(at + 4))) };
}

// Issue 42, item 11: Node's own answers (its parser's 400, 408, 431, the 417 of an unknown
// expectation) had no body, CONNECT got no answer, and Expect: 100-continue with a body over the
// limit got "100 Continue" before the 413.
describe.skipIf(TARGET === 'cloudflare')("Node's own answers are problem+json", () => {
  const withServer = async (limits: { requestTimeoutMs?: number; headersTimeoutMs?: number }, test: (url: string) => Promise<void>) => {
    const server = await startServer({ dir: inject('dists').percentile, port: 0, host: '127.0.0.1', ...limits });
    try {
      await test(server.url);
    } finally {
      await server.close();
    }
  };

  it('a malformed request (400), headers too large (431), an unknown expectation (417), CONNECT (501)', async () => {
    await withServer({}, async (url) => {
      const cases: Array<[string, string, number, string]> = [
        ['bad request line', 'GET /api/v1/meta HTTP/1.1 extra\r\nHost: x\r\n\r\n', 400, 'bad-request'],
        ['bad header', 'GET /api/v1/meta HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n', 400, 'bad-request'],
        ['headers too large', `GET /api/v1/meta HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'request-header-fields-too-large'],
        ['unknown expectation', 'POST /api/v1/displacement/assess HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 0\r\n\r\n', 417, 'expectation-failed'],
        ['CONNECT', 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n', 501, 'not-implemented'],
      ];
      for (const [what, request, status, type] of cases) {
        const p = problemOf(await exchange(url, request));
        expect(p.statusLine, what).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
        expect(p.contentType, what).toBe('application/problem+json; charset=utf-8');
        expect(p.body, what).toMatchObject({ status, type: `/api/v1/problems/${type}` });
      }
    });
  });

  it('a request that does not arrive in time: 408 problem+json, then the connection closes', async () => {
    await withServer({ requestTimeoutMs: 300, headersTimeoutMs: 300 }, async (url) => {
      const out = await exchange(url, 'GET /api/v1/meta HTTP/1.1\r\nHost: x\r\n');
      const p = problemOf(out);
      expect(p.statusLine).toMatch(/^HTTP\/1.1 408 /);
      expect(p.body).toMatchObject({ status: 408, type: '/api/v1/problems/request-timeout' });
    });
  });

  it('Expect: 100-continue with a Content-Length over the limit: the 413 and no "100 Continue"; under it, 100 then the answer', async () => {
    await withServer({}, async (url) => {
      const big = await exchange(url, 'POST /api/v1/displacement/assess HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 10000000\r\n\r\n', 5_000);
      expect(big).not.toContain('100 Continue');
      const p = problemOf(big);
      expect(p.statusLine).toMatch(/^HTTP\/1.1 413 /);
      expect(p.body.status).toBe(413);
      // Under the limit the client is asked for the body, and it is answered.
      const body = JSON.stringify({ soc_code: '15-1252.00' });
      const small = await new Promise<string>((resolve, reject) => {
        const s = net.connect(Number(new URL(url).port), '127.0.0.1', () =>
          s.write(`POST /api/v1/displacement/assess HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`),
        );
        let out = '';
        s.on('data', (d) => {
          if (!out.includes('100 Continue') && String(d).startsWith('HTTP/1.1 100 Continue')) s.write(body);
          out += d;
        });
        s.on('close', () => resolve(out));
        s.on('error', reject);
      });
      expect(small).toMatch(/^HTTP\/1.1 100 Continue\r\n\r\nHTTP\/1.1 200 OK/);
    });
  });
});
