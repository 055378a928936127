// What `npm run data:fetch` downloads: the registry of sources (build/sources/registry.ts),
// validated against its schema (registry-schema.ts). The loader (build/sources)
// finds files by these official names anywhere under the source directory, so nothing may rename a file.
import { SOURCES } from '../sources/registry.ts';
import { Manifest, type Source } from '../sources/registry-schema.ts';

/** Parsed once at import: a broken manifest is a programming error and should fail loudly. */
export const MANIFEST: Manifest = Manifest.parse(SOURCES);

export const isFetchable = (s: Source): boolean => s.files.length > 0;
