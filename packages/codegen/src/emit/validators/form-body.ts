/**
 * Form bodies in operations.gen.ts: the `encoding` data both runtimes read (how each member of
 * an `application/x-www-form-urlencoded` or `multipart/form-data` body travels), and the file
 * members of a multipart body, which the schema types as files instead of strings.
 */
import { isMultipartMediaType } from '../../ir/form-encoding.js';
import { propertyKey } from '../shared/names.js';
import type { FormFieldIR, MediaTypeIR, ObjectNode, SchemaNode } from '../../ir/types.js';

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
    if (field.type === 'file') out[name] = 'one';
    else if (field.type === 'array' && field.items?.type === 'file') out[name] = 'many';
  }
  return out;
}

/**
 * The body schema with its file members accepting any value (`rt.withFiles` checks them as
 * files): the spec types a file as `string`, which neither a `Blob` nor an uploaded file is.
 * A schema that is not an object (through references) is replaced by a loose object.
 */
export function withoutFileTypes(schema: SchemaNode, files: FileMembers, components: ReadonlyMap<string, SchemaNode>): SchemaNode {
  let target: SchemaNode = schema;
  for (let hops = 0; target.kind === 'ref' && hops < 32; hops++) target = components.get(target.name) ?? { kind: 'any', pointer: target.pointer };
  const object: ObjectNode =
    target.kind === 'object' ? target : { kind: 'object', properties: [], additional: 'allow', pointer: schema.pointer };
  return {
    ...object,
    properties: object.properties.map((p) => (p.name in files ? { ...p, schema: { kind: 'any', pointer: p.schema.pointer } } : p)),
  };
}
