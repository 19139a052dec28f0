import type { SchemaKind, SchemaNode } from '../../ir/types.js';
import { propertyKey } from '../shared/names.js';
import { enumValuesSatisfying, isRecord } from './print-zod.js';
import { printType, type TypeContext } from './print-ts-type.js';
import { hasHint, unionForm } from './union-form.js';

/**
 * The zod type of each schema, as `print-zod.ts` builds it: `zod.ZodObject<{ ...shape },
 * zod.core.$strict>` for a closed object, `zod.ZodEnum<...>` for an enum, `zod.ZodArray<...>`,
 * `zod.ZodUnion<readonly [...]>` and so on, so that what a zod user writes (`.extend`, `.pick`,
 * `.shape.X`, `.options`, `.element`) type-checks. Members that are other component schemas
 * are `typeof <Name>`. What has no zod class of its own (the counted `oneOf`, the
 * discriminated dispatch, anything in a reference cycle) is `zod.ZodType<output, input>` with
 * the written-out types.
 *
 * Every printer here must give the type zod's builders return for the expression its twin in
 * `print-zod.ts` prints: `types-match.test.ts` proves, per schema, that the declared output
 * equals what zod infers from the expression itself.
 */
/**
 * The first lines of schemas.gen.ts. Its builders go through an untyped handle, so checking the
 * file checks little but the declared zod types' own constraints (each member of a shape
 * against zod's `$ZodType`, class by class): that doubled what type-checking the validators
 * cost, in every build and editor. Importers see the declared types all the same, and
 * `types-match.test.ts` checks the file in full, with zod's types put back.
 */
export const SCHEMAS_NO_CHECK =
  "// @ts-nocheck\n// (Declared with zod's types, built through an untyped handle: checked in full by the generator's\n// tests, with zod's types put back. Checking it here would only cost every build and editor.)\n";

type ZodTypePrinter<K extends SchemaKind> = (node: Extract<SchemaNode, { kind: K }>, ctx: ZodTypeContext, indent: string) => string;

export interface ZodTypeContext {
  output: TypeContext;
  input: TypeContext;
}

const INDENT = '  ';

/** `zod.ZodType<output, input>` with the written-out types of the node. */
function declaredType(node: SchemaNode, ctx: ZodTypeContext, indent: string): string {
  return `zod.ZodType<${printType(node, ctx.output, indent)}, ${printType(node, ctx.input, indent)}>`;
}

function literalType(values: ReadonlyArray<string | number | boolean | null>): string {
  if (values.length === 0) return 'zod.ZodNever';
  return `zod.ZodLiteral<${[...new Set(values.map((v) => JSON.stringify(v)))].join(' | ')}>`;
}

const ZOD_TYPE_PRINTERS: { [K in SchemaKind]: ZodTypePrinter<K> } = {
  any: () => 'zod.ZodUnknown',
  never: () => 'zod.ZodNever',
  null: () => 'zod.ZodNull',
  ref: (node, ctx) => {
    const id = ctx.output.names.get(node.name);
    return ctx.output.recursive.has(node.name) ? `zod.ZodLazy<typeof ${id}>` : `typeof ${id}`;
  },
  string: (node) => {
    if (!node.enum) return 'zod.ZodString';
    const values = enumValuesSatisfying(node);
    if (values.length === 0) return 'zod.ZodNever';
    return `zod.ZodEnum<{ ${values.map((v) => `${JSON.stringify(v)}: ${JSON.stringify(v)}`).join('; ')} }>`;
  },
  number: (node) => {
    if (node.enum) return literalType(node.enum);
    return node.integer && node.format === 'int32' ? 'zod.ZodInt32' : 'zod.ZodNumber';
  },
  boolean: (node) => (node.enum && node.enum.length === 1 ? literalType(node.enum) : 'zod.ZodBoolean'),
  literal: (node) => literalType(node.values),
  array: (node, ctx, indent) => `zod.ZodArray<${printZodType(node.items, ctx, indent)}>`,
  object: (node, ctx, indent) => {
    if (isRecord(node)) return `zod.ZodRecord<zod.ZodString, ${printZodType(node.additional, ctx, indent)}>`;
    const inner = indent + INDENT;
    const members = node.properties.map((p) => {
      let member = printZodType(p.schema, ctx, inner);
      if (!p.required) member = 'default' in p.schema ? `zod.ZodDefault<${member}>` : `zod.ZodOptional<${member}>`;
      return `${inner}${propertyKey(p.name)}: ${member};`;
    });
    const shape = members.length === 0 ? '{}' : `{\n${members.join('\n')}\n${indent}}`;
    const config =
      node.additional === 'forbid' ? 'zod.core.$strict' : node.additional === 'allow' ? 'zod.core.$loose' : `zod.core.$catchall<${printZodType(node.additional, ctx, indent)}>`;
    return `zod.ZodObject<${shape}, ${config}>`;
  },
  union: (node, ctx, indent) => {
    const form = unionForm(node);
    if (form === 'single') return printZodType(node.variants[0]!, ctx, indent);
    // The counted oneOf, the dispatch on a tag and the hinted anyOf are runtime functions, not zod classes.
    if (form !== 'union' || hasHint(node)) return declaredType({ ...node, nullable: false }, ctx, indent);
    const inner = indent + INDENT;
    return `zod.ZodUnion<readonly [\n${node.variants.map((v) => `${inner}${printZodType(v, ctx, inner)},`).join('\n')}\n${indent}]>`;
  },
  // The runtime's schema checks and returns the value as it is: output and input are its shape.
  json: (node, ctx, indent) => `zod.ZodType<${printType(node.shape, ctx.output, indent)}, ${printType(node.shape, ctx.input, indent)}>`,
  intersection: (node, ctx, indent) => {
    const [first, ...rest] = node.parts.map((p) => printZodType(p, ctx, indent));
    return rest.reduce((acc, part) => `zod.ZodIntersection<${acc}, ${part}>`, first ?? 'zod.ZodUnknown');
  },
};

/** The zod type of the expression `printSchema` prints for the node. */
export function printZodType(node: SchemaNode, ctx: ZodTypeContext, indent = ''): string {
  const printer = ZOD_TYPE_PRINTERS[node.kind] as ZodTypePrinter<typeof node.kind>;
  const out = printer(node as never, ctx, indent);
  return node.nullable && node.kind !== 'null' ? `zod.ZodNullable<${out}>` : out;
}

/**
 * `export const <name>: { readonly <key>: typeof <ref>; ... } = { <key>: <ref>, ... };`: a map
 * of exports typed by reference, so that its declaration (`.d.ts`) names each member's type
 * instead of spelling out every schema's zod type a second time (what `as const` gave).
 */
export function referenceMap(name: string, entries: ReadonlyArray<readonly [key: string, ref: string]>): string {
  if (entries.length === 0) return `export const ${name} = {} as const;`;
  const type = entries.map(([key, ref]) => `  readonly ${key}: typeof ${ref};`).join('\n');
  const value = entries.map(([key, ref]) => `  ${key}: ${ref},`).join('\n');
  return `export const ${name}: {\n${type}\n} = {\n${value}\n};`;
}

/**
 * A schema an operation holds, typed `ZodType<output, input>` as the server stubs and the
 * client constrain it: relating that to their constraints is immediate, where a zod class
 * would be compared member by member (for every operation of every spec). A component
 * schema by name is cast to its written-out types; anything else goes through `rt.declared`.
 */
export function heldSchema(node: SchemaNode, expression: string, ctx: TypeContext): string {
  if (node.kind !== 'ref' || node.nullable || !/^[A-Za-z_$][\w$]*$/.test(expression)) return `rt.declared(${expression})`;
  const output = printType(node, { ...ctx, mode: 'output' });
  const input = printType(node, { ...ctx, mode: 'input' });
  return `${expression} as unknown as z.ZodType<${output}, ${input}>`;
}

/**
 * What operations.gen.ts imports from schemas.gen.ts: the schemas (values, and their
 * written-out types by the same name) and the input types its source names.
 */
export function operationImports(
  schemas: ReadonlyArray<{ name: string }>,
  names: { get(name: string): string },
  inputTypeNames: ReadonlyMap<string, string>,
  used: ReadonlySet<string>,
): string[] {
  return schemas.flatMap((s) => {
    const id = names.get(s.name);
    const inputId = inputTypeNames.get(s.name);
    return [...(used.has(id) ? [id] : []), ...(inputId && used.has(inputId) ? [`type ${inputId}`] : [])];
  });
}
