import type { SchemaKind, SchemaNode } from '../../ir/types.js';
import { propertyKey } from '../shared/names.js';
import { docComment, isRecord, type PrintContext } from './print-zod.js';

/**
 * `output`: what a validator returns (defaults filled in). `input`: what it accepts
 * (members with a default may be absent).
 */
export type TypeMode = 'output' | 'input';

export interface TypeContext extends PrintContext {
  mode: TypeMode;
  /** Identifier of the input type of each schema whose input differs from its output. */
  inputTypeNames: ReadonlyMap<string, string>;
  /** Writers of JSON bodies written out in an operation, by schema node (print-writer.ts). */
  bodyWriters?: ReadonlyMap<SchemaNode, { id: string }>;
}

type TypePrinter<K extends SchemaKind> = (node: Extract<SchemaNode, { kind: K }>, ctx: TypeContext, indent: string) => string;

const INDENT = '  ';

function union(members: string[]): string {
  const unique = [...new Set(members)];
  return unique.length === 0 ? 'never' : unique.join(' | ');
}

function literals(values: ReadonlyArray<string | number | boolean | null>): string {
  return union(values.map((v) => JSON.stringify(v)));
}

/** Wraps a union member list so that `| null` or `[]` bind to all of it. */
function group(type: string): string {
  return /^[\w$.]+$|^\{[\s\S]*\}$|^Array<[\s\S]*>$|^"[^"]*"$/.test(type) ? type : `(${type})`;
}

const TYPE_PRINTERS: { [K in SchemaKind]: TypePrinter<K> } = {
  any: () => 'unknown',
  never: () => 'never',
  ref: (node, ctx) => (ctx.mode === 'input' ? ctx.inputTypeNames.get(node.name) : undefined) ?? ctx.names.get(node.name),
  string: (node) => (node.enum ? literals(node.enum) : 'string'),
  number: (node) => (node.enum ? literals(node.enum) : 'number'),
  boolean: (node) => (node.enum && node.enum.length === 1 ? literals(node.enum) : 'boolean'),
  null: () => 'null',
  literal: (node) => literals(node.values),
  array: (node, ctx, indent) => {
    if (!node.tuple) return `Array<${printType(node.items, ctx, indent)}>`;
    // A tuple as wide as prefixItems: items past `minItems` may be missing.
    const { prefix, present } = node.tuple;
    // An optional element binds `?` to the whole type: `(string | null)?`, not `string | null?`.
    const positional = prefix.map((p, i) => (i < present ? printType(p, ctx, indent) : `${group(printType(p, ctx, indent))}?`));
    const rest = node.items.kind === 'never' ? [] : [`...Array<${printType(node.items, ctx, indent)}>`];
    return `[${[...positional, ...rest].join(', ')}]`;
  },
  object: (node, ctx, indent) => {
    if (isRecord(node)) return `{ [key: string]: ${printType(node.additional, ctx, indent)} }`;
    const inner = indent + INDENT;
    const members = node.properties.map((p) => {
      // A default makes the member optional going in, and always present coming out.
      const optional = !p.required && (ctx.mode === 'input' || !('default' in p.schema));
      // The member's description and deprecation, as on the zod object, so editors show them.
      const doc = docComment(p.schema.description, inner, p.schema.deprecated);
      return `${doc}${inner}${propertyKey(p.name)}${optional ? '?' : ''}: ${printType(p.schema, ctx, inner)}${optional ? ' | undefined' : ''};`;
    });
    if (node.additional === 'allow') members.push(`${inner}[key: string]: unknown;`);
    const shape = members.length === 0 ? '{}' : `{\n${members.join('\n')}\n${indent}}`;
    // Extra members of their own schema: an intersection, as zod's catchall types it.
    if (typeof node.additional === 'object') return `${shape} & { [key: string]: ${printType(node.additional, ctx, indent)} }`;
    return node.additional === 'forbid' && members.length === 0 ? 'Record<string, never>' : shape;
  },
  // Every variant as the schema gives it, whatever the discriminator: a tagged union exactly
  // where each variant pins its tag (then its own type holds the tag's literal), never narrower.
  union: (node, ctx, indent) => union(node.variants.map((v) => printType(v, ctx, indent))),
  intersection: (node, ctx, indent) => node.parts.map((p) => group(printType(p, ctx, indent))).join(' & '),
  json: (node, ctx, indent) => printType(node.shape, ctx, indent),
};

/**
 * TypeScript types written out from the IR. Validators are declared with these types rather
 * than with what TypeScript would infer from the zod expressions: inferring hundreds of
 * schemas is what makes generated zod slow in an editor.
 */
export function printType(node: SchemaNode, ctx: TypeContext, indent = ''): string {
  const printer = TYPE_PRINTERS[node.kind] as TypePrinter<typeof node.kind>;
  const out = printer(node as never, ctx, indent);
  return node.nullable && node.kind !== 'null' ? `${group(out)} | null` : out;
}

/** Whether a node's input type differs from its output type (it holds a default somewhere). */
export function inputDiffers(node: SchemaNode, differs: (name: string) => boolean): boolean {
  switch (node.kind) {
    case 'ref':
      return differs(node.name);
    case 'array':
      return inputDiffers(node.items, differs);
    case 'object':
      return (
        node.properties.some((p) => (!p.required && 'default' in p.schema) || inputDiffers(p.schema, differs)) ||
        (typeof node.additional === 'object' && inputDiffers(node.additional, differs))
      );
    case 'union':
      return node.variants.some((v) => inputDiffers(v, differs));
    case 'intersection':
      return node.parts.some((p) => inputDiffers(p, differs));
    default:
      return false;
  }
}
