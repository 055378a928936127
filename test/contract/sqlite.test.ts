// /downloads/occupation-risk.sqlite: it opens, its row counts are the API's, its keys hold, the
// full-text index finds titles, it stays under the 25 MiB a Pages deployment serves, and the
// example queries the downloads page shows run on it; its metadata table carries the release,
// licenses and attribution; metadata.json describes it for Datasette.
// The database itself is opened on the local server only: the file is data, and the bytes Cloudflare's runtime serves are
// checked against the same sha256 in downloads.test.ts (15 MB through wrangler's local proxy,
// twice per shape, was the largest traffic of the Cloudflare run).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_TABLES } from '../../build/emit/download-tables.ts';
import { DATABASE_NAME, EXAMPLE_QUERIES, SQLITE_MAX_BYTES } from '../../build/emit/sqlite.ts';
import { SHAPES, TARGET, discard, useSites, type Site } from './setup.ts';

const sites = useSites();
const scratch = mkdtempSync(path.join(tmpdir(), 'odr-sqlite-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The database as served, written to a scratch file once per shape and opened read-only. */
const served = new Map<Site, Promise<{ file: string; bytes: number }>>();
async function open(site: Site): Promise<{ db: Database.Database; bytes: number }> {
  if (!served.has(site)) served.set(site, download(site));
  const { file, bytes } = await served.get(site)!;
  return { db: new Database(file, { readonly: true, fileMustExist: true }), bytes };
}
async function download(site: Site): Promise<{ file: string; bytes: number }> {
  const res = await site.get('/downloads/occupation-risk.sqlite');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/vnd.sqlite3');
  const body = Buffer.from(await res.arrayBuffer());
  const file = path.join(scratch, `${site.shape}.sqlite`);
  writeFileSync(file, body);
  return { file, bytes: body.length };
}

const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

describe.each(SHAPES)('occupation-risk.sqlite (%s)', (shape) => {
  it.runIf(TARGET === 'node')("opens; its tables' row counts are the API's; keys hold; under 25 MiB", async () => {
    const site = sites[shape];
    const { db, bytes } = await open(site);
    try {
      expect(bytes).toBeLessThan(SQLITE_MAX_BYTES);
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'occupations_fts%' ORDER BY rowid").all() as Array<{ name: string }>).map((t) => t.name);
      expect(tables).toEqual([...DATABASE_TABLES.map((t) => t.name), 'metadata']);
      const count = (t: string, where = '') => (db.prepare(`SELECT count(*) AS n FROM "${t}" ${where}`).get() as { n: number }).n;
      const meta = await site.json('/api/v1/meta');
      expect(count('occupations')).toBe((await site.json('/api/v1/occupations?limit=1')).count);
      expect(count('occupations')).toBe(meta.counts.occupations);
      expect(count('tasks')).toBe(meta.counts.tasks);
      expect(count('industries')).toBe((await site.json('/api/v1/industries')).count);
      expect(count('changes')).toBe((await site.json('/api/v1/changes')).data.length);
      const industry = await site.json('/api/v1/industries/5415');
      expect(count('industry_occupations', "WHERE naics_code = '5415'")).toBe(industry.occupations.length);
      const risk = await site.json('/api/v1/occupations/15-1252.00/risk');
      expect(count('transitions', "WHERE soc_code = '15-1252.00'")).toBe(risk.transition_options.length);
      expect(count('skill_gaps', "WHERE soc_code = '15-1252.00'")).toBe(risk.skill_gaps.length);
      const detail = await site.json('/api/v1/occupations/15-1252.00');
      expect(db.prepare("SELECT final_score, risk_tier, exposure_score FROM occupations WHERE soc_code = '15-1252.00'").get()).toEqual({
        final_score: detail.risk_score.final_score,
        risk_tier: detail.risk_score.risk_tier,
        exposure_score: detail.risk_score.exposure_score,
      });
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
      // Foreign keys are declared (not just holding by chance).
      expect((db.pragma('foreign_key_list(tasks)') as Array<{ table: string }>).map((f) => f.table)).toEqual(['occupations']);
      const fts = db.prepare("SELECT o.title FROM occupations_fts JOIN occupations o ON o.rowid = occupations_fts.rowid WHERE occupations_fts MATCH 'software'").all() as Array<{ title: string }>;
      expect(fts.map((r) => r.title)).toContain('Software Developers');
      // The file's own provenance, as /api/v1/meta gives it.
      const about = Object.fromEntries((db.prepare('SELECT key, value FROM metadata').all() as Array<{ key: string; value: string }>).map((r) => [r.key, r.value]));
      expect(about).toMatchObject({ data_version: meta.data_version, model_version: meta.model_version, shape, build_id: meta.build_id, license_data: meta.license.data, readme: '/downloads/README.txt', license_text: '/downloads/LICENSE.txt' });
      expect(about.attribution!.split('\n\n')).toEqual(meta.attribution);
      for (const source of meta.sources as Array<{ title: string; license: string }>) expect(about.sources).toContain(`${source.title} (`);
    } finally {
      db.close();
    }
  });

  it.runIf(TARGET === 'node')('the example queries the downloads page shows run and answer', async () => {
    const site = sites[shape];
    const page = await (await site.get('/downloads/')).text();
    const shown = [...page.matchAll(/<pre class="sql"><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => unescape(m[1]!));
    expect(shown).toEqual(EXAMPLE_QUERIES.map((e) => e.sql));
    const { db } = await open(site);
    try {
      for (const sql of shown) {
        const rows = db.prepare(sql).all();
        // Every query but the changes one answers rows (nothing moved while 2.0.0 is compared with itself).
        if (!/FROM changes/.test(sql)) expect(rows.length, sql).toBeGreaterThan(0);
      }
    } finally {
      db.close();
    }
    for (const href of ['/downloads/occupation-risk.sqlite', '/downloads/metadata.json', '/downloads/datapackage.json', '/downloads/changes.csv']) expect(page).toContain(`href="${href}"`);
  });

  it("metadata.json: Datasette's metadata for every table, with the licenses, sources and queries", async () => {
    const site = sites[shape];
    const m = await site.json('/downloads/metadata.json');
    expect(m).toMatchObject({ title: expect.any(String), license: expect.any(String), source: expect.any(String) });
    const dbMeta = m.databases[DATABASE_NAME];
    for (const t of DATABASE_TABLES) expect(Object.keys(dbMeta.tables[t.name].columns)).toEqual(expect.arrayContaining(t.columns.filter((c) => !c.shapes || c.shapes.includes(shape)).map((c) => c.name)));
    expect(Object.values(dbMeta.queries).map((q) => (q as { sql: string }).sql)).toEqual(EXAMPLE_QUERIES.map((e) => e.sql));
    // The licenses and the README are one click away, and the attribution is shown whole.
    expect([m.license_url, m.about_url]).toEqual(['/downloads/LICENSE.txt', '/downloads/README.txt']);
    for (const u of [m.license_url, m.about_url]) {
      const res = await site.get(u);
      expect(res.status, u).toBe(200);
      await discard(res);
    }
    const meta = await site.json('/api/v1/meta');
    for (const a of meta.attribution as string[]) expect(m.description).toContain(a);
  });
});
