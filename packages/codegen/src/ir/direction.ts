import type { BuiltIR, CheckedExample } from './build-ir.js';
import { findRecursiveSchemas, referencedNames } from './references.js';
import { isRecord, resolvePointer } from './json-pointer.js';
import { forEachSubschema } from './json-schema-table.js';
import { schemaDialectOf } from './openapi-version.js';
import type { ApiIR, JsonSchemaTableIR, MediaTypeIR, NamedSchema, PropertyIR, SchemaNode } from './types.js';

/**
 * readOnly and writeOnly by direction (OpenAPI 3.0.3 §4.7.24, fixed fields of the Schema Object:
 * "If the property is marked as readOnly being true and is in the required list, the required
 * will take effect on the response only"; writeOnly the other way round; 3.1 keeps it as an
 * allowed reading).
 *
 * Every schema a request body or a response carries is replaced by its variant for that
 * direction: in requests, readOnly members are not required; in responses, writeOnly members
 * are not required. A component schema that needs a variant keeps its own export as written;
 * its variants are more named schemas (`<Name>Request`, `<Name>Response`) that the operations
 * refer to instead. Schemas the JSON Schema runtime validates (`json` nodes) carry the direction
 * to the runtime, which applies the rule to their raw schemas; their shapes follow it for types.
 */
export type Direction = 'request' | 'response';

export interface DirectionOptions {
  /**
   * `openapi` (default): the rule above. `json-schema`: readOnly and writeOnly are annotations
   * only, as plain JSON Schema reads them (OpenAPI 3.1 documents only: 3.0 always applies the rule).
   */
  readWrite?: 'openapi' | 'json-schema';
  /** A readOnly member present in a request: `accept` (default, ignored) or `refuse` (400 naming it). */
  readOnlyInRequest?: 'accept' | 'refuse';
  /**
   * A writeOnly member present in a response: `refuse` (default: the server answers 500 naming
   * it instead of sending it, and the client refuses such an answer) or `accept`.
   */
  writeOnlyInResponse?: 'refuse' | 'accept';
}

export const DIRECTION_SUFFIX: Record<Direction, string> = { request: 'Request', response: 'Response' };

/** The IR name of a component schema's variant: never a component name (those have no `@`). */
export function variantName(name: string, direction: Direction): string {
  return `${name}@${direction}`;
}

interface Rules {
  direction: Direction;
  /** Members hidden in this direction are also refused when present. */
  refuse: boolean;
  components: Map<string, SchemaNode>;
  needs: Map<string, boolean>;
  /** Whether a schema the JSON Schema runtime validates has a member hidden in this direction. */
  jsonHides: (pointer: string) => boolean;
}

/** True when the member is readOnly (requests) or writeOnly (responses), on itself or on the schema it names. */
function hidden(node: SchemaNode, rules: Rules): boolean {
  const flag = rules.direction === 'request' ? 'readOnly' : 'writeOnly';
  if (node[flag]) return true;
  if (node.kind === 'ref') return rules.components.get(node.name)?.[flag] === true;
  return false;
}

/** Whether the node changes in this direction, given what is known of the component schemas. */
function affected(node: SchemaNode, rules: Rules): boolean {
  switch (node.kind) {
    case 'ref':
      return rules.needs.get(node.name) === true;
    case 'array':
      return affected(node.items, rules);
    case 'object':
      return (
        node.properties.some((p) => (hidden(p.schema, rules) && (p.required || rules.refuse)) || affected(p.schema, rules)) ||
        (typeof node.additional === 'object' && affected(node.additional, rules))
      );
    case 'union':
      return node.variants.some((v) => affected(v, rules));
    case 'intersection':
      return node.parts.some((p) => affected(p, rules));
    case 'json':
      return rules.jsonHides(node.pointer) || affected(node.shape, rules);
    default:
      return false;
  }
}

/** Whether the member `name` of the objects `node` describes (through references, allOf and unions) is hidden in this direction. */
function hidesMember(node: SchemaNode, name: string, rules: Rules, seen: Set<string>): boolean {
  switch (node.kind) {
    case 'ref': {
      if (seen.has(node.name)) return false;
      seen.add(node.name);
      const target = rules.components.get(node.name);
      return target !== undefined && hidesMember(target, name, rules, seen);
    }
    case 'object':
      return node.properties.some((p) => p.name === name && hidden(p.schema, rules));
    case 'union':
      return node.variants.some((v) => hidesMember(v, name, rules, seen));
    case 'intersection':
      return node.parts.some((p) => hidesMember(p, name, rules, seen));
    case 'json':
      return hidesMember(node.shape, name, rules, seen);
    default:
      return false;
  }
}

function transform(node: SchemaNode, rules: Rules): SchemaNode {
  if (!affected(node, rules)) return node;
  switch (node.kind) {
    case 'ref':
      return { ...node, name: variantName(node.name, rules.direction) };
    case 'array':
      return { ...node, items: transform(node.items, rules) };
    case 'object': {
      const properties = node.properties.map((p): PropertyIR => {
        if (!hidden(p.schema, rules)) return { ...p, schema: transform(p.schema, rules) };
        if (rules.refuse) {
          const why = rules.direction === 'request' ? 'readOnly: a request may not carry it' : 'writeOnly: a response may not carry it';
          return { name: p.name, required: false, schema: { kind: 'never', pointer: p.schema.pointer, description: why } };
        }
        return { ...p, required: false, schema: transform(p.schema, rules) };
      });
      const out = { ...node, properties };
      if (typeof node.additional === 'object') out.additional = transform(node.additional, rules);
      return out;
    }
    case 'union': {
      // Reached only when a variant changes (see `affected`).
      const variants = node.variants.map((v) => transform(v, rules));
      const out = { ...node, variants };
      // Disjointness was proven on the schemas as written; with members no longer required it
      // may no longer hold, so the variants are counted.
      if (node.mode === 'oneOf') out.exclusive = node.variants.length === 1;
      // The tag maps to variants by position, which the variants keep. That it alone selects
      // rests on every variant requiring it: that holds unless the tag itself is hidden here.
      const tag = node.discriminator?.propertyName;
      if (node.discriminator?.selects && node.variants.some((v) => hidesMember(v, tag!, rules, new Set()))) {
        const { selects: _proven, ...hint } = node.discriminator;
        out.discriminator = hint;
      }
      return out;
    }
    case 'intersection':
      return { ...node, parts: node.parts.map((p) => transform(p, rules)) };
    case 'json':
      // The runtime applies the rule to the raw schema; the shape gives the types.
      return { ...node, mode: { direction: rules.direction, refuse: rules.refuse }, shape: transform(node.shape, rules) };
    default:
      return node;
  }
}

function rulesFor(direction: Direction, options: DirectionOptions, components: Map<string, SchemaNode>, table: JsonSchemaTableIR | undefined): Rules {
  const refuse = direction === 'request' ? options.readOnlyInRequest === 'refuse' : options.writeOnlyInResponse !== 'accept';
  const flag = direction === 'request' ? 'readOnly' : 'writeOnly';
  // Asked at every level of the fixpoint below and of `transform`: each answer is kept.
  const hides = new Map<string, boolean>();
  const jsonHides = (pointer: string): boolean => {
    let answer = hides.get(pointer);
    if (answer === undefined) {
      answer = table ? tableHides(table.table, pointer, flag) : false;
      hides.set(pointer, answer);
    }
    return answer;
  };
  const rules: Rules = { direction, refuse, components, needs: new Map(), jsonHides };
  // A fixpoint over the component schemas: a schema needs a variant when it changes itself or
  // refers to one that does (through any number of references, cycles included).
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, node] of components) {
      if (rules.needs.get(name)) continue;
      if (affected(node, rules)) {
        rules.needs.set(name, true);
        changed = true;
      }
    }
  }
  return rules;
}


/** The raw schema at `pointer` in the runtime's table (keys are the roots of what it holds). */
function tableAt(table: Record<string, unknown>, pointer: string): unknown {
  // The longest key that leads to `pointer`: the pointer itself, then each shorter prefix that
  // ends before a `/` (looked up, rather than every key compared with the pointer).
  for (let end = pointer.length; end > 0; end = pointer.lastIndexOf('/', end - 1)) {
    const key = pointer.slice(0, end);
    if (Object.prototype.hasOwnProperty.call(table, key)) return resolvePointer(table[key], `#${pointer.slice(end)}`);
  }
  return undefined;
}

/** Whether any schema reached from `pointer` (subschemas and `$ref`s) declares a member with `flag`. */
function tableHides(table: Record<string, unknown>, pointer: string, flag: 'readOnly' | 'writeOnly'): boolean {
  const seen = new Set<string>();
  const visit = (at: string): boolean => {
    if (seen.has(at)) return false;
    seen.add(at);
    const raw = tableAt(table, at);
    if (!isRecord(raw)) return false;
    if (isRecord(raw['properties']) && Object.values(raw['properties']).some((p) => isRecord(p) && p[flag] === true)) return true;
    if (typeof raw['$ref'] === 'string' && visit(raw['$ref'])) return true;
    let found = false;
    forEachSubschema(raw, at, (_child, childAt) => {
      found ||= visit(childAt);
    });
    return found;
  };
  return visit(pointer);
}

/** Whether the rule applies to this document with these options. */
export function directionsApply(api: Pick<ApiIR, 'openapiVersion'>, options: DirectionOptions = {}): boolean {
  return !(schemaDialectOf(api.openapiVersion) === '3.1' && options.readWrite === 'json-schema');
}

/**
 * The IR with the direction rule applied: variants appended to `schemas` (marked `variantOf`),
 * and every request body (of operations; of webhooks, which the API sends) and response
 * schema replaced by its variant. Examples of bodies are checked against the same variants;
 * examples of a component schema that has variants, against it or either variant.
 * Returns the IR unchanged when nothing is readOnly or writeOnly.
 */
export function applyDirections(built: BuiltIR, options: DirectionOptions = {}): BuiltIR {
  const { api } = built;
  if (!directionsApply(api, options)) return built;
  const components = new Map(api.schemas.map((s) => [s.name, s.schema]));
  const replaced = new Map<SchemaNode, SchemaNode>();
  const variants: NamedSchema[] = [];
  const rewrite = (media: MediaTypeIR[], rules: Rules): MediaTypeIR[] =>
    media.map((m) => {
      // The whole body and, in a sequence (OpenAPI 3.2), each item take the direction's variant.
      let out = m;
      for (const key of ['schema', 'itemSchema'] as const) {
        const before = m[key];
        if (!before) continue;
        const after = transform(before, rules);
        if (after === before) continue;
        replaced.set(before, after);
        out = { ...out, [key]: after };
      }
      return out;
    });
  const byDirection = {} as Record<Direction, Rules>;
  for (const direction of ['request', 'response'] as const) {
    const rules = rulesFor(direction, options, components, api.jsonSchemas);
    byDirection[direction] = rules;
    for (const s of api.schemas) {
      if (!rules.needs.get(s.name)) continue;
      variants.push({
        name: variantName(s.name, direction),
        schema: transform(s.schema, rules),
        dependencies: [],
        recursive: false,
        examples: [],
        variantOf: { name: s.name, direction },
      });
    }
  }
  const entries = <T extends { requestBody?: ApiIR['operations'][number]['requestBody']; responses: ApiIR['operations'][number]['responses'] }>(op: T): T => {
    const out = { ...op };
    if (op.requestBody) out.requestBody = { ...op.requestBody, content: rewrite(op.requestBody.content, byDirection.request) };
    out.responses = op.responses.map((r) => ({ ...r, content: rewrite(r.content, byDirection.response) }));
    return out;
  };
  const operations = api.operations.map(entries);
  const webhooks = api.webhooks?.map(entries);
  if (variants.length === 0 && replaced.size === 0) return built;
  const schemas = [...api.schemas, ...variants];
  const nodes = new Map(schemas.map((s) => [s.name, s.schema]));
  const recursive = findRecursiveSchemas(nodes);
  for (const v of variants) {
    v.dependencies = [...referencedNames(v.schema)].filter((n) => nodes.has(n));
    v.recursive = recursive.has(v.name);
  }
  // An example of a component schema that changes by direction may show it in either: it
  // passes when it is valid as written, as a request carries it or as a response does.
  const componentOf = new Map(api.schemas.map((s) => [s.schema, s.name]));
  const eitherDirection = (name: string, pointer: string): SchemaNode => ({
    kind: 'union',
    mode: 'anyOf',
    exclusive: false,
    pointer,
    variants: [name, ...(['request', 'response'] as const).filter((d) => byDirection[d].needs.get(name)).map((d) => variantName(name, d))].map(
      (n): SchemaNode => ({ kind: 'ref', name: n, pointer }),
    ),
  });
  const examples: CheckedExample[] = built.examples.map((e) => {
    const schema = replaced.get(e.schema);
    if (schema) return { ...e, schema };
    const name = componentOf.get(e.schema);
    if (name !== undefined && (byDirection.request.needs.get(name) || byDirection.response.needs.get(name))) return { ...e, schema: eitherDirection(name, e.pointer) };
    return e;
  });
  return { ...built, api: { ...api, schemas, operations, ...(webhooks ? { webhooks } : {}) }, examples };
}
