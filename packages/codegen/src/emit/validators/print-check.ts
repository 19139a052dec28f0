/**
 * Check functions: for each component schema, a plain function that answers "is this value
 * valid?" with the same answer as the zod schema, without building a parsed copy.
 *
 * They exist for speed. A server checking what its handlers return, and a client checking
 * what it receives, only need the answer; zod's parse (even compiled) builds a new object for
 * every object and array it visits. The zod schemas use these functions as their check-only
 * path (`schema.validate`), and fall back to the full parse whenever a check says "invalid",
 * so a check that is too strict costs time, never a wrong answer. Being too lenient would be
 * wrong: the differential tests compare every check with zod's parse on every schema.
 *
 * A schema gets a check function only when every construct in it has one here; otherwise
 * (an `allOf` that stayed an intersection with defaults under it, member counts beside
 * defaults, a member named `__proto__`) zod alone validates it.
 *
 * The generated module starts with `// @ts-nocheck`: type-checking its bodies (long runs of
 * `typeof` narrowing) added about half a second per API to every build and editor session,
 * for code whose correctness is a question of semantics, which the tests answer. The
 * exported signatures, `(value: unknown): value is S.Name`, are typed as usual.
 */
import type { ArrayNode, IntersectionNode, JsonSchemaNode, NamedSchema, NumberNode, ObjectNode, PropertyIR, SchemaNode, StringNode, UnionNode } from '../../ir/types.js';
import type { NameResolver } from '../shared/names.js';
import { walkSchema } from '../../ir/references.js';
import { enumValuesSatisfying, FORMAT_CHECK, INTEGER_RANGES, jsonSchemas, regexLiteral } from './print-zod.js';
import { nameNote } from './name-notes.js';
import { sortedEntries, unionForm } from './union-form.js';
import { printWriterFunction, type WriterContext } from './print-writer.js';

/** Enums longer than this are looked up in a Set rather than compared one by one. */
const MAX_COMPARISONS = 6;

export function countsMembers(node: ObjectNode): boolean {
  return node.requiredUndeclared !== undefined || node.minProperties !== undefined || node.maxProperties !== undefined;
}

/**
 * Why `node` cannot be checked by a check function, given the schemas already known checkable:
 * the first construct found, or undefined when every node under it can. With `schemas`, a
 * reference to a schema without a check function is explained through that schema.
 */
export function uncheckableReason(node: SchemaNode, checkable: ReadonlySet<string>, schemas: ReadonlyMap<string, NamedSchema>, seen = new Set<string>()): string | undefined {
  switch (node.kind) {
    case 'ref': {
      if (checkable.has(node.name)) return undefined;
      const target = schemas.get(node.name);
      if (!target || seen.has(node.name)) return `${node.name} has no check function`;
      seen.add(node.name);
      const inner = uncheckableReason(target.schema, checkable, schemas, seen);
      return inner === undefined ? `${node.name} has no check function` : `${node.name}: ${inner}`;
    }
    case 'array':
      return uncheckableReason(node.items, checkable, schemas, seen);
    case 'object': {
      // Member counts and undeclared required members are checked on zod's parsed copy, where
      // defaults add members: those few objects are left to zod. So is a member named
      // `__proto__`, which a property read would take from the prototype.
      if (countsMembers(node) && node.properties.some((p) => 'default' in p.schema)) return `member counts beside defaults at ${node.pointer}`;
      if (node.properties.some((p) => p.name === '__proto__')) return `a member named __proto__ at ${node.pointer}`;
      const parts = [...node.properties.map((p) => p.schema), ...(typeof node.additional === 'string' ? [] : [node.additional])];
      for (const part of parts) {
        const why = uncheckableReason(part, checkable, schemas, seen);
        if (why !== undefined) return why;
      }
      return undefined;
    }
    case 'union':
      for (const variant of node.variants) {
        const why = uncheckableReason(variant, checkable, schemas, seen);
        if (why !== undefined) return why;
      }
      return undefined;
    case 'intersection':
      // zod merges the parts' outputs, which differ from the value only where a default fills
      // a member in: then two parts may disagree, which the parts' checks cannot see.
      if (node.parts.some((part) => carriesDefault(part, schemas))) return `the allOf at ${node.pointer} applies defaults`;
      for (const part of node.parts) {
        const why = uncheckableReason(part, checkable, schemas, seen);
        if (why !== undefined) return why;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** True when a `default` applies somewhere under `node`, through references. */
export function carriesDefault(node: SchemaNode, schemas: ReadonlyMap<string, NamedSchema>, seen = new Set<string>()): boolean {
  let found = false;
  walkSchema(node, (n) => {
    if (found) return;
    if ('default' in n) found = true;
    else if (n.kind === 'ref' && !seen.has(n.name)) {
      seen.add(n.name);
      const target = schemas.get(n.name);
      found = target !== undefined && carriesDefault(target.schema, schemas, seen);
    }
  });
  return found;
}

/** True when every node under `node` can be checked, given the schemas already known checkable. */
export function isCheckable(node: SchemaNode, checkable: ReadonlySet<string>, schemas: ReadonlyMap<string, NamedSchema>): boolean {
  return uncheckableReason(node, checkable, schemas) === undefined;
}

/**
 * Names of the component schemas that get a check function. Schemas in a reference cycle get
 * one too: it calls itself as zod's parser does, so a value deep enough to exhaust the stack
 * throws a RangeError in both.
 */
export function checkableSchemas(schemas: readonly NamedSchema[]): Set<string> {
  const checkable = new Set(schemas.map((s) => s.name));
  const byName = new Map(schemas.map((s) => [s.name, s]));
  // Removing one schema can make those that refer to it uncheckable: repeat until stable.
  for (let changed = true; changed; ) {
    changed = false;
    for (const s of schemas) {
      if (checkable.has(s.name) && !isCheckable(s.schema, checkable, byName)) {
        checkable.delete(s.name);
        changed = true;
      }
    }
  }
  return checkable;
}

/**
 * Conditions under which a string `v` breaks the keywords of `node` besides its type, one per
 * keyword (the check functions and the writers apply the same ones).
 */
export function stringViolations(node: StringNode, v: string, module: ModuleState): string[] {
  const out: string[] = [];
  // Lengths count code points (as JSON Schema and zod do): at most one UTF-16 unit per code
  // point and at least half, so counting is needed only near the limit.
  if (node.minLength !== undefined && node.minLength > 0) {
    const n = node.minLength;
    out.push(`${v}.length < ${n} || (${v}.length < ${2 * n} && rt.codePointLength(${v}) < ${n})`);
  }
  if (node.maxLength !== undefined) out.push(`${v}.length > ${node.maxLength} && rt.codePointLength(${v}) > ${node.maxLength}`);
  for (const pattern of node.patterns ?? []) out.push(`!${module.pattern(pattern)}.test(${v})`);
  if (node.format) out.push(`!${FORMAT_CHECK[node.format]}(${v})`);
  return out;
}

/** Conditions under which a finite number `v` breaks the keywords of `node` (integer, range, bounds). */
export function numberViolations(node: NumberNode, v: string): string[] {
  const out: string[] = [];
  if (node.integer) {
    out.push(`!Number.isInteger(${v})`);
    const range = node.format ? INTEGER_RANGES[node.format] : undefined;
    if (range) out.push(`${v} < ${range[0]}`, `${v} > ${range[1]}`);
  }
  if (node.minimum !== undefined) out.push(`${v} < ${node.minimum}`);
  if (node.maximum !== undefined) out.push(`${v} > ${node.maximum}`);
  if (node.exclusiveMinimum !== undefined) out.push(`${v} <= ${node.exclusiveMinimum}`);
  if (node.exclusiveMaximum !== undefined) out.push(`${v} >= ${node.exclusiveMaximum}`);
  if (node.multipleOf !== undefined) out.push(`!rt.isMultipleOf(${v}, ${node.multipleOf})`);
  return out;
}

/** True when `node` may accept `undefined`, so that a required member must also be present. */
export function mayAcceptUndefined(node: SchemaNode, components: ReadonlyMap<string, SchemaNode>, seen: Set<string> = new Set()): boolean {
  if (node.kind === 'any') return true;
  if (node.kind === 'union') return node.variants.some((v) => mayAcceptUndefined(v, components, seen));
  if (node.kind !== 'ref' || seen.has(node.name)) return false;
  seen.add(node.name);
  const target = components.get(node.name);
  return target !== undefined && mayAcceptUndefined(target, components, seen);
}

export interface CheckContext {
  /** Identifier of each checkable schema's check function, by schema name. */
  checkNames: ReadonlyMap<string, string>;
  /** Component schemas, to see through references. */
  components: ReadonlyMap<string, SchemaNode>;
}

/** What one check-function module declares besides the exported functions. */
export class ModuleState {
  readonly constants: string[] = [];
  readonly helpers: string[] = [];
  private readonly patterns = new Map<string, string>();
  private readonly sets = new Map<string, string>();
  private readonly named = new Map<string, string>();
  private readonly jsonChecks = new Map<string, string>();

  pattern(source: string): string {
    let id = this.patterns.get(source);
    if (!id) {
      id = `$pattern${this.patterns.size + 1}`;
      this.patterns.set(source, id);
      this.constants.push(`const ${id} = ${regexLiteral(source)};`);
    }
    return id;
  }

  set(values: readonly unknown[]): string {
    const key = JSON.stringify(values);
    let id = this.sets.get(key);
    if (!id) {
      id = `$values${this.sets.size + 1}`;
      this.sets.set(key, id);
      this.constants.push(`const ${id}: ReadonlySet<unknown> = new Set([${values.map((v) => JSON.stringify(v)).join(', ')}]);`);
    }
    return id;
  }

  /** The check function of a schema the JSON Schema runtime validates, made once per module. */
  json(node: JsonSchemaNode): string {
    const schemas = jsonSchemas(node);
    const key = `${schemas} ${node.pointer}`;
    let id = this.jsonChecks.get(key);
    if (!id) {
      id = `$json${this.jsonChecks.size + 1}`;
      this.jsonChecks.set(key, id);
      this.constants.push(`const ${id} = ${schemas}.check(${JSON.stringify(node.pointer)});`);
    }
    return id;
  }

  /** A constant holding `expression`, declared once per distinct expression. */
  constant(prefix: string, expression: string): string {
    const key = `${prefix} ${expression}`;
    let id = this.named.get(key);
    if (!id) {
      id = `$${prefix}${this.named.size + 1}`;
      this.named.set(key, id);
      this.constants.push(`const ${id} = ${expression};`);
    }
    return id;
  }

  private nestingDeclared = false;

  /** The counter of writers of schemas in a reference cycle running, declared once. */
  nesting(): string {
    if (!this.nestingDeclared) {
      this.nestingDeclared = true;
      this.constants.push('let $nesting = 0;');
    }
    return '$nesting';
  }

  /** A function written out in full (`text`), kept after the exported ones. */
  raw(text: string): void {
    this.helpers.push(text);
  }

  helper(name: string, body: string[]): string {
    this.helpers.push([`function ${name}(value: unknown): boolean {`, ...body.map((l) => `  ${l}`), '  return true;', '}'].join('\n'));
    return name;
  }
}

/** Writes the statements of one check function; each returns `false` as soon as a rule fails. */
export class FunctionWriter {
  readonly lines: string[] = [];
  private depth = 0;
  private counter = 0;

  constructor(
    private readonly ctx: CheckContext,
    private readonly module: ModuleState,
    private readonly helperPrefix: string,
  ) {}

  private line(text: string): void {
    this.lines.push(`${'  '.repeat(this.depth)}${text}`);
  }

  private fresh(prefix: string): string {
    return `${prefix}${++this.counter}`;
  }

  private block(open: string, inside: () => void, close = '}'): void {
    this.line(open);
    this.depth++;
    inside();
    this.depth--;
    this.line(close);
  }

  private fail(condition: string): void {
    this.line(`if (${condition}) return false;`);
  }

  /** Statements that return false unless `v` (an identifier) satisfies `node`. */
  node(node: SchemaNode, v: string): void {
    if (node.nullable && node.kind !== 'null') {
      this.block(`if (${v} !== null) {`, () => this.bare(node, v));
    } else {
      this.bare(node, v);
    }
  }

  /** A boolean expression for `node` on `v`: a call to a check function. */
  expression(node: SchemaNode, v: string): string {
    if (node.kind === 'ref' && !node.nullable) return `${this.ctx.checkNames.get(node.name)!}(${v})`;
    const nested = new FunctionWriter(this.ctx, this.module, this.helperPrefix);
    nested.node(node, 'value');
    const name = this.module.helper(`${this.helperPrefix}${this.module.helpers.length + 1}`, nested.lines);
    return `${name}(${v})`;
  }

  private bare(node: SchemaNode, v: string): void {
    switch (node.kind) {
      case 'any':
        return;
      case 'never':
        this.line('return false;');
        return;
      case 'ref':
        this.fail(`!${this.ctx.checkNames.get(node.name)!}(${v})`);
        return;
      case 'string':
        this.string(node, v);
        return;
      case 'number':
        this.number(node, v);
        return;
      case 'boolean':
        this.fail(node.enum && node.enum.length === 1 ? `${v} !== ${node.enum[0]}` : `typeof ${v} !== 'boolean'`);
        return;
      case 'null':
        this.fail(`${v} !== null`);
        return;
      case 'literal':
        this.oneOfValues(node.values, v);
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
        this.fail(`!${this.module.json(node)}(${v})`);
        return;
      case 'intersection':
        this.intersection(node, v);
        return;
    }
  }

  /**
   * Every part accepts the value. zod also merges the parts' outputs: with no default under
   * them (see uncheckableReason) those are copies of the same value, and the merge fails only
   * where it meets what it cannot merge (NaN, an object that is not plain), which
   * `rt.mergesCleanly` refuses.
   */
  private intersection(node: IntersectionNode, v: string): void {
    for (const part of node.parts) this.fail(`!${this.expression(part, v)}`);
    this.fail(`!rt.mergesCleanly(${v})`);
  }

  private oneOfValues(values: readonly unknown[], v: string): void {
    if (values.length === 0) this.line('return false;');
    else if (values.length <= MAX_COMPARISONS) this.fail(values.map((x) => `${v} !== ${JSON.stringify(x)}`).join(' && '));
    else this.fail(`!${this.module.set(values)}.has(${v})`);
  }

  private string(node: StringNode, v: string): void {
    if (node.enum) {
      this.oneOfValues(enumValuesSatisfying(node), v);
      return;
    }
    this.fail(`typeof ${v} !== 'string'`);
    for (const violation of stringViolations(node, v, this.module)) this.fail(violation);
  }

  private number(node: NumberNode, v: string): void {
    if (node.enum) {
      this.oneOfValues(node.enum, v);
      return;
    }
    const rules = [`typeof ${v} !== 'number'`, ...(node.integer ? [] : [`!Number.isFinite(${v})`]), ...numberViolations(node, v)];
    this.fail(rules.join(' || '));
  }

  private array(node: ArrayNode, v: string): void {
    this.fail(`!Array.isArray(${v})`);
    if (node.minItems !== undefined && node.minItems > 0) this.fail(`${v}.length < ${node.minItems}`);
    if (node.maxItems !== undefined) this.fail(`${v}.length > ${node.maxItems}`);
    if (node.items.kind !== 'any') {
      const i = this.fresh('i');
      this.block(`for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`, () => {
        const item = this.fresh('v');
        this.line(`const ${item}: unknown = ${v}[${i}];`);
        this.node(node.items, item);
      });
    }
    if (node.uniqueItems) this.fail(`!rt.uniqueItems(${v})`);
  }

  private object(node: ObjectNode, v: string): void {
    this.fail(`typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v})`);
    const o = this.fresh('o');
    this.line(`const ${o} = ${v} as Record<string, unknown>;`);
    for (const property of node.properties) {
      const key = JSON.stringify(property.name);
      const member = this.fresh('v');
      this.line(`const ${member} = ${o}[${key}];`);
      // A default applies only to a member that is not required (as in the zod schema): a
      // required member with a default must still be present.
      const optional = !property.required;
      if (optional) {
        if (property.schema.kind !== 'any') this.block(`if (${member} !== undefined) {`, () => this.node(property.schema, member));
      } else {
        if (mayAcceptUndefined(property.schema, this.ctx.components)) this.fail(`!(${key} in ${o})`);
        this.node(property.schema, member);
      }
    }
    // Extra members of any value (`additionalProperties: {}`) need no loop, as with `true`.
    const additional = node.additional;
    if (additional !== 'allow' && (additional === 'forbid' || additional.kind !== 'any')) this.additional(node.properties, additional, o);
    if (countsMembers(node)) this.memberCounts(node, o);
  }

  /**
   * `minProperties`, `maxProperties` and required members `properties` does not declare. zod
   * checks them on its parsed copy, whose members are those a for-in loop sees (inherited
   * enumerable ones included), so they are counted the same way here.
   */
  private memberCounts(node: ObjectNode, o: string): void {
    const count = this.fresh('count');
    const found = (node.requiredUndeclared ?? []).map((name) => ({ name, flag: this.fresh('has') }));
    this.line(`let ${count} = 0;`);
    for (const { flag } of found) this.line(`let ${flag} = false;`);
    const k = this.fresh('k');
    this.block(`for (const ${k} in ${o}) {`, () => {
      this.line(`${count}++;`);
      for (const { name, flag } of found) this.line(`if (${k} === ${JSON.stringify(name)}) ${flag} = true;`);
    });
    for (const { flag } of found) this.fail(`!${flag}`);
    if (node.minProperties !== undefined) this.fail(`${count} < ${node.minProperties}`);
    if (node.maxProperties !== undefined) this.fail(`${count} > ${node.maxProperties}`);
  }

  /** Members the object does not declare: refused, or checked against `additionalProperties`. */
  private additional(properties: readonly PropertyIR[], additional: 'forbid' | SchemaNode, o: string): void {
    const k = this.fresh('k');
    const declared = properties.map((p) => JSON.stringify(p.name));
    this.block(`for (const ${k} in ${o}) {`, () => {
      if (additional === 'forbid') {
        if (declared.length === 0) {
          this.line('return false;');
          return;
        }
        this.block(`switch (${k}) {`, () => {
          for (const d of declared) this.line(`case ${d}:`);
          this.line('  break;');
          this.line('default:');
          this.line('  return false;');
        });
        return;
      }
      if (declared.length > 0) this.line(`if (${declared.map((d) => `${k} === ${d}`).join(' || ')}) continue;`);
      const extra = this.fresh('v');
      this.line(`const ${extra} = ${o}[${k}];`);
      this.node(additional, extra);
    });
  }

  private union(node: UnionNode, v: string): void {
    const form = unionForm(node);
    if (form === 'single') {
      this.node(node.variants[0]!, v);
      return;
    }
    if (form === 'switch') {
      // The tag provably selects the only variant that can match (rt.discriminated).
      this.fail(`typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v})`);
      const byVariant = new Map<number, string[]>();
      for (const [value, index] of sortedEntries(node.discriminator!.selects!)) byVariant.set(index, [...(byVariant.get(index) ?? []), value]);
      const cases = [...byVariant.entries()].sort(([a], [b]) => a - b);
      this.block(`switch ((${v} as Record<string, unknown>)[${JSON.stringify(node.discriminator!.propertyName)}]) {`, () => {
        for (const [index, values] of cases) {
          for (const value of values) this.line(`case ${JSON.stringify(value)}:`);
          this.line(`  if (!${this.expression(node.variants[index]!, v)}) return false;`);
          this.line('  break;');
        }
        this.line('default:');
        this.line('  return false;');
      });
      return;
    }
    // A discriminator that does not select changes nothing here: the answer of oneOf/anyOf.
    const calls = node.variants.map((variant) => this.expression(variant, v));
    if (form === 'counted') this.fail(`${calls.map((c) => `(${c} ? 1 : 0)`).join(' + ')} !== 1`);
    else this.fail(`!(${calls.join(' || ')})`);
  }
}

/**
 * The check function of one component schema, with its type guard. Constants and helper
 * functions it needs are added to `module`.
 */
function printCheckFunction(schema: NamedSchema, id: string, guardType: string, ctx: CheckContext, module: ModuleState): string {
  const writer = new FunctionWriter(ctx, module, `$${id}$`);
  writer.node(schema.schema, 'value');
  const body = [...writer.lines, 'return true;'].map((l) => `  ${l}`);
  return [`export function ${id}(value: unknown): value is S.${guardType} {`, ...body, '}'].join('\n');
}

export interface CheckModule {
  /** Declarations of the check module, after its imports. */
  body: string;
  /** True when the body uses the shared runtime (`rt.`). */
  usesRuntime: boolean;
}

/**
 * Every check function of an API, in schema order. `guardTypes` gives the type each guard
 * narrows to: the input type where defaults make it differ from the output type.
 */
export function printChecks(
  schemas: readonly NamedSchema[],
  checkNames: ReadonlyMap<string, string>,
  guardTypes: ReadonlyMap<string, string>,
  names: NameResolver,
  writerNames: ReadonlyMap<string, string> = new Map(),
  bodyWriters: ReadonlyArray<{ id: string; node: SchemaNode; where: string }> = [],
): CheckModule {
  const ctx: WriterContext = { checkNames, writerNames, components: new Map(schemas.map((s) => [s.name, s.schema])) };
  const module = new ModuleState();
  const functions = schemas
    .filter((s) => checkNames.has(s.name))
    .map((s) => {
      const note = nameNote(names, `check:${s.name}`);
      const summary = `True when \`value\` is a valid ${s.name}: the answer of the zod schema, without a parsed copy.`;
      const doc = note ? `/**\n * ${summary}\n *\n * ${note}\n */` : `/** ${summary} */`;
      return `${doc}\n${printCheckFunction(s, checkNames.get(s.name)!, guardTypes.get(s.name) ?? names.get(s.name), ctx, module)}`;
    });
  // Writers come after every check function, so that adding them changes none of those.
  for (const s of schemas) if (writerNames.has(s.name)) functions.push(printWriterFunction(s.schema, `a ${s.name}`, writerNames.get(s.name)!, ctx, module, s.recursive));
  for (const body of bodyWriters) functions.push(printWriterFunction(body.node, `the body of ${body.where}`, body.id, ctx, module));
  const parts = [...module.constants, ...(module.constants.length ? [''] : []), ...functions.flatMap((f) => [f, '']), ...module.helpers.flatMap((h) => [h, ''])];
  const body = `${parts.join('\n').trimEnd()}\n`;
  return { body, usesRuntime: /\brt\./.test(body) };
}
