// The risk model's version: one constant, bundle-safe, quoted by every JSON body the API serves
// (static files, the function, problem+json) so a client can tell which model answered.
// seeds/model-params.json must name the same version (its schema checks it): the seeds are the
// model's parameters, this constant is what the function can carry without reading them.
export const MODEL_VERSION = '2.0.0';

/** A response body with the model version appended as its last member (key order stays stable). */
export const versioned = <T extends object>(body: T): T & { model_version: typeof MODEL_VERSION } => ({ ...body, model_version: MODEL_VERSION });
