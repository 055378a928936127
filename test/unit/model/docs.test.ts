// Every seed value must be stated in docs/METHODOLOGY.md: numbers as written in the seed,
// codes and option values verbatim. Prose fields (rationale, description, label, name) are
// exempt; their content is the documentation itself.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Seeds } from '../../../build/model/params.ts';
import { realSeeds } from './seeds.ts';

const PROSE = new Set(['rationale', 'description', 'label', 'name']);
/** Field names of the seed format itself; every other object key is a value (factor, GWA id, period...). */
const STRUCTURAL = new Set([
  'factors', 'tiers', 'params', 'task_categories', 'protective', 'value', 'options', 'elements', 'gwas',
  'keyword_rules', 'words', 'category', 'source', 'weight', 'tier', 'min', 'moderation_weight', 'adjustment',
  'element_id', 'importance_exponent', 'tie_break_order', 'keyword_default', 'last_resort', 'model_version',
  // seeds/ep-factor-causes.json and seeds/entry-corrections.json
  'ep_causes', 'entry_corrections', 'corrections', 'sources', 'publisher', 'url', 'file', 'statements',
  // seeds/isco-alternate-titles.json
  'isco_titles',
]);
/**
 * Data tables, not parameters: seeds/ep-factor-causes.json classifies each of BLS Table 1.12's
 * 576 statements (with the words it was classified by). Its rows are the table's, cited to BLS;
 * copying each into the prose would state data, not a choice. METHODOLOGY states the table's
 * source, its rule and its counts instead, and the test below checks those against the seed.
 */
const DATA_TABLES = new Set(['ep_causes.statements', 'isco_titles.titles', 'isco_titles.sources']);
// Likewise seeds/isco-alternate-titles.json: search aliases of ISCO-08 unit groups, each cited in the
// seed and shown with its source on its unit group's page; METHODOLOGY 13b states the rule, the
// sources and the count (checked below).

function leaves(x: unknown, at: string[], out: Array<{ path: string; value: string | number }>): void {
  if (typeof x === 'number' || typeof x === 'string') out.push({ path: at.join('.'), value: x });
  else if (DATA_TABLES.has(at.join('.'))) return;
  else if (Array.isArray(x)) x.forEach((v, i) => leaves(v, [...at, String(i)], out));
  else if (x && typeof x === 'object') {
    for (const [k, v] of Object.entries(x)) {
      if (PROSE.has(k) && typeof v === 'string') continue;
      if (!STRUCTURAL.has(k)) out.push({ path: [...at, k].join('.'), value: k });
      leaves(v, [...at, k], out);
    }
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
function stated(doc: string, v: string | number): boolean {
  if (typeof v === 'number') {
    const forms = [String(v), v.toLocaleString('en-US')];
    return forms.some((f) => new RegExp(`(?<![\\d.])${escape(f)}(?![\\d])`).test(doc));
  }
  return doc.includes(v);
}

let seeds: Seeds;
let doc: string;
beforeAll(async () => {
  seeds = await realSeeds();
  doc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/METHODOLOGY.md'), 'utf8');
});

describe('docs/METHODOLOGY.md', () => {
  it('states the ISCO-08 alternate titles\' count and sources', () => {
    expect(doc).toContain(`${seeds.isco_titles.titles.length} common non-U.S. titles`);
    for (const key of Object.keys(seeds.isco_titles.sources)) expect(doc).toContain(`\`${key}\``);
  });

  it('states every seed value', () => {
    const all: Array<{ path: string; value: string | number }> = [];
    leaves(seeds, [], all);
    // Array positions are not values; everything else must be stated.
    const missing = all.filter((l) => !stated(doc, l.value));
    expect(missing.map((m) => `${m.path} = ${m.value}`)).toEqual([]);
  });

  it('states the Table 1.12 classification: its source, rule and counts, in one paragraph', () => {
    const { source, statements } = seeds.ep_causes;
    const para = doc.split(/\n\s*\n/).find((p) => p.includes('seeds/ep-factor-causes.json') && p.includes(source.url)) ?? '';
    const causes = new Map<string, number>();
    for (const s of statements) causes.set(s.cause, (causes.get(s.cause) ?? 0) + 1);
    const reviewed = statements.filter((s) => s.basis.startsWith('reviewed: '));
    const counts = {
      statements: statements.length,
      occupation_codes: new Set(statements.map((s) => s.soc)).size,
      reviewed: reviewed.length,
      reviewed_codes: new Set(reviewed.map((s) => s.soc)).size,
      ...Object.fromEntries(causes),
    };
    // The first pass's words ("names: a, b"); any other basis (not 'reviewed: ...') is stated verbatim.
    const words = new Set<string>();
    for (const s of statements) {
      if (s.basis.startsWith('names: ')) for (const w of s.basis.slice(7).split(', ')) words.add(w);
      else if (!s.basis.startsWith('reviewed: ')) words.add(s.basis);
    }
    const missing = [
      ...Object.values(source).filter((v) => !para.includes(v)),
      ...Object.entries(counts).filter(([, n]) => !stated(para, n)).map(([k, n]) => `${k} = ${n}`),
      ...[...causes.keys(), ...words, ...reviewed.map((s) => s.soc)].filter((w) => !para.includes(w)),
    ];
    expect(missing).toEqual([]);
  });

  it('carries the O*NET attribution and a statement that the data were modified', () => {
    expect(doc).toContain(
      'This product includes information from the O*NET 29.3 Database by the U.S. Department of Labor, Employment and Training Administration (USDOL/ETA). Used under the CC BY 4.0 license. O*NET is a trademark of USDOL/ETA.',
    );
    expect(doc).toMatch(/We modified the O\*NET information/);
  });
});
