// Shared test helper: the real seeds, validated by loadSeeds.
import path from 'node:path';
import { loadSeeds } from '../../../build/seeds-load.ts';
import type { Seeds } from '../../../build/model/params.ts';

let cached: Promise<Seeds> | null = null;
export const realSeeds = (): Promise<Seeds> => (cached ??= loadSeeds(path.resolve(import.meta.dirname, '../../../seeds')));
