// A content-addressed cache of parsed sources. Parsing the raw files (xlsx above all) is most of a
// build; its result depends only on the bytes of the source files and on the parser code, so it is
// stored under a key made of both: the sha256 of every file under the source directory (path and
// content) and of the loaders' own source files, the model's input schemas and the lockfile (the
// "parser version": edit a loader or a schema, or upgrade a parser library, and every entry is stale). Entries are v8-serialized, carry
// the sha256 of their payload and are verified on read; a damaged entry is reported, removed and
// the sources parsed again. The directory is git-ignored; --no-cache bypasses it.
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelInputs } from '../model/inputs.ts';
import type { SourceReport } from './report.ts';
import { listSourceFiles } from './discover.ts';

export type Loaded = { bundle: ModelInputs; report: SourceReport };
export type CacheOutcome = 'hit' | 'miss' | 'off' | 'damaged';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
/** Entries kept; older ones are removed after a store (one per source set and parser version). */
const KEEP = 4;

const sha = () => createHash('sha256');

/** The schemas the loaders produce (owned by the model, with the code pattern they use): a change to them changes what is parsed. */
const INPUT_SCHEMAS = ['inputs.ts', 'request-schemas.ts'];

/** The parser version: this folder's code, the model's input schemas and the lockfile (parser libraries' versions). */
async function parserVersion(): Promise<string> {
  const h = sha();
  const own = (await readdir(HERE)).filter((f) => /\.(ts|mjs)$/.test(f)).sort();
  for (const f of own) h.update(`${f}\0`).update(await readFile(path.join(HERE, f))).update('\0');
  for (const f of INPUT_SCHEMAS) h.update(`model/${f}\0`).update(await readFile(path.join(REPO, 'build', 'model', f))).update('\0');
  h.update(await readFile(path.join(REPO, 'package-lock.json')).catch(() => Buffer.from('no lockfile')));
  return h.digest('hex');
}

export async function cacheKey(sourceDir: string): Promise<string> {
  const h = sha().update(await parserVersion());
  for (const rel of await listSourceFiles(sourceDir)) {
    h.update(`\0${rel}\0`);
    // Whole files (a few MB at most): a stream's 64 KB chunks cost a round trip each.
    h.update(await readFile(path.join(sourceDir, rel)));
  }
  return h.digest('hex');
}

/** File name ending of an entry. */
const ENTRY = '.parts';

interface PartHeader {
  name: string;
  bytes: number;
  sha256: string;
}

/**
 * Loads through the cache: a verified entry for this key is returned as is; otherwise `load` runs
 * and its result is stored (atomically: written aside, then renamed).
 */
export async function loadCached(
  sourceDir: string,
  cacheDir: string,
  load: () => Promise<Loaded>,
  log: (line: string) => void,
): Promise<Loaded & { cache: CacheOutcome }> {
  const key = await cacheKey(sourceDir);
  const file = path.join(cacheDir, `${key}${ENTRY}`);
  let outcome: CacheOutcome = 'miss';
  const read = await readEntry(file);
  if (read === 'damaged') {
    log(`  cache      entry ${path.basename(file)} failed verification; removed, parsing the sources again`);
    await rm(file, { force: true });
    outcome = 'damaged';
  } else if (read) return { ...read, cache: 'hit' };
  const loaded = await load();
  await store(cacheDir, file, loaded).catch((e: Error) => log(`  cache      could not store parsed sources (${e.message}); the build goes on`));
  return { ...loaded, cache: outcome };
}

/** The entry's parts, each checked against its sha256 before it is parsed; null when there is no entry. */
async function readEntry(file: string): Promise<Loaded | null | 'damaged'> {
  const fh = await open(file, 'r').catch(() => null);
  if (!fh) return null;
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(Math.min(size, 1 << 16));
    await fh.read(head, 0, head.length, 0);
    const nl = head.indexOf(0x0a);
    if (nl < 0) return 'damaged';
    let parts: PartHeader[];
    try {
      parts = (JSON.parse(head.subarray(0, nl).toString()) as { parts: PartHeader[] }).parts;
    } catch {
      return 'damaged';
    }
    if (!Array.isArray(parts) || nl + 1 + parts.reduce((n, p) => n + p.bytes, 0) !== size) return 'damaged';
    const values: Record<string, unknown> = {};
    let offset = nl + 1;
    for (const p of parts) {
      const buf = Buffer.allocUnsafe(p.bytes);
      await fh.read(buf, 0, p.bytes, offset);
      offset += p.bytes;
      if (sha().update(buf).digest('hex') !== p.sha256) return 'damaged';
      values[p.name] = JSON.parse(buf.toString());
    }
    const { report, ...bundle } = values;
    return { report: report as SourceReport, bundle: bundle as ModelInputs };
  } finally {
    await fh.close();
  }
}

async function store(cacheDir: string, file: string, loaded: Loaded): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  const parts = [['report', loaded.report] as const, ...Object.entries(loaded.bundle)].map(([name, value]) => {
    const body = Buffer.from(JSON.stringify(value));
    return { name, bytes: body.length, sha256: sha().update(body).digest('hex'), body };
  });
  const header = `${JSON.stringify({ parts: parts.map(({ body: _b, ...h }) => h) })}\n`;
  const tmp = `${file}.${process.pid}.tmp`;
  // Written part by part: one concatenated copy of the whole entry (~70 MB) was the cache-miss build's memory peak.
  await writeFile(tmp, [Buffer.from(header), ...parts.map((p) => p.body)]);
  await rename(tmp, file);
  // Keep the newest few entries; entries of the previous format (v8-serialized) go.
  const names = await readdir(cacheDir);
  for (const f of names.filter((f) => f.endsWith('.v8'))) await rm(path.join(cacheDir, f), { force: true });
  const entries = await Promise.all(names.filter((f) => f.endsWith(ENTRY)).map(async (f) => ({ f, t: (await stat(path.join(cacheDir, f))).mtimeMs })));
  entries.sort((a, b) => b.t - a.t);
  for (const old of entries.slice(KEEP)) await rm(path.join(cacheDir, old.f), { force: true });
}
