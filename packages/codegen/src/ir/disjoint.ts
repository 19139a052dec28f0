import type { SchemaNode } from './types.js';
import type { SchemaContext } from './schema-to-ir.js';
import { deref } from './deref.js';

type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';
const ALL_TYPES: JsonType[] = ['string', 'number', 'boolean', 'null', 'array', 'object'];

function typesOf(node: SchemaNode, ctx: SchemaContext, depth: number): Set<JsonType> {
  const out = new Set<JsonType>();
  const target = deref(node, ctx);
  if (!target || depth > 16) return new Set(ALL_TYPES);
  if (target.nullable) out.add('null');
  switch (target.kind) {
    case 'json':
      return typesOf(target.shape, ctx, depth + 1);
    case 'any':
    case 'intersection':
    case 'ref':
      return new Set(ALL_TYPES);
    case 'never':
      break;
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'array':
    case 'object':
      out.add(target.kind);
      break;
    case 'literal':
      for (const v of target.values) out.add(v === null ? 'null' : (typeof v as JsonType));
      break;
    case 'union':
      for (const v of target.variants) for (const t of typesOf(v, ctx, depth + 1)) out.add(t);
      break;
  }
  return out;
}

/** The finite set of values a node admits, or undefined when it is not finite and known. */
function finiteValues(node: SchemaNode): Array<string | number | boolean | null> | undefined {
  const extra = node.nullable ? [null] : [];
  if (node.kind === 'literal') return [...node.values, ...extra];
  if (node.kind === 'string' && node.enum) return [...node.enum, ...extra];
  if (node.kind === 'number' && node.enum) return [...node.enum, ...extra];
  if (node.kind === 'boolean' && node.enum) return [...node.enum, ...extra];
  if (node.kind === 'null') return [null];
  return undefined;
}

function requiredNames(node: Extract<SchemaNode, { kind: 'object' }>): Set<string> {
  const names = new Set(node.properties.filter((p) => p.required).map((p) => p.name));
  for (const name of node.requiredUndeclared ?? []) names.add(name);
  return names;
}

/**
 * True only when no value can match both schemas. Used to prove that a `oneOf` can never
 * match twice, so that it can be checked as a plain union (no counting at run time).
 * Conservative: false means "not proven", never "overlapping".
 */
export function provablyDisjoint(a: SchemaNode, b: SchemaNode, ctx: SchemaContext, depth = 0): boolean {
  if (depth > 8) return false;
  const x = deref(a, ctx);
  const y = deref(b, ctx);
  if (!x || !y) return false;
  if (x.kind === 'never' || y.kind === 'never') return true;

  const tx = typesOf(x, ctx, 0);
  const ty = typesOf(y, ctx, 0);
  // `number` covers integers: both map to 'number', so the check stays sound.
  if (![...tx].some((t) => ty.has(t))) return true;

  const vx = finiteValues(x);
  const vy = finiteValues(y);
  if (vx && vy) return !vx.some((v) => vy.includes(v));
  if (x.nullable && y.nullable) return false;

  if (x.kind === 'union') return x.variants.every((v) => provablyDisjoint(v, y, ctx, depth + 1));
  if (y.kind === 'union') return y.variants.every((v) => provablyDisjoint(x, v, ctx, depth + 1));

  if (x.kind === 'object' && y.kind === 'object') {
    const rx = requiredNames(x);
    const ry = requiredNames(y);
    for (const name of rx) {
      // A closed object that does not declare a member the other requires cannot hold it.
      if (y.additional === 'forbid' && !y.properties.some((p) => p.name === name)) return true;
      if (ry.has(name)) {
        const px = x.properties.find((p) => p.name === name);
        const py = y.properties.find((p) => p.name === name);
        if (px && py && provablyDisjoint(px.schema, py.schema, ctx, depth + 1)) return true;
      }
    }
    for (const name of ry) {
      if (x.additional === 'forbid' && !x.properties.some((p) => p.name === name)) return true;
    }
  }
  return false;
}
