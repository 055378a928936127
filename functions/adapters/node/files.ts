// The local server's in-memory copy of dist/: bodies, ETags from the manifest (sha256), and
// gzip/brotli variants compressed once on first use.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { createHash } from 'node:crypto';

export interface StaticFile {
  body: Buffer;
  etag: string;
  gzip?: Buffer;
  br?: Buffer;
}

async function walk(dir: string, base = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await walk(dir, rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

export async function loadTree(dir: string): Promise<Map<string, StaticFile>> {
  const files = new Map<string, StaticFile>();
  const paths = await walk(dir);
  await Promise.all(
    paths.map(async (rel) => {
      const body = await readFile(path.join(dir, rel));
      // Same strong tag for the same bytes on every host: the manifest's sha256, shortened.
      files.set(rel, { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` });
    }),
  );
  return files;
}

const MIN_COMPRESS = 512;

/** Picks br, then gzip, when the client accepts it and the body is worth compressing. */
export function encodedBody(file: StaticFile, acceptEncoding: string | undefined): { body: Buffer; encoding: string | null } {
  if (file.body.length < MIN_COMPRESS || !acceptEncoding) return { body: file.body, encoding: null };
  const accepts = (name: string) => new RegExp(`(^|[,\\s])${name}(?!;q=0(\\.0*)?(,|$))`, 'i').test(acceptEncoding);
  if (accepts('br')) {
    file.br ??= brotliCompressSync(file.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } });
    return { body: file.br, encoding: 'br' };
  }
  if (accepts('gzip')) {
    file.gzip ??= gzipSync(file.body, { level: 6 });
    return { body: file.gzip, encoding: 'gzip' };
  }
  return { body: file.body, encoding: null };
}
