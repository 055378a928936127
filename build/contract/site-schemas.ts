// Schemas of the service's self-description: the API index (/api/v1, PokeAPI's root convention:
// every resource with its URL) and /api/v1/meta (versions, build id, sources, licenses, counts).
import { z } from 'zod';
import { MODEL_VERSION } from '../model/version.ts';

/** Every JSON body of the API carries the model version (one literal, so OpenAPI shows its value). */
export const ModelVersionField = z.literal(MODEL_VERSION).describe('Version of the risk model behind this answer.');

export const ApiIndex = z.strictObject({
  name: z.string(),
  data_version: z.string(),
  docs: z.string().describe('Human-readable API reference.'),
  openapi: z.string().describe('The OpenAPI 3.1 document.'),
  resources: z
    .record(
      z.string(),
      z.strictObject({
        href: z.string().describe('URL path on this site; {name} marks a path parameter.'),
        methods: z.array(z.enum(['GET', 'POST'])),
        summary: z.string(),
      }),
    )
    .describe('Every API resource, keyed by its operationId in the OpenAPI document.'),
  model_version: ModelVersionField,
});

export const SourceInfo = z.strictObject({
  id: z.string(),
  title: z.string(),
  publisher: z.string(),
  license: z.string(),
  attribution: z.string(),
  homepage: z.string(),
});

/** A registered forecast (releases/forecasts/, issue 34): its predictions and, once checked, the outcome. */
export const ForecastRef = z.strictObject({
  file: z.string().describe('The forecast file in the repository, e.g. releases/forecasts/3.0.0-2026-12-01.json.'),
  url: z.string().describe('Where this build serves the file byte for byte (its sha256 in `registered`), e.g. /api/v1/registered/forecast-3.0.0-2026-12-01.json.'),
  model_version: z.string(),
  registered: z.string(),
  predictions: z.array(
    z.strictObject({
      id: z.string(),
      role: z.enum(['primary', 'secondary']),
      target: z.string().describe('The OEWS national file the prediction waits for (national_M2028_dl).'),
      point: z.number().describe('Predicted top-minus-bottom score quintile gap, log points x 100 per year.'),
      interval: z.strictObject({ level: z.number(), low: z.number(), high: z.number() }),
      result: z
        .strictObject({ outcome: z.enum(['confirmed', 'inconclusive', 'refuted']), gap: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable(), n: z.number().int() })
        .nullable()
        .describe('null while pending: the target file has not been checked yet (npm run validate -- --write-docs records a check).'),
    }),
  ),
});

export const Meta = z.strictObject({
  data_version: z.string(),
  model_version: z.string(),
  shape: z.enum(['percentile', 'timeline']),
  scope: z.string().describe('What the score measures and what it leaves out (the same sentence as the pages and the OpenAPI description of final_score).'),
  build_id: z.string().regex(/^[0-9a-f]{16}$/).describe('Hash of the published data: changes exactly when a response can change.'),
  data: z.strictObject({ onet_version: z.string(), oews_period: z.string(), projections_period: z.string() }),
  sources: z.array(SourceInfo),
  attribution: z.array(z.string()).describe('Attribution text to reproduce with the data.'),
  license: z.strictObject({ code: z.string(), data: z.string() }),
  counts: z.strictObject({
    occupations: z.number().int().min(0),
    occupations_unscored: z.number().int().min(0),
    tasks: z.number().int().min(0),
    industries: z.number().int().min(0),
  }),
  mcp: z
    .strictObject({
      url: z.string().describe('The endpoint (POST; JSON-RPC 2.0 messages of the Model Context Protocol).'),
      transport: z.literal('streamable-http'),
      stateless: z.literal(true).describe('No session: each request stands alone (no Mcp-Session-Id, no server-sent stream).'),
      docs: z.string().describe('Its tools, limits and the configuration of common MCP clients.'),
    })
    .describe('The same data as tools for an assistant: a Model Context Protocol server on the same function.'),
  downloads: z
    .array(
      z.strictObject({
        url: z.string(),
        release_url: z.string().optional().describe("The same file under its release's name, which names the data and model versions (data files only; the descriptors datapackage.json and metadata.json keep their tools' names)."),
        bytes: z.number().int().min(0),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .optional()
    .describe('Every file of /downloads/ with its size and sha256 (absent from a build without the site); a data file by both its names.'),
  registered: z
    .array(
      z.strictObject({
        name: z.string(),
        kind: z.enum(['forecast', 'head-to-head']),
        url: z.string().describe('Served byte for byte as committed.'),
        file: z.string().describe('Where the repository keeps it (releases/...).'),
        bytes: z.number().int().min(0),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .describe('Every file registered on the record (forecasts, head-to-heads), each at a stable URL with its sha256; empty before the first.'),
  forecasts: z.array(ForecastRef).describe('Every forecast registered in the repository (releases/forecasts/), with its result once checked; empty before the first.'),
});

export type ApiIndex = z.infer<typeof ApiIndex>;
export type Meta = z.infer<typeof Meta>;
export type ForecastRef = z.infer<typeof ForecastRef>;
export type SourceInfo = z.infer<typeof SourceInfo>;
