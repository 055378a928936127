// The SourceReport (what the loaders read, kept and rejected, and why) and pure helpers over it:
// the reject-share gate and the short text the build prints.
import { z } from 'zod';

/** What the loaders tell the build report: per file, rows read/kept/rejected, and why. */
export const SourceFileReport = z.object({
  /** Official file name, e.g. "Task Statements.txt". */
  file: z.string(),
  /** Path relative to the source directory (never an absolute machine path). */
  path: z.string(),
  rows: z.number().int(),
  kept: z.number().int(),
  rejected: z.number().int(),
  /** Exact repeats of an earlier row (same key and values), dropped (a repeated key with other values stops the build). */
  repeats: z.number().int(),
  notes: z.array(z.string()),
});
export const SourceProblem = z.object({
  file: z.string(),
  line: z.number().int(),
  reason: z.string(),
  /** The occupation code the rejected row names (as written), and its title when the row has one. */
  code: z.string().optional(),
  title: z.string().optional(),
});
export const SourceReport = z.object({
  files: z.array(SourceFileReport),
  problems: z.array(SourceProblem),
  missing_optional: z.array(z.string()),
  /** Which release or years of each source family the build reads, and what it found but passed over. */
  choices: z.array(z.string()),
});
export type SourceFileReport = z.infer<typeof SourceFileReport>;
export type SourceProblem = z.infer<typeof SourceProblem>;
export type SourceReport = z.infer<typeof SourceReport>;

/** Files whose rejected share of rows exceeds `maxShare` (the build fails on these). */
export function checkRejectThreshold(report: SourceReport, maxShare = 0.005): SourceFileReport[] {
  return report.files.filter((f) => f.rows > 0 && f.rejected / f.rows > maxShare);
}

export function formatSourceReport(report: SourceReport, maxProblems = 20): string {
  const lines: string[] = report.choices.map((c) => `using ${c}`);
  const width = Math.max(4, ...report.files.map((f) => f.path.length));
  lines.push(`${'file'.padEnd(width)}  ${'rows'.padStart(7)}  ${'kept'.padStart(7)}  ${'rejected'.padStart(8)}`);
  for (const f of report.files) {
    lines.push(
      `${f.path.padEnd(width)}  ${String(f.rows).padStart(7)}  ${String(f.kept).padStart(7)}  ${String(f.rejected).padStart(8)}`,
    );
    for (const note of f.notes) lines.push(`    ${note}`);
  }
  const total = report.files.reduce((acc, f) => ({ rows: acc.rows + f.rows, rejected: acc.rejected + f.rejected, repeats: acc.repeats + f.repeats }), {
    rows: 0,
    rejected: 0,
    repeats: 0,
  });
  const repeats = total.repeats > 0 ? `, ${total.repeats} exact repeated row${total.repeats === 1 ? '' : 's'} dropped` : '';
  lines.push(`${report.files.length} files, ${total.rows} rows, ${total.rejected} rejected${repeats}`);
  if (report.missing_optional.length > 0) {
    lines.push(`optional files not found: ${report.missing_optional.join('; ')}`);
  }
  if (report.problems.length > 0) {
    lines.push(`problems (${report.problems.length}):`);
    for (const p of report.problems.slice(0, maxProblems)) lines.push(`  ${p.file}:${p.line}: ${p.reason}`);
    const rest = report.problems.length - maxProblems;
    if (rest > 0) lines.push(`  ... and ${rest} more`);
  }
  return lines.join('\n');
}
