import type {
  AnyNode,
  ArrayNode,
  BooleanNode,
  IntersectionNode,
  JsonSchemaNode,
  LiteralNode,
  NeverNode,
  NullNode,
  NumberNode,
  ObjectNode,
  RefNode,
  SchemaKind,
  SchemaNode,
  StringNode,
  UnionNode,
} from '../../ir/types.js';
import type { NameResolver } from '../shared/names.js';
import { propertyKey } from '../shared/names.js';
import { hasHint, sortedEntries, unionForm } from './union-form.js';
import { patternRoute, patternTester } from '../../ir/pattern-route.js';

/** What a printer needs to know besides the node. */
export interface PrintContext {
  names: NameResolver;
  /** Component schemas in a reference cycle: references to them are deferred. */
  recursive: ReadonlySet<string>;
}

type Printer<K extends SchemaKind> = (node: Extract<SchemaNode, { kind: K }>, ctx: PrintContext, indent: string) => string;

const INDENT = '  ';

function literal(value: unknown): string {
  return JSON.stringify(value);
}

/**
 * A regular expression exactly as the file wrote it, with the Unicode flag JSON Schema implies,
 * or without it for a pattern valid only without it (see ir/pattern.ts). A pattern V8 could
 * backtrack on is matched by the linear matcher or bounded in length (ir/pattern-route.ts):
 * still a RegExp with the same `source`, from the pattern guard module (`rx`).
 */
export function regexLiteral(pattern: string): string {
  const route = patternRoute(pattern) ?? { kind: 'native', flags: 'u' };
  const flags = route.flags;
  if (route.kind === 'linear') return `rx.linear(${JSON.stringify(pattern)}, '${flags}')`;
  if (route.kind === 'bounded') return `rx.bounded(${JSON.stringify(pattern)}, '${flags}', ${route.maxLength})`;
  // A pattern valid only without `u` is built from a string: TypeScript would check the
  // literal's syntax more strictly than the engine that runs it.
  if (flags === 'u' && !pattern.includes('/') && !/[\n\r\u2028\u2029]/.test(pattern)) return `/${pattern}/u`;
  return flags === 'u' ? `new RegExp(${JSON.stringify(pattern)}, 'u')` : `new RegExp(${JSON.stringify(pattern)})`;
}

/** zod's `.regex()` check of a pattern; a bounded one says in its message why a long value fails. */
export function regexCheck(pattern: string): string {
  const route = patternRoute(pattern);
  if (route?.kind !== 'bounded') return `.regex(${regexLiteral(pattern)})`;
  return `.regex(${regexLiteral(pattern)}, rx.boundedPatternMessage(${JSON.stringify(pattern)}, ${route.maxLength}))`;
}

/** The runtime function that checks each format. */
export const FORMAT_CHECK: Record<NonNullable<StringNode['format']>, string> = {
  'date-time': 'rt.isDateTime',
  date: 'rt.isDate',
  time: 'rt.isTime',
  uri: 'rt.isUri',
  uuid: 'rt.isUuid',
  email: 'rt.isEmail',
  duration: 'rt.isDuration',
  byte: 'rt.isByte',
};

export function enumValuesSatisfying(node: StringNode): string[] {
  // With `enum` beside other keywords both apply: keep only the values that pass them all.
  const patterns = (node.patterns ?? []).map((p) => patternTester(p) ?? new RegExp(p, 'u'));
  return (node.enum ?? []).filter(
    (v) =>
      (node.minLength === undefined || [...v].length >= node.minLength) &&
      (node.maxLength === undefined || [...v].length <= node.maxLength) &&
      patterns.every((p) => p.test(v)),
  );
}

const printString: Printer<'string'> = (node) => {
  if (node.enum) {
    const values = enumValuesSatisfying(node);
    return values.length === 0 ? 'z.never()' : `z.enum([${values.map(literal).join(', ')}])`;
  }
  let out = 'z.string()';
  if (node.minLength !== undefined) out += `.min(${node.minLength})`;
  if (node.maxLength !== undefined) out += `.max(${node.maxLength})`;
  for (const pattern of node.patterns ?? []) out += regexCheck(pattern);
  if (node.format) out += `.refine(${FORMAT_CHECK[node.format]}, rt.formatError[${literal(node.format)}])`;
  return out;
};

/** The range each narrow integer format implies. */
export const INTEGER_RANGES: Record<string, [number, number]> = {
  int32: [-2147483648, 2147483647],
  int16: [-32768, 32767],
  int8: [-128, 127],
};

const printNumber: Printer<'number'> = (node) => {
  if (node.enum) return node.enum.length === 1 ? `z.literal(${literal(node.enum[0])})` : `z.literal([${node.enum.map(literal).join(', ')}])`;
  let out: string;
  if (node.integer && node.format === 'int32') out = 'z.int32()';
  else if (node.integer) {
    // Not z.int(): that also rejects integers beyond 2^53, which JSON Schema allows.
    out = 'z.number().refine(Number.isInteger, rt.integerError)';
    const range = node.format ? INTEGER_RANGES[node.format] : undefined;
    if (range) out += `.gte(${range[0]}).lte(${range[1]})`;
  } else out = 'z.number()';
  if (node.minimum !== undefined) out += `.gte(${node.minimum})`;
  if (node.maximum !== undefined) out += `.lte(${node.maximum})`;
  if (node.exclusiveMinimum !== undefined) out += `.gt(${node.exclusiveMinimum})`;
  if (node.exclusiveMaximum !== undefined) out += `.lt(${node.exclusiveMaximum})`;
  if (node.multipleOf !== undefined) out += `.multipleOf(${node.multipleOf})`;
  return out;
};

const printBoolean: Printer<'boolean'> = (node: BooleanNode) => {
  if (node.enum && node.enum.length === 1) return `z.literal(${literal(node.enum[0])})`;
  return 'z.boolean()';
};

const printNull: Printer<'null'> = (_node: NullNode) => 'z.null()';
const printAny: Printer<'any'> = (_node: AnyNode) => 'z.unknown()';
const printNever: Printer<'never'> = (_node: NeverNode) => 'z.never()';

const printLiteral: Printer<'literal'> = (node: LiteralNode) => {
  if (node.values.length === 0) return 'z.never()';
  if (node.values.length === 1) return `z.literal(${literal(node.values[0])})`;
  return `z.literal([${node.values.map(literal).join(', ')}])`;
};

const printRef: Printer<'ref'> = (node: RefNode, ctx) => {
  const id = ctx.names.get(node.name);
  return ctx.recursive.has(node.name) ? `z.lazy(() => ${id})` : id;
};

const printArray: Printer<'array'> = (node: ArrayNode, ctx, indent) => {
  let out = `z.array(${printSchema(node.items, ctx, indent)})`;
  if (node.minItems !== undefined) out += `.min(${node.minItems})`;
  if (node.maxItems !== undefined) out += `.max(${node.maxItems})`;
  if (node.uniqueItems) out += `.refine(rt.uniqueItems, { error: 'items must be unique' })`;
  return out;
};

/**
 * A JSDoc block: the first lines of a description, a note of the generator's own (such as why
 * an export has another name), then `@deprecated` when the spec says so.
 */
function docComment(text: string | undefined, indent: string, deprecated = false, note?: string): string {
  const described = text?.trim()
    ? text
        .trim()
        .split(/\r?\n/)
        .map((l) => l.trimEnd())
        .slice(0, 6)
    : [];
  const lines = [...described, ...(note ? (described.length > 0 ? ['', note] : [note]) : []), ...(deprecated ? ['@deprecated The spec marks this as deprecated.'] : [])];
  if (lines.length === 0) return '';
  const body = lines.map((l) => l.replace(/\*\//g, '*\\/'));
  if (body.length === 1) return `${indent}/** ${body[0]} */\n`;
  return `${indent}/**\n${body.map((l) => `${indent} *${l ? ` ${l}` : ''}`).join('\n')}\n${indent} */\n`;
}

/** The expression a property is declared with: its schema, then absent-value handling. */
function propertyExpression(schema: SchemaNode, required: boolean, ctx: PrintContext, indent: string): string {
  let out = printSchema(schema, ctx, indent);
  if (!required) out += 'default' in schema ? `.default(${literal(schema.default)})` : '.optional()';
  return out;
}

/** An object that declares no members and takes any others of one schema (`additionalProperties: {...}`). */
export function isRecord(node: ObjectNode): node is ObjectNode & { additional: SchemaNode } {
  return node.properties.length === 0 && typeof node.additional === 'object';
}

const printObject: Printer<'object'> = (node: ObjectNode, ctx, indent) => {
  const inner = indent + INDENT;
  const members = node.properties.map((p) => {
    const doc = docComment(p.schema.description, inner, p.schema.deprecated);
    return `${doc}${inner}${propertyKey(p.name)}: ${propertyExpression(p.schema, p.required, ctx, inner)},`;
  });
  const shape = members.length === 0 ? '{}' : `{\n${members.join('\n')}\n${indent}}`;
  let out: string;
  // Members of one schema and no other: a record, as it would be written by hand.
  if (isRecord(node)) out = `z.record(z.string(), ${printSchema(node.additional, ctx, indent)})`;
  else if (node.additional === 'forbid') out = `z.strictObject(${shape})`;
  else if (node.additional === 'allow') out = `z.looseObject(${shape})`;
  else out = `z.object(${shape}).catchall(${printSchema(node.additional, ctx, indent)})`;
  if (node.requiredUndeclared) out += `.refine(rt.hasKeys(${literal(node.requiredUndeclared)}), { error: 'missing required member' })`;
  if (node.minProperties !== undefined) out += `.refine(rt.minProperties(${node.minProperties}), { error: 'too few members' })`;
  if (node.maxProperties !== undefined) out += `.refine(rt.maxProperties(${node.maxProperties}), { error: 'too many members' })`;
  return out;
};

function printList(nodes: SchemaNode[], ctx: PrintContext, indent: string): string {
  const inner = indent + INDENT;
  return `[\n${nodes.map((n) => `${inner}${printSchema(n, ctx, inner)},`).join('\n')}\n${indent}]`;
}

/** A tag value to variant index map, on one line: `{ cat: 0, dog: 1 }`. */
function printIndexMap(map: Record<string, number>): string {
  const entries = sortedEntries(map).map(([value, index]) => `${propertyKey(value)}: ${index}`);
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

const printUnion: Printer<'union'> = (node: UnionNode, ctx, indent) => {
  const form = unionForm(node);
  if (form === 'single') return printSchema(node.variants[0]!, ctx, indent);
  const list = printList(node.variants, ctx, indent);
  const d = node.discriminator;
  // The tag provably selects the only variant that can match: dispatch on it.
  if (form === 'switch') return `rt.discriminated(${literal(d!.propertyName)}, ${list}, ${printIndexMap(d!.selects!)})`;
  // Otherwise the discriminator is a hint: the answer is that of oneOf/anyOf.
  // OpenAPI 3.2 `defaultMapping`: the variant whose issues a value without a mapped tag gets.
  const fallback = d?.defaultVariant === undefined ? '' : `, ${d.defaultVariant}`;
  const hint = d && hasHint(node) ? `, ${literal(d.propertyName)}, ${printIndexMap(d.mapping)}${fallback}` : '';
  if (form === 'counted') return `rt.oneOf(${list}${hint})`;
  return hint ? `rt.anyOf(${list}${hint})` : `z.union(${list})`;
};

const printIntersection: Printer<'intersection'> = (node: IntersectionNode, ctx, indent) => {
  const [first, ...rest] = node.parts.map((p) => printSchema(p, ctx, indent));
  return rest.reduce((acc, part) => `z.intersection(${acc}, ${part})`, first ?? 'z.unknown()');
};

/** Validated by the generated JSON Schema runtime (`json-schemas.gen.ts`). */
const printJson: Printer<'json'> = (node: JsonSchemaNode) => `${jsonSchemas(node)}.zod(${literal(node.pointer)})`;

/** The runtime's schemas as a request or a response carries them, or as written. */
export function jsonSchemas(node: JsonSchemaNode): string {
  return node.mode ? `J.schemas.directed(${literal(node.mode.direction)}, ${node.mode.refuse})` : 'J.schemas';
}

/**
 * The import of what `jsonSchemas` names, for a module whose source uses it, else nothing:
 * every module imports only what it uses (`noUnusedLocals` in any project).
 */
export function jsonSchemasImport(source: string): string {
  return /\bJ\.schemas\./.test(source) ? "import * as J from './json-schemas.gen.js';" : '';
}

/** One printer per schema kind: a kind without a printer does not compile. */
const PRINTERS: { [K in SchemaKind]: Printer<K> } = {
  any: printAny,
  never: printNever,
  ref: printRef,
  string: printString,
  number: printNumber,
  boolean: printBoolean,
  null: printNull,
  literal: printLiteral,
  array: printArray,
  object: printObject,
  union: printUnion,
  intersection: printIntersection,
  json: printJson,
};

/** Prints a node as a zod expression; `indent` is the indentation of the line it starts on. */
export function printSchema(node: SchemaNode, ctx: PrintContext, indent = ''): string {
  const printer = PRINTERS[node.kind] as Printer<typeof node.kind>;
  const out = printer(node as never, ctx, indent);
  return node.nullable && node.kind !== 'null' ? `${out}.nullable()` : out;
}

export { docComment };
