// The docs' examples are run, not just read: every curl command in the README and in docs/API.md
// is sent to the real site of the default shape (votes: the timeline shape); the keys its example
// output shows must be in the answer, and every value it shows must be the answer's (`...` marks
// what an example leaves out), so an example cannot go stale.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, useSites } from './setup.ts';

const sites = useSites();

interface Example {
  method: string;
  path: string;
  body?: string;
  /** Top-level keys shown in the example output right below the command, if any. */
  keys: string[];
  /** The example output as text (its lines joined), or null when none is shown. */
  shown: string | null;
}

const WILDCARD = '...';

/**
 * The example output as JSON with what it leaves out removed: `{...}` and `[...]` become empty,
 * a trailing `,...` goes, "..." (or a bare ... value) stands for any value, and a string ending in
 * "..." for any string that begins with the rest.
 */
function parseShown(shown: string): unknown {
  const text = shown
    .replace(/\{\.\.\.\}/g, '{}')
    .replace(/\[\.\.\.\]/g, '[]')
    .replace(/,\s*\.\.\.\s*(?=[}\]])/g, '')
    .replace(/:\s*\.\.\.(?=\s*[,}\]])/g, ':"..."');
  return JSON.parse(text);
}

const squash = (x: string) => x.replace(/\s+/g, ' ');

/** Where the shown value differs from the answer: objects by the keys shown, arrays by their first items, "..." matches anything. */
function differences(shown: unknown, actual: unknown, at = '$'): string[] {
  if (shown === WILDCARD) return [];
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${at}: not an array`];
    return shown.flatMap((v, i) => differences(v, actual[i], `${at}[${i}]`));
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object') return [`${at}: not an object`];
    return Object.entries(shown).flatMap(([k, v]) => differences(v, (actual as Record<string, unknown>)[k], `${at}.${k}`));
  }
  // Long strings may be wrapped over lines in the docs, and cut with a trailing "...".
  const same =
    typeof shown === 'string' && typeof actual === 'string'
      ? shown.endsWith(WILDCARD)
        ? squash(actual).startsWith(squash(shown.slice(0, -WILDCARD.length)).trimEnd())
        : squash(shown) === squash(actual)
      : shown === actual;
  return same ? [] : [`${at}: shown ${JSON.stringify(shown)}, served ${JSON.stringify(actual)}`];
}

/** The curl examples of one Markdown file of the repository (README.md, docs/API.md). */
function curlExamples(file: string): Example[] {
  const text = readFileSync(path.join(REPO_ROOT, file), 'utf8').replace(/\\\n\s*/g, ' ');
  const lines = text.split('\n');
  const out: Example[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('curl ')) return;
    const url = /'?(http:\/\/127\.0\.0\.1:8080[^'\s]*)'?/.exec(line)![1]!;
    const body = /-d '([^']*)'/.exec(line)?.[1];
    // The example output: the lines after the command, up to the end of its code block.
    const end = lines.findIndex((l, j) => j > i && (l.startsWith('```') || l.startsWith('curl ')));
    const next = lines.slice(i + 1, end).join(' ');
    // The first JSON object under the command: its top-level keys (nested objects skipped).
    const keys: string[] = [];
    if (next.startsWith('{')) {
      let depth = 0;
      for (const m of next.matchAll(/[{}[\]]|"([a-z_]+)":/g)) {
        if (m[0] === '{' || m[0] === '[') depth++;
        else if (m[0] === '}' || m[0] === ']') depth--;
        else if (depth === 1) keys.push(m[1]!);
      }
    }
    out.push({ method: /-X (\w+)/.exec(line)?.[1] ?? 'GET', path: url.replace('http://127.0.0.1:8080', ''), body, keys, shown: next.startsWith('{') ? next : null });
  });
  return out;
}

const DETAIL_KEYS = ['id', 'soc_code', 'title', 'labor_data', 'risk_score', 'protective_factors'];

describe('README and docs/API.md examples', () => {
  const readme = curlExamples('README.md');
  const api = curlExamples('docs/API.md');
  it('finds the README\'s commands and their example outputs', () => {
    expect(readme.length).toBeGreaterThanOrEqual(8);
    expect(readme.some((e) => e.method === 'POST')).toBe(true);
    expect(readme.find((e) => e.path === '/api/v1/occupations/15-1252.00')?.keys).toEqual(DETAIL_KEYS);
  });
  it('finds the commands of docs/API.md, votes included, and their example outputs', () => {
    expect(api.length).toBeGreaterThanOrEqual(readme.length);
    expect(api.find((e) => e.path === '/api/v1/occupations/15-1252.00')?.keys).toEqual(DETAIL_KEYS);
    expect(api.some((e) => e.method === 'POST' && e.path.endsWith('/votes'))).toBe(true);
    expect(api.some((e) => e.method === 'POST' && e.path === '/api/v1/displacement/assess')).toBe(true);
  });
  const all = [...readme.map((e) => ['README.md', e] as const), ...api.map((e) => ['docs/API.md', e] as const)];
  it.each(all.map(([file, e]) => [`${file}: ${e.method} ${e.path}`, e] as const))('%s answers as documented', async (_name, e) => {
    // Votes exist in the timeline shape only; its examples are run there (a POST records a vote).
    const votes = e.path.endsWith('/votes');
    const site = votes ? sites.timeline : sites.percentile;
    const res = await site.get(e.path, e.body === undefined ? {} : { method: e.method, headers: { 'Content-Type': 'application/json' }, body: e.body });
    expect(res.status).toBe(votes && e.method === 'POST' ? 201 : 200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const json = await res.json();
    for (const key of e.keys) expect(json, key).toHaveProperty(key);
    // The values shown are the served ones.
    if (e.shown !== null) expect(differences(parseShown(e.shown), json)).toEqual([]);
  });
  it('every README and docs/API.md example with output shows values that are checked', () => {
    const shown = all.filter(([, e]) => e.shown !== null);
    expect(shown.length).toBeGreaterThanOrEqual(10);
    for (const [file, e] of shown) expect(() => parseShown(e.shown!), `${file}: ${e.path}`).not.toThrow();
  });
});
