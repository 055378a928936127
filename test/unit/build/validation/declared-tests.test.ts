// A declared test cannot change silently: each declaration file's sha256 is pinned here. A new
// definition is a new file (v2.json) with its own pin, beside the old one, never an edit.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDeclaration, techStatementsBySoc } from '../../../../build/validation/declared.ts';

const DIR = path.join(import.meta.dirname, '../../../../build/validation/declared-tests');

/** version -> sha256 of the file's bytes, pinned when the version was committed. */
const PINNED: Readonly<Record<string, string>> = {
  'v1.json': 'cb8a1c2cb8ee42269774f715a757d94be92093a74ebecdb4ffbc8343e8bdf221',
  'v2.json': 'c21043c7aede87b3af5684bd423f38889ed8a8bb375a29d2246b1aa248152829',
};

describe('declared outcome tests', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

  it('pins every declaration file by its sha256, and every pin has its file', () => {
    expect(files).toEqual(Object.keys(PINNED).sort());
    for (const f of files) expect(createHash('sha256').update(readFileSync(path.join(DIR, f))).digest('hex'), f).toBe(PINNED[f]);
  });

  it('declares versions named after their file, one decision test each, and the OEWS years by name', () => {
    for (const f of files) {
      const d = parseDeclaration(readFileSync(path.join(DIR, f), 'utf8'));
      expect(`v${d.version}.json`).toBe(f);
      expect(d.tests.filter((t) => t.role === 'decision')).toHaveLength(1);
    }
    const v1 = parseDeclaration(readFileSync(path.join(DIR, 'v1.json'), 'utf8'));
    expect(v1.tests.find((t) => t.role === 'decision')!.id).toBe('OEWS-2022-25');
    expect(v1.tests.find((t) => t.id === 'OEWS-2022-25')!.sources.employment!.map((y) => [y.year, y.file])).toEqual([
      ['2019', 'national_M2019_dl'],
      ['2022', 'national_M2022_dl'],
      ['2025', 'national_M2025_dl'],
    ]);
  });

  it('refuses a declaration with two decision tests', () => {
    const v1 = JSON.parse(readFileSync(path.join(DIR, 'v1.json'), 'utf8')) as { tests: Array<{ role: string }> };
    v1.tests[1]!.role = 'decision';
    expect(() => parseDeclaration(JSON.stringify(v1))).toThrow(/exactly one decision test/);
  });

  it('classifies Table 1.12 statements by the v1 technology list: AI codes in neither group', () => {
    const d = parseDeclaration(readFileSync(path.join(DIR, 'v1.json'), 'utf8'));
    const rows = [
      // software cuts the share: positive
      { soc: '43-3031', statement: 'Productivity change - share decreases as accounting software automates bookkeeping.' },
      { soc: '43-3031', statement: 'Demand change - share increases as firms grow.' },
      // a decrease for another reason only: neither group
      { soc: '25-4031', statement: 'Demand change - share decreases as library usage declines.' },
      // only increases: negative
      { soc: '29-1141', statement: 'Demand change - share increases as the population ages.' },
      { soc: '29-1141', statement: 'Demand change - share increases as hospitals expand.' },
      // technology and AI both named: left out (the test shares no code with the AI test)
      { soc: '43-4051', statement: 'Capital/labor substitution - share decreases as online self-service and AI chatbots handle inquiries.' },
      // AI named in other words in a rise: left out too
      { soc: '15-1252', statement: 'Demand change - share increases as machine learning grows.' },
      // robots: in the primary list, not in the narrow one
      { soc: '51-2092', statement: 'Capital/labor substitution - share decreases as robots assemble parts.' },
      // "AIR" is not AI; "computer" is technology
      { soc: '53-2021', statement: 'Productivity change - share decreases as computer systems manage AIR traffic.' },
    ];
    const t = d.technology_other_than_ai_terms;
    expect([...techStatementsBySoc(rows, d.ai_terms, t.primary)]).toEqual([
      ['29-1141', 'raises'],
      ['43-3031', 'reduces'],
      ['51-2092', 'reduces'],
      ['53-2021', 'reduces'],
    ]);
    expect([...techStatementsBySoc(rows, d.ai_terms, t.narrow)]).toEqual([
      ['29-1141', 'raises'],
      ['43-3031', 'reduces'],
      ['53-2021', 'reduces'],
    ]);
  });
});
