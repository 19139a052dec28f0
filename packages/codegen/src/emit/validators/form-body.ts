/**
 * Form bodies in operations.gen.ts: the `encoding` data both runtimes read (how each member of
 * an `application/x-www-form-urlencoded` or `multipart/form-data` body travels), and the file
 * members of a multipart body, which the schema types as files instead of strings.
 */
import { isMultipartMediaType, setMember } from '../../ir/form-encoding.js';
import { propertyKey } from '../shared/names.js';
import { derefKind } from '../../ir/deref-kind.js';
import type { FormFieldIR, MediaTypeIR, SchemaNode } from '../../ir/types.js';

/** `one`: a single file; `many`: a list of files. */
export type FileMembers = Record<string, 'one' | 'many'>;

/**
 * The `encoding` member of a request body: per form media type, its members' layout. Undefined
 * when no media type is a form of an object (then the body object is printed as before).
 */
export function encodingLiteral(content: readonly MediaTypeIR[], indent: string): string | undefined {
  const forms = content.filter((m): m is MediaTypeIR & { form: Record<string, FormFieldIR> } => m.form !== undefined);
  if (forms.length === 0) return undefined;
  const inner = `${indent}  `;
  const entries = forms.map((m) => {
    const members = Object.entries(m.form).map(([name, field]) => `${inner}  ${literalKey(name)}: ${inlineLiteral(field)},`);
    return `${inner}${JSON.stringify(m.contentType)}: {\n${members.join('\n')}\n${inner}},`;
  });
  return `{\n${entries.join('\n')}\n${indent}}`;
}

/** A member name in an object literal; `__proto__` computed, or it would set the prototype. */
function literalKey(name: string): string {
  return name === '__proto__' ? '["__proto__"]' : propertyKey(name);
}

/** A value as a one-line object literal: `{ type: "array", items: { type: "file" } }`. */
export function inlineLiteral(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const members = Object.entries(value as Record<string, unknown>).map(([key, member]) => `${literalKey(key)}: ${inlineLiteral(member)}`);
  return members.length === 0 ? '{}' : `{ ${members.join(', ')} }`;
}

/** The members of a multipart body that are files (or lists of files). */
export function fileMembers(media: MediaTypeIR): FileMembers {
  const out: FileMembers = {};
  if (!isMultipartMediaType(media.contentType) || !media.form) return out;
  for (const [name, field] of Object.entries(media.form)) {
    if (field.type === 'file') setMember(out, name, 'one');
    else if (field.type === 'array' && field.items?.type === 'file') setMember(out, name, 'many');
  }
  return out;
}

/**
 * The body schema with its file members accepting any value (`rt.withFiles` checks them as
 * files): the spec types a file as `string`, which neither a `Blob` nor an uploaded file is.
 * Every object the body can be (the variants of a union, the parts of an `allOf`) keeps its
 * other members' checks. A schema the JSON Schema runtime reads is checked by its shape (types
 * and required members, not bounds such as `minLength`): that runtime would refuse a file
 * where the spec says `string`, and an unchecked body is worse than a wider check.
 * A schema that is no object at all (through references) is replaced by a loose object.
 */
export function withoutFileTypes(schema: SchemaNode, files: FileMembers, components: ReadonlyMap<string, SchemaNode>, depth = 0): SchemaNode {
  const target = derefKind(schema, components);
  if (depth > 8) return target;
  const inner = (node: SchemaNode): SchemaNode => withoutFileTypes(node, files, components, depth + 1);
  switch (target.kind) {
    case 'object':
      return { ...target, properties: target.properties.map((p) => (Object.hasOwn(files, p.name) ? { ...p, schema: { kind: 'any', pointer: p.schema.pointer } } : p)) };
    case 'union':
      // A variant may have been told apart from the others by its file member alone: count matches again.
      return { ...target, variants: target.variants.map(inner), exclusive: false };
    case 'intersection':
      return { ...target, parts: target.parts.map(inner) };
    default:
      return { kind: 'object', properties: [], additional: 'allow', pointer: schema.pointer };
  }
}
