// Bulk downloads: each file parses back (CSV with its header row on line 1; gzip JSON Lines), its
// rows match what the API serves, README.txt and LICENSE.txt beside them name the versions,
// licenses and attribution, and the manifest's size and sha256 are those of the bytes served.
// Each CSV is read with the defaults of three independent readers (csv-parse, DuckDB's
// auto-detection, the Frictionless JavaScript library casting every row against datapackage.json)
// from the built files, once per shape on the local server's run: the served bytes are those
// files (their sha256 is checked below on both runtimes).
// On Cloudflare's runtime (whose asset path passes each byte through wrangler's local proxy, the
// suite's costliest traffic, and which sends no Content-Length for a large asset nor honours
// Range) every file of the percentile build is read whole against the manifest's sha256; of the
// timeline build, the files up to 1 MB too, the larger ones are asked for with HEAD (no body is
// cancelled through wrangler: see discard in setup.ts) and their built files' sha256 checked: that
// the runtime serves a large file whole is checked once, and the node run reads every file of
// both builds whole against the same sha256 and parses it. Release names are
// compared by their headers (ETag and length) and one of them by its body.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import frictionless from 'datapackage';
import { describe, expect, it } from 'vitest';
import { SHAPES, TARGET, manifestOf, useSites, type Site } from './setup.ts';
import { releaseUrlFor, routeById, routesFor } from '../../build/contract/routes.ts';

const sites = useSites();

async function bytes(site: Site, p: string): Promise<Buffer> {
  const res = await site.get(p);
  expect(res.status, p).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** On Cloudflare, the timeline build's files above this size are asked for with HEAD (see above). */
const CF_WHOLE_MAX_BYTES = 1024 * 1024;

/** The sha256 of each CSV the three readers have read (a file both shapes serve is read once). */
const readWhole = new Set<string>();

/** csv-parse with no options: the first record is the header row. */
function readCsv(text: string | Buffer): { header: string[]; rows: Array<Record<string, string>> } {
  const [header, ...records] = parse(text) as string[][];
  return { header: header!, rows: records.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!]))) };
}

describe.each(SHAPES)('downloads (%s)', (shape) => {
  it('occupations.csv: one row per occupation the API lists, with its score', async () => {
    const site = sites[shape];
    const meta = await site.json('/api/v1/meta');
    const res = await site.get('/downloads/occupations.csv');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const { header, rows } = readCsv(await res.text());
    expect(header.slice(0, 3)).toEqual(['soc_code', 'title', 'slug']);
    expect(header).toContain(shape === 'percentile' ? 'risk_percentile' : 'displacement_year_low');
    expect(meta.downloads.map((d: { url: string }) => d.url)).toEqual(expect.arrayContaining(['/downloads/README.txt', '/downloads/LICENSE.txt']));
    const count = (await site.json('/api/v1/occupations?limit=1')).count;
    expect(rows).toHaveLength(count);
    const detail = await site.json('/api/v1/occupations/15-1252.00');
    const row = rows.find((r) => r.soc_code === '15-1252.00')!;
    expect(row.title).toBe(detail.title);
    expect(Number(row.final_score)).toBe(detail.risk_score.final_score);
    expect(row.risk_tier).toBe(detail.risk_score.risk_tier);
    expect(Number(row.median_annual_wage)).toBe(detail.labor_data.median_annual_wage);
    if (shape === 'percentile') expect(Number(row.risk_percentile)).toBe(detail.risk_score.risk_percentile);
    else expect(Number(row.displacement_year_low)).toBe(detail.risk_score.displacement_year_low);
  });

  it.runIf(TARGET === 'node')('tasks.csv: one row per task, as many as the API lists per occupation', async () => {
    const site = sites[shape];
    const { rows } = readCsv((await bytes(site, '/downloads/tasks.csv')).toString('utf8'));
    const meta = await site.json('/api/v1/meta');
    expect(rows).toHaveLength(meta.counts.tasks);
    const { tasks } = await site.json('/api/v1/occupations/15-1252.00/tasks');
    const mine = rows.filter((r) => r.soc_code === '15-1252.00');
    expect(mine.map((r) => Number(r.task_id))).toEqual(tasks.map((t: { task_id: number }) => t.task_id));
    expect(mine.map((r) => r.description)).toEqual(tasks.map((t: { description: string }) => t.description));
    expect(mine.map((r) => Number(r.time_fraction))).toEqual(tasks.map((t: { time_fraction: number }) => t.time_fraction));
  });

  it('industries.csv: one row per industry the API lists', async () => {
    const site = sites[shape];
    const { rows } = readCsv((await bytes(site, '/downloads/industries.csv')).toString('utf8'));
    const list = await site.json('/api/v1/industries');
    expect(rows.map((r) => r.naics_code)).toEqual(list.data.map((i: { naics_code: string }) => i.naics_code));
    const one = await site.json(`/api/v1/industries/${rows[0]!.naics_code}`);
    expect(Number(rows[0]!.employment)).toBe(one.employment);
  });

  it.runIf(TARGET === 'node')("every CSV opens with the defaults of csv-parse, DuckDB and the Frictionless library: its header row is its resource's fields, its rows the API's count", async () => {
    const site = sites[shape];
    const meta = await site.json('/api/v1/meta');
    // What the API counts for each CSV: a CSV added to the data package needs its count here.
    const apiCount: Record<string, number> = {
      occupations: (await site.json('/api/v1/occupations?limit=1')).count,
      tasks: meta.counts.tasks,
      industries: (await site.json('/api/v1/industries')).count,
      changes: (await site.json('/api/v1/changes')).data.length,
      isco: (await site.json('/api/v1/isco?limit=1')).count,
    };
    const pkg = await site.json('/downloads/datapackage.json');
    const dir = path.join(site.dir, 'downloads');
    const instance = await DuckDBInstance.create(':memory:');
    const duck = await instance.connect();
    // The package as served, its paths resolved beside it, as `Package.load(url)` would.
    const read = await frictionless.Package.load(pkg, { basePath: dir, strict: true });
    expect(read.errors.map(String)).toEqual([]);
    try {
      for (const r of pkg.resources as Array<{ name: string; path: string; rows: number; schema: { fields: Array<{ name: string }> } }>) {
        const fields = r.schema.fields.map((f) => f.name);
        const count = apiCount[r.name];
        expect(count, `${r.name}: the API's count`).toBeGreaterThan(0);
        expect(r.rows, r.path).toBe(count);
        const file = path.join(dir, r.path);
        const bytes = readFileSync(file);
        // Line 1 is the header row: the fields' names in order, nothing before it.
        expect(bytes.subarray(0, bytes.indexOf('\r\n')).toString('utf8'), r.path).toBe(fields.join(','));
        const csv = readCsv(bytes);
        expect(csv.header, r.path).toEqual(fields);
        expect(csv.rows, r.path).toHaveLength(count!);
        // The same bytes were read by the readers below in the other shape (tasks.csv is most of the cost).
        const digest = createHash('sha256').update(bytes).digest('hex');
        if (readWhole.has(digest)) continue;
        readWhole.add(digest);
        // DuckDB's sniffer: delimiter, quoting, header and types detected, none given.
        const literal = `'${file.replace(/'/g, "''")}'`;
        const columns = (await duck.runAndReadAll(`DESCRIBE SELECT * FROM read_csv_auto(${literal})`)).getRowObjects().map((c) => c.column_name);
        expect(columns, r.path).toEqual(fields);
        expect((await duck.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_csv_auto(${literal})`)).getRowObjects()[0]!.n, r.path).toBe(count);
        // Frictionless: every row cast to the schema's types and checked against its constraints.
        const resource = read.resources.find((x) => x.name === r.name)!;
        expect(await resource.read({ cast: true }), r.path).toHaveLength(count!);
      }
    } finally {
      duck.closeSync();
      instance.closeSync();
    }
  });

  it('README.txt and LICENSE.txt name the release, every file and the attribution; the page and the data package point to them', async () => {
    const site = sites[shape];
    const meta = await site.json('/api/v1/meta');
    const text = async (p: string) => {
      const res = await site.get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toBe('text/plain; charset=utf-8');
      return res.text();
    };
    const readme = await text('/downloads/README.txt');
    const license = await text('/downloads/LICENSE.txt');
    for (const t of [readme, license]) expect(t).toContain(`Data version:  ${meta.data_version}`);
    for (const d of meta.downloads as Array<{ url: string; release_url?: string }>) {
      if (d.url.endsWith('.txt')) continue;
      expect(readme, d.url).toContain(path.posix.basename(d.url));
      if (d.release_url) expect(readme, d.release_url).toContain(path.posix.basename(d.release_url));
    }
    for (const a of meta.attribution as string[]) expect(license, a.slice(0, 40)).toContain(a);
    for (const s of meta.sources as Array<{ title: string; license: string }>) expect(license, s.title).toContain(`${s.title} (`);
    // O*NET's notice (its license asks for it with the data): in each of the places the files point to.
    const onet = (meta.attribution as string[]).find((a) => a.includes('O*NET') && a.includes('CC BY 4.0'))!;
    expect(onet).toMatch(/USDOL\/ETA/);
    expect(readme).toContain(onet);
    const page = await (await site.get('/downloads/')).text();
    expect(page).toContain(onet.replace(/"/g, '&quot;'));
    for (const href of ['/downloads/README.txt', '/downloads/LICENSE.txt']) expect(page).toContain(`href="${href}"`);
    const pkg = await site.json('/downloads/datapackage.json');
    expect(pkg.attribution).toContain(onet);
    expect(pkg.description).toMatch(/README\.txt.*LICENSE\.txt/);
  });

  it.runIf(TARGET === 'node')('odr-data.jsonl.gz: a header line, then every occupation and industry as the API serves them', async () => {
    const site = sites[shape];
    const lines = gunzipSync(await bytes(site, '/downloads/odr-data.jsonl.gz')).toString('utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'header', data_version: manifestOf(site).data_version, shape });
    const occ = lines.filter((l) => l.type === 'occupation');
    expect(occ).toHaveLength((await site.json('/api/v1/occupations?limit=1')).count);
    expect(lines.filter((l) => l.type === 'industry')).toHaveLength((await site.json('/api/v1/industries')).count);
    const sd = occ.find((o) => o.soc_code === '15-1252.00');
    expect(sd.risk_score).toEqual((await site.json('/api/v1/occupations/15-1252.00')).risk_score);
    expect(sd.tasks).toEqual((await site.json('/api/v1/occupations/15-1252.00/tasks')).tasks);
  });

  it('the manifest lists each download with the size and sha256 of the bytes served', async () => {
    const site = sites[shape];
    const { downloads } = manifestOf(site) as unknown as { downloads: Array<{ url: string; bytes: number; sha256: string }> };
    expect(downloads.map((d) => d.url).sort()).toEqual(routesFor(shape).filter((r) => r.id.startsWith('download-')).map((r) => r.pattern).sort());
    expect(downloads.map((d) => d.url)).toEqual(expect.arrayContaining(['/downloads/industries.csv', '/downloads/occupations.csv', '/downloads/odr-data.jsonl.gz', '/downloads/tasks.csv', '/downloads/changes.csv']));
    let partly = 0;
    for (const d of downloads) {
      if (TARGET === 'cloudflare' && shape === 'timeline' && d.bytes > CF_WHOLE_MAX_BYTES) {
        const res = await site.get(d.url, { method: 'HEAD' });
        expect(res.status, d.url).toBe(200);
        expect(res.headers.get('content-encoding'), d.url).toBeNull();
        partly++;
        continue;
      }
      const body = await bytes(site, d.url);
      expect(body.length, d.url).toBe(d.bytes);
      expect(createHash('sha256').update(body).digest('hex'), d.url).toBe(d.sha256);
    }
    // The built files are the manifest's: their sha256 on disk, for the ones served only in part.
    if (partly > 0) for (const d of downloads.filter((x) => x.bytes > CF_WHOLE_MAX_BYTES)) expect(createHash('sha256').update(readFileSync(path.join(site.dir, d.url))).digest('hex'), d.url).toBe(d.sha256);
    const page = await (await site.get('/downloads/')).text();
    for (const d of downloads) expect(page).toContain(d.sha256);
    // /api/v1/meta lists the same files with the same sizes and hashes.
    const meta = await site.json('/api/v1/meta');
    const plain = meta.downloads.map(({ release_url: _, ...d }: { release_url?: string }) => d);
    expect([...plain].sort((a: { url: string }, b: { url: string }) => (a.url < b.url ? -1 : 1))).toEqual(downloads.map((d) => ({ url: d.url, bytes: d.bytes, sha256: d.sha256 })));
  });

  it('each data file by its release name (data and model versions) gives the same bytes and headers; /meta and the page list both names', async () => {
    const site = sites[shape];
    const meta = await site.json('/api/v1/meta');
    const release = routesFor(shape).filter((r) => r.release);
    expect(release.length).toBe(8);
    let compared = 0;
    for (const r of release) {
      const name = releaseUrlFor(r.id, meta.data_version);
      expect(name).toContain(`odr-${meta.data_version}-`);
      const listed = meta.downloads.find((d: { url: string }) => d.url === r.pattern);
      expect(listed.release_url, r.id).toBe(name);
      // One after the other, each body read whole (on Cloudflare the smallest only, the others by
      // their headers): the plain name's bytes are checked against the same sha256 by the test above.
      const whole = TARGET === 'node' || r.id === 'download-industries';
      const a = await site.get(r.pattern, { method: 'HEAD' });
      const b = await site.get(name, whole ? undefined : { method: 'HEAD' });
      expect([a.status, b.status], name).toEqual([200, 200]);
      for (const h of ['content-type', 'cache-control', 'access-control-allow-origin', 'etag', 'content-encoding', ...(whole ? [] : ['content-length'])]) expect(b.headers.get(h), `${name} ${h}`).toBe(a.headers.get(h));
      expect(b.headers.get('etag'), name).toBeTruthy();
      if (whole) {
        const body = Buffer.from(await b.arrayBuffer());
        expect(createHash('sha256').update(body).digest('hex'), name).toBe(listed.sha256);
      }
      compared++;
    }
    expect(compared).toBe(8);
    // The descriptors keep the names their tools look for.
    for (const id of ['download-datapackage', 'download-datasette-metadata']) expect(meta.downloads.find((d: { url: string }) => d.url === routeById(id).pattern).release_url).toBeUndefined();
    const page = await (await site.get('/downloads/')).text();
    for (const r of release) {
      expect(page).toContain(`href="${releaseUrlFor(r.id, meta.data_version)}"`);
      expect(page).toContain(`href="${r.pattern}"`);
    }
    // Another release's name is not this release's bytes.
    const other = releaseUrlFor('download-occupations', 'onet-0.0+oews-may-1999+model-0.0.1');
    expect((await site.get(other)).status).toBe(404);
  });
});
