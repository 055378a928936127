// The schema check of one emitted JSON file, on its own so the validation thread (validate-pool.ts)
// bundles only zod and the response schemas. A file names its schema by a plain reference (which
// can be posted to a thread), not by the schema object.
import { z } from 'zod';
import { ProblemSchema, responseSchemas, shardSchemaFor, type ResponseSchemaKey } from '../model/api-schemas.ts';
import type { Shape } from '../model/records.ts';

/** Which schema a file is checked against: a response of one shape, a function shard, or the problem document. */
export type SchemaRef = { response: ResponseSchemaKey; shape: Shape } | { shard: string } | { problem: true };

export function schemaOf(ref: SchemaRef): z.core.$ZodType | undefined {
  if ('response' in ref) return responseSchemas(ref.shape)[ref.response] as z.core.$ZodType;
  if ('shard' in ref) return shardSchemaFor(ref.shard);
  return ProblemSchema;
}

/**
 * Parses a body back and checks it against its schema: the failures, as `path: field: message`
 * lines (none when it conforms or the reference names no schema).
 */
export function checkJson(path: string, ref: SchemaRef, body: string | Uint8Array): string[] {
  const schema = schemaOf(ref);
  if (!schema) return [];
  let value: unknown;
  try {
    value = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body));
  } catch (e) {
    return [`${path}: not JSON (${(e as Error).message})`];
  }
  const r = z.safeParse(schema, value);
  return r.success ? [] : r.error.issues.slice(0, 5).map((i) => `${path}: ${i.path.join('.') || '(root)'}: ${i.message}`);
}
