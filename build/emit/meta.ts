// /api/v1 (the index of resources, generated from the route table) and /api/v1/meta (versions,
// build id, sources with licenses, counts). Pure apart from hashing.
import { createHash } from 'node:crypto';
import type { ModelOutput, Shape } from '../model/records.ts';
import { notFoundKind, routesFor, urlFor } from '../model/routes.ts';
import type { ApiIndex, Meta } from '../model/site-schemas.ts';
import { SOURCES } from '../sources/registry.ts';
import { MODEL_VERSION } from '../model/version.ts';

export const SERVICE_NAME = 'Occupation Displacement Risk API';
export const CODE_LICENSE = 'MIT';
export const DATA_LICENSE_NOTE = 'Each source keeps its own license (see sources); attribution text below must accompany the data.';

/** Every JSON API route, keyed by its id (the OpenAPI operationId), with its URL template. */
export function apiIndex(model: ModelOutput, shape: Shape): ApiIndex {
  const resources: ApiIndex['resources'] = {};
  for (const r of routesFor(shape)) {
    if (r.body !== 'json' || notFoundKind(r.pattern) !== 'problem' || r.id === 'api-index') continue;
    resources[r.id] = { href: r.pattern.replace(/:([a-z_]+)/g, '{$1}'), methods: [...r.methods], summary: r.summary };
  }
  return { name: SERVICE_NAME, data_version: model.meta.data_version, docs: urlFor('docs'), openapi: urlFor('openapi'), resources, model_version: MODEL_VERSION };
}

/**
 * The build id hashes what the published numbers come from (shape, versions, every occupation and
 * industry record), so it is the same for the same inputs and changes when any answer can.
 */
export function buildId(model: ModelOutput, shape: Shape): string {
  const h = createHash('sha256');
  h.update(`${shape}\n${model.meta.data_version}\n`);
  for (const o of model.occupations) h.update(JSON.stringify(o));
  for (const i of model.industries) h.update(JSON.stringify(i));
  h.update(JSON.stringify(model.factors));
  return h.digest('hex').slice(0, 16);
}

/** One per model and shape: the build id hashes every record, and several files quote it. */
const metaCache = new WeakMap<ModelOutput, Map<Shape, Meta>>();

export function metaDocument(model: ModelOutput, shape: Shape): Meta {
  let byShape = metaCache.get(model);
  if (!byShape) metaCache.set(model, (byShape = new Map()));
  const cached = byShape.get(shape);
  if (cached) return cached;
  const meta = computeMeta(model, shape);
  byShape.set(shape, meta);
  return meta;
}

function computeMeta(model: ModelOutput, shape: Shape): Meta {
  return {
    data_version: model.meta.data_version,
    model_version: model.meta.model_version,
    shape,
    build_id: buildId(model, shape),
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
  };
}
