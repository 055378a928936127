// The generated CDN configs, pinned byte for byte per shape. A change here is a deployment change:
// review the diff of the snapshot file (npx vitest run -u), never accept it blind.
import { describe, expect, it } from 'vitest';
import { cloudflareRoutes, headersFile, netlifyToml } from '../../../build/emit/deploy.ts';
import type { Shape } from '../../../build/model/records.ts';

const SHAPES: Shape[] = ['percentile', 'timeline'];

/** Two files of a real build's kinds: a JSON route under /api and a card (netlify.toml rewrites one rule per file). */
const STATIC_PATHS = [
  { path: '/api/v1/occupations/15-1252.00', file: 'api/v1/occupations/15-1252.00/index.json' },
  { path: '/embed/software-developers', file: 'embed/software-developers/index.html' },
];

describe.each(SHAPES)('generated CDN configs (%s)', (shape) => {
  it('_headers', async () => {
    await expect(headersFile(shape)).toMatchFileSnapshot(`__snapshots__/${shape}._headers`);
  });
  it('_routes.json', async () => {
    await expect(cloudflareRoutes(shape)).toMatchFileSnapshot(`__snapshots__/${shape}._routes.json`);
  });
  it('netlify.toml', async () => {
    await expect(netlifyToml(shape, STATIC_PATHS)).toMatchFileSnapshot(`__snapshots__/${shape}.netlify.toml`);
  });
});
