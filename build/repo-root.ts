// The repository's root folder, for the build's command-line entry points and the files it reads
// beside its code (templates, docs, seeds, caches). The one place that works it out.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
