// The required structure of a Frictionless Tabular Data Package (Data Package v1 specification:
// data-package, tabular-data-package, tabular-data-resource, table-schema, csv-dialect), written
// here as a JSON Schema because no copy of the official profile is available offline. It checks
// what the specification requires and the types of the properties it defines; custom properties
// are allowed, as the specification allows them.
const NAME = '^[a-z0-9._/-]+$';
const fieldTypes = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'date', 'time', 'datetime', 'year', 'yearmonth', 'duration', 'geopoint', 'geojson', 'any'];
const strings = { type: 'array', items: { type: 'string' }, minItems: 1 };
const keyFields = { oneOf: [{ type: 'string' }, strings] };

const license = { type: 'object', anyOf: [{ required: ['name'] }, { required: ['path'] }], properties: { name: { type: 'string', pattern: '^([-a-zA-Z0-9._])+$' }, path: { type: 'string' }, title: { type: 'string' } } };
const source = { type: 'object', required: ['title'], properties: { title: { type: 'string' }, path: { type: 'string' }, email: { type: 'string' } } };

const field = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    type: { enum: fieldTypes },
    format: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    bareNumber: { type: 'boolean' },
    constraints: {
      type: 'object',
      properties: { required: { type: 'boolean' }, unique: { type: 'boolean' }, enum: { type: 'array', minItems: 1 }, minimum: {}, maximum: {}, pattern: { type: 'string' } },
    },
  },
};

const tableSchema = {
  type: 'object',
  required: ['fields'],
  properties: {
    fields: { type: 'array', minItems: 1, items: field },
    missingValues: { type: 'array', items: { type: 'string' } },
    primaryKey: keyFields,
    foreignKeys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['fields', 'reference'],
        properties: { fields: keyFields, reference: { type: 'object', required: ['resource', 'fields'], properties: { resource: { type: 'string' }, fields: keyFields } } },
      },
    },
  },
};

const dialect = {
  type: 'object',
  properties: {
    delimiter: { type: 'string', minLength: 1 },
    lineTerminator: { type: 'string' },
    quoteChar: { type: 'string' },
    doubleQuote: { type: 'boolean' },
    escapeChar: { type: 'string' },
    nullSequence: { type: 'string' },
    skipInitialSpace: { type: 'boolean' },
    header: { type: 'boolean' },
    commentChar: { type: 'string' },
    caseSensitiveHeader: { type: 'boolean' },
    csvddfVersion: { type: 'number' },
  },
};

const resource = {
  type: 'object',
  required: ['name', 'path', 'profile', 'schema'],
  properties: {
    profile: { const: 'tabular-data-resource' },
    name: { type: 'string', pattern: NAME },
    path: { oneOf: [{ type: 'string', pattern: '^(?!/)(?!.*\\.\\./)' }, { type: 'array', minItems: 1, items: { type: 'string' } }] },
    title: { type: 'string' },
    description: { type: 'string' },
    format: { type: 'string' },
    mediatype: { type: 'string', pattern: '^(.+)/(.+)$' },
    encoding: { type: 'string' },
    bytes: { type: 'integer', minimum: 0 },
    hash: { type: 'string', pattern: '^([^:]+:)?[a-fA-F0-9]+$' },
    schema: tableSchema,
    dialect,
    sources: { type: 'array', items: source },
    licenses: { type: 'array', minItems: 1, items: license },
  },
};

export const TABULAR_DATA_PACKAGE = {
  type: 'object',
  required: ['resources', 'profile'],
  properties: {
    profile: { const: 'tabular-data-package' },
    name: { type: 'string', pattern: NAME },
    id: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    homepage: { type: 'string' },
    version: { type: 'string' },
    created: { type: 'string' },
    keywords: { type: 'array', minItems: 1, items: { type: 'string' } },
    licenses: { type: 'array', minItems: 1, items: license },
    sources: { type: 'array', minItems: 1, items: source },
    contributors: { type: 'array', items: { type: 'object', required: ['title'] } },
    resources: { type: 'array', minItems: 1, items: resource },
  },
} as const;
