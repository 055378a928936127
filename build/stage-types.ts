// What the model stage hands on, in a file of its own: the stage (build/model-stage.ts) makes it
// and the model cache (build/cache/model-cache.ts) keeps it, and neither imports the other.
import type { ModelOutput } from './model/record-schemas.ts';
import type { WholeSearchIndex } from './contract/search-words.ts';

/**
 * What the model stage hands on: the model, what is made from it whatever
 * the shape (the search index, built from it and the sources' alternate titles; the records'
 * digest the build id is made from), and the source report (null for a model given by a test).
 */
export interface ModelStage<Report = unknown> {
  model: ModelOutput;
  search: WholeSearchIndex;
  digest: string;
  report: Report;
}
