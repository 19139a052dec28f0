import type { SchemaKind, SchemaNode } from '../../ir/types.js';
import { propertyKey } from '../shared/names.js';
import type { PrintContext } from './print-zod.js';

type TypePrinter<K extends SchemaKind> = (node: Extract<SchemaNode, { kind: K }>, ctx: PrintContext, indent: string) => string;

const INDENT = '  ';

function union(members: string[]): string {
  const unique = [...new Set(members)];
  return unique.length === 0 ? 'never' : unique.join(' | ');
}

/**
 * TypeScript types written out, for the schemas in a reference cycle: TypeScript cannot
 * infer a type that refers to itself, so those validators are annotated with these. They
 * describe what the zod schema outputs (defaults applied).
 */
const TYPE_PRINTERS: { [K in SchemaKind]: TypePrinter<K> } = {
  any: () => 'unknown',
  never: () => 'never',
  ref: (node, ctx) => ctx.names.get(node.name),
  string: (node) => (node.enum ? union(node.enum.map((v) => JSON.stringify(v))) : 'string'),
  number: (node) => (node.enum ? union(node.enum.map((v) => JSON.stringify(v))) : 'number'),
  boolean: (node) => (node.enum ? union(node.enum.map((v) => JSON.stringify(v))) : 'boolean'),
  null: () => 'null',
  literal: (node) => union(node.values.map((v) => JSON.stringify(v))),
  array: (node, ctx, indent) => `Array<${printType(node.items, ctx, indent)}>`,
  object: (node, ctx, indent) => {
    const inner = indent + INDENT;
    const members = node.properties.map((p) => {
      const optional = !p.required && !('default' in p.schema);
      return `${inner}${propertyKey(p.name)}${optional ? '?' : ''}: ${printType(p.schema, ctx, inner)}${optional ? ' | undefined' : ''};`;
    });
    if (node.additional === 'allow') members.push(`${inner}[key: string]: unknown;`);
    else if (node.additional !== 'forbid') members.push(`${inner}[key: string]: ${printType(node.additional, ctx, inner)};`);
    return members.length === 0 ? '{}' : `{\n${members.join('\n')}\n${indent}}`;
  },
  union: (node, ctx, indent) => union(node.variants.map((v) => printType(v, ctx, indent))),
  intersection: (node, ctx, indent) => node.parts.map((p) => `(${printType(p, ctx, indent)})`).join(' & '),
};

export function printType(node: SchemaNode, ctx: PrintContext, indent = ''): string {
  const printer = TYPE_PRINTERS[node.kind] as TypePrinter<typeof node.kind>;
  const out = printer(node as never, ctx, indent);
  return node.nullable && node.kind !== 'null' ? `${out} | null` : out;
}
