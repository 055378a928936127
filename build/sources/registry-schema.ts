// The schema of a source in the registry (build/sources/registry.ts): what it is, who publishes it
// under which license, and the official files `npm run data:fetch` downloads.
import { z } from 'zod';

/** A file name as the publisher ships it: no directories, nothing that could escape data/raw/<id>/. */
const OfficialName = z
  .string()
  .min(1)
  .refine((n) => !/[\\/\0]/.test(n) && n !== '.' && n !== '..', 'must be a bare file name');

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const ZipExtract = z.object({
  format: z.literal('zip'),
  /**
   * Official names (matched case-insensitively, in any folder of the archive) that must be
   * inside; a missing one fails the source, since it means the publisher changed the release.
   * Every file of the archive is extracted, not only these.
   */
  expect: z.array(OfficialName).default([]),
});

export const SourceFile = z.object({
  /** The publisher's URL, percent-encoded as it would be typed into a browser. */
  url: z.url({ protocol: /^https?$/ }),
  /** Official file name, saved as data/raw/<source id>/<name>. */
  name: OfficialName,
  /** Only for immutable URLs (a pinned commit): a different download is rejected. */
  sha256: Sha256.optional(),
  bytes: z.number().int().positive().optional(),
  extract: ZipExtract.optional(),
});

/**
 * What a source is, who publishes it and under which license: the one descriptor that the
 * registry, the fetch record (SOURCES.fetched.json) and the published meta (via emit/meta.ts) carry.
 */
export const SourceDescriptor = z.object({
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  title: z.string().min(1),
  publisher: z.string().min(1),
  license: z.string().min(1),
  /** Text to reproduce where the data are used, or the citation to give. */
  attribution: z.string().min(1),
});

export const Source = SourceDescriptor
  .extend({
    /** A required source that fails makes the command exit non-zero. */
    required: z.boolean(),
    /** Official landing or release page (also for sources we cannot download). */
    homepage: z.url(),
    /** Empty = not downloadable from its publisher; the build uses the mirror's derived files. */
    files: z.array(SourceFile),
    note: z.string().optional(),
  })
  .refine((s) => s.files.length > 0 || !s.required, {
    message: 'a required source needs at least one downloadable file',
  })
  .refine((s) => s.files.length > 0 || s.note !== undefined, {
    message: 'a source without files needs a note saying where its data come from',
  });

export const Manifest = z.array(Source).superRefine((sources, ctx) => {
  const seen = new Set<string>();
  for (const s of sources) {
    if (seen.has(s.id)) ctx.addIssue({ code: 'custom', message: `duplicate source id ${s.id}` });
    seen.add(s.id);
    const names = new Set<string>();
    for (const f of s.files) {
      if (names.has(f.name)) ctx.addIssue({ code: 'custom', message: `${s.id}: duplicate file ${f.name}` });
      names.add(f.name);
    }
  }
});

export type Source = z.infer<typeof Source>;
export type SourceFile = z.infer<typeof SourceFile>;
export type Manifest = z.infer<typeof Manifest>;
