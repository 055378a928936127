// The risk model's version: one constant, bundle-safe, quoted by every JSON body the API serves
// (static files, the function, problem+json) so a client can tell which model answered.
// seeds/model-params.json must name the same version (its schema checks it): the seeds are the
// model's parameters, this constant is what the function can carry without reading them.
export const MODEL_VERSION = '3.1.0';

/** `,"model_version":"…"`: the member as serialized, for bodies joined from strings. */
export const VERSION_MEMBER = `,"model_version":${JSON.stringify(MODEL_VERSION)}`;

/**
 * A serialized JSON object with the model version appended as its last member: the same bytes as
 * JSON.stringify(versioned(value)), without copying the object per request (that copy slowed the
 * function's assessments).
 */
export const appendVersion = (objectJson: string): string =>
  objectJson === '{}' ? `{${VERSION_MEMBER.slice(1)}}` : `${objectJson.slice(0, -1)}${VERSION_MEMBER}}`;

/** A response body with the model version appended as its last member (key order stays stable). */
export const versioned = <T extends object>(body: T): T & { model_version: typeof MODEL_VERSION } => ({ ...body, model_version: MODEL_VERSION });
