/**
 * The TypeScript shape of a schema the JSON Schema runtime validates: a node at least as wide
 * as the schema, never narrower. Keywords that only narrow (`not`, `if`, `patternProperties`,
 * `unevaluatedProperties`, bounds) leave the shape alone; `type`, `properties`, `required`,
 * `items`, `prefixItems`, `enum`, `const` and the applicators give it its form.
 */
import type { JsonPointer, ObjectNode, PropertyIR, SchemaNode } from './types.js';
import { escapePointerToken, isRecord, resolvePointer } from './json-pointer.js';
import { componentNameOf } from './schema-to-ir.js';
import type { JsonSchemaScope } from './json-schema-table.js';

const MAX_DEPTH = 12;

type Primitive = string | number | boolean | null;

function isPrimitive(value: unknown): value is Primitive {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function typeFits(type: string, value: Primitive): boolean {
  if (value === null) return type === 'null';
  if (type === 'integer') return typeof value === 'number' && Number.isInteger(value);
  return typeof value === type;
}

export function jsonShape(raw: unknown, pointer: JsonPointer, scope: JsonSchemaScope, depth = 0): SchemaNode {
  if (raw === false) return { kind: 'never', pointer };
  if (!isRecord(raw) || depth > MAX_DEPTH) return { kind: 'any', pointer };
  const ref = raw['$ref'];
  if (typeof ref === 'string') {
    const name = componentNameOf(ref);
    if (name !== undefined && resolvePointer(scope.document, ref) !== undefined) return { kind: 'ref', name, pointer };
    const target = scope.resolve(ref, pointer).pointer;
    // A reference that leads back to where it started is as wide as anything.
    if (target === undefined || target === pointer) return { kind: 'any', pointer };
    return jsonShape(resolvePointer(scope.document, target), target, scope, depth + 1);
  }

  const declared = raw['type'];
  let types = typeof declared === 'string' ? [declared] : Array.isArray(declared) ? declared.filter((t): t is string => typeof t === 'string') : undefined;
  if (types && scope.dialect === '3.0' && raw['nullable'] === true) types = [...types, 'null'];

  const values = 'const' in raw && scope.dialect === '3.1' ? [raw['const']] : Array.isArray(raw['enum']) ? (raw['enum'] as unknown[]) : undefined;
  if (values && values.every(isPrimitive)) {
    const kept = types ? values.filter((v) => types!.some((t) => typeFits(t, v))) : values;
    return { kind: 'literal', values: [...new Set(kept)], pointer };
  }

  if (types) {
    const nodes = types.map((type) => typeShape(type, raw, pointer, scope, depth));
    return nodes.length === 1 ? nodes[0]! : { kind: 'union', mode: 'anyOf', variants: nodes, exclusive: true, pointer };
  }
  for (const mode of ['anyOf', 'oneOf'] as const) {
    const list = raw[mode];
    if (Array.isArray(list) && list.length > 0) {
      const variants = list.map((child, i) => jsonShape(child, `${pointer}/${mode}/${i}`, scope, depth + 1));
      if (variants.some((v) => v.kind === 'any')) return { kind: 'any', pointer };
      return { kind: 'union', mode: 'anyOf', variants, exclusive: true, pointer };
    }
  }
  const parts = Array.isArray(raw['allOf']) ? raw['allOf'].map((child, i) => jsonShape(child, `${pointer}/allOf/${i}`, scope, depth + 1)).filter((p) => p.kind !== 'any') : [];
  if (parts.length === 1) return parts[0]!;
  if (parts.length > 1) return { kind: 'intersection', parts, pointer };
  return { kind: 'any', pointer };
}

function typeShape(type: string, raw: Record<string, unknown>, pointer: JsonPointer, scope: JsonSchemaScope, depth: number): SchemaNode {
  switch (type) {
    case 'string':
      return { kind: 'string', pointer };
    case 'number':
      return { kind: 'number', integer: false, pointer };
    case 'integer':
      return { kind: 'number', integer: true, pointer };
    case 'boolean':
      return { kind: 'boolean', pointer };
    case 'null':
      return { kind: 'null', pointer };
    case 'array': {
      // prefixItems (3.1), or draft 4's array form of items followed by additionalItems (3.0).
      const [prefixKey, restKey] = scope.dialect === '3.1' ? ['prefixItems', 'items'] : ['items', 'additionalItems'];
      const prefix = Array.isArray(raw[prefixKey]) ? (raw[prefixKey] as unknown[]) : undefined;
      if (!prefix) {
        const items = 'items' in raw ? jsonShape(raw['items'], `${pointer}/items`, scope, depth + 1) : ({ kind: 'any', pointer } as SchemaNode);
        return { kind: 'array', items, pointer };
      }
      const shapes = prefix.map((child, i) => jsonShape(child, `${pointer}/${prefixKey}/${i}`, scope, depth + 1));
      const items = restKey in raw ? jsonShape(raw[restKey], `${pointer}/${restKey}`, scope, depth + 1) : ({ kind: 'any', pointer } as SchemaNode);
      const minItems = typeof raw['minItems'] === 'number' ? raw['minItems'] : 0;
      return { kind: 'array', items, tuple: { prefix: shapes, present: Math.min(minItems, shapes.length) }, pointer };
    }
    case 'object': {
      const required = new Set(Array.isArray(raw['required']) ? raw['required'].filter((r): r is string => typeof r === 'string') : []);
      const declared = isRecord(raw['properties']) ? raw['properties'] : {};
      const properties: PropertyIR[] = Object.entries(declared).map(([name, child]) => {
        const schema = jsonShape(child, `${pointer}/properties/${escapePointerToken(name)}`, scope, depth + 1);
        // Kept for readOnly and writeOnly by direction (ir/direction.ts), as on other nodes.
        if (isRecord(child) && child['readOnly'] === true) schema.readOnly = true;
        if (isRecord(child) && child['writeOnly'] === true) schema.writeOnly = true;
        return { name, schema, required: required.has(name) };
      });
      const node: ObjectNode = { kind: 'object', properties, additional: 'allow', pointer };
      return node;
    }
    default:
      return { kind: 'never', pointer };
  }
}
