/**
 * Turns the component schemas of a bundled OpenAPI 3.0 document into JSON Schema that ajv
 * (draft 2019-09) reads with the OpenAPI meaning. Written for the wire check, independently
 * of the generator: only the readings below are shared with it, on purpose, since they are
 * the documented readings of the contract.
 *
 * - 3.0: keywords beside a `$ref` are ignored (OpenAPI 3.0.3, Reference Object).
 * - 3.0: `nullable` only counts beside `type`; ajv reads it there, so it is dropped elsewhere.
 * - 3.0: boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric 2019-09 form.
 * - `allOf` with a closed branch (`additionalProperties: false`): the signed envelopes are
 *   `allOf: [claims, { message, additionalProperties: false }]`, which read literally rejects
 *   every real token (the claims count as additional in the second branch). The project
 *   reads it as "nothing beyond what the whole allOf declares", which is 2019-09's
 *   `unevaluatedProperties: false` on the allOf node; closed branches are opened.
 */

type Json = Record<string, unknown>;

const PREFIX = '#/components/schemas/';
const SCHEMA_VALUED = ['items', 'additionalProperties', 'not', 'unevaluatedProperties'];
const SCHEMA_MAPS = ['properties', 'patternProperties'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];
const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'default', 'externalDocs']);

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Children first, then the node itself. */
function eachSchema(node: unknown, visit: (schema: Json) => void): void {
  if (!isObject(node)) return;
  for (const key of SCHEMA_VALUED) eachSchema(node[key], visit);
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (isObject(map)) for (const child of Object.values(map)) eachSchema(child, visit);
  }
  for (const key of SCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) for (const child of list) eachSchema(child, visit);
  }
  visit(node);
}

/** The OpenAPI 3.0 rules ajv would otherwise read differently. */
function adaptOpenApi30(schema: Json): void {
  if (typeof schema['$ref'] === 'string') {
    for (const key of Object.keys(schema)) if (key !== '$ref' && !ANNOTATIONS.has(key) && !key.startsWith('x-')) delete schema[key];
    return;
  }
  if (schema['nullable'] !== true || schema['type'] === undefined) delete schema['nullable'];
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (schema[flag] === true && typeof schema[bound] === 'number') {
      schema[flag] = schema[bound];
      delete schema[bound];
    } else if (schema[flag] === false) delete schema[flag];
  }
}

const isClosed = (schema: Json) => schema['additionalProperties'] === false || schema['unevaluatedProperties'] === false;

/**
 * Adapts `schemas` (component name → schema) in place for ajv 2019-09, the allOf reading
 * included. References must be internal (`#/components/schemas/...`).
 */
export function adaptSchemas(schemas: Json): void {
  for (const schema of Object.values(schemas)) eachSchema(schema, adaptOpenApi30);

  const state = new Map<string, 'busy' | 'done'>();
  const component = (name: string): Json | undefined => {
    const schema = schemas[name];
    if (!isObject(schema)) return undefined;
    // A component is rewritten before anything that refers to it looks at it.
    if (!state.has(name)) {
      state.set(name, 'busy');
      eachSchema(schema, rewriteAllOf);
      state.set(name, 'done');
    }
    return schema;
  };
  const resolve = (branch: unknown): unknown => {
    let current = branch;
    // Bounded: a chain of references longer than this is a defect of the document.
    for (let hops = 0; hops < 32 && isObject(current) && typeof current['$ref'] === 'string'; hops++) {
      const ref = current['$ref'];
      current = ref.startsWith(PREFIX) ? component(decodeURIComponent(ref.slice(PREFIX.length))) : undefined;
    }
    return current;
  };
  function rewriteAllOf(node: Json): void {
    const branches = node['allOf'];
    if (!Array.isArray(branches)) return;
    const targets = branches.map(resolve);
    if (!targets.some((t) => isObject(t) && isClosed(t)) && node['additionalProperties'] !== false) return;
    node['allOf'] = branches.map((branch, i) => {
      const target = targets[i];
      if (!isObject(target) || !isClosed(target)) return branch;
      const open = { ...target };
      delete open['additionalProperties'];
      delete open['unevaluatedProperties'];
      return open;
    });
    delete node['additionalProperties'];
    node['unevaluatedProperties'] = false;
  }
  for (const name of Object.keys(schemas)) component(name);
}
