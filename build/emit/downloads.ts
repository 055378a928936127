// Bulk downloads: occupations.csv (one row per occupation), tasks.csv (one row per task),
// industries.csv (one row per industry) and odr-data.jsonl.gz (everything the API serves, one JSON
// object per line). Each CSV starts with its header row, as every tool's defaults expect; the
// provenance (versions, sources, licenses, attribution) is where those tools look for it:
// datapackage.json, README.txt and LICENSE.txt beside the files, the database's metadata table
// and Datasette's metadata.json; the archive keeps a first line of type "header". Columns come
// from the published responses (present.ts), so a
// field the model adds appears here without a change. Pure; the archive is compressed on libuv's
// thread pool while the CSVs and pages are built, fed line by line (deflate's output does not depend
// on how its input is split, so the bytes are those of one gzip call over the whole text).
import { once } from 'node:events';
import { closeSync, openSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { TransformOptions } from 'node:stream';
import { createGzip, type ZlibOptions } from 'node:zlib';
import type { ModelOutput, OccupationRecord, Shape } from '../model/record-schemas.ts';
import * as present from '../contract/present.ts';
import { majorGroup } from './soc-groups.ts';
import type { Meta } from '../contract/site-schemas.ts';
import { releaseSummaryJson, type Changes } from '../contract/releases.ts';
import type { ReleaseContext } from '../releases/load.ts';
import { dataPackage } from './datapackage.ts';
import { sha256 } from './manifest.ts';
import { buildSqlite, datasetteMetadata, SQLITE_MAX_BYTES, SQLITE_METADATA_TABLE, SQLITE_NAME } from './sqlite.ts';
import { LICENSE_NAME, README_NAME, licenseText, readmeText } from './download-notes.ts';
import { releaseUrlFor, routeById } from '../contract/routes.ts';
import { isFileBody, type Body, type FileBody } from './file-body.ts';
import { CHANGES, DATABASE_TABLES, INDUSTRIES, ISCO, OCCUPATIONS, TASKS, columnsFor, type TableSpec } from './download-tables.ts';

export interface Download {
  routeId: string;
  name: string;
  /** The database and the archive are files in the emit's scratch folder (file-body.ts). */
  body: Body;
  /** The body's size and sha256, worked out once: the downloads page and /meta both list them. */
  bytes: number;
  sha256: string;
  /** Data rows (records, lines of the archive); null for the plain-text README and LICENSE. */
  rows: number | null;
  description: string;
}

type Cell = string | number | boolean | null | undefined;

const ARCHIVE_NAME = 'odr-data.jsonl.gz';

/** RFC 4180: quote a field holding a comma, quote, CR or LF; double the quotes inside. */
export function csvCell(v: Cell): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? v : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csvLine = (cells: Cell[]) => cells.map(csvCell).join(',');

/** Flattens one level of nested objects into prefix_key columns (evidence -> evidence_human_label). */
function flatten(obj: Record<string, unknown>, prefix = ''): Record<string, Cell> {
  const out: Record<string, Cell> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, flatten(v as Record<string, unknown>, `${prefix}${k}_`));
    else out[`${prefix}${k}`] = Array.isArray(v) ? v.join(' ') : (v as Cell);
  }
  return out;
}

/**
 * The described columns of a table in one shape, checked against its rows: a row field that is not
 * described is an error (the description is the file's); a described column no row has stays, empty
 * (a model with fewer protective factors, as the test fixtures have).
 */
export function checkedColumns(spec: TableSpec, shape: Shape, rows: ReadonlyArray<Record<string, Cell>>): string[] {
  const columns = columnsFor(spec, shape).map((c) => c.name);
  const declared = new Set(columns);
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  const undescribed = [...seen].filter((k) => !declared.has(k));
  if (undescribed.length > 0) throw new Error(`${spec.file}: field(s) ${undescribed.join(', ')} not described in build/emit/download-tables.ts`);
  return columns;
}

/** A CSV whose first line is its header row; the columns are the table's description's (download-tables.ts). */
function csv(spec: TableSpec, shape: Shape, rows: Array<Record<string, Cell>>): string {
  const columns = checkedColumns(spec, shape, rows);
  const lines = [csvLine(columns), ...rows.map((r) => csvLine(columns.map((c) => r[c])))];
  return lines.join('\r\n') + '\r\n';
}

function occupationRow(o: OccupationRecord, shape: Shape): Record<string, Cell> {
  const d = present.occupationDetail(o, shape);
  const group = majorGroup(o.soc_code);
  return {
    soc_code: d.soc_code,
    title: d.title,
    slug: o.slug,
    major_group: group.code,
    major_group_title: group.name,
    job_zone: o.job_zone,
    ...flatten(d.risk_score as Record<string, unknown>),
    ...flatten(d.labor_data as Record<string, unknown>),
    ...flatten(d.protective_factors, 'protective_'),
    task_count: o.tasks.length,
  };
}

/** One row per occupation of either release (changes.csv): the API's /changes, with the moved components in one column. */
export function changeRows(changes: Changes): Array<Record<string, Cell>> {
  return changes.data.map((c) => ({
    soc_code: c.soc_code,
    title: c.title,
    status: c.status,
    previous_final_score: c.previous_final_score,
    previous_risk_tier: c.previous_risk_tier,
    final_score: c.final_score,
    risk_tier: c.risk_tier,
    difference: c.difference,
    tier_changed: c.tier_changed,
    cause: c.cause.join(' '),
    step: c.step,
    components_moved: Object.entries(c.components)
      .map(([k, v]) => `${k} ${v.previous} -> ${v.current}`)
      .join('; '),
    reason: c.reason,
  }));
}

/** Each table's rows, made from the records as they are iterated (the SQLite file takes them one at a time). */
export function tableRows(model: ModelOutput, shape: Shape, changes: Changes): Record<string, () => Iterable<Record<string, Cell>>> {
  const occ = model.occupations;
  return {
    occupations: () => occ.map((o) => occupationRow(o, shape)),
    tasks: function* () {
      for (const o of occ) for (const t of present.occupationTasks(o).tasks) yield { soc_code: o.soc_code, ...flatten(t as Record<string, unknown>) };
    },
    // The record's own fields, which the detail response repeats as they are (its occupations, joined
    // with their records, are only counted here; industry_occupations lists them).
    industries: () =>
      model.industries.map((i) => ({
        naics_code: i.naics_code,
        title: i.title,
        level: i.level,
        employment: i.employment,
        weighted_risk_score: i.weighted_risk_score,
        occupations_naics_level: i.occupations_source.naics_level,
        occupations_naics_codes: i.occupations_source.naics_codes.join(' '),
        occupation_count: i.occupations.length,
      })),
    industry_occupations: function* () {
      for (const i of model.industries) for (const o of i.occupations) yield { naics_code: i.naics_code, soc_code: o.soc_code, employment: o.employment, share: o.share };
    },
    transitions: function* () {
      for (const o of occ) {
        let rank = 0;
        for (const t of o.transition_options) yield { soc_code: o.soc_code, rank: ++rank, target_soc_code: t.soc_code, similarity: t.similarity, wage_ratio: t.wage_ratio, reason: t.reason };
      }
    },
    skill_gaps: function* () {
      for (const o of occ) {
        for (const g of o.skill_gaps) {
          yield { soc_code: o.soc_code, element_id: g.element_id, name: g.name, kind: g.kind, current_level: g.current_level, target_level: g.target_level, gap: g.gap, importance: g.importance, targets: g.targets, onet_release: g.onet_release };
        }
      }
    },
    changes: () => changeRows(changes),
    isco: () =>
      model.isco.units.map((u) => ({
        isco_code: u.isco_code,
        title: u.title,
        slug: u.slug,
        major_group: u.major_group,
        final_score: u.final_score,
        risk_tier: u.risk_tier,
        score_low: u.score_low,
        score_high: u.score_high,
        confidence: u.confidence,
        us_occupation_count: u.us_occupations.length,
        soc_codes: u.mapping.soc_codes,
        partial: u.mapping.partial,
        minor_group_links: u.mapping.minor_group_links,
        mapping_note: u.mapping.note,
      })),
    isco_occupations: function* () {
      for (const u of model.isco.units) for (const o of u.us_occupations) yield { isco_code: u.isco_code, soc_code: o.soc_code, weight: o.weight };
    },
  };
}

/**
 * The archive odr-data.jsonl.gz, compressed on libuv's thread pool from the moment this is called
 * (the emit starts it first and takes the other downloads only when it reaches them).
 * Compressed: as plain text the industries' occupation lists alone pass 20 MB, and Cloudflare
 * Pages serves no file over 25 MiB. gzip with a zero mtime gives the same bytes every build.
 * Written into `dir` (the emit's scratch folder) as it is compressed.
 */
export function startArchive(model: ModelOutput, shape: Shape, meta: Meta, dir: string): Promise<FileBody> {
  const archive = gzipLines(archiveLines(model, shape, meta), path.join(dir, ARCHIVE_NAME));
  archive.catch(() => undefined); // awaited by buildDownloads; a failure there must not go unobserved first
  return archive;
}

/**
 * Every download, made when called (the tables' texts and the database are held only from then
 * until they are written); `archive` is startArchive's, made by the caller when it likes.
 */
export async function buildDownloads(model: ModelOutput, shape: Shape, meta: Meta, releases: ReleaseContext, dir: string, archive: Promise<FileBody> = startArchive(model, shape, meta, dir)): Promise<Download[]> {
  const occ = model.occupations;
  const { changes } = releases;
  const rowsOf = tableRows(model, shape, changes);
  // Each table's rows live only while its CSV is made (not while the database is written).
  const table = (spec: TableSpec) => {
    const rows = [...rowsOf[spec.name]!()];
    return { text: csv(spec, shape, rows), rows: rows.length };
  };
  const { text: occupations } = table(OCCUPATIONS);
  const { text: tasks, rows: taskCount } = table(TASKS);
  const { text: industries, rows: industryCount } = table(INDUSTRIES);
  const { text: changesCsv } = table(CHANGES);
  const { text: isco, rows: iscoCount } = table(ISCO);

  const previous = `Compared with the previous release ${changes.previous?.data_version ?? '(none recorded)'}; this release is ${changes.current.data_version}.`;
  const described = ([[OCCUPATIONS, occupations, occ.length], [TASKS, tasks, taskCount], [INDUSTRIES, industries, industryCount], [CHANGES, changesCsv, changes.data.length], [ISCO, isco, iscoCount]] as const).map(
    ([spec, text, rows]) => ({ spec, bytes: Buffer.byteLength(text), sha256: sha256(text), rows, ...(spec === CHANGES ? { description: `${spec.description} ${previous}` } : {}) }),
  );
  const datapackage = JSON.stringify(dataPackage(meta, shape, described), null, 1) + '\n';

  // The database from the records, one row at a time (the CSV texts above are not read back).
  const sqlite = buildSqlite(DATABASE_TABLES, shape, rowsOf, meta, dir);
  if (sqlite.body.bytes > SQLITE_MAX_BYTES) throw new Error(`${SQLITE_NAME} is ${sqlite.body.bytes} bytes, over the ${SQLITE_MAX_BYTES} a Pages deployment serves`);
  const datasette = JSON.stringify(datasetteMetadata(DATABASE_TABLES, shape, meta), null, 1) + '\n';

  const files: Array<Omit<Download, 'body' | 'rows' | 'bytes' | 'sha256'> & { rows: number; body: Body | Promise<FileBody> }> = [
    { routeId: 'download-datapackage', name: 'datapackage.json', body: datapackage, rows: described.length, description: 'A Frictionless Data Package describing every CSV here: each column with its type, unit and meaning, the keys, licenses with attribution, sources and version.' },
    { routeId: 'download-occupations', name: 'occupations.csv', body: occupations, rows: occ.length, description: 'One row per occupation: codes, title, slug, major group, every risk score field, labor data, protective factors.' },
    { routeId: 'download-tasks', name: 'tasks.csv', body: tasks, rows: taskCount, description: 'One row per task of every occupation: category, AI capability, task risk, time share and the evidence behind them.' },
    { routeId: 'download-industries', name: 'industries.csv', body: industries, rows: industryCount, description: 'One row per NAICS industry: level, employment, employment-weighted risk, where its occupation list comes from.' },
    { routeId: 'download-changes', name: 'changes.csv', body: changesCsv, rows: changes.data.length, description: `One row per occupation of this release or the previous one (${changes.previous?.data_version ?? 'none recorded'}): both scores and tiers, the difference, and why it moved (data or model, and the first step of the score that moved).` },
    { routeId: 'download-isco', name: 'isco.csv', body: isco, rows: iscoCount, description: 'One row per scored ISCO-08 unit group: score (the U.S.-employment-weighted mean of its linked U.S. occupations), interval, tier, confidence and what the mapping assumes. Tasks and weights are American.' },
    { routeId: 'download-release-summary', name: 'release-summary.json', body: releaseSummaryJson(releases.summary), rows: releases.summary.occupations.length, description: "This release's summary: every occupation's score, tier and component figures, as the repository keeps each published release (releases/) to compare the next one with." },
    { routeId: 'download-sqlite', name: SQLITE_NAME, body: sqlite.body, rows: Object.values(sqlite.rows).reduce((a, b) => a + b, 0), description: `Every table above and the archive's lists (${DATABASE_TABLES.map((t) => t.name).join(', ')}) in one SQLite database with primary and foreign keys, indexes and full-text search on titles (occupations_fts), for Datasette or any SQL client; its ${SQLITE_METADATA_TABLE} table holds the versions, licenses, sources and attribution.` },
    { routeId: 'download-datasette-metadata', name: 'metadata.json', body: datasette, rows: DATABASE_TABLES.length, description: `Datasette's metadata for the database: titles, descriptions, licenses, sources and the example queries of the downloads page (datasette ${SQLITE_NAME} --metadata metadata.json).` },
    { routeId: 'download-archive', name: ARCHIVE_NAME, body: archive, rows: occ.length + model.industries.length + model.isco.units.length + 1, description: 'Everything as gzip-compressed JSON Lines: a header line, then one line per occupation (detail, tasks, skill gaps, transitions), per industry, per ISCO-08 unit group, and the personal factors.' },
  ];
  const readme = readmeText(meta, shape, files.map((f) => ({ name: f.name, releaseName: routeById(f.routeId).release ? releaseUrlFor(f.routeId, meta.data_version).split('/').pop() : undefined, rows: f.name.endsWith('.csv') ? f.rows : null, description: f.description })));
  const license = licenseText(meta, shape);
  const made: Array<Omit<Download, 'bytes' | 'sha256'>> = [
    { routeId: 'download-readme', name: README_NAME, body: readme, rows: null, description: 'This list in plain text, with the versions, two-line examples for pandas, R, DuckDB, sqlite3 and Datasette, the licenses and the attribution.' },
    { routeId: 'download-license', name: LICENSE_NAME, body: license, rows: null, description: "The licenses of the data and the attribution to reproduce with them (O*NET's CC BY 4.0 notice), each source with its license." },
    ...(await Promise.all(files.map(async (f) => ({ ...f, body: await f.body })))),
  ];
  return made.map((d) => ({ ...d, ...(isFileBody(d.body) ? { bytes: d.body.bytes, sha256: d.body.sha256 } : { bytes: typeof d.body === 'string' ? Buffer.byteLength(d.body) : d.body.byteLength, sha256: sha256(d.body) }) }));
}

/** Text handed to zlib at a time: the archive's text is never held whole. */
const GZIP_CHUNK = 1 << 20;

/**
 * zlib's output buffer per round trip to the thread pool. With the default 16 KB every 16 KB of
 * compressed output waited for this (busy) thread to hand out the next buffer, and the archive
 * finished long after the pages. A chunk's output fits in one buffer
 * this size, so a chunk is one trip. Deflate's output does not depend on how its output space is
 * handed out either, so the bytes are the same.
 */
const GZIP_OUT = 1 << 20;
/** Text queued for zlib before the producer waits: the pool always has the next chunk at hand. */
const GZIP_QUEUE = 4 * GZIP_CHUNK;

/** gzip (level 6, zero mtime) of the lines, each ended by '\n', with backpressure; written into `file` and hashed as it comes. */
async function gzipLines(lines: Iterable<string>, file: string): Promise<FileBody> {
  // The stream options are passed on to the Transform (node's types list only zlib's own).
  const gz = createGzip({ level: 6, chunkSize: GZIP_OUT, writableHighWaterMark: GZIP_QUEUE } as ZlibOptions & TransformOptions);
  const fd = openSync(file, 'w');
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    gz.on('data', (c: Buffer) => {
      try {
        writeSync(fd, c);
      } catch (e) {
        gz.destroy(e as Error);
        return;
      }
      hash.update(c);
      bytes += c.byteLength;
    });
    const ended = once(gz, 'end');
    let chunk = '';
    for (const line of lines) {
      chunk += `${line}\n`;
      if (chunk.length >= GZIP_CHUNK) {
        const more = gz.write(chunk);
        chunk = '';
        if (!more) await once(gz, 'drain');
      }
    }
    gz.end(chunk);
    await ended;
  } finally {
    closeSync(fd);
  }
  return { file, bytes, sha256: hash.digest('hex') };
}

/** The archive's lines, each record stringified as it is reached. */
function* archiveLines(model: ModelOutput, shape: Shape, meta: Meta): Generator<string> {
  yield JSON.stringify({ type: 'header', name: 'odr-data.jsonl.gz', data_version: meta.data_version, model_version: meta.model_version, shape, build_id: meta.build_id, license: meta.license, sources: meta.sources, attribution: meta.attribution, counts: meta.counts });
  for (const o of model.occupations) {
    const risk = present.occupationRisk(o, shape);
    yield JSON.stringify({
      type: 'occupation',
      ...present.occupationDetail(o, shape),
      slug: o.slug,
      job_zone: o.job_zone,
      description: o.description,
      skill_gaps: risk.skill_gaps,
      transition_options: risk.transition_options,
      transition_note: risk.transition_note,
      tasks: present.occupationTasks(o).tasks,
    });
  }
  const bySoc = present.occupationsBySoc(model.occupations);
  for (const i of model.industries) yield JSON.stringify({ type: 'industry', ...present.industryDetail(i, bySoc) });
  for (const u of model.isco.units) yield JSON.stringify({ type: 'isco', ...present.iscoDetail(u) });
  yield JSON.stringify({ type: 'factors', factors: model.factors });
}
