// /downloads/datapackage.json: a Frictionless (Tabular) Data Package describing every CSV of
// /downloads/, generated from the one description of their columns (download-tables.ts) and the
// source registry (licenses, attribution, sources). Pure: no date, so the same inputs give the same
// bytes.
import type { Shape } from '../model/record-schemas.ts';
import type { Meta } from '../contract/site-schemas.ts';
import { columnsFor, type TableSpec } from './download-tables.ts';

export const PACKAGE_NAME = 'occupation-displacement-risk';

interface PackageLicense {
  name: string;
  path?: string;
  title: string;
}

/** The licenses a registry license string names ('CC BY 4.0 (O*NET); compilation CC BY-SA 4.0' names two), as Data Package licenses. */
export function packageLicenses(license: string): PackageLicense[] {
  const out: PackageLicense[] = [];
  if (/CC BY 4\.0/.test(license)) out.push({ name: 'CC-BY-4.0', path: 'https://creativecommons.org/licenses/by/4.0/', title: 'Creative Commons Attribution 4.0' });
  if (/CC BY-SA 4\.0/.test(license)) out.push({ name: 'CC-BY-SA-4.0', path: 'https://creativecommons.org/licenses/by-sa/4.0/', title: 'Creative Commons Attribution-ShareAlike 4.0' });
  if (/^MIT/.test(license)) out.push({ name: 'MIT', path: 'https://opensource.org/licenses/MIT', title: 'MIT License' });
  if (/^Public domain/i.test(license)) out.push({ name: 'other-pd', title: 'Public domain (U.S. federal government work)' });
  if (out.length === 0) out.push({ name: 'other-at', title: license });
  return out;
}

export interface DescribedFile {
  spec: TableSpec;
  bytes: number;
  sha256: string;
  rows: number;
  /** The resource's description when it says more than its table's (changes.csv names the previous release). */
  description?: string;
}

/** The package, as a value (stringified once by the caller). */
export function dataPackage(meta: Meta, shape: Shape, files: readonly DescribedFile[]) {
  // Each license once, in the order the sources name them; every source keeps its own license string below.
  const licenses = new Map<string, PackageLicense>();
  for (const s of meta.sources) for (const l of packageLicenses(s.license)) if (!licenses.has(l.name)) licenses.set(l.name, l);
  return {
    profile: 'tabular-data-package',
    name: PACKAGE_NAME,
    id: `${PACKAGE_NAME}/${meta.data_version}/${shape}`,
    title: 'Occupation Displacement Risk: scores, tasks, industries and changes',
    description:
      `AI displacement risk of ${meta.counts.occupations} O*NET occupations (${shape} shape): the score, its components, tasks with their evidence, labor data, ` +
      'industries, and the changes since the previous release. The numbers the Occupation Displacement Risk API serves. ' +
      'Each CSV starts with its header row. README.txt beside this file says how to read them; LICENSE.txt gives the licenses and the attribution to reproduce.',
    version: meta.data_version,
    model_version: meta.model_version,
    build_id: meta.build_id,
    keywords: ['AI exposure', 'automation', 'occupations', 'O*NET', 'OEWS', 'labor market'],
    licenses: [...licenses.values()],
    attribution: meta.attribution,
    sources: meta.sources.map((s) => ({ title: `${s.title} (${s.publisher})`, path: s.homepage, license: s.license, attribution: s.attribution })),
    resources: files.map(({ spec, bytes, sha256, rows, description }) => ({
      profile: 'tabular-data-resource',
      name: spec.name,
      path: spec.file,
      title: spec.title,
      description: description ?? spec.description,
      format: 'csv',
      mediatype: 'text/csv',
      encoding: 'utf-8',
      bytes,
      hash: `sha256:${sha256}`,
      rows,
      dialect: { delimiter: ',', lineTerminator: '\r\n', quoteChar: '"', doubleQuote: true, header: true },
      schema: {
        fields: columnsFor(spec, shape).map((c) => ({
          name: c.name,
          type: c.type,
          ...(c.type === 'number' ? { bareNumber: true } : {}),
          description: c.description,
          ...(c.unit ? { unit: c.unit } : {}),
          ...(c.required || c.enum ? { constraints: { ...(c.required ? { required: true } : {}), ...(c.enum ? { enum: [...c.enum] } : {}) } } : {}),
        })),
        missingValues: [''],
        primaryKey: spec.primaryKey,
        ...(spec.foreignKeys ? { foreignKeys: spec.foreignKeys } : {}),
      },
    })),
  };
}
