// The registry of sources is the one place for each source's facts: the fetcher's manifest is it
// validated, the loader finds what the fetcher saves, and every source has an attribution notice.
import { describe, expect, it } from 'vitest';
import { MANIFEST } from '../../../../build/fetch/manifest.ts';
import { AEI_NAMES, aeiFileInfo, NAMES, OEWS_INDUSTRY, OEWS_NATIONAL } from '../../../../build/sources/catalog.ts';
import { findAll } from '../../../../build/sources/discover.ts';
import { ATTRIBUTION, NOTICES, SOURCES } from '../../../../build/sources/registry.ts';

/** Every name the loader looks for, whatever it reads it as. */
const loaderFinds = (name: string): boolean =>
  findAll([name], [...Object.values(NAMES).flat(), OEWS_NATIONAL, OEWS_INDUSTRY]).length > 0 || aeiFileInfo(name) !== null;

describe('registry of sources', () => {
  it('is what the fetcher downloads: the manifest is the registry, validated, in the same order', () => {
    expect(MANIFEST.map((s) => s.id)).toEqual(SOURCES.map((s) => s.id));
    for (const s of SOURCES) {
      const m = MANIFEST.find((x) => x.id === s.id)!;
      expect({ title: m.title, publisher: m.publisher, license: m.license, attribution: m.attribution, homepage: m.homepage }).toEqual({
        title: s.title,
        publisher: s.publisher,
        license: s.license,
        attribution: s.attribution,
        homepage: s.homepage,
      });
      expect(m.files.map((f) => f.url)).toEqual(s.files.map((f) => f.url));
    }
  });

  it('names only files the loader finds: each download, or each expected file of an archive', () => {
    const saved = MANIFEST.flatMap((s) => s.files.flatMap((f) => (f.extract ? f.extract.expect : [f.name])));
    expect(saved.length).toBeGreaterThan(20);
    expect(saved.filter((n) => !loaderFinds(n))).toEqual([]);
  });

  it('gives every official AEI file the release of the source that ships it', () => {
    // onet_task_statements.csv ships with AEI but is read as O*NET task texts, not as AEI usage.
    const official = SOURCES.filter((x) => x.id.startsWith('aei-')).flatMap((s) => s.files.filter((f) => aeiFileInfo(f.name) !== null).map((f) => ({ s, f })));
    expect(official.map(({ f }) => f.name)).toEqual(['onet_task_mappings.csv', 'task_pct_v2.csv', 'automation_vs_augmentation_by_task.csv']);
    for (const { s, f } of official) expect(aeiFileInfo(f.name)?.release, f.name).toBe(s.id.slice('aei-'.length));
    expect(AEI_NAMES.filter((a) => a.defaults !== null)).toHaveLength(official.length);
  });

  it('covers every source with a published attribution notice, and names only sources it has', () => {
    const ids = new Set(SOURCES.map((s) => s.id));
    const covered = new Set(NOTICES.flatMap((n) => n.covers));
    expect([...ids].filter((id) => !covered.has(id))).toEqual([]);
    expect([...covered].filter((id) => !ids.has(id))).toEqual([]);
    expect(ATTRIBUTION).toEqual(NOTICES.map((n) => n.text));
    expect(new Set(ATTRIBUTION).size).toBe(ATTRIBUTION.length);
  });

  it('gives O*NET one notice, with the statement that USDOL/ETA has not endorsed the modifications, per source and in the list', () => {
    const onet = SOURCES.find((s) => s.id === 'onet-db-text')!;
    expect(onet.attribution).toMatch(/O\*NET is a trademark of USDOL\/ETA\. .*USDOL\/ETA has not approved, endorsed, or tested these modifications\.$/);
    expect(ATTRIBUTION).toContain(onet.attribution);
    expect(SOURCES.find((s) => s.id === 'onet-db-excel')!.attribution).toBe(onet.attribution);
  });
});
