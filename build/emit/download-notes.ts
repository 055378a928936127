// /downloads/README.txt and /downloads/LICENSE.txt: the provenance the CSVs do not carry (their
// first line is their header row, as the tools that read them expect): versions, the files, how to
// read them, the sources, licenses and the attribution O*NET's license asks for. Plain text, from
// meta and the source registry (through meta), so the same inputs give the same bytes. Pure.
import type { Meta } from '../contract/site-schemas.ts';
import type { Shape } from '../model/record-schemas.ts';
import { packageLicenses } from './datapackage.ts';
import { TOOL_EXAMPLES } from './download-examples.ts';

export const README_NAME = 'README.txt';
export const LICENSE_NAME = 'LICENSE.txt';

export interface NotedFile {
  name: string;
  releaseName?: string;
  /** Data rows of a CSV (null for the other files, whose "rows" are resources, tables or lines). */
  rows: number | null;
  description: string;
}

const heading = (title: string) => [title, '='.repeat(title.length)];

/** The header both files start with: what they are about, which release. */
function release(meta: Meta, shape: Shape): string[] {
  return [
    `Data version:  ${meta.data_version}`,
    `Model version: ${meta.model_version} (${shape} shape)`,
    `Build id:      ${meta.build_id}`,
    `Sources:       O*NET ${meta.data.onet_version}; OEWS ${meta.data.oews_period}; BLS Employment Projections ${meta.data.projections_period}`,
  ];
}

/** Licenses, attribution and sources: LICENSE.txt's body, which README.txt points to. */
export function licenseText(meta: Meta, shape: Shape): string {
  const urls = new Map<string, string>();
  for (const s of meta.sources) for (const l of packageLicenses(s.license)) if (l.path) urls.set(l.title, l.path);
  const lines = [
    ...heading('Occupation Displacement Risk: licenses and attribution of the downloads'),
    '',
    ...release(meta, shape),
    '',
    `Data: ${meta.license.data}`,
    `Code that made them: ${meta.license.code}`,
    '',
    ...heading('Attribution (reproduce it with the data and with anything made from it)'),
    '',
    ...meta.attribution.flatMap((a) => [a, '']),
    ...heading('Sources'),
    '',
    ...meta.sources.flatMap((s) => [`${s.title} (${s.publisher})`, `  License: ${s.license}`, `  ${s.homepage}`, '']),
    ...heading('License texts'),
    '',
    ...[...urls].map(([title, url]) => `${title}: ${url}`),
  ];
  return lines.join('\n') + '\n';
}

/** What README.txt says: the release, each file, how to read the files, where the licenses are. */
export function readmeText(meta: Meta, shape: Shape, files: readonly NotedFile[]): string {
  const lines = [
    ...heading('Occupation Displacement Risk: downloads'),
    '',
    ...release(meta, shape),
    '',
    'The numbers the Occupation Displacement Risk API serves (/api/v1/), as files. Each CSV starts with its',
    'header row (the column names); datapackage.json describes every column (type, unit, meaning), the',
    'keys, licenses and sources. manifest.json and /api/v1/meta list each file with its size and sha256.',
    'A data file is also served under its release name (odr-<data version>-<name>), which always gives',
    'these bytes.',
    '',
    ...heading('Files'),
    '',
    ...files.flatMap((f) => [`${f.name}${f.rows === null ? '' : ` (${f.rows} rows)`}${f.releaseName ? `, also ${f.releaseName}` : ''}`, `  ${f.description}`, '']),
    `${README_NAME}: this file. ${LICENSE_NAME}: the licenses and the attribution to reproduce.`,
    '',
    ...heading('Reading the files'),
    '',
    ...TOOL_EXAMPLES.flatMap((e) => [`${e.tool} (${e.where}):`, ...e.lines.map((l) => `    ${l}`), '']),
    ...heading('Licenses and attribution'),
    '',
    `The data keep their sources' licenses (${LICENSE_NAME} lists each): ${meta.license.data}`,
    'Reproduce this attribution with the data:',
    '',
    ...meta.attribution.flatMap((a) => [a, '']),
  ];
  return lines.join('\n').trimEnd() + '\n';
}
