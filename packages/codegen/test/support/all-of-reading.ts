/**
 * Gives a JSON Schema validator the generator's reading of `allOf`.
 *
 * The generator reads `additionalProperties: false` inside an `allOf` branch as "no member
 * beyond those the whole allOf declares", which is what `unevaluatedProperties: false` on
 * the `allOf` node means (JSON Schema 2019-09). This module rewrites a COPY of an OpenAPI
 * document so that a 2019-09 validator checks exactly that:
 *
 * - for every `allOf` where a branch, after following `$ref`s, is closed
 *   (`additionalProperties: false`, or `unevaluatedProperties: false` left by an inner
 *   rewrite), or where the node itself is closed beside its `allOf`,
 * - the closed branches are replaced by an open copy (a `$ref` branch is inlined: the
 *   component itself stays closed for its other uses), the node's own
 *   `additionalProperties: false` is removed, and `unevaluatedProperties: false` is put on
 *   the node.
 *
 * Closedness is looked for at the top of each branch only: a closed object inside a
 * `oneOf`/`anyOf` branch of an `allOf` is left as written (the official files have none).
 */

type Json = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

/** Keywords whose value is a schema. */
const SCHEMA_VALUED = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems'];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions', 'dependencies'];
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

export interface AllOfReadingResult {
  /** The rewritten copy; the input is not modified. */
  document: Json;
  /** JSON pointers of the `allOf` nodes that were rewritten. */
  rewritten: string[];
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function unescapeToken(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function lookup(document: Json, pointer: string): unknown {
  if (!pointer.startsWith('#/')) return pointer === '#' ? document : undefined;
  let node: unknown = document;
  for (const raw of pointer.slice(2).split('/')) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Json)[unescapeToken(raw)];
  }
  return node;
}

function isClosed(schema: Json): boolean {
  return schema['additionalProperties'] === false || schema['unevaluatedProperties'] === false;
}

/** Rewrites a copy of `document` (its `components.schemas`) with the generator's allOf reading. */
export function applyAllOfReading(document: Json): AllOfReadingResult {
  const copy = structuredClone(document);
  const components = isObject(copy['components']) ? copy['components'] : {};
  const schemas = isObject(components['schemas']) ? components['schemas'] : {};
  const state = new Map<string, 'busy' | 'done'>();
  const rewritten: string[] = [];

  const transformComponent = (name: string): void => {
    if (state.has(name)) return;
    state.set(name, 'busy');
    transformNode(schemas[name], `${COMPONENT_PREFIX}${escapeToken(name)}`);
    state.set(name, 'done');
  };

  /** Follows `$ref`s; component targets are transformed first, so their own rewrite shows. */
  const resolve = (schema: unknown): unknown => {
    let current = schema;
    for (let hops = 0; hops < 32 && isObject(current) && typeof current['$ref'] === 'string'; hops++) {
      const ref = current['$ref'];
      if (ref.startsWith(COMPONENT_PREFIX) && !ref.slice(COMPONENT_PREFIX.length).includes('/')) {
        const name = unescapeToken(ref.slice(COMPONENT_PREFIX.length));
        transformComponent(name);
        current = schemas[name];
      } else {
        current = lookup(copy, ref);
      }
    }
    return current;
  };

  const transformNode = (schema: unknown, pointer: string): void => {
    if (!isObject(schema)) return;
    for (const key of SCHEMA_VALUED) {
      const child = schema[key];
      if (Array.isArray(child)) child.forEach((c, i) => transformNode(c, `${pointer}/${key}/${i}`));
      else transformNode(child, `${pointer}/${key}`);
    }
    for (const key of SCHEMA_MAPS) {
      const map = schema[key];
      if (isObject(map)) for (const [name, child] of Object.entries(map)) transformNode(child, `${pointer}/${key}/${escapeToken(name)}`);
    }
    for (const key of SCHEMA_LISTS) {
      const list = schema[key];
      if (Array.isArray(list)) list.forEach((c, i) => transformNode(c, `${pointer}/${key}/${i}`));
    }
    if (Array.isArray(schema['allOf'])) rewriteAllOf(schema, pointer);
  };

  const rewriteAllOf = (node: Json, pointer: string): void => {
    const branches = (node['allOf'] as unknown[]).map((branch) => ({ branch, target: resolve(branch) }));
    const closedBranch = branches.some(({ target }) => isObject(target) && isClosed(target));
    if (!closedBranch && node['additionalProperties'] !== false) return;
    node['allOf'] = branches.map(({ branch, target }) => {
      if (!isObject(target) || !isClosed(target)) return branch;
      const open: Json = { ...target };
      if (open['additionalProperties'] === false) delete open['additionalProperties'];
      if (open['unevaluatedProperties'] === false) delete open['unevaluatedProperties'];
      return open;
    });
    if (node['additionalProperties'] === false) delete node['additionalProperties'];
    node['unevaluatedProperties'] = false;
    rewritten.push(pointer);
  };

  for (const name of Object.keys(schemas)) transformComponent(name);
  return { document: copy, rewritten };
}
