/**
 * Exact JSON Schema validation for the schemas the generator does not turn into plain zod
 * builders: `not`, `if`/`then`/`else`, `patternProperties`, `prefixItems`, `contains`,
 * `dependentSchemas`, `unevaluatedProperties`, schemas without `type`, references into the
 * middle of a schema, and the like.
 *
 * Each schema is compiled once, on first use, into a tree of closures. `$ref` values were
 * resolved by the generator: each is a JSON pointer into `SchemaTable` below. Annotations
 * (which members and items a subschema evaluated) are collected only where an
 * `unevaluatedProperties` or `unevaluatedItems` needs them, so the common path pays nothing.
 */
import { z } from 'zod';
import * as rt from './runtime.gen.js';

/** `3.0`: draft 4 with OpenAPI 3.0's `nullable`; `3.1`: JSON Schema 2020-12. */
export type Dialect = '3.0' | '3.1';

/** Schemas by the JSON pointer of their root in the source file; `$ref`s are pointers too. */
export type SchemaTable = Readonly<Record<string, unknown>>;

/**
 * For a file whose `$dynamicRef`s consult the dynamic scope: every schema resource (`$id`) by
 * the pointer of its root, with the `$dynamicAnchor`s it declares.
 */
export type DynamicScopes = Readonly<Record<string, Readonly<Record<string, string>>>>;

const NO_SCOPES: DynamicScopes = {};

/** The patterns not matched by V8's RegExp as such, by source (made by the generated code). */
export type GuardedPatterns = Readonly<Record<string, RegExp>>;

const NO_GUARDED: GuardedPatterns = {};

export interface JsonSchemaIssue {
  path: Array<string | number>;
  message: string;
}

/** Members and items evaluated by the subschemas that passed (for the unevaluated keywords). */
interface Evaluated {
  props: Set<string> | true;
  /** Items evaluated from index 0 up to (not including) this one. */
  prefix: number;
  /** Single items evaluated (by `contains`), or every item. */
  items: Set<number> | true;
}

type Path = Array<string | number>;
type Validate = (value: unknown, path: Path, issues: JsonSchemaIssue[] | undefined, seen: Evaluated | undefined) => boolean;

function newEvaluated(): Evaluated {
  return { props: new Set(), prefix: 0, items: new Set() };
}

function mergeInto(into: Evaluated, from: Evaluated): void {
  if (into.props !== true) {
    if (from.props === true) into.props = true;
    else for (const p of from.props) into.props.add(p);
  }
  into.prefix = Math.max(into.prefix, from.prefix);
  if (into.items !== true) {
    if (from.items === true) into.items = true;
    else for (const i of from.items) into.items.add(i);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Equality of JSON values: `1` equals `1.0`, member order does not matter, `0` is not `false`. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return false;
  }
}

function decimals(n: number): number {
  const text = String(n);
  const e = text.indexOf('e-');
  if (e >= 0) return Number(text.slice(e + 2)) + decimals(Number(text.slice(0, e)));
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** `multipleOf` on the decimal values written, not on their binary approximations. */
function isMultipleOf(value: number, step: number): boolean {
  const quotient = value / step;
  if (!Number.isFinite(quotient)) return false;
  if (Number.isInteger(quotient)) return true;
  const places = Math.max(decimals(value), decimals(step));
  if (places > 20) return false;
  const scale = 10 ** places;
  const a = Math.round(value * scale);
  const b = Math.round(step * scale);
  return Number.isSafeInteger(a) && Number.isSafeInteger(b) && b !== 0 && a % b === 0;
}

const FORMATS: Record<string, (value: string) => boolean> = {
  'date-time': rt.isDateTime,
  date: rt.isDate,
  time: rt.isTime,
  uri: rt.isUri,
  uuid: rt.isUuid,
  email: rt.isEmail,
  duration: rt.isDuration,
  byte: rt.isByte,
};

/** Integer formats narrow the range (int64 does not: JSON numbers are doubles). */
const INTEGER_FORMATS: Record<string, readonly [number, number]> = {
  int32: [-2147483648, 2147483647],
  int16: [-32768, 32767],
  int8: [-128, 127],
};

/**
 * `min…`/`max…` of a size (characters, members, items): `size` measures a value, or says the
 * keywords do not apply to it (undefined).
 */
function sizeBounds(
  schema: Record<string, unknown>,
  add: (check: Validate) => void,
  keywords: readonly [min: string, max: string],
  unit: string,
  size: (value: unknown) => number | undefined,
): void {
  keywords.forEach((keyword, i) => {
    const limit = schema[keyword];
    if (typeof limit !== 'number') return;
    const atLeast = i === 0;
    add((value, path, issues) => {
      const n = size(value);
      if (n === undefined || (atLeast ? n >= limit : n <= limit)) return true;
      issues?.push({ path: [...path], message: `must have ${atLeast ? 'at least' : 'at most'} ${limit} ${unit} (${keyword})` });
      return false;
    });
  });
}

/** A member name as a JSON pointer token. */
function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * A `pattern` with the Unicode semantics JSON Schema wants, or, for a pattern that is valid
 * ECMA-262 only without the `u` flag (`\:`, a lone `{`), as written without it: the
 * generator reported it, and the publisher's own tools read it so. A pattern V8 could
 * backtrack on comes ready-made from `guarded` (the generator decided how it is matched:
 * linearly, or bounded in length; see pattern-guard.gen.ts).
 */
function compilePattern(source: string, guarded: GuardedPatterns): RegExp {
  const ready = Object.hasOwn(guarded, source) ? guarded[source] : undefined;
  if (ready) return ready;
  try {
    return new RegExp(source, 'u');
  } catch {
    return new RegExp(source);
  }
}

/** Why a value fails a pattern; a bounded pattern says that a value beyond its bound is refused unmatched. */
function patternMessage(source: string, pattern: RegExp): string {
  const bound = (pattern as RegExp & { maxLength?: unknown }).maxLength;
  if (typeof bound !== 'number') return `must match ${source} (pattern)`;
  return `must match ${source} (pattern); a value longer than ${bound} characters is refused without matching, as this pattern's matching time grows faster than the value's length`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** `validate` with `entry` on top of `stack` while it runs (a dynamic scope). */
function pushedWhile<T>(stack: T[], entry: T, validate: Validate): Validate {
  return (value, path, issues, seen) => {
    stack.push(entry);
    try {
      return validate(value, path, issues, seen);
    } finally {
      stack.pop();
    }
  };
}

/** Returns the value with the defaults it lacks written in (a copy when anything is added). */
type Fill = (value: unknown) => unknown;

/**
 * readOnly and writeOnly by direction (OpenAPI 3.0.3): in a request a readOnly member is not
 * required, in a response a writeOnly one; with `refuse`, such a member present is an error.
 */
export interface DirectionMode {
  direction: 'request' | 'response';
  refuse: boolean;
}

/** The schemas of one generated module, compiled on first use. */
export class JsonSchemas {
  private readonly compiled = new Map<string, { fn: Validate | undefined }>();
  private readonly fillers = new Map<string, { fn: Fill | undefined }>();
  private readonly modes = new Map<string, JsonSchemas>();

  /** Whether any `$dynamicRef` consults the dynamic scope (else nothing keeps track of it). */
  private readonly dynamic: boolean;

  constructor(
    /** The raw schemas, read by the mocks' sampler too. */
    readonly table: SchemaTable,
    readonly dialect: Dialect,
    /** The schema resources and their dynamic anchors, read by the mocks' sampler too. */
    readonly dynamicScopes: DynamicScopes = NO_SCOPES,
    /** Patterns matched linearly or bounded in length, by source. */
    readonly guarded: GuardedPatterns = NO_GUARDED,
    private readonly mode?: DirectionMode,
  ) {
    this.dynamic = Object.keys(dynamicScopes).length > 0;
  }

  /** The same schemas as a request or a response carries them (compiled separately). */
  directed(direction: DirectionMode['direction'], refuse: boolean): JsonSchemas {
    const key = `${direction}:${refuse}`;
    let schemas = this.modes.get(key);
    if (!schemas) {
      schemas = new JsonSchemas(this.table, this.dialect, this.dynamicScopes, this.guarded, { direction, refuse });
      this.modes.set(key, schemas);
    }
    return schemas;
  }

  /** True when the member's schema (or the schema its `$ref` names) is hidden in this direction. */
  private hidden(member: unknown): boolean {
    if (!this.mode || !isObject(member)) return false;
    const flag = this.mode.direction === 'request' ? 'readOnly' : 'writeOnly';
    if (member[flag] === true) return true;
    const target = member['$ref'];
    if (typeof target !== 'string') return false;
    const resolved = this.resolve(target);
    return isObject(resolved) && resolved[flag] === true;
  }

  /** The schema at `pointer`, as a zod schema whose issues name the path and the keyword. */
  zod(pointer: string): z.ZodType<unknown> {
    const validate = this.enteredAt(pointer);
    const checked = z.unknown().superRefine((value, ctx) => {
      if (validate(value, [], undefined, undefined)) return;
      const issues: JsonSchemaIssue[] = [];
      validate(value, [], issues, undefined);
      if (issues.length === 0) issues.push({ path: [], message: 'does not match the schema' });
      for (const issue of issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    });
    // Defaults are filled in as the plain validators fill them (only where a schema has one).
    if (!this.hasDefaults(pointer, new Set())) return checked;
    const fill = this.fillerAt(pointer);
    return checked.transform((value) => fill(value));
  }

  /**
   * True when a `default` sits on a member reached through `properties`, `items`,
   * `prefixItems`, `allOf` and `$ref` from `pointer` (the places defaults are filled from).
   */
  private hasDefaults(pointer: string, seen: Set<string>): boolean {
    if (seen.has(pointer)) return false;
    seen.add(pointer);
    const schema = this.resolve(pointer);
    if (!isObject(schema)) return false;
    const children: string[] = [];
    if (typeof schema['$ref'] === 'string') children.push(schema['$ref']);
    if (this.dialect === '3.0' && typeof schema['$ref'] === 'string') return this.hasDefaults(schema['$ref'], seen);
    if (isObject(schema['properties'])) {
      for (const [name, sub] of Object.entries(schema['properties'])) {
        if (isObject(sub) && 'default' in sub) return true;
        children.push(`${pointer}/properties/${escapeToken(name)}`);
      }
    }
    for (const key of ['allOf', 'prefixItems', 'items']) {
      const list = schema[key];
      if (Array.isArray(list)) list.forEach((_, i) => children.push(`${pointer}/${key}/${i}`));
    }
    if (isObject(schema['items'])) children.push(`${pointer}/items`);
    return children.some((child) => this.hasDefaults(child, seen));
  }

  private fillerAt(pointer: string): Fill {
    let slot = this.fillers.get(pointer);
    if (!slot) {
      slot = { fn: undefined };
      this.fillers.set(pointer, slot);
      slot.fn = this.compileFill(this.resolve(pointer), pointer);
    }
    const ready = slot;
    return ready.fn ?? ((v) => ready.fn!(v));
  }

  /** Fills the defaults of `properties` (recursively), through `$ref`, `allOf` and items. */
  private compileFill(schema: unknown, pointer: string): Fill {
    if (!isObject(schema)) return (v) => v;
    if (this.dialect === '3.0' && typeof schema['$ref'] === 'string') return this.fillerAt(schema['$ref']);
    const parts: Fill[] = [];
    if (typeof schema['$ref'] === 'string') parts.push(this.fillerAt(schema['$ref']));
    if (Array.isArray(schema['allOf'])) schema['allOf'].forEach((_, i) => parts.push(this.fillerAt(`${pointer}/allOf/${i}`)));
    const members: Array<[string, Fill, boolean, unknown]> = [];
    if (isObject(schema['properties'])) {
      for (const [name, sub] of Object.entries(schema['properties'])) {
        const token = escapeToken(name);
        members.push([name, this.fillerAt(`${pointer}/properties/${token}`), isObject(sub) && 'default' in sub, isObject(sub) ? sub['default'] : undefined]);
      }
    }
    const tupleKey = Array.isArray(schema['prefixItems']) ? 'prefixItems' : Array.isArray(schema['items']) ? 'items' : undefined;
    const tuple = tupleKey ? (schema[tupleKey] as unknown[]).map((_, i) => this.fillerAt(`${pointer}/${tupleKey}/${i}`)) : [];
    const rest = isObject(schema['items']) ? this.fillerAt(`${pointer}/items`) : undefined;
    return (value) => {
      let out = value;
      if (isObject(out) && members.length > 0) {
        let copy: Record<string, unknown> | undefined;
        for (const [name, fill, hasDefault, defaultValue] of members) {
          const current = (copy ?? out) as Record<string, unknown>;
          if (!Object.prototype.hasOwnProperty.call(current, name)) {
            if (!hasDefault) continue;
            copy ??= { ...current };
            copy[name] = structuredClone(defaultValue);
            continue;
          }
          const filled = fill(current[name]);
          if (filled === current[name]) continue;
          copy ??= { ...current };
          copy[name] = filled;
        }
        if (copy) out = copy;
      }
      if (Array.isArray(out) && (tuple.length > 0 || rest)) {
        const before = out;
        const items = before.map((item, i) => (i < tuple.length ? tuple[i]!(item) : rest ? rest(item) : item));
        if (items.some((item, i) => item !== before[i])) out = items;
      }
      for (const part of parts) out = part(out);
      return out;
    };
  }

  /** The schema at `pointer` as a check function. */
  check(pointer: string): (value: unknown) => boolean {
    const validate = this.enteredAt(pointer);
    return (value) => validate(value, [], undefined, undefined);
  }

  /** `validate` with `anchors` in the dynamic scope while it runs (itself when there are none). */
  private withinScope(validate: Validate, anchors: Readonly<Record<string, string>> | undefined): Validate {
    if (anchors === undefined || Object.keys(anchors).length === 0) return validate;
    return pushedWhile(this.dynamicScope, anchors, validate);
  }

  /**
   * The anchors of the resource a reference to `pointer` enters when `pointer` lies inside it,
   * below its root (a root adds its own when compiled, and enters no resource around it).
   */
  private enteredThrough(pointer: string): Readonly<Record<string, string>> | undefined {
    // A root enters only itself: the resources around it are skipped.
    if (Object.prototype.hasOwnProperty.call(this.dynamicScopes, pointer)) return undefined;
    let around = '#';
    for (const root of Object.keys(this.dynamicScopes)) {
      if (root.length > around.length && pointer.startsWith(`${root}/`)) around = root;
    }
    return around === '#' ? undefined : this.dynamicScopes[around];
  }

  /**
   * The schema at `target` as a reference, or validation itself, enters it: with the resource
   * it lies inside in the dynamic scope while it runs (the generator refuses dynamic anchors of
   * the document itself, so a scope starts there).
   */
  private enteredAt(target: string): Validate {
    if (!this.dynamic) return this.validatorAt(target);
    let validate = this.references.get(target);
    if (!validate) {
      validate = this.withinScope(this.validatorAt(target), this.enteredThrough(target));
      this.references.set(target, validate);
    }
    return validate;
  }

  private readonly references = new Map<string, Validate>();

  /**
   * The dynamic anchors of the resources the validation in progress has entered, outermost
   * first: a `$dynamicRef` whose target declares its anchor leads to the outermost one that
   * declares the same name.
   */
  private readonly dynamicScope: Array<Readonly<Record<string, string>>> = [];

  private dynamicTarget(anchor: string, initial: string): string {
    for (const anchors of this.dynamicScope) {
      if (Object.prototype.hasOwnProperty.call(anchors, anchor)) return anchors[anchor]!;
    }
    return initial;
  }

  /** The longest key of the table that leads to `pointer`: the pointer itself, else each shorter prefix that ends before a `/`. */
  private keyFor(pointer: string): string {
    for (let end = pointer.length; end > 0; end = pointer.lastIndexOf('/', end - 1)) {
      const key = pointer.slice(0, end);
      if (Object.prototype.hasOwnProperty.call(this.table, key)) return key;
    }
    throw new Error(`no schema at ${pointer}`);
  }

  private resolve(pointer: string): unknown {
    const root = this.keyFor(pointer);
    let node: unknown = this.table[root];
    const rest = pointer.slice(root.length);
    if (rest === '') return node;
    for (const token of rest.slice(1).split('/')) {
      const key = unescapeToken(token);
      if (Array.isArray(node)) node = node[Number(key)];
      else if (isObject(node)) node = node[key];
      else node = undefined;
    }
    if (node === undefined) throw new Error(`no schema at ${pointer}`);
    return node;
  }

  private validatorAt(pointer: string): Validate {
    let slot = this.compiled.get(pointer);
    if (!slot) {
      slot = { fn: undefined };
      this.compiled.set(pointer, slot);
      slot.fn = this.compile(this.resolve(pointer), pointer);
    }
    const ready = slot;
    // A reference back into a schema still being compiled (recursion) calls through the slot.
    return ready.fn ?? ((v, p, i, s) => ready.fn!(v, p, i, s));
  }

  /** The subschema at `pointer` followed by these tokens (escaped here). */
  private sub(pointer: string, ...tokens: Array<string | number>): Validate {
    return this.validatorAt(`${pointer}/${tokens.map(escapeToken).join('/')}`);
  }

  /**
   * The dynamic scope of JSON Schema 2019-09's `$recursiveRef`: the resources with
   * `$recursiveAnchor: true` that the validation in progress has entered, outermost first.
   */
  private readonly recursiveScope: string[] = [];

  private compile(schema: unknown, pointer: string): Validate {
    let validate = this.compileSchema(schema, pointer);
    // The root of a schema resource puts its dynamic anchors in scope, however it was reached.
    if (this.dynamic && pointer !== '#' && Object.prototype.hasOwnProperty.call(this.dynamicScopes, pointer)) {
      validate = this.withinScope(validate, this.dynamicScopes[pointer]);
    }
    if (!isObject(schema) || schema['$recursiveAnchor'] !== true) return validate;
    return pushedWhile(this.recursiveScope, pointer, validate);
  }

  /**
   * Whether a `$recursiveRef`'s initial target (the generator wrote its pointer) has
   * `$recursiveAnchor: true`: then the reference leads to the outermost resource in the dynamic
   * scope that has it too; otherwise to the initial target itself.
   */
  private isRecursiveAnchor(initial: string): boolean {
    const target = this.resolve(initial);
    return isObject(target) && target['$recursiveAnchor'] === true;
  }

  private compileSchema(schema: unknown, pointer: string): Validate {
    if (schema === true) return () => true;
    if (schema === false)
      return (_v, path, issues) => {
        issues?.push({ path: [...path], message: 'no value is allowed here' });
        return false;
      };
    if (!isObject(schema)) throw new Error(`${pointer} is not a schema`);
    const draft4 = this.dialect === '3.0';
    // In draft 4 (and OpenAPI 3.0) keywords beside `$ref` are ignored.
    if (draft4 && typeof schema['$ref'] === 'string') return this.lazyRef(schema['$ref']);
    const checks: Validate[] = [];
    const collectors: Validate[] = [];
    const add = (check: Validate, collects = false): void => {
      (collects ? collectors : checks).push(check);
    };
    this.compileRef(schema, add);
    this.compileType(schema, add);
    this.compileValues(schema, add);
    this.compileNumber(schema, add, draft4);
    this.compileString(schema, add);
    this.compileApplicators(schema, pointer, add);
    this.compileObject(schema, pointer, add, draft4);
    this.compileArray(schema, pointer, add, draft4);
    const unevaluated = this.compileUnevaluated(schema, pointer);
    const all = [...checks, ...collectors];
    if (unevaluated) {
      return (value, path, issues, seen) => {
        const own = newEvaluated();
        let ok = true;
        for (const check of all) {
          if (!check(value, path, issues, own)) {
            ok = false;
            if (!issues) return false;
          }
        }
        if (!ok) return false;
        if (!unevaluated(value, path, issues, own)) return false;
        if (seen) mergeInto(seen, own);
        return true;
      };
    }
    if (all.length === 1) return all[0]!;
    return (value, path, issues, seen) => {
      let ok = true;
      for (const check of all) {
        if (!check(value, path, issues, seen)) {
          ok = false;
          if (!issues) return false;
        }
      }
      return ok;
    };
  }

  /**
   * A `$ref`: its target is compiled when a value first reaches it (not before) and kept, so
   * that later values call it directly instead of looking it up among the compiled schemas.
   */
  private lazyRef(target: string): Validate {
    let validate: Validate | undefined;
    return (v, p, i, s) => (validate ??= this.enteredAt(target))(v, p, i, s);
  }

  private compileRef(schema: Record<string, unknown>, add: (c: Validate, collects?: boolean) => void): void {
    const target = schema['$ref'];
    if (typeof target === 'string') add(this.lazyRef(target), true);
    const recursive = schema['$recursiveRef'];
    if (typeof recursive === 'string') {
      // Whether the initial target is anchored never changes: it is looked up once, not per value.
      let anchored: boolean | undefined;
      add((v, p, i, s) => {
        anchored ??= this.isRecursiveAnchor(recursive);
        const target = anchored ? (this.recursiveScope[0] ?? recursive) : recursive;
        return this.validatorAt(target)(v, p, i, s);
      }, true);
    }
    const dynamic = schema['$dynamicRef'];
    if (isObject(dynamic) && typeof dynamic['initial'] === 'string') {
      const initial = dynamic['initial'];
      const anchor = dynamic['anchor'];
      // Without a matching anchor at its target (no "bookend") it is an ordinary reference.
      if (typeof anchor !== 'string') add(this.lazyRef(initial), true);
      else add((v, p, i, s) => this.enteredAt(this.dynamicTarget(anchor, initial))(v, p, i, s), true);
    }
  }

  private compileType(schema: Record<string, unknown>, add: (c: Validate) => void): void {
    const type = schema['type'];
    if (type === undefined) return;
    const types = Array.isArray(type) ? [...(type as string[])] : [type as string];
    // OpenAPI 3.0: `nullable: true` adds null to the type (other keywords, such as enum, still apply).
    if (this.dialect === '3.0' && schema['nullable'] === true) types.push('null');
    const wanted = types.join(' or ');
    add((value, path, issues) => {
      for (const t of types) if (typeMatches(t, value)) return true;
      issues?.push({ path: [...path], message: `expected ${wanted}, received ${describe(value)} (type)` });
      return false;
    });
  }

  private compileValues(schema: Record<string, unknown>, add: (c: Validate) => void): void {
    if ('const' in schema && this.dialect !== '3.0') {
      const expected = schema['const'];
      add((value, path, issues) => {
        if (jsonEqual(value, expected)) return true;
        issues?.push({ path: [...path], message: `must be ${JSON.stringify(expected)} (const)` });
        return false;
      });
    }
    if (Array.isArray(schema['enum'])) {
      const values = schema['enum'] as unknown[];
      add((value, path, issues) => {
        for (const v of values) if (jsonEqual(value, v)) return true;
        issues?.push({ path: [...path], message: `must be one of ${JSON.stringify(values)} (enum)` });
        return false;
      });
    }
  }

  private compileNumber(schema: Record<string, unknown>, add: (c: Validate) => void, draft4: boolean): void {
    const bound = (keyword: string, test: (v: number, limit: number) => boolean, words: string): void => {
      const limit = schema[keyword];
      if (typeof limit !== 'number') return;
      let exclusive = false;
      if (draft4 && (keyword === 'minimum' || keyword === 'maximum')) {
        exclusive = schema[keyword === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'] === true;
      }
      const passes = exclusive ? (v: number) => test(v, limit) && v !== limit : (v: number) => test(v, limit);
      const label = exclusive ? `${words.replace(' or equal to', '')}` : words;
      add((value, path, issues) => {
        if (typeof value !== 'number' || passes(value)) return true;
        issues?.push({ path: [...path], message: `must be ${label} ${limit} (${keyword})` });
        return false;
      });
    };
    bound('minimum', (v, l) => v >= l, 'greater than or equal to');
    bound('maximum', (v, l) => v <= l, 'less than or equal to');
    if (!draft4) {
      bound('exclusiveMinimum', (v, l) => v > l, 'greater than');
      bound('exclusiveMaximum', (v, l) => v < l, 'less than');
    }
    const range = typeof schema['format'] === 'string' ? INTEGER_FORMATS[schema['format']] : undefined;
    if (range) {
      const name = schema['format'] as string;
      add((value, path, issues) => {
        if (typeof value !== 'number' || (value >= range[0] && value <= range[1])) return true;
        issues?.push({ path: [...path], message: `must be within the range of ${name} (format)` });
        return false;
      });
    }
    const step = schema['multipleOf'];
    if (typeof step === 'number' && step > 0) {
      add((value, path, issues) => {
        if (typeof value !== 'number' || isMultipleOf(value, step)) return true;
        issues?.push({ path: [...path], message: `must be a multiple of ${step} (multipleOf)` });
        return false;
      });
    }
  }

  private compileString(schema: Record<string, unknown>, add: (c: Validate) => void): void {
    sizeBounds(schema, add, ['minLength', 'maxLength'], 'characters', (value) => (typeof value === 'string' ? rt.codePointLength(value) : undefined));
    if (typeof schema['pattern'] === 'string') {
      const source = schema['pattern'];
      const pattern = compilePattern(source, this.guarded);
      add((value, path, issues) => {
        if (typeof value !== 'string' || pattern.test(value)) return true;
        issues?.push({ path: [...path], message: patternMessage(source, pattern) });
        return false;
      });
    }
    const format = typeof schema['format'] === 'string' ? FORMATS[schema['format']] : undefined;
    if (format) {
      const name = schema['format'] as string;
      add((value, path, issues) => {
        if (typeof value !== 'string' || format(value)) return true;
        issues?.push({ path: [...path], message: `must be a valid ${name} (format)` });
        return false;
      });
    }
  }

  private compileApplicators(schema: Record<string, unknown>, pointer: string, add: (c: Validate, collects?: boolean) => void): void {
    if (Array.isArray(schema['allOf'])) {
      const parts = schema['allOf'].map((_, i) => this.sub(pointer, 'allOf', i));
      add((value, path, issues, seen) => {
        let ok = true;
        for (const part of parts) {
          if (!part(value, path, issues, seen)) {
            ok = false;
            if (!issues) return false;
          }
        }
        return ok;
      }, true);
    }
    if (Array.isArray(schema['anyOf'])) {
      const parts = schema['anyOf'].map((_, i) => this.sub(pointer, 'anyOf', i));
      add((value, path, issues, seen) => {
        let ok = false;
        for (const part of parts) {
          if (!seen) {
            if (part(value, path, undefined, undefined)) return true;
            continue;
          }
          // Every passing branch adds its annotations: all of them must run.
          const own = newEvaluated();
          if (part(value, path, undefined, own)) {
            ok = true;
            mergeInto(seen, own);
          }
        }
        if (!ok) issues?.push({ path: [...path], message: 'must match at least one of the schemas (anyOf)' });
        return ok;
      }, true);
    }
    if (Array.isArray(schema['oneOf'])) {
      const parts = schema['oneOf'].map((_, i) => this.sub(pointer, 'oneOf', i));
      add((value, path, issues, seen) => {
        let matched = 0;
        let kept: Evaluated | undefined;
        for (const part of parts) {
          const own = seen ? newEvaluated() : undefined;
          if (part(value, path, undefined, own)) {
            matched++;
            kept = own;
            if (matched > 1) break;
          }
        }
        if (matched === 1) {
          if (seen && kept) mergeInto(seen, kept);
          return true;
        }
        issues?.push({ path: [...path], message: `must match exactly one of the schemas, matches ${matched === 0 ? 'none' : 'more than one'} (oneOf)` });
        return false;
      }, true);
    }
    if ('not' in schema) {
      const negated = this.sub(pointer, 'not');
      add((value, path, issues) => {
        if (!negated(value, path, undefined, undefined)) return true;
        issues?.push({ path: [...path], message: 'must not match the schema (not)' });
        return false;
      });
    }
    if ('if' in schema && this.dialect !== '3.0') {
      const condition = this.sub(pointer, 'if');
      const then = 'then' in schema ? this.sub(pointer, 'then') : undefined;
      const otherwise = 'else' in schema ? this.sub(pointer, 'else') : undefined;
      add((value, path, issues, seen) => {
        const own = seen ? newEvaluated() : undefined;
        if (condition(value, path, undefined, own)) {
          if (seen && own) mergeInto(seen, own);
          if (!then) return true;
          const ok = then(value, path, issues, seen);
          if (!ok) issues?.push({ path: [...path], message: 'must match "then" when "if" matches (if)' });
          return ok;
        }
        if (!otherwise) return true;
        const ok = otherwise(value, path, issues, seen);
        if (!ok) issues?.push({ path: [...path], message: 'must match "else" when "if" does not match (if)' });
        return ok;
      }, true);
    }
  }

  private compileObject(schema: Record<string, unknown>, pointer: string, add: (c: Validate, collects?: boolean) => void, draft4: boolean): void {
    sizeBounds(schema, add, ['minProperties', 'maxProperties'], 'members', (value) => (isObject(value) ? Object.keys(value).length : undefined));
    const members = isObject(schema['properties']) ? schema['properties'] : {};
    const hiddenNames = Object.keys(members).filter((name) => this.hidden(members[name]));
    if (this.mode?.refuse && hiddenNames.length > 0) {
      const flag = this.mode.direction === 'request' ? 'readOnly: a request may not carry it' : 'writeOnly: a response may not carry it';
      add((value, path, issues) => {
        if (!isObject(value)) return true;
        for (const name of hiddenNames) {
          if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
          issues?.push({ path: [...path, name], message: `member ${JSON.stringify(name)} is ${flag}` });
          return false;
        }
        return true;
      });
    }
    if (Array.isArray(schema['required'])) {
      // In a request a readOnly member is not required, in a response a writeOnly one.
      const names = (schema['required'] as string[]).filter((name) => !hiddenNames.includes(name));
      add((value, path, issues) => {
        if (!isObject(value)) return true;
        let ok = true;
        for (const name of names) {
          if (Object.prototype.hasOwnProperty.call(value, name)) continue;
          ok = false;
          if (!issues) return false;
          issues.push({ path: [...path, name], message: `required member ${JSON.stringify(name)} is missing (required)` });
        }
        return ok;
      });
    }
    const dependentRequired: Record<string, unknown> = {};
    const dependentSchemas: Record<string, Validate> = {};
    const dependencies = draft4 ? schema['dependencies'] : undefined;
    if (isObject(dependencies)) {
      for (const [name, dep] of Object.entries(dependencies)) {
        if (Array.isArray(dep)) dependentRequired[name] = dep;
        else dependentSchemas[name] = this.sub(pointer, 'dependencies', name);
      }
    }
    if (!draft4 && isObject(schema['dependentRequired'])) Object.assign(dependentRequired, schema['dependentRequired']);
    if (!draft4 && isObject(schema['dependentSchemas'])) {
      for (const name of Object.keys(schema['dependentSchemas'])) {
        dependentSchemas[name] = this.sub(pointer, 'dependentSchemas', name);
      }
    }
    const requiredPairs = Object.entries(dependentRequired).filter((e): e is [string, string[]] => Array.isArray(e[1]));
    if (requiredPairs.length > 0) {
      add((value, path, issues) => {
        if (!isObject(value)) return true;
        let ok = true;
        for (const [name, needed] of requiredPairs) {
          if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
          for (const other of needed) {
            if (Object.prototype.hasOwnProperty.call(value, other)) continue;
            ok = false;
            if (!issues) return false;
            issues.push({ path: [...path, other], message: `required member ${JSON.stringify(other)} is missing: ${JSON.stringify(name)} is present (dependentRequired)` });
          }
        }
        return ok;
      });
    }
    const schemaPairs = Object.entries(dependentSchemas);
    if (schemaPairs.length > 0) {
      add((value, path, issues, seen) => {
        if (!isObject(value)) return true;
        let ok = true;
        for (const [name, dependent] of schemaPairs) {
          if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
          if (dependent(value, path, issues, seen)) continue;
          ok = false;
          if (!issues) return false;
        }
        return ok;
      }, true);
    }
    if ('propertyNames' in schema && !draft4) {
      const names = this.sub(pointer, 'propertyNames');
      add((value, path, issues) => {
        if (!isObject(value)) return true;
        for (const key of Object.keys(value)) {
          if (names(key, path, undefined, undefined)) continue;
          issues?.push({ path: [...path, key], message: `member name ${JSON.stringify(key)} does not match the schema (propertyNames)` });
          return false;
        }
        return true;
      });
    }
    const properties = isObject(schema['properties']) ? Object.keys(schema['properties']) : [];
    const propertyChecks = properties.map((name): [string, Validate] => [name, this.sub(pointer, 'properties', name)]);
    const patterns = isObject(schema['patternProperties'])
      ? Object.keys(schema['patternProperties']).map((source): [RegExp, Validate] => [
          compilePattern(source, this.guarded),
          this.sub(pointer, 'patternProperties', source),
        ])
      : [];
    const hasAdditional = 'additionalProperties' in schema;
    const additional = hasAdditional ? this.sub(pointer, 'additionalProperties') : undefined;
    if (propertyChecks.length === 0 && patterns.length === 0 && !additional) return;
    const declared = new Set(properties);
    add((value, path, issues, seen) => {
      if (!isObject(value)) return true;
      let ok = true;
      for (const [name, check] of propertyChecks) {
        if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
        path.push(name);
        const passed = check(value[name], path, issues, undefined);
        path.pop();
        if (!passed) {
          ok = false;
          if (!issues) return false;
        }
        if (seen && seen.props !== true) seen.props.add(name);
      }
      if (patterns.length > 0 || additional) {
        for (const key of Object.keys(value)) {
          let matchedPattern = false;
          for (const [pattern, check] of patterns) {
            if (!pattern.test(key)) continue;
            matchedPattern = true;
            path.push(key);
            const passed = check(value[key], path, issues, undefined);
            path.pop();
            if (!passed) {
              ok = false;
              if (!issues) return false;
            }
          }
          if (matchedPattern) {
            if (seen && seen.props !== true) seen.props.add(key);
            continue;
          }
          if (!additional || declared.has(key)) continue;
          path.push(key);
          const passed = additional(value[key], path, undefined, undefined);
          path.pop();
          if (!passed) {
            ok = false;
            if (!issues) return false;
            issues.push({ path: [...path, key], message: `member ${JSON.stringify(key)} is not allowed or does not match (additionalProperties)` });
          }
          if (seen && seen.props !== true) seen.props.add(key);
        }
      }
      return ok;
    }, true);
  }

  private compileArray(schema: Record<string, unknown>, pointer: string, add: (c: Validate, collects?: boolean) => void, draft4: boolean): void {
    sizeBounds(schema, add, ['minItems', 'maxItems'], 'items', (value) => (Array.isArray(value) ? value.length : undefined));
    if (schema['uniqueItems'] === true) {
      add((value, path, issues) => {
        if (!Array.isArray(value)) return true;
        for (let i = 1; i < value.length; i++) {
          for (let j = 0; j < i; j++) {
            if (!jsonEqual(value[i], value[j])) continue;
            issues?.push({ path: [...path, i], message: `items ${j} and ${i} are equal (uniqueItems)` });
            return false;
          }
        }
        return true;
      });
    }
    // Draft 4: `items` as an array is the tuple form, followed by `additionalItems`.
    const tupleKey = draft4 ? (Array.isArray(schema['items']) ? 'items' : undefined) : Array.isArray(schema['prefixItems']) ? 'prefixItems' : undefined;
    const tuple = tupleKey ? (schema[tupleKey] as unknown[]).map((_, i) => this.sub(pointer, tupleKey, i)) : [];
    const restKey = draft4 ? (tupleKey ? 'additionalItems' : 'items') : 'items';
    const rest = restKey in schema && !(draft4 && restKey === 'items' && Array.isArray(schema['items'])) ? this.sub(pointer, restKey) : undefined;
    if (tuple.length > 0 || rest) {
      add((value, path, issues, seen) => {
        if (!Array.isArray(value)) return true;
        let ok = true;
        for (let i = 0; i < value.length; i++) {
          const check = i < tuple.length ? tuple[i] : rest;
          if (!check) break;
          path.push(i);
          const passed = check(value[i], path, issues, undefined);
          path.pop();
          if (!passed) {
            ok = false;
            if (!issues) return false;
          }
        }
        if (seen) seen.prefix = Math.max(seen.prefix, rest ? value.length : Math.min(tuple.length, value.length));
        return ok;
      }, true);
    }
    if ('contains' in schema && !draft4) {
      const contains = this.sub(pointer, 'contains');
      const min = typeof schema['minContains'] === 'number' ? schema['minContains'] : 1;
      const max = typeof schema['maxContains'] === 'number' ? schema['maxContains'] : Infinity;
      add((value, path, issues, seen) => {
        if (!Array.isArray(value)) return true;
        let found = 0;
        for (let i = 0; i < value.length; i++) {
          if (!contains(value[i], path, undefined, undefined)) continue;
          found++;
          if (seen && seen.items !== true) seen.items.add(i);
        }
        if (found >= min && found <= max) return true;
        const keyword = found < min ? (min === 1 && !('minContains' in schema) ? 'contains' : 'minContains') : 'maxContains';
        issues?.push({ path: [...path], message: `${found} items match "contains", expected ${found < min ? `at least ${min}` : `at most ${max}`} (${keyword})` });
        return false;
      }, true);
    }
  }

  private compileUnevaluated(schema: Record<string, unknown>, pointer: string): Validate | undefined {
    if (this.dialect === '3.0') return undefined;
    const props = 'unevaluatedProperties' in schema ? this.sub(pointer, 'unevaluatedProperties') : undefined;
    const items = 'unevaluatedItems' in schema ? this.sub(pointer, 'unevaluatedItems') : undefined;
    if (!props && !items) return undefined;
    return (value, path, issues, seen) => {
      const own = seen!;
      if (props && isObject(value) && own.props !== true) {
        const evaluated = own.props;
        for (const key of Object.keys(value)) {
          if (evaluated.has(key)) continue;
          path.push(key);
          const passed = props(value[key], path, undefined, undefined);
          path.pop();
          if (!passed) {
            issues?.push({ path: [...path, key], message: `member ${JSON.stringify(key)} is not allowed or does not match (unevaluatedProperties)` });
            return false;
          }
          evaluated.add(key);
        }
      }
      if (items && Array.isArray(value) && own.items !== true) {
        const single = own.items;
        for (let i = own.prefix; i < value.length; i++) {
          if (single.has(i)) continue;
          path.push(i);
          const passed = items(value[i], path, undefined, undefined);
          path.pop();
          if (!passed) {
            issues?.push({ path: [...path, i], message: `item ${i} is not allowed or does not match (unevaluatedItems)` });
            return false;
          }
        }
        own.items = true;
      }
      return true;
    };
  }
}
