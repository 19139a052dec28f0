/** The JSON Schema keywords the schema conversion tells apart, by what they do. */

/** Keywords that only annotate: they never change what validates. */
export const ANNOTATION_KEYWORDS = new Set([
  'title',
  'description',
  'example',
  'examples',
  'externalDocs',
  'xml',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  '$schema',
  // Containers of schemas that are reached only through `$ref`.
  '$defs',
  'definitions',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'discriminator',
  'default',
  'nullable',
]);

/** Keywords the IR represents. */
export const VALIDATION_KEYWORDS = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'allOf',
  'oneOf',
  'anyOf',
]);

/**
 * Keywords only the JSON Schema runtime validates: a schema that uses one of them (or `$id`,
 * `$anchor`, the tuple form of `items`) becomes a `json` node.
 */
export const RUNTIME_KEYWORDS_31 = new Set([
  'not',
  'if',
  'then',
  'else',
  'patternProperties',
  'propertyNames',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$id',
  '$anchor',
  // JSON Schema 2019-09's dynamic recursion, which OpenAPI's large 3.1 files still use.
  '$recursiveRef',
  '$recursiveAnchor',
  // 2020-12's dynamic references: generic schemas (a page of any item type) bound per use.
  '$dynamicRef',
  '$dynamicAnchor',
]);
/** OpenAPI 3.0's schema object is based on draft 4, whose keywords these are. */
export const RUNTIME_KEYWORDS_30 = new Set(['not', 'patternProperties', 'dependencies', 'additionalItems', 'id']);

/**
 * Every keyword of JSON Schema (drafts 4 to 2020-12) and of OpenAPI's Schema Object. A key
 * outside this list (`min_items`, `optional`, an extension) is an annotation, as JSON Schema
 * treats unknown keywords; one inside it that the generator cannot represent is refused.
 */
export const JSON_SCHEMA_VOCABULARY: ReadonlySet<string> = new Set([
  ...ANNOTATION_KEYWORDS,
  ...VALIDATION_KEYWORDS,
  ...RUNTIME_KEYWORDS_31,
  ...RUNTIME_KEYWORDS_30,
  '$dynamicRef',
  '$dynamicAnchor',
  '$vocabulary',
]);

/** The keywords only the JSON Schema runtime validates, in a file of this OpenAPI version. */
export function runtimeKeywords(dialect: '3.0' | '3.1'): ReadonlySet<string> {
  return dialect === '3.1' ? RUNTIME_KEYWORDS_31 : RUNTIME_KEYWORDS_30;
}

/**
 * Earlier drafts a published 3.1 file names with `$schema` (draft 5 never existed as a
 * meta-schema; files that name it mean draft 4). Their keywords read as 2020-12's except the
 * ones listed in `CHANGED_SINCE_OLDER_DRAFTS`, which are refused under them.
 */
const OLDER_DRAFTS: ReadonlySet<string> = new Set([
  ...['draft-04', 'draft-05', 'draft-06', 'draft-07'].flatMap((d) => [`http://json-schema.org/${d}/schema`, `https://json-schema.org/${d}/schema`]),
  'http://json-schema.org/draft/2019-09/schema',
  'https://json-schema.org/draft/2019-09/schema',
]);

/** Dialects a 3.1 schema may declare with `$schema`; another meta-schema may change what validates. */
export const KNOWN_DIALECTS = new Set([
  'https://json-schema.org/draft/2020-12/schema',
  'https://spec.openapis.org/oas/3.1/dialect/base',
  'https://spec.openapis.org/oas/3.1/dialect/2024-10-25',
  'http://json-schema.org/draft-04/schema',
  ...OLDER_DRAFTS,
]);

/** The meta-schema URI as `KNOWN_DIALECTS` lists it (without an empty fragment). */
export function dialectKey(uri: string): string {
  return uri.replace(/#$/, '');
}

/** True for a `$schema` of a draft before 2020-12. */
export function isOlderDraft(uri: string): boolean {
  return OLDER_DRAFTS.has(dialectKey(uri));
}

/** Keywords whose meaning changed after the older drafts (tuple `items` became `prefixItems`...). */
export const CHANGED_SINCE_OLDER_DRAFTS = ['additionalItems', 'dependencies'];

/**
 * Keywords that say something only about values of one type, and that type (`format` also
 * applies to numbers for the numeric formats; see `keywordType` in schema-to-ir.ts).
 */
export const KEYWORD_TYPES: Readonly<Record<string, 'string' | 'number' | 'array' | 'object'>> = {
  format: 'string',
  pattern: 'string',
  minLength: 'string',
  maxLength: 'string',
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  multipleOf: 'number',
  items: 'array',
  prefixItems: 'array',
  contains: 'array',
  minContains: 'array',
  maxContains: 'array',
  minItems: 'array',
  maxItems: 'array',
  uniqueItems: 'array',
  additionalItems: 'array',
  unevaluatedItems: 'array',
  properties: 'object',
  patternProperties: 'object',
  additionalProperties: 'object',
  propertyNames: 'object',
  required: 'object',
  minProperties: 'object',
  maxProperties: 'object',
  dependentRequired: 'object',
  dependentSchemas: 'object',
  dependencies: 'object',
  unevaluatedProperties: 'object',
};

export const TYPE_SPECIFIC_KEYWORDS: ReadonlySet<string> = new Set(Object.keys(KEYWORD_TYPES));
