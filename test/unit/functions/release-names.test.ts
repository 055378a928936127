// Release files by their versioned names: the name rule, and that the node server's and the
// Cloudflare worker's dispatch map a versioned name to the same file as today's address.
import { describe, expect, it } from 'vitest';
import { releaseRoutes, releaseUrlFor, routesFor, urlFor } from '../../../build/contract/routes.ts';
import { dispatch } from '../../../functions/dispatch.ts';
import { deployConfigs } from '../../../build/emit/files.ts';

const V = 'onet-29.3+oews-may-2025+model-2.1.0';

describe('release file names', () => {
  it('name the data and model versions in the file name', () => {
    expect(releaseUrlFor('download-sqlite', V)).toBe('/downloads/odr-onet-29.3+oews-may-2025+model-2.1.0-occupation-risk.sqlite');
    expect(releaseUrlFor('download-occupations', V)).toBe('/downloads/odr-onet-29.3+oews-may-2025+model-2.1.0-occupations.csv');
    expect(releaseUrlFor('download-archive', V)).toBe('/downloads/odr-onet-29.3+oews-may-2025+model-2.1.0-data.jsonl.gz');
  });
  it('refuse a route that is no release file and a version unsafe in a path', () => {
    expect(() => releaseUrlFor('download-datapackage', V)).toThrow(/not a release file/);
    expect(() => releaseUrlFor('download-sqlite', '../x')).toThrow(/bad data version/);
    expect(() => releaseUrlFor('download-sqlite', 'a b')).toThrow(/bad data version/);
  });
  it('every download with data is a release file; the descriptors keep their tools’ names', () => {
    const ids = releaseRoutes('percentile', V).map((r) => r.route.id);
    expect(ids.sort()).toEqual(['download-archive', 'download-changes', 'download-industries', 'download-isco', 'download-occupations', 'download-release-summary', 'download-sqlite', 'download-tasks']);
    expect(routesFor('timeline').filter((r) => r.release).length).toBe(8);
  });
});

describe('dispatch of a versioned name', () => {
  it('is the file of today’s address, with its headers', () => {
    for (const { route, path } of releaseRoutes('percentile', V)) {
      const byName = dispatch('GET', path, 'percentile', V);
      const plain = dispatch('GET', urlFor(route.id), 'percentile', V);
      expect(plain.to).toBe('file');
      expect(byName).toEqual(plain);
    }
    expect(dispatch('HEAD', releaseUrlFor('download-sqlite', V), 'timeline', V)).toMatchObject({ to: 'file', file: 'downloads/occupation-risk.sqlite' });
    expect(dispatch('GET', releaseUrlFor('download-release-summary', V), 'percentile', V)).toMatchObject({ to: 'file', file: 'downloads/release-summary.json/index.json' });
  });
  it('of another release is no file (the function answers 404), never this release’s bytes', () => {
    const other = releaseUrlFor('download-sqlite', 'onet-29.3+oews-may-2025+model-2.0.0');
    expect(dispatch('GET', other, 'percentile', V)).toEqual({ to: 'function', route: null });
    expect(dispatch('POST', releaseUrlFor('download-sqlite', V), 'percentile', V)).toEqual({ to: 'function', route: null });
  });
});

describe('netlify.toml', () => {
  it('rewrites a release name to the same file as its plain name, and nothing else gets a release name', () => {
    const files = [
      { path: 'downloads/occupation-risk.sqlite', urlPath: '/downloads/occupation-risk.sqlite', routeId: 'download-sqlite' },
      { path: 'downloads/release-summary.json/index.json', urlPath: '/downloads/release-summary.json', routeId: 'download-release-summary' },
      { path: 'downloads/datapackage.json/index.json', urlPath: '/downloads/datapackage.json', routeId: 'download-datapackage' },
    ];
    const toml = String(deployConfigs(files, 'percentile', V)[0]!.body);
    const rules = [...toml.matchAll(/from = "([^"]+)"\n {2}to = "([^"]+)"\n {2}status = 200\n(?! {2}force)/g)].map((m) => [m[1], m[2]]);
    expect(rules.slice(0, 5)).toEqual([
      ['/downloads/occupation-risk.sqlite', '/downloads/occupation-risk.sqlite'],
      [releaseUrlFor('download-sqlite', V), '/downloads/occupation-risk.sqlite'],
      ['/downloads/release-summary.json', '/downloads/release-summary.json/index.json'],
      [releaseUrlFor('download-release-summary', V), '/downloads/release-summary.json/index.json'],
      ['/downloads/datapackage.json', '/downloads/datapackage.json/index.json'],
    ]);
    expect(toml).not.toContain('odr-onet-29.3+oews-may-2025+model-2.1.0-datapackage');
  });
});
