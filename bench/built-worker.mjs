// The built Cloudflare bundle (_worker.js) run in Node, for the benches that call it directly
// (worker-cold-child.mjs, search-compare.ts). Plain JavaScript: the cold child runs on bare node.
import { cpSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Node only loads a .js file as a module inside a "type": "module" package: copies DIST's
 * _worker.js (a file, or a folder: index.js and the modules it imports on demand) into one.
 * Returns the entry's path and the folder, which the caller removes.
 */
export function copyBuiltWorker(dist, prefix) {
  const tmp = mkdtempSync(path.join(tmpdir(), prefix));
  writeFileSync(path.join(tmp, 'package.json'), '{"type":"module"}');
  const source = path.join(dist, '_worker.js');
  const entry = statSync(source).isDirectory() ? path.join(tmp, '_worker.js', 'index.js') : path.join(tmp, '_worker.js');
  cpSync(source, path.join(tmp, '_worker.js'), { recursive: true });
  return { entry, tmp };
}

/**
 * The ASSETS binding over files held in memory (URL path -> text). A file is handed over as the
 * platform does: its text parsed by json() (that parse is the function's work); not through
 * Node's Response, whose body streams are JavaScript here and native code in workerd. A missing
 * file is a 404 Response.
 */
export function memoryAssets(files) {
  return {
    async fetch(req) {
      const url = new URL(typeof req === 'string' ? req : req.url);
      const text = files.get(url.pathname);
      if (text === undefined) return new Response('not found', { status: 404 });
      return { ok: true, status: 200, json: async () => JSON.parse(text) };
    },
  };
}
