// /downloads/datapackage.json: the structure a Tabular Data Package requires (test/support/
// datapackage-profile.ts), every CSV of /downloads/ described, each described field in its file and
// each file column described, and the file's values as described (types, required, enums, keys,
// size and hash).
import { createHash } from 'node:crypto';
import { Ajv } from 'ajv';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { routesFor } from '../../build/contract/routes.ts';
import { TABULAR_DATA_PACKAGE } from '../support/datapackage-profile.ts';
import { SHAPES, useSites } from './setup.ts';

const sites = useSites();
const validate = new Ajv({ allErrors: true, strict: false }).compile(TABULAR_DATA_PACKAGE);

interface Field { name: string; type: string; constraints?: { required?: boolean; enum?: string[] } }
interface Resource { name: string; path: string; dialect: Record<string, unknown>; bytes: number; hash: string; rows: number; schema: { fields: Field[]; primaryKey: string[]; foreignKeys?: Array<{ fields: string[]; reference: { resource: string; fields: string[] } }> } }

const TYPE: Record<string, RegExp> = { integer: /^-?\d+$/, number: /^-?\d+(\.\d+)?(e-?\d+)?$/i, boolean: /^(true|false)$/, string: /^/ };

describe.each(SHAPES)('datapackage.json (%s)', (shape) => {
  it('has the structure of a Tabular Data Package, with licenses, sources and the version', async () => {
    const site = sites[shape];
    const pkg = await site.json('/downloads/datapackage.json');
    expect(validate(pkg), JSON.stringify(validate.errors, null, 1)).toBe(true);
    const meta = await site.json('/api/v1/meta');
    expect(pkg.version).toBe(meta.data_version);
    expect(pkg.licenses.map((l: { name: string }) => l.name)).toEqual(expect.arrayContaining(['CC-BY-4.0', 'MIT', 'other-pd']));
    expect(pkg.sources).toHaveLength(meta.sources.length);
    expect(pkg.attribution).toEqual(meta.attribution);
  });

  it('describes every CSV of /downloads/, and each file is as described', async () => {
    const site = sites[shape];
    const pkg = await site.json('/downloads/datapackage.json');
    const csvRoutes = routesFor(shape).filter((r) => r.body === 'csv').map((r) => r.pattern);
    expect(pkg.resources.map((r: Resource) => `/downloads/${r.path}`).sort()).toEqual(csvRoutes.sort());
    const tables = new Map<string, Array<Record<string, string>>>();
    for (const r of pkg.resources as Resource[]) {
      const bytes = Buffer.from(await (await site.get(`/downloads/${r.path}`)).arrayBuffer());
      expect(bytes.length, r.path).toBe(r.bytes);
      expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`, r.path).toBe(r.hash);
      const text = bytes.toString('utf8');
      // Line 1 is the header row (no comment lines: the dialect declares none).
      expect(r.dialect, r.path).not.toHaveProperty('commentChar');
      const columns = parse(text.slice(0, text.indexOf('\r\n')))[0] as string[];
      // Every described field is in the file, every column of the file is described, in order.
      expect(columns, r.path).toEqual(r.schema.fields.map((f) => f.name));
      const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
      expect(rows.length, r.path).toBe(r.rows);
      for (const f of r.schema.fields) {
        for (const row of rows) {
          const v = row[f.name]!;
          if (v === '') {
            if (f.constraints?.required) throw new Error(`${r.path}: ${f.name} is required, empty in ${JSON.stringify(row).slice(0, 80)}`);
            continue;
          }
          if (!TYPE[f.type]!.test(v)) throw new Error(`${r.path}: ${f.name} is ${f.type}, got ${v}`);
          if (f.constraints?.enum && !f.constraints.enum.includes(v)) throw new Error(`${r.path}: ${f.name} is one of ${f.constraints.enum}, got ${v}`);
        }
      }
      const keys = rows.map((row) => r.schema.primaryKey.map((k) => row[k]).join('\t'));
      expect(new Set(keys).size, `${r.path}: primary key ${r.schema.primaryKey} unique`).toBe(rows.length);
      tables.set(r.name, rows);
    }
    for (const r of pkg.resources as Resource[]) {
      for (const fk of r.schema.foreignKeys ?? []) {
        const target = new Set(tables.get(fk.reference.resource)!.map((row) => fk.reference.fields.map((k) => row[k]).join('\t')));
        const dangling = tables.get(r.name)!.filter((row) => !target.has(fk.fields.map((k) => row[k]).join('\t')));
        expect(dangling, `${r.name} -> ${fk.reference.resource}`).toEqual([]);
      }
    }
  });
});
