// Shards are plain files in the deployment: a platform adapter reads them from its own origin
// (a CDN hit after the first request), so no platform needs file-system access.
import { createHandler, type Handler } from '../api.ts';
import { fileFor, shardFile } from '../../build/contract/dist-layout.ts';

export function originHandler(): (req: Request) => Promise<Response> {
  let handler: Handler | null = null;
  return (req) => {
    if (!handler) {
      const origin = new URL(req.url).origin;
      handler = createHandler({
        loadShard: async (name) => {
          const res = await fetch(`${origin}/${shardFile(name)}`);
          if (!res.ok) throw new Error(`shard ${name}: HTTP ${res.status}`);
          return res.json();
        },
        loadFile: async (urlPath) => {
          const res = await fetch(`${origin}/${fileFor(urlPath, 'json')}`);
          if (res.status === 404) return null;
          if (!res.ok) throw new Error(`file ${urlPath}: HTTP ${res.status}`);
          return res.json();
        },
        // Netlify buffers the whole body (6 MB at most) before the function runs.
      }, { discardLimitBytes: Number.POSITIVE_INFINITY });
    }
    return handler(req);
  };
}
