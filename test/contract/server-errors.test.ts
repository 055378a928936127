// The local server's own faults answer like the function's: RFC 9457 problem+json with CORS and
// no-store, never text/plain. Node only (the Cloudflare runtime has no local server in front).
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
