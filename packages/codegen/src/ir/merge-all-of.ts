import type { Diagnostic, JsonPointer, NumberNode, ObjectNode, PropertyIR, SchemaMeta, SchemaNode, StringNode, UnionNode } from './types.js';
import type { SchemaContext } from './schema-to-ir.js';
import { deref } from './deref.js';
import { provablyDisjoint } from './disjoint.js';

function isUnconstrained(node: SchemaNode): boolean {
  return node.kind === 'any' && !node.nullable;
}

function withMeta(node: SchemaNode, meta: SchemaMeta): SchemaNode {
  const out: SchemaNode = { ...node };
  if (meta.description !== undefined) out.description = meta.description;
  if (meta.deprecated) out.deprecated = true;
  if (meta.readOnly) out.readOnly = true;
  if (meta.writeOnly) out.writeOnly = true;
  if ('default' in meta) out.default = meta.default;
  if (meta.nullable) out.nullable = true;
  return out;
}

/**
 * The warning for an `allOf` given the lenient reading of a closed branch, wherever it is read
 * so: merged here, or in the JSON Schema runtime's table (build-ir.ts).
 */
export function allOfClosedReading(pointer: JsonPointer): Diagnostic {
  return {
    severity: 'warning',
    code: 'all-of-closed-reading',
    pointer,
    message:
      'additionalProperties: false in an allOf branch is read as unevaluatedProperties: false (the lenient reading): members the other branches declare are allowed; read exactly, they would be rejected',
  };
}

function isObjectUnion(node: SchemaNode, ctx: SchemaContext): node is UnionNode {
  return node.kind === 'union' && node.variants.every((v) => deref(v, ctx)?.kind === 'object');
}

/**
 * `allOf` as one schema.
 *
 * Objects are merged into a single object. `additionalProperties: false` inside a branch
 * is read as "no members beyond those the whole allOf declares" (the meaning of
 * `unevaluatedProperties: false`): read literally it would reject every real signed
 * payload, whose claims are declared by the other branch. This is the one deliberate
 * departure from draft-4 semantics and is written down in the README.
 */
export function mergeAllOf(rawParts: SchemaNode[], meta: SchemaMeta, ctx: SchemaContext): SchemaNode {
  const parts = rawParts.filter((p) => !isUnconstrained(p));
  if (parts.length === 0) return { ...meta, kind: 'any' };
  if (parts.length === 1) return withMeta(parts[0]!, meta);

  const resolved: SchemaNode[] = [];
  for (const part of parts) {
    const target = deref(part, ctx);
    if (!target) return intersection(parts, meta, ctx, 'a recursive reference');
    if (target.kind === 'intersection') resolved.push(...target.parts.map((p) => deref(p, ctx) ?? p));
    else resolved.push(target);
  }
  const allNullable = resolved.every((r) => r.nullable);
  const base = { ...meta, nullable: meta.nullable || allNullable || undefined };
  if (!base.nullable) delete base.nullable;

  if (resolved.every((r) => r.kind === 'object')) {
    return mergeObjects(resolved as ObjectNode[], base, ctx);
  }
  const unions = resolved.filter((r) => isObjectUnion(r, ctx)) as UnionNode[];
  const objects = resolved.filter((r) => r.kind === 'object') as ObjectNode[];
  if (unions.length === 1 && objects.length + 1 === resolved.length) {
    // allOf [A, oneOf [B, C]] is oneOf [A+B, A+C]: distribute so each variant is one closed object.
    const union = unions[0]!;
    const variants = union.variants.map((v) => mergeObjects([...objects, deref(v, ctx) as ObjectNode], { pointer: v.pointer }, ctx));
    const distributed: UnionNode = { ...base, kind: 'union', mode: union.mode, variants, exclusive: false };
    distributed.exclusive = variants.every((v, i) => variants.every((w, j) => j <= i || provablyDisjoint(v, w, ctx)));
    return distributed;
  }
  if (resolved.every((r) => r.kind === 'string')) return mergeStrings(resolved as StringNode[], base);
  if (resolved.every((r) => r.kind === 'number')) return mergeNumbers(resolved as NumberNode[], base);
  return intersection(parts, meta, ctx, undefined);
}

function intersection(parts: SchemaNode[], meta: SchemaMeta, ctx: SchemaContext, why: string | undefined): SchemaNode {
  const closed = parts.some((p) => {
    const t = deref(p, ctx);
    return t?.kind === 'object' && t.additional === 'forbid';
  });
  if (closed || why) {
    ctx.diagnostics.push({
      severity: closed ? 'error' : 'warning',
      code: 'unmergeable-all-of',
      pointer: meta.pointer,
      message: `allOf could not be merged into one schema${why ? ` (${why})` : ''}; it is checked as an intersection${
        closed ? ', where a branch with additionalProperties: false rejects the members of the others' : ''
      }`,
    });
  }
  return { ...meta, kind: 'intersection', parts };
}

function sameSchema(a: SchemaNode, b: SchemaNode): boolean {
  return JSON.stringify(stripMeta(a)) === JSON.stringify(stripMeta(b));
}

function stripMeta(node: SchemaNode): unknown {
  return JSON.parse(
    JSON.stringify(node, (key, value: unknown) => (key === 'pointer' || key === 'description' || key === 'annotatedFormat' ? undefined : value)),
  );
}

export function mergeObjects(objects: ObjectNode[], meta: SchemaMeta, ctx: SchemaContext): ObjectNode {
  const byName = new Map<string, PropertyIR>();
  const order: string[] = [];
  let additional: ObjectNode['additional'] = 'allow';
  const additionalSchemas: SchemaNode[] = [];
  let minProperties: number | undefined;
  let maxProperties: number | undefined;
  const requiredUndeclared = new Set<string>();

  for (const object of objects) {
    for (const property of object.properties) {
      const existing = byName.get(property.name);
      if (!existing) {
        byName.set(property.name, { ...property });
        order.push(property.name);
        continue;
      }
      existing.required ||= property.required;
      if (!sameSchema(existing.schema, property.schema)) {
        existing.schema = mergeAllOf([existing.schema, property.schema], { pointer: property.schema.pointer }, ctx);
      }
    }
    for (const name of object.requiredUndeclared ?? []) requiredUndeclared.add(name);
    if (object.additional === 'forbid') additional = 'forbid';
    else if (object.additional !== 'allow') additionalSchemas.push(object.additional);
    if (object.minProperties !== undefined) minProperties = Math.max(minProperties ?? 0, object.minProperties);
    if (object.maxProperties !== undefined) maxProperties = Math.min(maxProperties ?? Infinity, object.maxProperties);
  }
  for (const name of requiredUndeclared) {
    const declared = byName.get(name);
    if (declared) {
      declared.required = true;
      requiredUndeclared.delete(name);
    }
  }
  const closedBranch = objects.find((o) => o.additional === 'forbid' && [...byName.keys()].some((n) => !o.properties.some((p) => p.name === n)));
  if (closedBranch && objects.length > 1) ctx.diagnostics.push(allOfClosedReading(meta.pointer));
  if (additional !== 'forbid' && additionalSchemas.length > 0) {
    additional = additionalSchemas.length === 1 ? additionalSchemas[0]! : mergeAllOf(additionalSchemas, { pointer: meta.pointer }, ctx);
  }
  const node: ObjectNode = { ...meta, kind: 'object', properties: order.map((n) => byName.get(n)!), additional };
  if (requiredUndeclared.size > 0) node.requiredUndeclared = [...requiredUndeclared];
  if (minProperties !== undefined) node.minProperties = minProperties;
  if (maxProperties !== undefined) node.maxProperties = maxProperties;
  return node;
}

function mergeStrings(strings: StringNode[], meta: SchemaMeta): SchemaNode {
  const node: StringNode = { ...meta, kind: 'string' };
  for (const s of strings) {
    if (s.minLength !== undefined) node.minLength = Math.max(node.minLength ?? 0, s.minLength);
    if (s.maxLength !== undefined) node.maxLength = Math.min(node.maxLength ?? Infinity, s.maxLength);
    if (s.patterns) node.patterns = [...(node.patterns ?? []), ...s.patterns.filter((p) => !node.patterns?.includes(p))];
    if (s.format) {
      if (node.format && node.format !== s.format) return { ...meta, kind: 'intersection', parts: strings };
      node.format = s.format;
    }
    if (s.enum) node.enum = node.enum ? node.enum.filter((v) => s.enum!.includes(v)) : [...s.enum];
  }
  return node;
}

function mergeNumbers(numbers: NumberNode[], meta: SchemaMeta): SchemaNode {
  const node: NumberNode = { ...meta, kind: 'number', integer: numbers.some((n) => n.integer) };
  for (const n of numbers) {
    if (n.format && !node.format) node.format = n.format;
    if (n.minimum !== undefined) node.minimum = Math.max(node.minimum ?? -Infinity, n.minimum);
    if (n.maximum !== undefined) node.maximum = Math.min(node.maximum ?? Infinity, n.maximum);
    if (n.exclusiveMinimum !== undefined) node.exclusiveMinimum = Math.max(node.exclusiveMinimum ?? -Infinity, n.exclusiveMinimum);
    if (n.exclusiveMaximum !== undefined) node.exclusiveMaximum = Math.min(node.exclusiveMaximum ?? Infinity, n.exclusiveMaximum);
    if (n.multipleOf !== undefined) {
      if (node.multipleOf !== undefined && node.multipleOf !== n.multipleOf) return { ...meta, kind: 'intersection', parts: numbers };
      node.multipleOf = n.multipleOf;
    }
    if (n.enum) node.enum = node.enum ? node.enum.filter((v) => n.enum!.includes(v)) : [...n.enum];
  }
  return node;
}
