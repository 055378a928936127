// /api/v1 (the index of resources, generated from the route table) and /api/v1/meta (versions,
// build id, sources with licenses, counts). Pure apart from hashing.
import { createHash } from 'node:crypto';
import type { ModelOutput, Shape } from '../model/record-schemas.ts';
import { notFoundKind } from '../contract/route-match.ts';
import { routesFor, urlFor } from '../contract/routes.ts';
import type { ApiIndex, ForecastRef, Meta } from '../contract/site-schemas.ts';
import { SOURCES } from '../sources/registry.ts';
import { MODEL_VERSION } from '../model/version.ts';
import { SCOPE } from '../model/scope.ts';

export const SERVICE_NAME = 'Occupation Displacement Risk API';
export const CODE_LICENSE = 'MIT';
export const DATA_LICENSE_NOTE = 'Each source keeps its own license (see sources); attribution text below must accompany the data.';

/** Every JSON API route, keyed by its id (the OpenAPI operationId), with its URL template: those under /api/ and /mcp. */
export function apiIndex(model: ModelOutput, shape: Shape): ApiIndex {
  const resources: ApiIndex['resources'] = {};
  for (const r of routesFor(shape)) {
    if (r.body !== 'json' || (notFoundKind(r.pattern) !== 'problem' && r.id !== 'mcp') || r.id === 'api-index') continue;
    resources[r.id] = { href: r.pattern.replace(/:([a-z_]+)/g, '{$1}'), methods: [...r.methods], summary: r.summary };
  }
  return { name: SERVICE_NAME, data_version: model.meta.data_version, docs: urlFor('docs'), openapi: urlFor('openapi'), resources, model_version: MODEL_VERSION };
}

/**
 * The build id hashes what the published numbers come from: the shape, the versions and the
 * records' digest (build/records-digest.ts, every occupation and industry record). So it is the
 * same for the same inputs and changes when any answer can.
 */
export function buildId(digest: string, shape: Shape, dataVersion: string): string {
  return createHash('sha256').update(`${shape}\n${dataVersion}\n${digest}`).digest('hex').slice(0, 16);
}

/** /meta; the build id from the records' digest (computed with the model). Made once per shape: several files quote it. */
export function metaDocument(model: ModelOutput, shape: Shape, digest: string, forecasts: ForecastRef[] = [], registered: Meta['registered'] = []): Meta {
  return {
    data_version: model.meta.data_version,
    model_version: model.meta.model_version,
    shape,
    scope: SCOPE.sentence,
    build_id: buildId(digest, shape, model.meta.data_version),
    data: { onet_version: model.meta.onet_version, oews_period: model.meta.oews_period, projections_period: model.meta.projections_period },
    sources: SOURCES.map((s) => ({ id: s.id, title: s.title, publisher: s.publisher, license: s.license, attribution: s.attribution, homepage: s.homepage })),
    attribution: model.meta.attribution,
    license: { code: CODE_LICENSE, data: DATA_LICENSE_NOTE },
    counts: {
      occupations: model.occupations.length,
      occupations_unscored: model.unscored.length,
      tasks: model.occupations.reduce((n, o) => n + o.tasks.length, 0),
      industries: model.industries.length,
    },
    mcp: { url: urlFor('mcp'), transport: 'streamable-http', stateless: true, docs: urlFor('docs-mcp') },
    registered,
    forecasts,
  };
}
