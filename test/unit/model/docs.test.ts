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
]);

function leaves(x: unknown, at: string[], out: Array<{ path: string; value: string | number }>): void {
  if (typeof x === 'number' || typeof x === 'string') out.push({ path: at.join('.'), value: x });
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
  it('states every seed value', () => {
    const all: Array<{ path: string; value: string | number }> = [];
    leaves(seeds, [], all);
    // Array positions are not values; everything else must be stated.
    const missing = all.filter((l) => !stated(doc, l.value));
    expect(missing.map((m) => `${m.path} = ${m.value}`)).toEqual([]);
  });

  it('carries the O*NET attribution and a statement that the data were modified', () => {
    expect(doc).toContain(
      'This product includes information from the O*NET 29.3 Database by the U.S. Department of Labor, Employment and Training Administration (USDOL/ETA). Used under the CC BY 4.0 license. O*NET is a trademark of USDOL/ETA.',
    );
    expect(doc).toMatch(/We modified the O\*NET information/);
  });
});
