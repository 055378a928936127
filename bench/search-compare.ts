// Search and list answers of a built function, one line per request (URL, status, ETag, sha256 of the
// body), for comparing two builds byte for byte: a change to how the search index is stored or
// read must leave every answer as it was. The built Cloudflare bundle (_worker.js) of DIR, its
// files served from memory as worker-cold-child.mjs serves them.
//   npx tsx bench/search-compare.ts DIR > answers.txt   (then diff two runs' files)
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { copyBuiltWorker, memoryAssets } from './built-worker.mjs';
import { shardFile } from '../build/contract/dist-layout.ts';
import { realisticQueries, typoQueries } from '../test/support/realistic-queries.ts';
import { SEARCH_CASES } from '../test/support/search-queries.ts';

const dist = path.resolve(process.argv[2] ?? '');
const ORIGIN = 'http://localhost';
const files = new Map<string, string>();
for (const rel of readdirSync(dist, { recursive: true })) {
  const p = path.join(dist, String(rel));
  if (String(rel).endsWith('.json') && !String(rel).startsWith('_worker.js') && statSync(p).isFile()) files.set(`/${String(rel).split(path.sep).join('/')}`, readFileSync(p, 'utf8'));
}
const env = { ASSETS: memoryAssets(files) };
const { entry: copy, tmp } = copyBuiltWorker(dist, 'search-compare-');
const worker = (await import(pathToFileURL(copy).href)).default as { fetch(req: Request, env: unknown): Promise<Response> };

const titles: string[] = [];
const meta = JSON.parse(files.get(`/${shardFile('meta')}`)!) as { page_shards: number };
for (let n = 0; n < meta.page_shards; n++) titles.push(...(JSON.parse(files.get(`/${shardFile(`pages/${n}`)}`)!) as { items: string[] }).items.map((i) => (JSON.parse(i) as { title: string }).title));
const extra = ['traffic tehnicians', 'concieres', 'analysst', 'sofware developer', 'nurce practitioner', 'nurse', 'xyzzyq', 'military', 'infantry', 'chef', 'assistant chef', 'constructor', '', ' ', 'a', 'the', 'ÄÖÜ', 'x'.repeat(200), 'nurse nurse nurse', 'operators', 'software-engineer', "o'neil", '25-2021', '2512'];
const queries = [...new Set([...extra, ...SEARCH_CASES.map((c) => c.q), ...realisticQueries(titles, 1200), ...typoQueries(titles, 1200)])];
const forms = (q: string): string[] => {
  const e = encodeURIComponent(q);
  return [`/api/v1/occupations?q=${e}`, `/api/v1/occupations?q=${e}&limit=5&offset=3`, `/api/v1/occupations?q=${e}&limit=20&offset=20`, `/api/v1/isco?q=${e}`];
};
const sha = (b: ArrayBuffer) => createHash('sha256').update(new Uint8Array(b)).digest('hex');
const lines: string[] = [];
// Each query first alone (as a cold one is met), its other forms after every query's first.
for (let f = 0; f < 4; f++) {
  for (const q of queries) {
    const url = forms(q)[f]!;
    const res = await worker.fetch(new Request(ORIGIN + url), env);
    lines.push(`${url}\t${res.status}\t${res.headers.get('ETag')}\t${sha(await res.arrayBuffer())}`);
  }
}
// The list pages without a query too: they are cut from the same page shards.
const lists = ['', 'limit=1', 'limit=200', 'limit=200&offset=800', 'limit=7&offset=45', 'offset=900', 'limit=20&offset=400'];
for (const extra of ['', '&sort=title', '&sort=-score&tier=high', '&major_group=29', '&sort=employment&q=nurse']) {
  for (const l of lists) {
    const url = `/api/v1/occupations?${l}${extra}`.replace('?&', '?');
    const res = await worker.fetch(new Request(ORIGIN + url), env);
    lines.push(`${url}\t${res.status}\t${res.headers.get('ETag')}\t${sha(await res.arrayBuffer())}`);
  }
}
rmSync(tmp, { recursive: true, force: true });
process.stdout.write(`${lines.join('\n')}\n`);
