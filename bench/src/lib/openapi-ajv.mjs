// The ajv side of the validator comparison: an OpenAPI file's component schema as JSON Schema,
// compiled by ajv 8 + ajv-formats 3 (full formats).
//
// allOf reading: the project's generator reads `additionalProperties: false` inside an allOf
// branch as applying to the allOf as a whole (the members of every branch are allowed). Plain
// JSON Schema would reject every member the closed branch does not declare. When the checked
// schema has such an allOf on its path, the closed branches are opened and
// `unevaluatedProperties: false` is put at the allOf level instead, compiled with Ajv2019;
// otherwise the plain schema is compiled with draft-07 Ajv. `mode` says which was used.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import yaml from 'js-yaml';

const require = createRequire(import.meta.url);
const Ajv = require('ajv').default;
const Ajv2019 = require('ajv/dist/2019').default;
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default;

const COMPONENT_PREFIX = '#/components/schemas/';

export function loadOpenApi(file) {
  return yaml.load(readFileSync(file, 'utf8'));
}

function unescapePointer(token) {
  return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Resolves a local `$ref` (any `#/...` pointer) in the document. */
function resolvePointer(doc, ref) {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported here (got ${ref})`);
  let node = doc;
  for (const token of ref.slice(2).split('/')) {
    node = node?.[unescapePointer(token)];
    if (node === undefined) throw new Error(`unresolvable $ref ${ref}`);
  }
  return node;
}

const deref = (doc, node) => (node && typeof node === 'object' && typeof node.$ref === 'string' ? deref(doc, resolvePointer(doc, node.$ref)) : node);

function componentName(ref) {
  if (typeof ref !== 'string' || !ref.startsWith(COMPONENT_PREFIX)) return undefined;
  const rest = ref.slice(COMPONENT_PREFIX.length);
  return rest.includes('/') ? undefined : unescapePointer(rest);
}

/**
 * The component schema named by an operation's response: `operationId`, status, media type.
 * The response itself may be a `$ref` to components/responses.
 */
export function responseComponent(doc, operationId, status = '200', mediaType = 'application/json') {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item ?? {})) {
      if (!op || typeof op !== 'object' || op.operationId !== operationId) continue;
      const response = deref(doc, op.responses?.[status]);
      const media = response?.content?.[mediaType];
      const name = componentName(media?.schema?.$ref);
      if (!name) throw new Error(`${operationId} ${status} ${mediaType}: the schema is not a $ref to a component schema`);
      return name;
    }
  }
  throw new Error(`no operation ${operationId} in the file`);
}

function walk(node, visit, pointer = '') {
  if (!node || typeof node !== 'object') return;
  visit(node, pointer);
  if (Array.isArray(node)) node.forEach((child, i) => walk(child, visit, `${pointer}/${i}`));
  else for (const [k, child] of Object.entries(node)) walk(child, visit, `${pointer}/${k}`);
}

/** Names of the component schemas reachable from `name` (itself included). */
export function reachable(doc, name) {
  const schemas = doc.components?.schemas ?? {};
  const seen = new Set([name]);
  const queue = [name];
  while (queue.length > 0) {
    walk(schemas[queue.pop()], (node) => {
      const ref = componentName(node.$ref);
      if (ref && !seen.has(ref)) {
        seen.add(ref);
        queue.push(ref);
      }
    });
  }
  return seen;
}

const isClosed = (schema) => schema && typeof schema === 'object' && schema.additionalProperties === false;

/** Pointers of the allOf nodes on the path of `name` that have a closed branch. */
export function closedAllOfs(doc, name) {
  const schemas = doc.components?.schemas ?? {};
  const found = [];
  for (const n of reachable(doc, name)) {
    walk(schemas[n], (node, pointer) => {
      if (Array.isArray(node.allOf) && node.allOf.some((b) => isClosed(deref(doc, b)))) found.push(`#/components/schemas/${n}${pointer}`);
    });
  }
  return found;
}

/**
 * The reachable component schemas as JSON Schema definitions: `$ref`s pointed at `defsKey`,
 * OpenAPI 3.0 boolean exclusiveMinimum/Maximum turned into numbers, and (when `moveAllOf`)
 * closed allOf branches opened with `unevaluatedProperties: false` at the allOf level.
 */
function toDefinitions(doc, name, { defsKey, openapi30, moveAllOf }) {
  const source = doc.components?.schemas ?? {};
  const defs = {};
  for (const n of reachable(doc, name)) defs[n] = structuredClone(source[n]);
  const fix = (node) => {
    if (Array.isArray(node)) return node.forEach(fix);
    if (!node || typeof node !== 'object') return;
    if (moveAllOf && Array.isArray(node.allOf)) {
      let moved = false;
      node.allOf = node.allOf.map((branch) => {
        const target = deref(doc, branch);
        if (!isClosed(target)) return branch;
        moved = true;
        const { additionalProperties: _closed, ...open } = structuredClone(target);
        return open;
      });
      if (moved) node.unevaluatedProperties = false;
    }
    if (openapi30) {
      if (node.exclusiveMinimum === true) {
        node.exclusiveMinimum = node.minimum;
        delete node.minimum;
      } else if (node.exclusiveMinimum === false) delete node.exclusiveMinimum;
      if (node.exclusiveMaximum === true) {
        node.exclusiveMaximum = node.maximum;
        delete node.maximum;
      } else if (node.exclusiveMaximum === false) delete node.exclusiveMaximum;
    }
    if (typeof node.$ref === 'string' && node.$ref.startsWith(COMPONENT_PREFIX)) node.$ref = `#/${defsKey}/${node.$ref.slice(COMPONENT_PREFIX.length)}`;
    for (const child of Object.values(node)) fix(child);
  };
  for (const def of Object.values(defs)) fix(def);
  return defs;
}

/**
 * Compiles component `name` with ajv. Returns the validate function, the draft/mode used and
 * any warnings ajv logged (unknown formats are ignored with a warning, never silently).
 */
export function compileComponent(doc, name) {
  const openapi30 = String(doc.openapi ?? '').startsWith('3.0');
  const closed = closedAllOfs(doc, name);
  const warnings = [];
  const options = { strict: false, allErrors: false, logger: { log() {}, warn: (...m) => warnings.push(m.join(' ')), error: (...m) => warnings.push(m.join(' ')) } };
  let ajv;
  let mode;
  let defsKey;
  if (!openapi30) {
    ajv = new Ajv2020(options);
    defsKey = '$defs';
    mode = closed.length > 0 ? `JSON Schema 2020-12 (Ajv2020), ${closed.length} closed allOf branch(es) moved to unevaluatedProperties` : 'JSON Schema 2020-12 (Ajv2020), plain schema';
  } else if (closed.length > 0) {
    ajv = new Ajv2019(options);
    defsKey = '$defs';
    mode = `draft 2019-09 (Ajv2019), ${closed.length} closed allOf branch(es) moved to unevaluatedProperties`;
  } else {
    ajv = new Ajv(options);
    defsKey = 'definitions';
    mode = 'draft-07 (Ajv), plain schema: no allOf with a closed branch on the path';
  }
  addFormats(ajv); // mode "full"
  const defs = toDefinitions(doc, name, { defsKey, openapi30, moveAllOf: closed.length > 0 });
  const validate = ajv.compile({ [defsKey]: defs, $ref: `#/${defsKey}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}` });
  return { validate, mode, warnings, closedAllOfs: closed };
}
