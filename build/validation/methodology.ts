// Generated sections of docs/METHODOLOGY.md: the parameter index (from seeds/model-params.json)
// and the validation figures (from the validation report). Each sits between
// <!-- generated:NAME --> and <!-- /generated:NAME --> markers and is rewritten by
// `npm run validate -- --write-docs`, so the document cannot drift from the seeds or the data.
import type { ModelParamsSeed } from '../model/params.ts';

/** Replace the text between the markers of one generated section; throws if the markers are missing. */
export function replaceSection(doc: string, name: string, body: string): string {
  const open = `<!-- generated:${name} -->`;
  const close = `<!-- /generated:${name} -->`;
  const a = doc.indexOf(open);
  const b = doc.indexOf(close);
  if (a < 0 || b < a) throw new Error(`docs/METHODOLOGY.md has no ${open} ... ${close} section`);
  return `${doc.slice(0, a + open.length)}\n${body.trim()}\n${doc.slice(b)}`;
}

const fmt = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v).replace(/,"/g, ', "').replace(/":/g, '": '));

/** One row per parameter: dotted path, value, rationale. */
export function parameterIndex(params: ModelParamsSeed): string {
  const rows: string[] = ['| Parameter | Value | Rationale |', '|---|---|---|', `| model_version | \`${params.model_version}\` | |`];
  const walk = (x: unknown, at: string[]) => {
    if (x && typeof x === 'object' && 'value' in x && 'rationale' in x) {
      const o = x as { value: unknown; rationale: string };
      rows.push(`| ${at.join('.')} | \`${fmt(o.value)}\` | ${o.rationale} |`);
      return;
    }
    if (x && typeof x === 'object' && !Array.isArray(x)) for (const [k, v] of Object.entries(x)) walk(v, [...at, k]);
  };
  for (const [k, v] of Object.entries(params)) if (k !== 'description' && k !== 'model_version') walk(v, [k]);
  return rows.join('\n');
}
