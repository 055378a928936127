// /downloads/occupation-risk.sqlite: every table of the downloads (download-tables.ts: the CSVs'
// and the archive's nested lists) in one SQLite database for Datasette or any SQL client, with
// primary and foreign keys, indexes and an FTS5 index on occupation titles, and a metadata table
// (key, value) with the versions, licenses, sources and attribution, which travels with the file;
// and the Datasette metadata.json beside it. The same inputs give the same bytes: the tables are created and filled
// in a fixed order from the records (one row at a time, never a second copy of the data), the page
// size is fixed, the journal is a rollback journal (DELETE, no WAL), and the file is VACUUMed; the
// SQLite library is the one better-sqlite3 bundles, pinned by the lockfile.
import { rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Shape } from '../model/record-schemas.ts';
import type { Meta } from '../contract/site-schemas.ts';
import { urlFor } from '../contract/routes.ts';
import { columnsFor, type Column, type TableSpec } from './download-tables.ts';
import { fileBody, type FileBody } from './file-body.ts';

export const SQLITE_NAME = 'occupation-risk.sqlite';
/** Datasette names a database after its file. */
export const DATABASE_NAME = 'occupation-risk';
/** Cloudflare Pages serves no file over 25 MiB. */
export const SQLITE_MAX_BYTES = 25 * 1024 * 1024;
/** The table of the database's own provenance: one row per key. */
export const SQLITE_METADATA_TABLE = 'metadata';
const PAGE_SIZE = 4096;
/** The page cache while the database is written (SQLite's own default, 2 MB). */
const CACHE_KIB = 2000;

type Cell = string | number | boolean | null | undefined;

const SQL_TYPE: Record<Column['type'], string> = { string: 'TEXT', integer: 'INTEGER', number: 'REAL', boolean: 'INTEGER' };
const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Secondary indexes, besides the primary keys': the foreign keys' columns not leading a primary key, and what the examples filter on. */
const INDEXES: Record<string, string[][]> = {
  occupations: [['risk_tier'], ['final_score'], ['major_group']],
  industry_occupations: [['soc_code']],
  transitions: [['target_soc_code']],
  changes: [['status']],
};

/** The example queries the downloads page shows, Datasette offers as canned queries and the suite runs. */
export const EXAMPLE_QUERIES: ReadonlyArray<{ name: string; title: string; sql: string }> = [
  {
    name: 'highest_risk',
    title: 'The ten occupations with the highest score',
    sql: 'SELECT soc_code, title, final_score, risk_tier FROM occupations ORDER BY final_score DESC, soc_code LIMIT 10',
  },
  {
    name: 'search_titles',
    title: 'Occupations whose title mentions nurse (full-text search)',
    sql: "SELECT o.soc_code, o.title, o.final_score FROM occupations_fts JOIN occupations o ON o.rowid = occupations_fts.rowid WHERE occupations_fts MATCH 'nurse*' ORDER BY rank",
  },
  {
    name: 'industry_risk',
    title: 'Employment by risk tier in one industry (Computer Systems Design, 5415)',
    sql: "SELECT o.risk_tier, SUM(io.employment) AS employment, COUNT(*) AS occupations FROM industry_occupations io JOIN occupations o USING (soc_code) WHERE io.naics_code = '5415' GROUP BY o.risk_tier ORDER BY employment DESC",
  },
  {
    name: 'transitions_from',
    title: 'Transition options (moves) of Accountants and Auditors, with their scores',
    sql: "SELECT t.rank, o.title, o.final_score, t.similarity, t.wage_ratio FROM transitions t JOIN occupations o ON o.soc_code = t.target_soc_code WHERE t.soc_code = '13-2011.00' ORDER BY t.rank",
  },
  {
    name: 'changed',
    title: 'Occupations whose score moved since the previous release',
    sql: "SELECT soc_code, title, previous_final_score, final_score, difference, step, reason FROM changes WHERE status <> 'unchanged' ORDER BY abs(difference) DESC",
  },
];

/** The metadata table's rows: what README.txt and LICENSE.txt say about the release, as key and value. */
export function metadataRows(meta: Meta, shape: Shape): Array<[string, string]> {
  return [
    ['title', 'Occupation Displacement Risk'],
    ['data_version', meta.data_version],
    ['model_version', meta.model_version],
    ['shape', shape],
    ['build_id', meta.build_id],
    ['onet_version', meta.data.onet_version],
    ['oews_period', meta.data.oews_period],
    ['projections_period', meta.data.projections_period],
    ['license_data', meta.license.data],
    ['license_code', meta.license.code],
    ['attribution', meta.attribution.join('\n\n')],
    ['sources', meta.sources.map((s) => `${s.title} (${s.publisher}). License: ${s.license}. ${s.homepage}`).join('\n')],
    ['readme', urlFor('download-readme')],
    ['license_text', urlFor('download-license')],
  ];
}

function createTable(spec: TableSpec, shape: Shape, all: ReadonlySet<string>): string {
  const cols = columnsFor(spec, shape).map((c) => `  ${q(c.name)} ${SQL_TYPE[c.type]}${c.required ? ' NOT NULL' : ''}`);
  const keys = [`  PRIMARY KEY (${spec.primaryKey.map(q).join(', ')})`];
  for (const fk of spec.foreignKeys ?? []) {
    if (all.has(fk.reference.resource)) keys.push(`  FOREIGN KEY (${fk.fields.map(q).join(', ')}) REFERENCES ${q(fk.reference.resource)} (${fk.reference.fields.map(q).join(', ')})`);
  }
  return `CREATE TABLE ${q(spec.name)} (\n${[...cols, ...keys].join(',\n')}\n)`;
}

const sqlValue = (c: Column, v: Cell): string | number | null => (v === undefined || v === null || v === '' ? null : c.type === 'boolean' ? (v ? 1 : 0) : typeof v === 'boolean' ? String(v) : v);

/**
 * The database, written as SQLITE_NAME in `dir` (the emit's scratch folder) and left there as the
 * download's body. `rowsOf` gives each table's rows (made as they are iterated); the tables are
 * written in the order of `specs`, a referenced table before those that reference it.
 */
export function buildSqlite(specs: readonly TableSpec[], shape: Shape, rowsOf: Record<string, () => Iterable<Record<string, Cell>>>, meta: Meta, dir: string): { body: FileBody; rows: Record<string, number> } {
  const file = path.join(dir, SQLITE_NAME);
  const rows: Record<string, number> = {};
  try {
    const db = new Database(file);
    try {
      db.pragma(`page_size = ${PAGE_SIZE}`);
      // better-sqlite3 compiles in a 16 MB page cache, more than the whole database, and VACUUM's
      // copy gets one as large: both are native memory on top of the emit's heap. The pages go to
      // the temporary file instead (the operating system caches it); the bytes do not depend on it.
      db.pragma(`cache_size = -${CACHE_KIB}`);
      // A file of the emit's scratch folder, thrown away if the build stops: no fsync at each
      // commit (the emit waited about a second for them); the bytes do not depend on it.
      db.pragma('synchronous = OFF');
      db.pragma('journal_mode = DELETE');
      db.pragma('foreign_keys = ON');
      const names = new Set(specs.map((s) => s.name));
      for (const spec of specs) db.exec(createTable(spec, shape, names));
      for (const [table, sets] of Object.entries(INDEXES)) for (const cols of sets) db.exec(`CREATE INDEX ${q(`${table}_${cols.join('_')}`)} ON ${q(table)} (${cols.map(q).join(', ')})`);
      db.exec(`CREATE VIRTUAL TABLE occupations_fts USING fts5(title, content='occupations', content_rowid='rowid')`);
      for (const spec of specs) {
        const columns = columnsFor(spec, shape);
        const insert = db.prepare(`INSERT INTO ${q(spec.name)} (${columns.map((c) => q(c.name)).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
        let n = 0;
        db.transaction(() => {
          for (const r of rowsOf[spec.name]!()) {
            insert.run(columns.map((c) => sqlValue(c, r[c.name])));
            n++;
          }
        })();
        rows[spec.name] = n;
      }
      db.exec(`CREATE TABLE ${q(SQLITE_METADATA_TABLE)} (\n  "key" TEXT NOT NULL PRIMARY KEY,\n  "value" TEXT NOT NULL\n)`);
      const about = db.prepare(`INSERT INTO ${q(SQLITE_METADATA_TABLE)} ("key", "value") VALUES (?, ?)`);
      db.transaction(() => {
        for (const row of metadataRows(meta, shape)) about.run(row);
      })();
      db.exec(`INSERT INTO occupations_fts (occupations_fts) VALUES ('rebuild')`);
      const bad = db.pragma('foreign_key_check') as unknown[];
      if (bad.length > 0) throw new Error(`${SQLITE_NAME}: ${bad.length} rows break a foreign key, e.g. ${JSON.stringify(bad[0])}`);
      db.exec('VACUUM');
    } finally {
      db.close();
    }
    return { body: fileBody(file), rows };
  } catch (e) {
    rmSync(file, { force: true });
    throw e;
  }
}

/** Datasette's metadata.json for the database: titles, descriptions, licenses, sources and the example queries. */
export function datasetteMetadata(specs: readonly TableSpec[], shape: Shape, meta: Meta) {
  const tables: Record<string, unknown> = {};
  for (const spec of specs) {
    tables[spec.name] = {
      title: spec.title,
      description: spec.description,
      columns: Object.fromEntries(columnsFor(spec, shape).map((c) => [c.name, c.unit ? `${c.description} Unit: ${c.unit}.` : c.description])),
    };
  }
  tables[SQLITE_METADATA_TABLE] = { title: 'About this database', description: 'The release (data and model versions, build id), the licenses, the sources and the attribution to reproduce, one row per key.' };
  tables.occupations_fts = { hidden: true };
  return {
    title: 'Occupation Displacement Risk',
    // The attribution in full: Datasette shows the description on every page of the database.
    description: `AI displacement risk of ${meta.counts.occupations} O*NET occupations, data version ${meta.data_version} (model ${meta.model_version}, ${shape} shape). Attribution: ${meta.attribution.join(' ')}`,
    license: 'Each source keeps its own license: O*NET CC BY 4.0, BLS and Census public domain, exposure labels MIT; see LICENSE.txt',
    license_url: urlFor('download-license'),
    source: meta.sources.map((s) => s.publisher).filter((p, i, a) => a.indexOf(p) === i).join('; '),
    source_url: '/api/v1/meta',
    about: 'README.txt: the release, its files and how to read them',
    about_url: urlFor('download-readme'),
    // Every JSON file of the site names the model behind it; Datasette keeps unknown keys as they are.
    model_version: meta.model_version,
    databases: {
      [DATABASE_NAME]: {
        tables,
        queries: Object.fromEntries(EXAMPLE_QUERIES.map((e) => [e.name, { title: e.title, sql: e.sql }])),
      },
    },
  };
}
