// The fetch itself: for each selected source, download (or verify) its files, unpack archives,
// record what is on disk, and report. Each source is independent: one failure does not stop
// the others, and only a failed *required* source makes the exit code non-zero.
import { readdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DEFAULT_USER_AGENT, type FetchOptions } from './args.ts';
import { downloadToFile, HttpError } from './download.ts';
import { extractPlanned, listZipEntries } from './extract.ts';
import { type Digest, digestFile, matches, readRecord, sizeOf, writeRecord } from './files.ts';
import { isFetchable } from './manifest.ts';
import type { Manifest, Source, SourceFile } from '../sources/registry-schema.ts';
import { manifestNotice } from './manifest-file.ts';
import { extractedFrom, mergeRecord, recordedFile, type SourceUpdate } from './record.ts';
import { RECORD_FILE, type FetchedFile, type FetchRecord } from '../sources/fetch-record.ts';
import { hostOf, rewriteOrigin } from './urls.ts';
import { planIsSafe, planZipExtraction, type ZipPlan } from './zip-plan.ts';

export type Log = (line: string) => void;

export type SourceStatus = 'fetched' | 'present' | 'failed' | 'unfetchable';

export interface SourceOutcome {
  id: string;
  required: boolean;
  status: SourceStatus;
  /** One line per failed file: "<url>: <reason>". */
  errors: string[];
}

export interface FetchResult {
  outcomes: SourceOutcome[];
  exitCode: 0 | 1;
  recordPath: string;
}

interface FileResult {
  fresh: boolean;
  files: FetchedFile[];
  dropped: string[];
}

class ArchiveRejected extends Error {}

const LARGE = 5 * 1024 * 1024;

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function describeError(err: unknown): string {
  if (err instanceof HttpError) return err.message;
  const e = err as Error & { cause?: { message?: string; code?: string } };
  // undici reports network failures as "fetch failed" and hides the useful part in `cause`.
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message} (${cause})` : e.message;
}

function rejectUnsafe(plan: ZipPlan, name: string): void {
  if (planIsSafe(plan)) return;
  const parts = [
    ...plan.refused.map((r) => `refused entry "${r.entry}" (${r.reason})`),
    ...(plan.missing.length ? [`missing expected files: ${plan.missing.join(', ')}`] : []),
  ];
  throw new ArchiveRejected(`${name} rejected, nothing extracted: ${parts.join('; ')}`);
}

/** A live progress display (a terminal): called as bytes arrive; `total` is 0 when the server sends no length. */
export type Progress = (sourceId: string, name: string, received: number, total: number) => void;

export async function fetchSources(manifest: Manifest, options: FetchOptions, log: Log, progress?: Progress): Promise<FetchResult> {
  const { outDir, baseUrl } = options;
  const wanted = options.only ? new Set(options.only) : undefined;
  const selected = manifest.filter((s) => wanted === undefined || wanted.has(s.id));
  const previous = await readRecord(outDir);
  let record: FetchRecord | undefined = previous;
  const order = manifest.map((s) => s.id);
  const outcomes: SourceOutcome[] = [];

  const manifestPath = options.manifestPath === undefined ? undefined : resolve(options.manifestPath);
  if (manifestPath !== undefined) log(manifestNotice(manifestPath, manifest));
  if (baseUrl) log(`Fetching from ${baseUrl} instead of the publishers (--base-url / ODR_FETCH_BASE_URL).`);
  if (options.userAgent === DEFAULT_USER_AGENT) {
    log('User-Agent has a placeholder contact; set ODR_FETCH_USER_AGENT to your own (BLS refuses anonymous agents).');
  }

  const ctx: FileContext = { options, previous, log, progress };
  for (const source of selected) {
    if (!isFetchable(source)) {
      outcomes.push({ id: source.id, required: source.required, status: 'unfetchable', errors: [] });
      continue;
    }
    await removeStaleParts(join(outDir, source.id));
    const errors: string[] = [];
    const update: SourceUpdate = {
      source: {
        id: source.id,
        title: source.title,
        publisher: source.publisher,
        license: source.license,
        attribution: source.attribution,
      },
      files: [],
      dropped: [],
    };
    let fresh = false;
    for (const file of source.files) {
      try {
        const r = await processFile(ctx, source, file);
        fresh ||= r.fresh;
        update.files.push(...r.files);
        update.dropped.push(...r.dropped);
      } catch (err) {
        const url = rewriteOrigin(file.url, baseUrl);
        let reason = describeError(err);
        if (err instanceof HttpError && err.status === 403 && hostOf(file.url).endsWith('bls.gov')) {
          reason += ' (BLS refuses requests without a contact in the User-Agent: set ODR_FETCH_USER_AGENT)';
        }
        errors.push(`${url}: ${reason}`);
        log(`[${source.id}] FAILED ${file.name}: ${url}: ${reason}`);
      }
    }
    // Files that the new archive no longer has are removed, so data/raw matches the record.
    const kept = new Set(update.files.map((f) => f.path));
    for (const path of update.dropped) if (!kept.has(path)) await rm(join(outDir, path), { force: true });
    record = mergeRecord(record, [update], order, baseUrl, manifestPath);
    await writeRecord(outDir, record);

    const status: SourceStatus = errors.length > 0 ? 'failed' : fresh ? 'fetched' : 'present';
    outcomes.push({ id: source.id, required: source.required, status, errors });
    if (status !== 'failed') log(`[${source.id}] ok`);
  }

  const recordPath = join(outDir, RECORD_FILE);
  const exitCode = summarize(selected, outcomes, recordPath, log);
  return { outcomes, exitCode, recordPath };
}

/** What fetching one file reads: the options, the last run's record, where to log and show progress. */
interface FileContext {
  options: FetchOptions;
  previous: FetchRecord | undefined;
  log: Log;
  progress: Progress | undefined;
}

/** Extracts a zip the manifest asks to unpack, refusing it whole when any entry is unsafe or an expected file is missing. */
async function unpack(ctx: FileContext, source: Source, file: SourceFile, zipPath: string, rel: string): Promise<FetchedFile[]> {
  const { outDir } = ctx.options;
  const zip = new Uint8Array(await readFile(zipPath));
  const plan = planZipExtraction(listZipEntries(zip), file.extract?.expect ?? []);
  rejectUnsafe(plan, file.name);
  const written = await extractPlanned(zip, plan, join(outDir, source.id));
  ctx.log(`[${source.id}] extracted ${written.length} files from ${file.name} into ${join(outDir, source.id)}`);
  return written.map((w) => ({ path: `${source.id}/${w.path}`, from: rel, bytes: w.bytes, sha256: w.sha256 }));
}

/** One file of a source: kept when what is on disk matches its pinned or recorded digest, else downloaded (and unpacked). */
async function processFile(ctx: FileContext, source: Source, file: SourceFile): Promise<FileResult> {
  const { options, previous, log } = ctx;
  const { outDir, baseUrl } = options;
  const rel = `${source.id}/${file.name}`;
  const dest = join(outDir, source.id, file.name);
  const url = rewriteOrigin(file.url, baseUrl);
  const before = extractedFrom(previous, rel);
  // Pinned digests win; otherwise trust what the last run recorded for this path.
  const pinned = file.sha256 !== undefined || file.bytes !== undefined;
  const seen = recordedFile(previous, rel);
  const expected: Partial<Digest> | undefined = pinned ? { bytes: file.bytes, sha256: file.sha256 } : seen;

  if (!options.force && expected && (await matches(dest, expected))) {
    const digest = expected.sha256 ? { bytes: (await sizeOf(dest)) ?? 0, sha256: expected.sha256 } : await digestFile(dest);
    const own: FetchedFile = { path: rel, url: file.url, ...digest };
    if (!file.extract) {
      log(`[${source.id}] ${file.name} already present (${formatBytes(digest.bytes)}, sha256 matches), skipped`);
      return { fresh: false, files: [own], dropped: [] };
    }
    const intact = await Promise.all(before.map((f) => matches(join(outDir, f.path), f)));
    if (before.length > 0 && intact.every(Boolean)) {
      log(`[${source.id}] ${file.name} and its ${before.length} extracted files already present, skipped`);
      return { fresh: false, files: [own, ...before], dropped: [] };
    }
    log(`[${source.id}] ${file.name} present; extracted files missing or changed, extracting again`);
    const files = await unpack(ctx, source, file, dest, rel);
    return { fresh: true, files: [own, ...files], dropped: before.map((f) => f.path) };
  }

  return download(ctx, source, file, { rel, dest, url, before });
}

/** Downloads a file (validated against its pin and, for an archive, its plan before it replaces anything), then unpacks it. */
async function download(ctx: FileContext, source: Source, file: SourceFile, at: { rel: string; dest: string; url: string; before: FetchedFile[] }): Promise<FileResult> {
  const { options, log, progress } = ctx;
  const { rel, dest, url, before } = at;
  log(`[${source.id}] GET ${url}`);
  let lastQuarter = 0;
  const digest = await downloadToFile(url, dest, {
    userAgent: options.userAgent,
    timeoutMs: options.timeoutMs,
    onProgress: (got, total) => {
      if (progress) return progress(source.id, file.name, got, total);
      if (total < LARGE) return;
      const quarter = Math.floor((got / total) * 4);
      if (quarter > lastQuarter && quarter < 4) {
        lastQuarter = quarter;
        log(`[${source.id}]   ${quarter * 25}% of ${formatBytes(total)}`);
      }
    },
    validate: async (tmp, d) => {
      if (file.bytes !== undefined && d.bytes !== file.bytes) {
        throw new Error(`got ${d.bytes} bytes, expected ${file.bytes} (pinned in the manifest)`);
      }
      if (file.sha256 !== undefined && d.sha256 !== file.sha256) {
        throw new Error(`sha256 ${d.sha256} differs from the pinned ${file.sha256}`);
      }
      // Inspect the archive before it replaces anything: a refused zip never lands on disk.
      if (file.extract) {
        let names: string[];
        try {
          names = listZipEntries(new Uint8Array(await readFile(tmp)));
        } catch (err) {
          throw new ArchiveRejected(`${file.name} is not a readable zip (${(err as Error).message})`);
        }
        rejectUnsafe(planZipExtraction(names, file.extract.expect), file.name);
      }
    },
  });
  log(`[${source.id}] saved ${file.name} (${formatBytes(digest.bytes)}, sha256 ${digest.sha256.slice(0, 12)}…)`);
  const own: FetchedFile = { path: rel, url: file.url, ...digest };
  if (!file.extract) return { fresh: true, files: [own], dropped: [] };
  const files = await unpack(ctx, source, file, dest, rel);
  return { fresh: true, files: [own, ...files], dropped: before.map((f) => f.path) };
}

async function removeStaleParts(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  // Left by a process that was killed mid-download; never valid data.
  for (const n of names) if (n.startsWith('.') && n.endsWith('.part')) await rm(join(dir, n), { force: true });
}

function summarize(selected: Source[], outcomes: SourceOutcome[], recordPath: string, log: Log): 0 | 1 {
  const count = (s: SourceStatus) => outcomes.filter((o) => o.status === s).length;
  log('');
  log(
    `Summary: ${count('fetched')} fetched, ${count('present')} already present, ${count('failed')} failed, ` +
      `${count('unfetchable')} not downloadable. Record: ${recordPath}`,
  );
  for (const o of outcomes.filter((o) => o.status === 'failed')) {
    const kind = o.required ? 'FAILED (required)' : 'failed (optional; the build runs without it)';
    for (const e of o.errors) log(`  ${kind}: ${o.id}: ${e}`);
  }
  const unfetchable = selected.filter((s) => !isFetchable(s));
  if (unfetchable.length > 0) {
    log('  Optional sources this command cannot download (the build treats them as optional and');
    log('  reads their derived files from a source folder, ODR_SOURCE_DIR / --source, when present):');
    for (const s of unfetchable) log(`    ${s.id}: ${s.title}. ${s.note ?? ''} See ${s.homepage}`);
  }
  const requiredFailed = outcomes.filter((o) => o.status === 'failed' && o.required);
  if (requiredFailed.length > 0) {
    log(`Required source(s) failed: ${requiredFailed.map((o) => o.id).join(', ')}. Exit code 1.`);
    return 1;
  }
  return 0;
}
