// The digest of the published records: sha256 of every occupation and industry record and the
// factors, as JSON. The build id (/meta) is made from it. Computed once with the model and cached
// with it (build/cache/model-cache.ts lists this file among the model's inputs): stringifying and
// hashing every record in every emit slowed each rebuild, a template edit's included.
import { createHash } from 'node:crypto';
import type { ModelOutput } from './model/record-schemas.ts';

export function recordsDigest(model: Pick<ModelOutput, 'occupations' | 'industries' | 'factors'> & Partial<Pick<ModelOutput, 'isco'>>): string {
  const h = createHash('sha256');
  for (const o of model.occupations) h.update(JSON.stringify(o));
  for (const i of model.industries) h.update(JSON.stringify(i));
  h.update(JSON.stringify(model.factors));
  // The ISCO-08 records follow from the occupations and the crosswalks (which the sources' key holds).
  if (model.isco) h.update(JSON.stringify(model.isco));
  return h.digest('hex');
}
