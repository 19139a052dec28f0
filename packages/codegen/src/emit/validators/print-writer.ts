/**
 * JSON writers: for each schema a body can carry, a function that checks a value and writes
 * its JSON text in one walk, with the answer of the check function and the text
 * `JSON.stringify` writes.
 *
 * Why: a server checking what its handlers return walked each value twice, once to check it
 * and once in `JSON.stringify`, which also has to find out every member's type and escape
 * every key. A writer knows the keys (their JSON text is a constant), the types, and which
 * strings cannot hold a character to escape (a valid date-time, an enum value).
 *
 * The contract of every writer, `write<Name>(value, check)`:
 * - it returns text only where `JSON.stringify(value)` would write that same JSON value
 *   (byte for byte when the members come in schema order; declared members first otherwise);
 * - with `check`, it returns text only for a value the check function accepts;
 * - otherwise it returns `undefined`, and the caller takes the ordinary path (the full check to
 *   name the issues, then `JSON.stringify`). Anything unusual ends up there: an invalid value,
 *   an object with `toJSON` or another prototype than `Object.prototype`, a member that is not
 *   an own enumerable property, a function or `undefined` where a value is written, a closed
 *   object with more members. So a writer can only ever be slower than it could be, never write
 *   something else.
 *
 * Writers exist for the schemas that have a check function (see print-check.ts) and that some
 * JSON body refers to, with everything they refer to. Inside them, a schema the JSON Schema
 * runtime validates (`json` nodes) and any-valued members are checked as usual and written by
 * `JSON.stringify`.
 */
import type { ApiIR, Diagnostic, ArrayNode, IntersectionNode, MediaTypeIR, NamedSchema, NumberNode, ObjectNode, SchemaNode, StringNode, UnionNode } from '../../ir/types.js';
import { checkableSchemas, countsMembers, FunctionWriter, isCheckable, mayAcceptUndefined, numberViolations, stringViolations, uncheckableReason, type CheckContext, type ModuleState } from './print-check.js';
import { escapePointerToken } from '../../ir/json-pointer.js';
import { referencedNames, walkSchema } from '../../ir/references.js';
import { enumValuesSatisfying } from './print-zod.js';
import { sortedEntries, unionForm } from './union-form.js';
import { patternWritesPlainText } from './plain-text-pattern.js';
import { isJsonType } from '@bank-data-sharing/wire';

/** Formats whose valid strings hold no character JSON escapes: written without a scan. */
const PLAIN_TEXT_FORMATS = new Set(['date-time', 'date', 'time', 'uuid', 'duration', 'byte']);

/** Schemas written in place where they are referred to. */
const SCALAR_KINDS = new Set<SchemaNode['kind']>(['string', 'number', 'boolean', 'null', 'literal']);

/** Declared members tracked per bit mask variable. */
const BITS_PER_MASK = 30;

/** Objects of scalar members written in place of a call to their writer, up to this many members. */
const MAX_INLINE_MEMBERS = 4;

/** Enums longer than this are looked up in a Map rather than compared one by one. */
const MAX_COMPARISONS = 6;

export interface WriterContext extends CheckContext {
  /** Identifier of each schema's writer, by schema name. */
  writerNames: ReadonlyMap<string, string>;
}

/**
 * How many writers of schemas in a reference cycle may run inside one another. A value nested
 * deeper is left to the ordinary path (zod's check, then `JSON.stringify`), so that a writer
 * never runs out of stack where those would not.
 */
export const MAX_RECURSIVE_NESTING = 64;

/**
 * What goes before the next member of an object being written: `,` once a member that is
 * always written is behind (`settled`); before that, the `variable` that holds `{` or `,`.
 */
interface Separator {
  settled: boolean;
  variable?: string;
}

/** Writes the statements of one writer: each appends to `out` or returns `undefined`. */
class WriterBody {
  readonly lines: string[] = [];
  private depth = 0;
  private counter = 0;

  constructor(
    private readonly ctx: WriterContext,
    private readonly module: ModuleState,
    private readonly helperPrefix: string,
  ) {}

  /**
   * Constant text not yet appended. Consecutive constants (a closing quote, a comma, the next
   * key and its opening quote) are appended as one: fewer string additions, and a shorter rope
   * to flatten when the text is encoded.
   */
  private pending = '';

  /** A statement that does not touch `out` (a check, a constant): constants may move past it. */
  private line(text: string): void {
    this.lines.push(`${'  '.repeat(this.depth)}${text}`);
  }

  /** Constant text to append. */
  private text(constant: string): void {
    this.pending += constant;
  }

  /** The pending constant text, for a statement that appends it with its own. */
  private takePending(): string {
    const text = this.pending;
    this.pending = '';
    return text;
  }

  /** Appends the pending constant text, if any. */
  flush(): void {
    if (this.pending === '') return;
    this.line(`out += ${JSON.stringify(this.pending)};`);
    this.pending = '';
  }

  /** A statement that appends to `out` or branches: the pending constant comes before it. */
  private statement(text: string): void {
    this.flush();
    this.line(text);
  }

  private fresh(prefix: string): string {
    return `${prefix}${++this.counter}`;
  }

  private block(open: string, inside: () => void, close = '}'): void {
    this.statement(open);
    this.depth++;
    inside();
    this.flush();
    this.depth--;
    this.line(close);
  }

  /** A block that appends nothing (a loop that only reads): pending text stays pending past it. */
  private quietBlock(open: string, inside: () => void): void {
    const saved = this.pending;
    this.pending = '';
    this.line(open);
    this.depth++;
    inside();
    this.depth--;
    this.line('}');
    if (this.pending !== '') throw new Error('a quiet block appended text');
    this.pending = saved;
  }

  /** `if (condition) { then } else { otherwise }`, each branch appending its own text. */
  private ifElse(condition: string, then: () => void, otherwise: () => void): void {
    this.block(`if (${condition}) {`, then, '} else {');
    this.depth++;
    otherwise();
    this.flush();
    this.depth--;
    this.line('}');
  }

  /** Leaves the value to the ordinary path when `condition` holds (checking or not). */
  private bail(condition: string): void {
    this.line(`if (${condition}) return undefined;`);
  }

  /** A rule of the schema: applied only when checking. */
  private rule(condition: string): void {
    this.line(`if (check && (${condition})) return undefined;`);
  }

  /** A boolean expression: the check of `node` on `v` (a check function or a helper of one). */
  private checkExpression(node: SchemaNode, v: string): string {
    return new FunctionWriter(this.ctx, this.module, `$${this.helperPrefix}c`).expression(node, v);
  }

  /** An expression writing `v` as `node`: a writer call (a helper for an inline schema). */
  private writerExpression(node: SchemaNode, v: string, check: string): string {
    if (node.kind === 'ref' && !node.nullable) return `${this.ctx.writerNames.get(node.name)!}(${v}, ${check})`;
    const nested = new WriterBody(this.ctx, this.module, this.helperPrefix);
    nested.write(node, 'value');
    nested.flush();
    // Named after the helpers the nested body made, so that the names never repeat.
    const name = `${this.helperPrefix}${this.module.helpers.length + 1}`;
    this.module.raw(writerFunction(`function ${name}(value: unknown, check: boolean): string | undefined {`, nested.lines));
    return `${name}(${v}, ${check})`;
  }

  /** Appends the result of `expression` (text or `undefined`) to `out`. */
  private append(expression: string): void {
    const t = this.fresh('t');
    this.line(`const ${t} = ${expression};`);
    this.bail(`${t} === undefined`);
    this.statement(`out += ${t};`);
  }

  /** `JSON.stringify` of `v`, for values whose every part is valid however it is built. */
  private generic(v: string): void {
    this.bail(`!rt.writableAsIs(${v})`);
    this.append(`JSON.stringify(${v})`);
  }

  /** Statements that append the JSON text of `v` to `out`, or return `undefined`. */
  write(node: SchemaNode, v: string): void {
    if (node.nullable && node.kind !== 'null') {
      this.ifElse(`${v} === null`, () => this.text('null'), () => this.bare(node, v));
    } else {
      this.bare(node, v);
    }
  }

  private bare(node: SchemaNode, v: string): void {
    switch (node.kind) {
      case 'any':
        this.generic(v);
        return;
      case 'never':
        this.line('return undefined;');
        return;
      case 'ref': {
        // A scalar schema is written in place: a call per member would cost more than the write.
        const target = this.aliasTarget(node);
        if (target && (SCALAR_KINDS.has(target.kind) || this.isSmallFlatObject(target))) this.write(target, v);
        else this.append(`${this.ctx.writerNames.get(node.name)!}(${v}, check)`);
        return;
      }
      case 'string':
        this.string(node, v);
        return;
      case 'number':
        this.number(node, v);
        return;
      case 'boolean':
        if (node.enum && node.enum.length === 1) {
          this.bail(`${v} !== ${node.enum[0]}`);
          this.text(String(node.enum[0]));
        } else {
          this.bail(`typeof ${v} !== 'boolean'`);
          this.statement(`out += ${v} ? 'true' : 'false';`);
        }
        return;
      case 'null':
        this.bail(`${v} !== null`);
        this.text('null');
        return;
      case 'literal':
        this.oneOf(node.values, v);
        return;
      case 'array':
        this.array(node, v);
        return;
      case 'object':
        this.object(node, v);
        return;
      case 'union':
        this.union(node, v);
        return;
      case 'json':
        this.line(`if (check && !${this.module.json(node)}(${v})) return undefined;`);
        this.generic(v);
        return;
      case 'intersection':
        this.intersection(node, v);
        return;
    }
  }

  /**
   * Checked as the check function checks it (every part, and zod's merge), then written as its
   * first part without checking: a value every part accepts is all there in the first part's
   * text, or that writer leaves it (a closed object with the other parts' members, say).
   * allOf reaches here only where it could not be merged into one schema (see merge-all-of.ts).
   */
  private intersection(node: IntersectionNode, v: string): void {
    this.rule(`!${this.checkExpression(node, v)}`);
    this.append(this.writerExpression(node.parts[0] ?? { kind: 'any', pointer: node.pointer }, v, 'false'));
  }

  /**
   * An object of a few scalar members (an amount and its currency): written in place too. Its
   * first key joins the text before it, and a page of them saves a call and two string
   * additions each. Scalar members only, so it can never be part of a reference cycle.
   */
  private isSmallFlatObject(node: SchemaNode): boolean {
    if (node.kind !== 'object' || node.nullable || node.properties.length > MAX_INLINE_MEMBERS || node.additional !== 'forbid') return false;
    return node.properties.every(({ schema }) => {
      const member = schema.kind === 'ref' && !schema.nullable ? this.aliasTarget(schema) : schema;
      return member !== undefined && SCALAR_KINDS.has(member.kind);
    });
  }

  /** The schema a reference names, through aliases (a schema that is only a reference to another). */
  private aliasTarget(node: SchemaNode & { kind: 'ref' }): SchemaNode | undefined {
    let target = this.ctx.components.get(node.name);
    for (let hops = 0; target?.kind === 'ref' && !target.nullable && hops < 8; hops++) target = this.ctx.components.get(target.name);
    return target;
  }

  /** One of a closed set of primitive values, each written as a constant. */
  private oneOf(values: ReadonlyArray<string | number | boolean | null>, v: string): void {
    if (values.length === 0) {
      this.line('return undefined;');
      return;
    }
    if (values.length <= MAX_COMPARISONS) {
      if (values.length === 1) {
        this.bail(`${v} !== ${JSON.stringify(values[0])}`);
        this.text(JSON.stringify(values[0]));
        return;
      }
      // The pending text (a key, say) goes with each value's: one string addition, not two.
      const before = this.takePending();
      values.forEach((value, i) => this.line(`${i === 0 ? '' : 'else '}if (${v} === ${JSON.stringify(value)}) out += ${JSON.stringify(before + JSON.stringify(value))};`));
      this.line('else return undefined;');
      return;
    }
    const before = this.takePending();
    const texts = this.module.constant('texts', `new Map<unknown, string>([${values.map((value) => `[${JSON.stringify(value)}, ${JSON.stringify(before + JSON.stringify(value))}]`).join(', ')}])`);
    this.append(`${texts}.get(${v})`);
  }

  private string(node: StringNode, v: string): void {
    if (node.enum) {
      this.oneOf(enumValuesSatisfying(node), v);
      return;
    }
    this.bail(`typeof ${v} !== 'string'`);
    for (const violation of stringViolations(node, v, this.module)) this.rule(violation);
    // A string the check found to be a date-time (say) holds nothing JSON escapes.
    const plain = (node.format !== undefined && PLAIN_TEXT_FORMATS.has(node.format)) || (node.patterns ?? []).some(patternWritesPlainText);
    this.text('"');
    if (plain) this.statement(`out += check ? ${v} : rt.jsonStringBody(${v});`);
    else this.statement(`out += rt.jsonStringBody(${v});`);
    this.text('"');
  }

  private number(node: NumberNode, v: string): void {
    if (node.enum) {
      this.oneOf(node.enum, v);
      return;
    }
    // JSON has no NaN or Infinity (JSON.stringify writes null): left to the ordinary path.
    this.bail(`typeof ${v} !== 'number' || !Number.isFinite(${v})`);
    const rules = numberViolations(node, v);
    if (rules.length > 0) this.rule(rules.join(' || '));
    // Number-to-text is the same conversion JSON.stringify uses (-0 is written 0).
    this.statement(`out += '' + ${v};`);
  }

  private array(node: ArrayNode, v: string): void {
    this.bail(`!Array.isArray(${v}) || typeof (${v} as { toJSON?: unknown }).toJSON === 'function'`);
    if (node.minItems !== undefined && node.minItems > 0) this.rule(`${v}.length < ${node.minItems}`);
    if (node.maxItems !== undefined) this.rule(`${v}.length > ${node.maxItems}`);
    if (node.uniqueItems) this.rule(`!rt.uniqueItems(${v})`);
    if (node.items.kind === 'any') {
      // Any item is valid: JSON.stringify writes the array (holes and all) as it would anyway.
      this.append(`JSON.stringify(${v})`);
      return;
    }
    this.text('[');
    const i = this.fresh('i');
    this.block(`for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`, () => {
      this.statement(`if (${i} !== 0) out += ',';`);
      const item = this.fresh('v');
      this.line(`const ${item}: unknown = ${v}[${i}];`);
      this.write(node.items, item);
    });
    this.text(']');
  }

  /**
   * Members are written in schema order. One `for...in` pass first finds which declared members
   * are own enumerable properties (those JSON.stringify writes), refuses undeclared ones where
   * the object is closed, and counts members where the schema bounds their number.
   */
  private object(node: ObjectNode, v: string): void {
    // Object.prototype has no toJSON: one of the object's own is found by the member loop below.
    this.bail(`typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v}) || Object.getPrototypeOf(${v}) !== Object.prototype`);
    const o = this.fresh('o');
    this.line(`const ${o} = ${v} as Record<string, unknown>;`);
    const declared = node.properties.map((p, index) => ({
      property: p,
      key: JSON.stringify(p.name),
      mask: `${o}m${Math.floor(index / BITS_PER_MASK)}`,
      bit: 1 << index % BITS_PER_MASK,
    }));
    const masks = [...new Set(declared.map((d) => d.mask))];
    for (const mask of masks) this.line(`let ${mask} = 0;`);
    const open = node.additional !== 'forbid';
    const extra = open ? this.fresh('extra') : undefined;
    if (extra) this.line(`let ${extra} = false;`);
    const counted = countsMembers(node);
    const count = counted ? this.fresh('count') : undefined;
    if (count) this.line(`let ${count} = 0;`);
    const found = (node.requiredUndeclared ?? []).map((name) => ({ name, flag: this.fresh('has') }));
    for (const { flag } of found) this.line(`let ${flag} = false;`);
    const k = this.fresh('k');
    this.quietBlock(`for (const ${k} in ${o}) {`, () => {
      if (count) this.line(`${count}++;`);
      const undeclared = (): void => {
        if (!extra) {
          this.line('return undefined;');
          return;
        }
        // JSON.stringify would call an own toJSON: left to it.
        this.line(`if (${k} === 'toJSON') return undefined;`);
        this.line(`${extra} = true;`);
        for (const { name, flag } of found) this.line(`if (${k} === ${JSON.stringify(name)}) ${flag} = true;`);
      };
      if (declared.length === 0) {
        undeclared();
        return;
      }
      this.block(`switch (${k}) {`, () => {
        for (const d of declared) this.line(`case ${d.key}: ${d.mask} |= ${d.bit}; break;`);
        this.line('default:');
        this.depth++;
        undeclared();
        if (extra) this.line('break;');
        this.depth--;
      });
    });
    for (const { flag } of found) this.rule(`!${flag}`);
    if (count && node.minProperties !== undefined) this.rule(`${count} < ${node.minProperties}`);
    if (count && node.maxProperties !== undefined) this.rule(`${count} > ${node.maxProperties}`);
    // The separator before each member is known while writing from the first member that is
    // always written on; before it, a variable holds it.
    const first = declared[0];
    const separator: Separator = first && this.alwaysWritten(first.property) ? { settled: false } : { settled: false, variable: this.fresh('c') };
    if (separator.variable) this.line(`let ${separator.variable} = '{';`);
    for (const d of declared) this.member(d, o, separator);
    if (extra) this.extraMembers(node, o, extra, separator, declared.map((d) => d.key));
    if (separator.settled) this.text('}');
    else this.statement(`out += ${separator.variable!} === '{' ? '{}' : '}';`);
  }

  /** A required member that cannot be `undefined`: written, or the value is left to the ordinary path. */
  private alwaysWritten(property: ObjectNode['properties'][number]): boolean {
    return property.required && !mayAcceptUndefined(property.schema, this.ctx.components);
  }

  /** Appends the separator and the member's key (JSON text) for the next member. */
  private memberStart(separator: Separator, key: string): void {
    if (separator.settled) {
      this.text(`,${key}:`);
    } else if (separator.variable === undefined) {
      this.text(`{${key}:`);
    } else {
      this.statement(`out += ${separator.variable} + ${JSON.stringify(`${key}:`)};`);
      this.line(`${separator.variable} = ',';`);
    }
  }

  private member(d: { property: ObjectNode['properties'][number]; key: string; mask: string; bit: number }, o: string, separator: Separator): void {
    const { property, key } = d;
    const member = this.fresh('v');
    this.line(`const ${member} = ${o}[${key}];`);
    if (this.alwaysWritten(property)) {
      // Missing, it is invalid; not an own enumerable member, JSON.stringify would leave it out.
      this.bail(`${member} === undefined || (${d.mask} & ${d.bit}) === 0`);
      this.memberStart(separator, key);
      separator.settled = true;
      this.write(property.schema, member);
      return;
    }
    const present = (): void => {
      // Read as the check reads it, but written only as JSON.stringify would write it.
      this.bail(`(${d.mask} & ${d.bit}) === 0`);
      this.memberStart(separator, key);
      this.write(property.schema, member);
    };
    if (property.required) {
      this.block(`if (${member} !== undefined) {`, present);
      // Required, and may be undefined (any value): it must still be present.
      this.line(`else if (check && !(${key} in ${o})) return undefined;`);
      return;
    }
    // The text before the member (the quote closing a string, say) is appended with the
    // member's key where the member is written, and is still pending where it is not; when the
    // member's own text ends the same way, that text stays pending on both paths. Fewer string
    // additions: a shorter rope to flatten when the text is encoded.
    const before = this.takePending();
    this.line(`if (${member} !== undefined) {`);
    this.depth++;
    this.pending = before;
    present();
    const after = this.takePending();
    if (after !== before && after !== '') this.line(`out += ${JSON.stringify(after)};`);
    this.depth--;
    if (after === before) {
      this.line('}');
      this.pending = before;
    } else {
      this.line(before === '' ? '}' : `} else out += ${JSON.stringify(before)};`);
    }
  }

  /** Members the object does not declare, after the declared ones, in their own order. */
  private extraMembers(node: ObjectNode, o: string, extra: string, separator: Separator, declaredKeys: readonly string[]): void {
    const additional = node.additional;
    this.block(`if (${extra}) {`, () => {
      const k = this.fresh('k');
      this.block(`for (const ${k} in ${o}) {`, () => {
        if (declaredKeys.length > 0) this.line(`if (${declaredKeys.map((key) => `${k} === ${key}`).join(' || ')}) continue;`);
        const x = this.fresh('v');
        this.line(`const ${x} = ${o}[${k}];`);
        if (additional === 'allow' || (typeof additional !== 'string' && additional.kind === 'any')) {
          this.bail(`!rt.writableAsIs(${x})`);
          const t = this.fresh('t');
          this.line(`const ${t} = JSON.stringify(${x});`);
          this.block(`if (${t} !== undefined) {`, () => {
            this.statement(`out += ${this.extraSeparator(separator)} + rt.jsonString(${k}) + ':' + ${t};`);
            if (separator.variable) this.line(`${separator.variable} = ',';`);
          });
          return;
        }
        const schema = additional as SchemaNode;
        this.ifElse(
          `${x} === undefined`,
          () => this.rule(`!${this.checkExpression(schema, x)}`),
          () => {
            this.statement(`out += ${this.extraSeparator(separator)} + rt.jsonString(${k}) + ':';`);
            if (separator.variable) this.line(`${separator.variable} = ',';`);
            this.write(schema, x);
          },
        );
      });
    });
  }

  /** The separator before an undeclared member, written after the declared ones. */
  private extraSeparator(separator: Separator): string {
    return separator.settled ? "','" : separator.variable!;
  }

  private union(node: UnionNode, v: string): void {
    const form = unionForm(node);
    if (form === 'single') {
      this.write(node.variants[0]!, v);
      return;
    }
    if (form === 'switch') {
      this.bail(`typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v})`);
      const byVariant = new Map<number, string[]>();
      for (const [value, index] of sortedEntries(node.discriminator!.selects!)) byVariant.set(index, [...(byVariant.get(index) ?? []), value]);
      const cases = [...byVariant.entries()].sort(([a], [b]) => a - b);
      const t = this.fresh('t');
      this.line(`let ${t}: string | undefined;`);
      this.block(`switch ((${v} as Record<string, unknown>)[${JSON.stringify(node.discriminator!.propertyName)}]) {`, () => {
        for (const [index, values] of cases) {
          for (const value of values) this.line(`case ${JSON.stringify(value)}:`);
          this.line(`  ${t} = ${this.writerExpression(node.variants[index]!, v, 'check')};`);
          this.line('  break;');
        }
      });
      this.bail(`${t} === undefined`);
      this.statement(`out += ${t};`);
      return;
    }
    // Any variant's writer that answers writes the value as JSON.stringify would. "Exactly one"
    // is counted with the check functions; "at least one" is the first writer that answers.
    const check = form === 'counted' ? 'false' : 'check';
    if (form === 'counted') this.rule(`${node.variants.map((variant) => `(${this.checkExpression(variant, v)} ? 1 : 0)`).join(' + ')} !== 1`);
    const t = this.fresh('t');
    node.variants.forEach((variant, i) => {
      const call = this.writerExpression(variant, v, check);
      this.line(i === 0 ? `let ${t} = ${call};` : `if (${t} === undefined) ${t} = ${call};`);
    });
    this.bail(`${t} === undefined`);
    this.statement(`out += ${t};`);
  }
}

function writerFunction(signature: string, lines: readonly string[]): string {
  return [signature, "  let out = '';", ...lines.map((l) => `  ${l}`), '  return out;', '}'].join('\n');
}

/**
 * The exported writer of a schema (`what` names it in the doc comment); helpers and constants it
 * needs go to `module`.
 */
export function printWriterFunction(node: SchemaNode, what: string, id: string, ctx: WriterContext, module: ModuleState, recursive = false): string {
  const body = new WriterBody(ctx, module, `$w${id}$`);
  body.write(node, 'value');
  body.flush();
  const doc = [
    '/**',
    ` * The JSON text of \`value\` as ${what}, as \`JSON.stringify\` writes it, checked in the same walk.`,
    ' * `undefined` when the value is not valid (with `check`), or is left to `JSON.stringify`.',
    ...(recursive ? [` * Values nested more than ${MAX_RECURSIVE_NESTING} deep in a reference cycle are left to it too.`] : []),
    ' */',
  ].join('\n');
  if (!recursive) return `${doc}\n${writerFunction(`export function ${id}(value: unknown, check = true): string | undefined {`, body.lines)}`;
  // The count is restored however the walk ends (a getter may throw).
  const nesting = module.nesting();
  module.raw(writerFunction(`function $${id}(value: unknown, check: boolean): string | undefined {`, body.lines));
  return [
    doc,
    `export function ${id}(value: unknown, check = true): string | undefined {`,
    `  if (${nesting} >= ${MAX_RECURSIVE_NESTING}) return undefined;`,
    `  ${nesting}++;`,
    '  try {',
    `    return $${id}(value, check);`,
    '  } finally {',
    `    ${nesting}--;`,
    '  }',
    '}',
  ].join('\n');
}

/** Component schemas the given roots refer to, directly or not, the roots included. */
export function referencedClosure(roots: Iterable<string>, schemas: readonly NamedSchema[]): Set<string> {
  const byName = new Map(schemas.map((s) => [s.name, s]));
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const dependency of byName.get(name)?.dependencies ?? []) pending.push(dependency);
  }
  return seen;
}

/** One JSON body of an operation or webhook: where it is, and its schema. */
export interface JsonBody {
  /** `<operation> <status>` for a response, `<operation> request` for a request body. */
  where: string;
  /** Exported name stem: the operation's name and what the body is. */
  stem: string;
  node: SchemaNode;
}

/** Every JSON body with a schema, in the order of the file's operations, then its webhooks. */
export function jsonBodies(api: ApiIR): JsonBody[] {
  const bodies: JsonBody[] = [];
  for (const entry of [...api.operations, ...(api.webhooks ?? [])]) {
    const name = 'path' in entry ? entry.name : `${entry.key.replace(/[^\w$]/g, '_')}Webhook`;
    const visit = (content: readonly MediaTypeIR[], where: string, stem: string): void => {
      for (const media of content) if (media.schema && isJsonType(media.contentType)) bodies.push({ where, stem, node: media.schema });
    };
    if (entry.requestBody) visit(entry.requestBody.content, `${name} request`, `${name}Request`);
    for (const response of entry.responses) visit(response.content, `${name} ${response.status}`, `${name}Response${response.status.replace(/X/g, 'xx')}`);
  }
  return bodies;
}

/** A body schema written out in the operation (not a plain reference): it gets a writer of its own. */
export function isInlineBody(node: SchemaNode): boolean {
  return node.kind !== 'ref' || node.nullable === true;
}

/**
 * The schemas that get a writer: those JSON bodies refer to (directly, or from a schema written
 * out in the operation) that have a check function, and all they refer to.
 */
export function writtenSchemas(api: ApiIR, checkable: ReadonlySet<string>, bodies: readonly JsonBody[] = jsonBodies(api)): Set<string> {
  const roots = new Set<string>();
  const byName = new Map(api.schemas.map((s) => [s.name, s]));
  for (const body of bodies) {
    if (body.node.kind === 'ref' && !body.node.nullable) roots.add(body.node.name);
    else if (isCheckable(body.node, checkable, byName)) for (const name of referencedNames(body.node)) roots.add(name);
  }
  return referencedClosure([...roots].filter((name) => checkable.has(name)), api.schemas);
}

/** Every `json` node under `node`, not looking through references. */
function jsonNodesIn(node: SchemaNode): SchemaNode[] {
  const out: SchemaNode[] = [];
  walkSchema(node, (n) => {
    if (n.kind === 'json') out.push(n);
  });
  return out;
}

function componentPointer(name: string): string {
  return `#/components/schemas/${escapePointerToken(name)}`;
}

/**
 * The generator's notes on JSON bodies `JSON.stringify` writes, each listed once: bodies whose
 * schema has no writer (and why), and the parts of written schemas that the JSON Schema runtime
 * validates, written by `JSON.stringify` inside the writer.
 */
export function writerNotes(api: ApiIR): Diagnostic[] {
  const checkable = checkableSchemas(api.schemas);
  const byName = new Map(api.schemas.map((s) => [s.name, s]));
  const notes = new Map<string, Diagnostic>();
  const note = (pointer: string, message: string): void => {
    if (!notes.has(pointer)) notes.set(pointer, { severity: 'info', code: 'json-writer-fallback', pointer, message });
  };
  const bodies = jsonBodies(api);
  for (const body of bodies) {
    const node = body.node;
    const plainReference = node.kind === 'ref' && !node.nullable;
    if (plainReference ? checkable.has(node.name) : isCheckable(node, checkable, byName)) continue;
    const named = plainReference ? byName.get(node.name) : undefined;
    const why = uncheckableReason(named ? named.schema : node, checkable, byName);
    const component = named ? (named.variantOf?.name ?? named.name) : undefined;
    const pointer = component === undefined ? node.pointer : componentPointer(component);
    note(pointer, `JSON bodies of this schema are written by JSON.stringify, after zod's check: ${why ?? 'it has no check function'}`);
  }
  for (const name of writtenSchemas(api, checkable, bodies)) {
    const named = byName.get(name)!;
    if (named.recursive) note(componentPointer(named.variantOf?.name ?? name), `values nested more than ${MAX_RECURSIVE_NESTING} deep in its reference cycle are written by JSON.stringify, after zod's check`);
    for (const json of jsonNodesIn(named.schema)) note(json.pointer, 'written by JSON.stringify inside the writer (a schema the JSON Schema runtime validates)');
  }
  return [...notes.values()];
}
