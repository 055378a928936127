// SOURCES.fetched.json: what the last fetch put in data/raw, per file url, bytes and sha256.
// Written by build/fetch/record.ts, read by the sources (recorded.ts): its format lives here,
// beside the registry schema it extends, so the sources do not import the fetch.
import { z } from 'zod';
import { SourceDescriptor } from './registry-schema.ts';

export const RECORD_FILE = 'SOURCES.fetched.json';

export const FetchedFile = z.object({
  /** Relative to the output directory, '/'-separated: <source id>/<official name>. */
  path: z.string().min(1),
  /** The publisher's URL (downloaded files). */
  url: z.string().optional(),
  /** The downloaded archive this file was extracted from (extracted files). */
  from: z.string().optional(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/** A source as fetched: the registry's descriptor of it, and the files that came. */
export const FetchedSource = SourceDescriptor.extend({ files: z.array(FetchedFile) });

export const FetchRecord = z.object({
  about: z.string(),
  /** Set when the files came from a --base-url mirror instead of the publishers. */
  base_url: z.string().optional(),
  /** Set when the source list came from a file (--manifest) instead of the built-in one. */
  manifest: z.string().optional(),
  sources: z.array(FetchedSource),
});

export type FetchedFile = z.infer<typeof FetchedFile>;
export type FetchedSource = z.infer<typeof FetchedSource>;
export type FetchRecord = z.infer<typeof FetchRecord>;

