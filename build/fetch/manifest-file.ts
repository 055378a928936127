// A source list from a JSON file (--manifest / ODR_FETCH_MANIFEST) in place of the built-in one.
//
// Why this is not a way around the integrity checks: a pinned size or sha256 is a fact about one
// declared file, and it lives in the manifest beside the URL it belongs to. A replacement list
// declares other files (a mirror of another release, or the test's stand-in publishers serving
// hand-written data); it goes through the same schema, and every pin it states is enforced by the
// same code. No option skips verification of the list in use, the built-in pins still hold for
// the built-in list, the run says loudly which list it uses, and SOURCES.fetched.json records it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MANIFEST } from './manifest.ts';
import { Manifest } from '../sources/registry-schema.ts';

export class ManifestFileError extends Error {}

/** The built-in list, or the one in `path` (validated; a bad file is a one-line error). */
export function loadManifest(path: string | undefined): Manifest {
  if (path === undefined) return MANIFEST;
  const abs = resolve(path);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(abs, 'utf8'));
  } catch (err) {
    throw new ManifestFileError(`cannot read the source list ${abs}: ${(err as Error).message}`);
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new ManifestFileError(`the source list ${abs} is not a valid manifest: ${issues}`);
  }
  return parsed.data;
}

/** The line a run prints (and the record keeps) when the list is not the built-in one. */
export const manifestNotice = (path: string, manifest: Manifest): string =>
  `Using the source list in ${resolve(path)} (${manifest.length} sources) instead of the built-in one ` +
  '(--manifest / ODR_FETCH_MANIFEST); its pinned sizes and sha256 are enforced.';
