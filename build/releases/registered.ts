// Every file registered on the record (releases/forecasts/, releases/head-to-head/): the build
// serves each byte for byte at /api/v1/registered/<kind>-<file> and /api/v1/meta lists it with its
// sha256, so a reader checks the served file against the pin without the repository.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { urlFor } from '../contract/routes.ts';
import { FORECASTS_DIR } from './forecast.ts';
import { HEAD_TO_HEAD_DIR } from './head-to-head.ts';

/** Each kind of registered file and the folder of releases/ it is committed in. */
export const REGISTERED_KINDS = [
  { kind: 'forecast', dir: FORECASTS_DIR },
  { kind: 'head-to-head', dir: HEAD_TO_HEAD_DIR },
] as const;

export interface RegisteredFile {
  /** The served name: <kind>-<file name>. */
  name: string;
  kind: (typeof REGISTERED_KINDS)[number]['kind'];
  url: string;
  /** Where the repository keeps it (releases/...). */
  file: string;
  sha256: string;
  bytes: number;
  body: Uint8Array;
}

export const registeredUrl = (kind: string, file: string): string => urlFor('registered-file', { registered_file: `${kind}-${file}` });

/** The registered files, by kind then file name; a kind without its folder has none. */
export function registeredFiles(repoRoot: string): RegisteredFile[] {
  return REGISTERED_KINDS.flatMap(({ kind, dir }) => {
    let names: string[];
    try {
      names = readdirSync(path.join(repoRoot, dir)).filter((n) => n.endsWith('.json')).sort();
    } catch {
      return [];
    }
    return names.map((n) => {
      const body = new Uint8Array(readFileSync(path.join(repoRoot, dir, n)));
      return { name: `${kind}-${n}`, kind, url: registeredUrl(kind, n), file: `${dir}/${n}`, sha256: createHash('sha256').update(body).digest('hex'), bytes: body.byteLength, body };
    });
  });
}
