// Shared by the build and serve CLIs: flag parsing and how failures are told to a person.
import { BuildError } from './pipeline.ts';
import { explainServeFailure } from './serve-failure.ts';
import { stageLabel } from './report-format.ts';
import { SourceError } from './sources/errors.ts';
import { ManifestFileError } from './fetch/manifest-file.ts';

/** `--name value` or `--name=value` for the known flags; anything else is a usage error. */
export function parseFlags(argv: string[], known: readonly string[], usage: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!known.includes(name)) throw new Error(`unknown argument ${arg}\n${usage}`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '' || value.startsWith('--')) throw new Error(`${name} needs a value\n${usage}`);
    out[name] = value;
  }
  return out;
}

/** On a terminal, the running stage stays on screen until its timing line overwrites it; elsewhere nothing (CI logs stay one line per stage). */
export const stageProgress = (stream: NodeJS.WriteStream): ((stage: string) => void) | undefined =>
  stream.isTTY ? (stage) => void stream.write(`${stageLabel(stage)} running…\r`) : undefined;

/**
 * The message for an expected failure (bad sources, a build that refused to write, a port that is
 * taken): what went wrong and what to do, without a stack trace. Anything else is a bug: full stack.
 */
export function explainFailure(e: unknown): string {
  if (e instanceof BuildError || e instanceof SourceError || e instanceof ManifestFileError) return e.message;
  return explainServeFailure(e);
}
