/**
 * An independent judge of response bodies: ajv (through the differential test's oracle, with
 * its documented readings of OpenAPI) on the schema each operation declares for a status and
 * media type. Inline response schemas are copied into `components/schemas` under made-up
 * names so that the oracle, which validates component schemas, can read them; their `$ref`s
 * to components still resolve there.
 *
 * Responses are read in the response direction (OpenAPI 3.0.3 §4.7.24): a writeOnly member is
 * not required there, as the generator reads it.
 */
import { buildAjvOracle, type AjvOracle } from './ajv-oracle.js';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const COMPONENT_REF = /^#\/components\/schemas\/([^/]+)$/;
const INLINE_PREFIX = 'XMockResponse';

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function unescapeToken(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
}

export interface ResponseOracle {
  /** ajv's verdict on a body: undefined when valid, else its errors as text. */
  check(operation: { path: string; method: string }, status: string, contentType: string, body: unknown): string | undefined;
  oracle: AjvOracle;
}

/** Resolves a local `$ref` chain of a response object (responses may be components too). */
function deref(document: Json, value: unknown): unknown {
  let node = value;
  for (let hops = 0; hops < 16 && isObject(node) && typeof node['$ref'] === 'string'; hops++) {
    const ref = node['$ref'] as string;
    if (!ref.startsWith('#/')) return node;
    node = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, token) => (isObject(at) ? at[unescapeToken(token)] : undefined), document);
  }
  return node;
}

/** Drops from `required` the members whose schema is writeOnly (on itself or behind a component `$ref`). */
function responseDirection(document: Json, schemas: Json): void {
  const writeOnly = (member: unknown): boolean => {
    if (!isObject(member)) return false;
    if (member['writeOnly'] === true) return true;
    const ref = typeof member['$ref'] === 'string' ? COMPONENT_REF.exec(member['$ref']) : null;
    return ref !== null && isObject(schemas[unescapeToken(ref[1]!)]) && (schemas[unescapeToken(ref[1]!)] as Json)['writeOnly'] === true;
  };
  const seen = new Set<unknown>();
  const visit = (node: unknown): void => {
    if (!isObject(node) && !Array.isArray(node)) return;
    if (seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) return node.forEach(visit);
    const properties = node['properties'];
    if (Array.isArray(node['required']) && isObject(properties)) {
      node['required'] = (node['required'] as unknown[]).filter((name) => !(typeof name === 'string' && writeOnly(properties[name])));
    }
    for (const child of Object.values(node)) visit(child);
  };
  visit(document);
}

/**
 * `$ref`s into the document outside `components/schemas` (into a path's request body, say)
 * become references to copies under made-up component names: the oracle registers only the
 * component schemas.
 */
function hoistOtherRefs(document: Json, schemas: Json): void {
  const hoisted = new Map<string, string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    const ref = node['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#/') && !ref.startsWith('#/components/schemas/')) {
      let name = hoisted.get(ref);
      if (!name) {
        name = `XMockReference${hoisted.size + 1}`;
        hoisted.set(ref, name);
        schemas[name] = structuredClone(deref(document, { $ref: ref }));
        visit(schemas[name]);
      }
      node['$ref'] = `#/components/schemas/${name}`;
    }
    for (const child of Object.values(node)) visit(child);
  };
  for (const name of Object.keys(schemas)) visit(schemas[name]);
}

/** The oracle for every response schema of `document` (left untouched). */
export function buildResponseOracle(document: Json): ResponseOracle {
  const copy = structuredClone(document);
  const components = (isObject(copy['components']) ? copy['components'] : (copy['components'] = {})) as Json;
  const schemas = (isObject(components['schemas']) ? components['schemas'] : (components['schemas'] = {})) as Json;
  const names = new Map<string, string>();
  let inline = 0;
  for (const [path, item] of Object.entries(isObject(copy['paths']) ? copy['paths'] : {})) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation) || !isObject(operation['responses'])) continue;
      for (const [status, rawResponse] of Object.entries(operation['responses'])) {
        const response = deref(copy, rawResponse);
        if (!isObject(response) || !isObject(response['content'])) continue;
        for (const [contentType, media] of Object.entries(response['content'])) {
          if (!isObject(media) || media['schema'] === undefined) continue;
          const schema = media['schema'];
          const ref = isObject(schema) && typeof schema['$ref'] === 'string' ? COMPONENT_REF.exec(schema['$ref']) : null;
          let name = ref ? unescapeToken(ref[1]!) : undefined;
          if (!name) {
            name = `${INLINE_PREFIX}${++inline}`;
            schemas[name] = structuredClone(schema);
          }
          names.set(`${method} ${path} ${status} ${contentType}`, name);
        }
      }
    }
  }
  hoistOtherRefs(copy, schemas);
  responseDirection(copy, schemas);
  const oracle = buildAjvOracle(copy);
  return {
    oracle,
    check(operation, status, contentType, body) {
      const name = names.get(`${operation.method} ${operation.path} ${status} ${contentType}`);
      if (name === undefined) throw new Error(`no schema for ${operation.method} ${operation.path} ${status} ${contentType}`);
      return oracle.validate(name, body) ? undefined : oracle.errorsText(name);
    },
  };
}
