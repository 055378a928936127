import { describe, expect, it } from 'vitest';
import { isFetchable, MANIFEST } from '../../../../build/fetch/manifest.ts';
import { Manifest } from '../../../../build/sources/registry-schema.ts';

describe('manifest', () => {
  const byId = new Map(MANIFEST.map((s) => [s.id, s]));

  it('lists each official file under its official URL and name', () => {
    const urls = Object.fromEntries(MANIFEST.flatMap((s) => s.files.map((f) => [f.name, f.url])));
    expect(urls['db_29_3_text.zip']).toBe('https://www.onetcenter.org/dl_files/database/db_29_3_text.zip');
    expect(urls['db_29_3_excel.zip']).toBe('https://www.onetcenter.org/dl_files/database/db_29_3_excel.zip');
    expect(urls['oesm25nat.zip']).toBe('https://www.bls.gov/oes/special-requests/oesm25nat.zip');
    expect(urls['oesm24nat.zip']).toBe('https://www.bls.gov/oes/special-requests/oesm24nat.zip');
    expect(urls['oesm24in4.zip']).toBe('https://www.bls.gov/oes/special-requests/oesm24in4.zip');
    expect(urls['occupation.xlsx']).toBe('https://www.bls.gov/emp/ind-occ-matrix/occupation.xlsx');
    expect(urls['2-6 digit_2022_Codes.xlsx']).toBe('https://www.census.gov/naics/2022NAICS/2-6%20digit_2022_Codes.xlsx');
    expect(urls['full_labelset.tsv']).toMatch(/^https:\/\/raw\.githubusercontent\.com\/openai\/GPTs-are-GPTs\/[0-9a-f]{40}\/data\/full_labelset\.tsv$/);
    expect(urls['soc_ai_applicability_scores.csv']).toMatch(/^https:\/\/raw\.githubusercontent\.com\/microsoft\/working-with-ai\/[0-9a-f]{40}\//);
    for (const name of ['onet_task_mappings.csv', 'onet_task_statements.csv']) {
      expect(urls[name]).toBe(`https://huggingface.co/datasets/Anthropic/EconomicIndex/resolve/main/release_2025_02_10/${name}`);
    }
    for (const name of ['task_pct_v2.csv', 'automation_vs_augmentation_by_task.csv']) {
      expect(urls[name]).toBe(`https://huggingface.co/datasets/Anthropic/EconomicIndex/resolve/main/release_2025_03_27/${name}`);
    }
  });

  it('keeps the URL file name equal to the official name (no renaming)', () => {
    for (const f of MANIFEST.flatMap((s) => s.files)) {
      expect(decodeURIComponent(new URL(f.url).pathname.split('/').pop() ?? '')).toBe(f.name);
    }
  });

  it('marks the mirror-only sources optional, without files, with a note', () => {
    for (const id of ['aei-2025-09-15', 'aei-2026-01-15', 'aei-2026-03-24', 'onet-30-derived', 'onet-30-1-skills']) {
      const s = byId.get(id);
      expect(s?.required).toBe(false);
      expect(s && isFetchable(s)).toBe(false);
      expect(s?.note).toMatch(/mirror/);
    }
  });

  it('gives every source a publisher, license and attribution; O*NET carries the CC BY notice', () => {
    for (const s of MANIFEST) expect([s.publisher, s.license, s.attribution].every((t) => t.length > 3)).toBe(true);
    expect(byId.get('onet-db-text')?.attribution).toMatch(/USDOL\/ETA\)\. Used under the CC BY 4\.0 license\. O\*NET is a trademark/);
  });

  it('pins size and sha256 only on commit-pinned URLs', () => {
    for (const f of MANIFEST.flatMap((s) => s.files)) {
      if (f.sha256 !== undefined) expect(f.url).toMatch(/\/[0-9a-f]{40}\//);
    }
  });

  it('rejects a broken manifest', () => {
    const good = MANIFEST[0]!;
    expect(Manifest.safeParse([good, good]).success).toBe(false);
    expect(Manifest.safeParse([{ ...good, files: [{ ...good.files[0]!, name: '../x.zip' }] }]).success).toBe(false);
    expect(Manifest.safeParse([{ ...good, files: [] }]).success).toBe(false);
    expect(Manifest.safeParse([{ ...good, files: [{ ...good.files[0]!, url: 'ftp://x/y' }] }]).success).toBe(false);
  });
});
