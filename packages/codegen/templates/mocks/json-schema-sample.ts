/**
 * Seeded valid values for the schemas the JSON Schema runtime validates
 * (validators/json-schema.ts), walked from their raw form in the runtime's table.
 *
 * A value is built from the keywords where construction can promise validity (types, bounds,
 * lengths, patterns, members, items); `allOf`, `$ref` and a chosen `anyOf`/`oneOf`/`if`
 * branch are merged into one set of constraints first, so that an object gets the members of
 * every part at once. What construction cannot promise (`not`, the exclusivity of `oneOf`,
 * `contains` limits, uniqueness across merged schemas...) is settled by the runtime's own check:
 * a refused candidate is built again from forked randomness, a bounded number of times, and a
 * whole call has a bounded effort, so no schema makes it loop.
 */
import { sampleAnyFormat } from './formats.js';
import { SampleError } from './sample-error.js';
import { type Random } from './random.js';
import { patternTest, type PatternTest } from '../validators/linear-regex.js';
import { PatternSampleError, sampleFromPattern } from './regex-sample.js';

export { SampleError } from './sample-error.js';

/** Schema resources by the pointer of their root, with their dynamic anchors (the runtime's `dynamicScopes`). */
export type DynamicScopes = Readonly<Record<string, Readonly<Record<string, string>>>>;

export interface JsonSampleOptions {
  table: Readonly<Record<string, unknown>>;
  dialect: '3.0' | '3.1';
  /** Where the table's `$dynamicRef`s consult the dynamic scope: its resources and their anchors. */
  dynamicScopes?: DynamicScopes;
  random: Random;
  /** Reference time for dates (ms since epoch). */
  now: number;
  /** readOnly members are left out of requests, writeOnly ones out of responses. */
  direction?: 'request' | 'response';
  /** Check of any pointer (the JSON Schema runtime's `check`), used to test candidates for not/oneOf/if/contains etc. */
  check: (pointer: string) => (value: unknown) => boolean;
  /** Nesting depth after which optional members/items are no longer added and recursion takes the shortest way; default 4. */
  softDepth?: number;
}

/** The call has spent its effort: no retry can help, so it ends the whole call at once. */
class EffortSpent extends SampleError {}

/** Nesting beyond this is a required cycle, not a deep value. */
const HARD_DEPTH = 32;
const DEFAULT_SOFT_DEPTH = 4;
const TOP_ATTEMPTS = 30;
/** Retries of a subschema whose candidate its check refused, before its parent retries. */
const INNER_ATTEMPTS = 4;
/** Subschemas built per call, over all attempts: keeps nested retries from multiplying without end. */
const EFFORT = 20_000;
/** Unbounded numbers are drawn from a span this wide near zero: values a person would write. */
const PLAIN_SPAN = 1000;

const WORDS = ['alpha', 'amber', 'basin', 'cedar', 'delta', 'ember', 'falcon', 'harbor', 'juniper', 'lumen', 'meadow', 'nova', 'orbit', 'pearl', 'quartz', 'river', 'summit', 'tidal', 'violet', 'willow'];

/** The runtime narrows numbers by these formats (int64 not: JSON numbers are doubles). */
const INTEGER_FORMATS: Record<string, readonly [number, number]> = {
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
};
const NUMBER_FORMATS = new Set(['int8', 'int16', 'int32', 'int64', 'float', 'double']);

type Json = Record<string, unknown>;
type TypeName = 'null' | 'boolean' | 'string' | 'integer' | 'number' | 'array' | 'object';
const TYPE_NAMES: readonly TypeName[] = ['null', 'boolean', 'string', 'integer', 'number', 'array', 'object'];
/** For a schema that says nothing of its type: mostly strings, as hand-written data is. */
const UNTYPED_CHOICES: readonly TypeName[] = ['string', 'string', 'string', 'string', 'integer', 'integer', 'number', 'boolean', 'object', 'array', 'null'];

/** Keywords that say which type a schema without `type` is meant for. */
const FAMILY_KEYWORDS: Record<'object' | 'array' | 'string' | 'number', readonly string[]> = {
  object: ['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties', 'propertyNames', 'dependentRequired', 'dependentSchemas', 'dependencies', 'unevaluatedProperties', 'discriminator'],
  array: ['items', 'prefixItems', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'contains', 'minContains', 'maxContains', 'unevaluatedItems'],
  string: ['minLength', 'maxLength', 'pattern'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
};

/** One schema object all of whose keywords the value must meet; `parent` is the part that applied it. */
interface Part {
  schema: Json;
  pointer: string;
  parent: Part | undefined;
}

/** The constraints of one value: every part, with the choices made on the way. */
interface Gathered {
  parts: Part[];
  /** Members whose value is fixed (a discriminator's tag). */
  forced: Map<string, unknown>;
  /** Types a `not: { type }` excludes. */
  negated: Set<string>;
  /** The first schema entered with `$recursiveAnchor: true` while gathering. */
  recursiveRoot: string | undefined;
  /** The dynamic anchors of the schema resources entered while gathering, in order. */
  entered: Array<Readonly<Record<string, string>>>;
  seen: Set<string>;
}

interface Context {
  table: Readonly<Record<string, unknown>>;
  draft4: boolean;
  scopes: DynamicScopes;
  /** Whether a `$dynamicRef` consults the dynamic scope anywhere in the table. */
  dynamic: boolean;
  now: number;
  check: (pointer: string) => (value: unknown) => boolean;
  checks: Map<string, (value: unknown) => boolean>;
  hiddenFlag: 'readOnly' | 'writeOnly' | undefined;
  spent: number;
  /** How often the check refused a candidate of each type, by the schemas it was for: later attempts try the others first. */
  refused: Map<string, Map<TypeName, number>>;
}

interface Walk {
  random: Random;
  depth: number;
  softDepth: number;
  /**
   * The outermost schema with `$recursiveAnchor: true` the value is inside: where a
   * `$recursiveRef` leads, as the runtime's dynamic scope has it.
   */
  recursiveRoot: string | undefined;
  /** The dynamic anchors in scope for the value, outermost resource first (as the runtime keeps them). */
  dynamicScope: ReadonlyArray<Readonly<Record<string, string>>>;
}

/**
 * A value the schema at `pointer` accepts, built by walking the schema; throws SampleError
 * naming the JSON pointer of the (sub)schema it could not satisfy within a bounded effort.
 * Every value returned passes `options.check(pointer)`; the same options and seed give the
 * same value.
 */
export function sampleJsonSchema(pointer: string, options: JsonSampleOptions): unknown {
  const ctx = createContext(options);
  const softDepth = options.softDepth ?? DEFAULT_SOFT_DEPTH;
  let reason = 'no value was accepted';
  for (let attempt = 0; attempt < TOP_ATTEMPTS; attempt++) {
    // Later attempts go shallower: the deeper a value, the more there is to go wrong.
    const walk: Walk = {
      random: attempt === 0 ? options.random : options.random.fork(`attempt${attempt}`),
      depth: 0,
      softDepth: Math.max(0, softDepth - Math.floor(attempt / 8)),
      recursiveRoot: undefined,
      dynamicScope: entryScope(ctx, pointer),
    };
    try {
      const value = construct(ctx, [pointer], walk, []);
      if (passes(ctx, [pointer], value)) return value;
      noteRefused(ctx, [pointer], value);
      reason = `the check refused ${preview(value)}`;
    } catch (error) {
      if (!(error instanceof SampleError)) throw error;
      reason = error.message;
      if (error instanceof EffortSpent) break;
    }
  }
  throw new SampleError(pointer, `no valid value found (${reason})`);
}

function createContext(options: JsonSampleOptions): Context {
  const scopes = options.dynamicScopes ?? {};
  return {
    table: options.table,
    draft4: options.dialect === '3.0',
    scopes,
    dynamic: Object.keys(scopes).length > 0,
    now: options.now,
    check: options.check,
    checks: new Map(),
    hiddenFlag: options.direction === 'request' ? 'readOnly' : options.direction === 'response' ? 'writeOnly' : undefined,
    spent: 0,
    refused: new Map(),
  };
}

// ---------------------------------------------------------------------------------------------
// Pointers and checks

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The node at `pointer`: found as the runtime finds it, below the longest table key that leads to it. */
function resolve(ctx: Context, pointer: string): unknown {
  for (let end = pointer.length; end > 0; end = pointer.lastIndexOf('/', end - 1)) {
    const key = pointer.slice(0, end);
    if (!hasOwn(ctx.table, key)) continue;
    let node: unknown = ctx.table[key];
    for (const token of pointer.slice(end).split('/').slice(1)) {
      const name = unescapeToken(token);
      node = Array.isArray(node) ? node[Number(name)] : isObject(node) && hasOwn(node, name) ? node[name] : undefined;
    }
    return node;
  }
  return undefined;
}

function resolveOrThrow(ctx: Context, pointer: string): unknown {
  const node = resolve(ctx, pointer);
  if (node === undefined) throw new SampleError(pointer, 'no schema at this pointer');
  return node;
}

function checkOf(ctx: Context, pointer: string): (value: unknown) => boolean {
  let check = ctx.checks.get(pointer);
  if (!check) {
    check = ctx.check(pointer);
    ctx.checks.set(pointer, check);
  }
  return check;
}

/** Whether every schema at `roots` accepts the value (a check that throws refuses it). */
function passes(ctx: Context, roots: readonly string[], value: unknown): boolean {
  try {
    return roots.every((pointer) => checkOf(ctx, pointer)(value));
  } catch (error) {
    if (error instanceof SampleError) throw error;
    return false;
  }
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** JSON equality: member order does not matter, `1` equals `1.0`. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => hasOwn(b, key) && jsonEqual((a as Json)[key], (b as Json)[key]));
}

const PATTERNS = new Map<string, PatternTest | null>();

/** A pattern as the runtime compiles it (Unicode where valid so), tested without backtracking; null when it does not compile. */
function compilePattern(source: string): PatternTest | null {
  let regex = PATTERNS.get(source);
  if (regex === undefined) {
    try {
      regex = patternTest(source);
    } catch {
      regex = null;
    }
    PATTERNS.set(source, regex);
  }
  return regex;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

// ---------------------------------------------------------------------------------------------
// Walking

function child(w: Walk, label: string | number): Walk {
  return { ...w, random: w.random.fork(label), depth: w.depth + 1 };
}

function isShallow(w: Walk): boolean {
  return w.depth >= w.softDepth;
}

/**
 * A value every schema at `roots` accepts (and the synthetic `extra` parts describe): built,
 * checked, and built again from forked randomness while the check refuses it.
 */
function sampleAll(ctx: Context, roots: readonly string[], w: Walk, extra: readonly Part[] = []): unknown {
  let failure: SampleError | undefined;
  for (let attempt = 0; attempt < INNER_ATTEMPTS; attempt++) {
    const tryWalk = attempt === 0 ? w : { ...w, random: w.random.fork(`retry${attempt}`) };
    let value: unknown;
    try {
      value = construct(ctx, roots, tryWalk, extra);
    } catch (error) {
      if (!(error instanceof SampleError) || error instanceof EffortSpent) throw error;
      failure = error;
      continue;
    }
    // Inside a dynamic scope a subschema checked on its own may answer otherwise than in
    // place: there the caller's check decides.
    if (inDynamicScope(ctx, w) || passes(ctx, roots, value)) return value;
    noteRefused(ctx, roots, value);
    failure = new SampleError(roots[0] ?? '#', `the check refused ${preview(value)}`);
  }
  throw failure ?? new SampleError(roots[0] ?? '#', 'no value found');
}

/** One candidate for `roots`, built from their merged constraints (not checked here). */
function construct(ctx: Context, roots: readonly string[], w: Walk, extra: readonly Part[]): unknown {
  const at = roots[0] ?? '#';
  if (++ctx.spent > EFFORT) throw new EffortSpent(at, `gave up after building ${EFFORT} subschemas`);
  if (w.depth > HARD_DEPTH) throw new SampleError(at, `values nest deeper than ${HARD_DEPTH} levels (a required cycle?)`);
  const g = gatherAll(ctx, roots, w, extra);
  const inner: Walk = { ...w, recursiveRoot: w.recursiveRoot ?? g.recursiveRoot, dynamicScope: g.entered.length > 0 ? [...w.dynamicScope, ...g.entered] : w.dynamicScope };
  const example = exampleOf(ctx, g, roots, inner);
  if (example.found) return example.value;
  const listed = listedValues(ctx, g);
  if (listed) return pickListed(ctx, listed, roots, inner, at);
  // A type whose keywords cannot be met (`contains: false` for arrays) leaves the others.
  let failure: SampleError | undefined;
  for (const type of typeOrder(ctx, g, inner, at, roots)) {
    try {
      return BUILDERS[type](ctx, g, inner, at);
    } catch (error) {
      if (!(error instanceof SampleError) || error instanceof EffortSpent) throw error;
      failure ??= error;
    }
  }
  throw failure ?? new SampleError(at, 'no type can be built');
}

type Builder = (ctx: Context, g: Gathered, w: Walk, at: string) => unknown;

const BUILDERS: Record<TypeName, Builder> = {
  null: () => null,
  boolean: (_ctx, _g, w) => w.random.chance(0.5),
  string: buildString,
  integer: (ctx, g, w, at) => buildNumber(ctx, g, w, at, true),
  number: (ctx, g, w, at) => buildNumber(ctx, g, w, at, false),
  array: buildArray,
  object: buildObject,
};

// ---------------------------------------------------------------------------------------------
// Gathering: `$ref`, `allOf` and the chosen branches merged into one list of parts

function gatherAll(ctx: Context, roots: readonly string[], w: Walk, extra: readonly Part[]): Gathered {
  const g: Gathered = { parts: [...extra], forced: new Map(), negated: new Set(), recursiveRoot: undefined, entered: [], seen: new Set() };
  for (const root of roots) gatherAt(ctx, g, root, undefined, w);
  return g;
}

function gatherAt(ctx: Context, g: Gathered, pointer: string, parent: Part | undefined, w: Walk): void {
  gather(ctx, g, resolveOrThrow(ctx, pointer), pointer, parent, w);
}

function gather(ctx: Context, g: Gathered, node: unknown, pointer: string, parent: Part | undefined, w: Walk): void {
  if (node === false) throw new SampleError(pointer, 'the schema `false` accepts no value');
  // A schema met again on the same value adds nothing (and a `$ref` cycle would not end).
  if (!isObject(node) || g.seen.has(pointer)) return;
  g.seen.add(pointer);
  // In draft 4 (OpenAPI 3.0) the keywords beside `$ref` are ignored.
  if (ctx.draft4 && typeof node['$ref'] === 'string') return gatherAt(ctx, g, node['$ref'], parent, w);
  const part: Part = { schema: node, pointer, parent };
  g.parts.push(part);
  if (!ctx.draft4 && node['$recursiveAnchor'] === true) g.recursiveRoot ??= pointer;
  if (ctx.dynamic && pointer !== '#' && hasOwn(ctx.scopes, pointer)) enter(g.entered, ctx.scopes[pointer]);
  gatherReferences(ctx, g, part, w);
  if (Array.isArray(node['allOf'])) node['allOf'].forEach((_, i) => gatherAt(ctx, g, `${pointer}/allOf/${i}`, part, w));
  for (const keyword of ['anyOf', 'oneOf'] as const) gatherBranch(ctx, g, part, keyword, w);
  if (!ctx.draft4) gatherCondition(ctx, g, part, w);
  gatherNegation(ctx, g, part);
}

function gatherReferences(ctx: Context, g: Gathered, part: Part, w: Walk): void {
  const { schema } = part;
  if (typeof schema['$ref'] === 'string') gatherReferenced(ctx, g, schema['$ref'], part, w);
  if (ctx.draft4) return;
  const recursive = schema['$recursiveRef'];
  if (typeof recursive === 'string') gatherAt(ctx, g, recursiveTarget(ctx, recursive, w.recursiveRoot ?? g.recursiveRoot), part, w);
  // The generator wrote `{ initial, anchor }`: the anchor, when present, is looked up in the dynamic scope.
  const dynamic = schema['$dynamicRef'];
  if (isObject(dynamic) && typeof dynamic['initial'] === 'string') {
    const anchor = dynamic['anchor'];
    const target = typeof anchor === 'string' ? dynamicTarget([...w.dynamicScope, ...g.entered], anchor, dynamic['initial']) : dynamic['initial'];
    gatherReferenced(ctx, g, target, part, w);
  }
}

/** A reference's target, entering the resource it lies inside (its root enters itself when gathered). */
function gatherReferenced(ctx: Context, g: Gathered, target: string, part: Part, w: Walk): void {
  if (ctx.dynamic) enter(g.entered, enteredThrough(ctx, target));
  gatherAt(ctx, g, target, part, w);
}

function enter(scope: Array<Readonly<Record<string, string>>>, anchors: Readonly<Record<string, string>> | undefined): void {
  if (anchors !== undefined && Object.keys(anchors).length > 0) scope.push(anchors);
}

/** The anchors of the resource `pointer` lies inside, below its root; nothing for a root or the document. */
function enteredThrough(ctx: Context, pointer: string): Readonly<Record<string, string>> | undefined {
  if (hasOwn(ctx.scopes, pointer)) return undefined;
  let around = '#';
  for (const root of Object.keys(ctx.scopes)) {
    if (root.length > around.length && pointer.startsWith(`${root}/`)) around = root;
  }
  return around === '#' ? undefined : ctx.scopes[around];
}

/** The scope a value starts in at `pointer`: the anchors of the resource it lies inside. */
function entryScope(ctx: Context, pointer: string): Array<Readonly<Record<string, string>>> {
  const scope: Array<Readonly<Record<string, string>>> = [];
  if (ctx.dynamic) enter(scope, enteredThrough(ctx, pointer));
  return scope;
}

/** The outermost resource in scope that declares `anchor`, else the reference's own target. */
function dynamicTarget(scope: ReadonlyArray<Readonly<Record<string, string>>>, anchor: string, initial: string): string {
  for (const anchors of scope) if (hasOwn(anchors, anchor)) return anchors[anchor]!;
  return initial;
}

/**
 * Inside a dynamic scope a subschema checked on its own may answer otherwise than in place
 * (its own check starts a scope of its own): there the caller's check decides.
 */
function inDynamicScope(ctx: Context, w: Walk): boolean {
  return w.recursiveRoot !== undefined || (ctx.dynamic && w.dynamicScope.length > 0);
}

/** Where a `$recursiveRef` leads: the outermost anchored schema when its initial target is anchored too. */
function recursiveTarget(ctx: Context, initial: string, outermost: string | undefined): string {
  const target = resolve(ctx, initial);
  return isObject(target) && target['$recursiveAnchor'] === true ? (outermost ?? initial) : initial;
}

/** One branch of an `anyOf`/`oneOf`, chosen at random; deep down, one that does not recurse. */
function gatherBranch(ctx: Context, g: Gathered, part: Part, keyword: 'anyOf' | 'oneOf', w: Walk): void {
  const branches = part.schema[keyword];
  if (!Array.isArray(branches) || branches.length === 0) return;
  const open = branches.map((_, i) => i).filter((i) => branches[i] !== false);
  if (open.length === 0) throw new SampleError(`${part.pointer}/${keyword}`, 'every branch is `false`');
  const leaves = isShallow(w) ? open.filter((i) => !refersOnward(branches[i])) : [];
  const index = w.random.pick(leaves.length > 0 ? leaves : open);
  gatherAt(ctx, g, `${part.pointer}/${keyword}/${index}`, part, w);
  const tag = discriminatorTag(part.schema['discriminator'], branches[index]);
  if (tag) g.forced.set(tag.member, tag.value);
}

/** Whether a schema holds a reference anywhere (taken, deep down, only when nothing else is left). */
function refersOnward(node: unknown, budget = { left: 200 }): boolean {
  if (--budget.left < 0 || node === null || typeof node !== 'object') return false;
  if (!Array.isArray(node) && (['$ref', '$recursiveRef'].some((key) => typeof (node as Json)[key] === 'string') || isObject((node as Json)['$dynamicRef']))) return true;
  return Object.values(node).some((value) => refersOnward(value, budget));
}

/**
 * The OpenAPI discriminator's tag for the chosen branch: the `mapping` key that names its
 * `$ref`, else the component name the `$ref` ends in. The runtime does not read the
 * discriminator; the tag keeps the value consistent for those who do.
 */
function discriminatorTag(discriminator: unknown, branch: unknown): { member: string; value: string } | undefined {
  if (!isObject(discriminator) || typeof discriminator['propertyName'] !== 'string') return undefined;
  if (!isObject(branch) || typeof branch['$ref'] !== 'string') return undefined;
  const ref = branch['$ref'];
  const member = discriminator['propertyName'];
  const mapping = isObject(discriminator['mapping']) ? discriminator['mapping'] : {};
  for (const [tag, target] of Object.entries(mapping)) {
    if (typeof target === 'string' && (target === ref || lastToken(target) === lastToken(ref))) return { member, value: tag };
  }
  const component = /^#\/components\/schemas\/([^/]+)$/.exec(ref);
  return component ? { member, value: unescapeToken(component[1]!) } : undefined;
}

function lastToken(pointer: string): string {
  return unescapeToken(pointer.slice(pointer.lastIndexOf('/') + 1));
}

/**
 * `if`/`then`/`else`: either the value is made to meet `if` and `then`, or it is made from
 * `else` (whether it then misses `if`, the check decides).
 */
function gatherCondition(ctx: Context, g: Gathered, part: Part, w: Walk): void {
  const { schema, pointer } = part;
  if (!('if' in schema) || !('then' in schema || 'else' in schema)) return;
  const condition = schema['if'];
  const meetCondition = condition === true || (condition !== false && w.random.chance(0.5));
  if (meetCondition) {
    gatherAt(ctx, g, `${pointer}/if`, part, w);
    if ('then' in schema) gatherAt(ctx, g, `${pointer}/then`, part, w);
  } else if ('else' in schema) {
    gatherAt(ctx, g, `${pointer}/else`, part, w);
  }
}

/** `not` is left to the check, except what it plainly says: no value at all, or not these types. */
function gatherNegation(ctx: Context, g: Gathered, part: Part): void {
  if (!('not' in part.schema)) return;
  const negated = resolve(ctx, `${part.pointer}/not`);
  if (negated === true || (isObject(negated) && Object.keys(negated).length === 0)) {
    throw new SampleError(`${part.pointer}/not`, '`not` of a schema that accepts everything accepts nothing');
  }
  if (!isObject(negated) || Object.keys(negated).some((key) => key !== 'type')) return;
  const types = Array.isArray(negated['type']) ? negated['type'] : [negated['type']];
  for (const type of types) if (typeof type === 'string') g.negated.add(type);
}

// ---------------------------------------------------------------------------------------------
// Examples, enum and const, type

/** Sometimes a value the schema itself offers (`examples`, `example`, `default`), when the check takes it. */
function exampleOf(ctx: Context, g: Gathered, roots: readonly string[], w: Walk): { found: boolean; value?: unknown } {
  if (roots.length === 0) return { found: false };
  const offered: unknown[] = [];
  for (const { schema } of g.parts) {
    if (Array.isArray(schema['examples'])) offered.push(...schema['examples']);
    if ('example' in schema) offered.push(schema['example']);
    if ('default' in schema) offered.push(schema['default']);
  }
  if (offered.length === 0 || !w.random.chance(0.2)) return { found: false };
  const value = w.random.pick(offered);
  return passes(ctx, roots, value) ? { found: true, value: structuredClone(value) } : { found: false };
}

/** The values `enum`s and `const`s allow (every list at once), or undefined when there are none. */
function listedValues(ctx: Context, g: Gathered): unknown[] | undefined {
  let values: unknown[] | undefined;
  for (const { schema } of g.parts) {
    const list = !ctx.draft4 && 'const' in schema ? [schema['const']] : undefined;
    for (const allowed of [list, Array.isArray(schema['enum']) ? schema['enum'] : undefined]) {
      if (!allowed) continue;
      values = values ? values.filter((v) => allowed.some((a) => jsonEqual(a, v))) : [...allowed];
    }
  }
  return values;
}

function pickListed(ctx: Context, values: unknown[], roots: readonly string[], w: Walk, at: string): unknown {
  const valid = roots.length === 0 ? values : values.filter((value) => passes(ctx, roots, value));
  // In a dynamic scope a subschema's own check may refuse what fits in place.
  const choices = valid.length > 0 ? valid : inDynamicScope(ctx, w) ? values : [];
  if (choices.length === 0) throw new SampleError(at, 'no value of `enum`/`const` satisfies every keyword');
  return structuredClone(w.random.pick(choices));
}

/** The types every part's `type` allows (with 3.0's `nullable`), minus those a `not` excludes; undefined for "any". */
function allowedTypes(ctx: Context, g: Gathered): Set<TypeName> | undefined {
  let allowed: Set<TypeName> | undefined;
  for (const { schema } of g.parts) {
    const type = schema['type'];
    if (type === undefined) continue;
    const listed = (Array.isArray(type) ? type : [type]).filter((t): t is TypeName => TYPE_NAMES.includes(t as TypeName));
    if (ctx.draft4 && schema['nullable'] === true) listed.push('null');
    allowed = intersectTypes(allowed, listed);
  }
  if (g.negated.size === 0) return allowed;
  const rest = new Set(allowed ?? TYPE_NAMES);
  for (const type of g.negated) {
    rest.delete(type as TypeName);
    if (type === 'number') rest.delete('integer');
  }
  return rest;
}

/** `number` allows integers too: their meet is `integer`. */
function intersectTypes(current: Set<TypeName> | undefined, types: readonly TypeName[]): Set<TypeName> {
  if (!current) return new Set(types);
  const next = new Set<TypeName>();
  for (const type of types) {
    if (current.has(type)) next.add(type);
    else if (type === 'integer' && current.has('number')) next.add('integer');
    else if (type === 'number' && current.has('integer')) next.add('integer');
  }
  return next;
}

function hintedFamilies(g: Gathered): Set<string> {
  const families = new Set<string>();
  for (const { schema } of g.parts) {
    for (const [family, keywords] of Object.entries(FAMILY_KEYWORDS)) {
      if (keywords.some((keyword) => keyword in schema)) families.add(family);
    }
    if (typeof schema['format'] === 'string') families.add(NUMBER_FORMATS.has(schema['format']) ? 'number' : 'string');
  }
  if (g.forced.size > 0) families.add('object');
  return families;
}

function familyOf(type: TypeName): string {
  return type === 'integer' ? 'number' : type;
}

function typeOf(value: unknown): TypeName {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'object' ? 'object' : typeof value === 'boolean' ? 'boolean' : 'string';
}

function noteRefused(ctx: Context, roots: readonly string[], value: unknown): void {
  const key = roots.join('\n');
  const counts = ctx.refused.get(key) ?? new Map<TypeName, number>();
  counts.set(typeOf(value), (counts.get(typeOf(value)) ?? 0) + 1);
  ctx.refused.set(key, counts);
}

/**
 * The types to build, in order: first one chosen among those allowed, preferring what the
 * keywords are written for (mostly; now and then any, for keywords that mislead) and what
 * the check has refused least often, `null` rarely; then the other allowed types.
 */
function typeOrder(ctx: Context, g: Gathered, w: Walk, at: string, roots: readonly string[]): TypeName[] {
  const allowed = allowedTypes(ctx, g);
  if (allowed && allowed.size === 0) throw new SampleError(at, 'no type satisfies every `type` (and `not`)');
  const all = allowed ? [...allowed] : UNTYPED_CHOICES;
  const refused = ctx.refused.get(roots.join('\n'));
  const least = Math.min(...all.map((type) => refused?.get(type) ?? 0));
  const pool = all.filter((type) => (refused?.get(type) ?? 0) === least);
  const families = hintedFamilies(g);
  const hinted = pool.filter((type) => families.has(familyOf(type)));
  let choices = hinted.length > 0 && w.random.chance(0.9) ? hinted : pool;
  if (choices.some((t) => t !== 'null') && choices.includes('null')) choices = w.random.chance(0.05) ? ['null'] : choices.filter((t) => t !== 'null');
  const first = w.random.pick(choices);
  return [first, ...new Set(all.filter((type) => type !== first))];
}

// ---------------------------------------------------------------------------------------------
// Strings

interface StringFacets {
  min: number;
  max: number;
  patterns: string[];
  formats: string[];
}

function stringFacets(g: Gathered): StringFacets {
  const facets: StringFacets = { min: 0, max: Infinity, patterns: [], formats: [] };
  for (const { schema } of g.parts) {
    if (typeof schema['minLength'] === 'number') facets.min = Math.max(facets.min, Math.ceil(schema['minLength']));
    if (typeof schema['maxLength'] === 'number') facets.max = Math.min(facets.max, Math.floor(schema['maxLength']));
    if (typeof schema['pattern'] === 'string') facets.patterns.push(schema['pattern']);
    if (typeof schema['format'] === 'string') facets.formats.push(schema['format']);
  }
  return facets;
}

function stringFits(facets: StringFacets, value: string): boolean {
  const length = codePoints(value);
  if (length < facets.min || length > facets.max) return false;
  return facets.patterns.every((source) => compilePattern(source)?.test(value) === true);
}

/** A realistic string: a formatted value, else one the pattern makes, else words; lengths in code points. */
function buildString(ctx: Context, g: Gathered, w: Walk, at: string): string {
  const facets = stringFacets(g);
  if (facets.min > facets.max) throw new SampleError(at, `no string is at least ${facets.min} and at most ${facets.max} characters long`);
  for (const format of facets.formats) {
    const value = sampleAnyFormat(format, w.random, ctx.now);
    if (value !== undefined && stringFits(facets, value)) return value;
  }
  if (facets.patterns.length > 0) return patternString(facets, w, at);
  return plainText(w.random, facets.min, facets.max);
}

function patternString(facets: StringFacets, w: Walk, at: string): string {
  let reason = 'no candidate met every pattern and the length bounds';
  for (let attempt = 0; attempt < 8; attempt++) {
    // With several patterns each gets a turn as the generator (the others are tested).
    const source = facets.patterns[attempt % facets.patterns.length]!;
    try {
      const value = sampleFromPattern(source, {
        random: w.random.fork(`pattern${attempt}`),
        minLength: facets.min,
        ...(Number.isFinite(facets.max) ? { maxLength: facets.max } : {}),
      });
      if (stringFits(facets, value)) return value;
    } catch (error) {
      if (!(error instanceof PatternSampleError)) throw error;
      reason = error.message;
    }
  }
  throw new SampleError(at, `no string found for ${facets.patterns.map((p) => JSON.stringify(p)).join(' and ')} (${reason})`);
}

/** Words, between `min` and `max` code points long. */
function plainText(random: Random, min: number, max: number): string {
  let text = random.pick(WORDS);
  while (text.length < min) text += ` ${random.pick(WORDS)}`;
  if (codePoints(text) > max) text = [...text].slice(0, max).join('');
  // A cut may end in the space between two words.
  return text.endsWith(' ') ? `${text.slice(0, -1)}x` : text;
}

// ---------------------------------------------------------------------------------------------
// Numbers

interface NumberRange {
  low: number;
  high: number;
  lowOpen: boolean;
  highOpen: boolean;
  steps: number[];
}

function numberRange(ctx: Context, g: Gathered): NumberRange {
  const range: NumberRange = { low: -Infinity, high: Infinity, lowOpen: false, highOpen: false, steps: [] };
  for (const { schema } of g.parts) {
    // Draft 4's exclusive bounds are flags on minimum/maximum; 2020-12's are bounds of their own.
    raise(range, schema['minimum'], ctx.draft4 && schema['exclusiveMinimum'] === true);
    lower(range, schema['maximum'], ctx.draft4 && schema['exclusiveMaximum'] === true);
    if (!ctx.draft4) {
      raise(range, schema['exclusiveMinimum'], true);
      lower(range, schema['exclusiveMaximum'], true);
    }
    const formatRange = typeof schema['format'] === 'string' ? INTEGER_FORMATS[schema['format']] : undefined;
    if (formatRange) {
      raise(range, formatRange[0], false);
      lower(range, formatRange[1], false);
    }
    if (typeof schema['multipleOf'] === 'number' && schema['multipleOf'] > 0) range.steps.push(schema['multipleOf']);
  }
  return range;
}

function raise(range: NumberRange, limit: unknown, open: boolean): void {
  if (typeof limit !== 'number' || !(limit > range.low || (limit === range.low && open))) return;
  range.low = limit;
  range.lowOpen = open;
}

function lower(range: NumberRange, limit: unknown, open: boolean): void {
  if (typeof limit !== 'number' || !(limit < range.high || (limit === range.high && open))) return;
  range.high = limit;
  range.highOpen = open;
}

function withinRange(range: NumberRange, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const aboveLow = range.lowOpen ? value > range.low : value >= range.low;
  const belowHigh = range.highOpen ? value < range.high : value <= range.high;
  return aboveLow && belowHigh;
}

/** The part of the range a person would pick from: near zero, at most PLAIN_SPAN wide, positive where it can be. */
function plainWindow(range: NumberRange): [number, number] {
  const { low, high } = range;
  if (low >= 0) return [low, Math.min(high, low + PLAIN_SPAN)];
  if (high <= 0) return [Math.max(low, high - PLAIN_SPAN), high];
  return [0, Math.min(high, PLAIN_SPAN)];
}

function buildNumber(ctx: Context, g: Gathered, w: Walk, at: string, integer: boolean): number {
  const range = numberRange(ctx, g);
  const steps = integer ? [...range.steps, 1] : range.steps;
  return steps.length > 0 ? steppedNumber(range, steps, w.random, at) : decimalNumber(range, w.random, at);
}

/** Two decimals, as amounts are written; a range too narrow for that gets its middle or a closed end. */
function decimalNumber(range: NumberRange, random: Random, at: string): number {
  const [from, to] = plainWindow(range);
  for (let attempt = 0; attempt < 8; attempt++) {
    const raw = from + random.next() * (to - from);
    const value = Math.abs(raw) < 1e13 ? Math.round(raw * 100) / 100 : raw;
    if (withinRange(range, value)) return value;
  }
  const candidates = [range.low + (range.high - range.low) / 2, range.low, range.high, from, to];
  const found = candidates.find((value) => withinRange(range, value));
  if (found === undefined) throw new SampleError(at, `no number lies between ${range.low} and ${range.high}`);
  return found;
}

/** Multiples `k * scaled / 10^places`: a decimal step, held as an integer so that it is exact. */
interface Step {
  size: number;
  valueOf(k: number): number;
}

/**
 * The least common multiple of the steps, in decimal arithmetic (the runtime checks
 * multipleOf on the decimals written: 12.34 is a multiple of 0.01). A step too fine or too
 * large for that is used as it is, and the check decides.
 */
function commonStep(steps: readonly number[]): Step {
  const places = Math.max(...steps.map(decimalPlaces));
  const scale = 10 ** places;
  const scaled = steps.map((step) => Math.round(step * scale));
  const exact = places <= 15 && scaled.every((s) => Number.isSafeInteger(s) && s > 0);
  const lcm = exact ? scaled.reduce((a, b) => (a / gcd(a, b)) * b) : NaN;
  if (!Number.isSafeInteger(lcm)) {
    const size = Math.max(...steps);
    return { size, valueOf: (k) => k * size };
  }
  return { size: lcm / scale, valueOf: (k) => Number(((k * lcm) / scale).toFixed(places)) };
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

function decimalPlaces(value: number): number {
  const [mantissa, exponent] = String(value).split('e');
  const fraction = mantissa!.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent ?? 0));
}

function steppedNumber(range: NumberRange, steps: readonly number[], random: Random, at: string): number {
  const step = commonStep(steps);
  const fits = (k: number) => withinRange(range, step.valueOf(k));
  // Division is off by one now and then in binary: nudge the ends onto the first multiples inside.
  let first = Number.isFinite(range.low) ? Math.floor(range.low / step.size) : -Infinity;
  let last = Number.isFinite(range.high) ? Math.ceil(range.high / step.size) : Infinity;
  for (let nudge = 0; nudge < 3 && Number.isFinite(first) && !fits(first); nudge++) first++;
  for (let nudge = 0; nudge < 3 && Number.isFinite(last) && !fits(last); nudge++) last--;
  if (first > last || (Number.isFinite(first) && !fits(first))) {
    throw new SampleError(at, `no multiple of ${steps.join(' and ')} lies between ${range.low} and ${range.high}`);
  }
  const [from, to] = plainWindow(range);
  const low = Math.max(first, Math.ceil(from / step.size));
  const high = Math.min(last, Math.max(Math.floor(to / step.size), low + 3));
  for (let attempt = 0; attempt < 4; attempt++) {
    const k = low <= high ? random.int(low, high) : first;
    if (fits(k)) return step.valueOf(k) + 0;
  }
  if (Number.isFinite(first)) return step.valueOf(first) + 0;
  throw new SampleError(at, `no multiple of ${steps.join(' and ')} found between ${range.low} and ${range.high}`);
}

// ---------------------------------------------------------------------------------------------
// Arrays

interface ContainsSpec {
  pointer: string;
  part: Part;
  min: number;
  max: number;
}

/** The tuple and the schema for the items after it, as each dialect spells them. */
function arrayForm(ctx: Context, part: Part): { tuple: string | undefined; length: number; rest: string | undefined } {
  const { schema, pointer } = part;
  // Draft 4: `items` as a list is the tuple and `additionalItems` follows it; 2020-12: `prefixItems`, then `items`.
  const tupleKey = ctx.draft4 ? (Array.isArray(schema['items']) ? 'items' : undefined) : Array.isArray(schema['prefixItems']) ? 'prefixItems' : undefined;
  const restKey = ctx.draft4 && tupleKey ? 'additionalItems' : 'items';
  return {
    tuple: tupleKey ? `${pointer}/${tupleKey}` : undefined,
    length: tupleKey ? (schema[tupleKey] as unknown[]).length : 0,
    rest: restKey in schema ? `${pointer}/${restKey}` : undefined,
  };
}

function isWithin(part: Part, ancestor: Part): boolean {
  for (let p: Part | undefined = part; p; p = p.parent) if (p === ancestor) return true;
  return false;
}

/**
 * The schemas item `i` must meet, or false when no item may stand there. `unevaluatedItems`
 * applies where nothing within its own schema (its part and the parts it applied) evaluated
 * the item.
 */
function itemPointers(ctx: Context, parts: readonly Part[], i: number, containsHere: readonly Part[]): string[] | false {
  const pointers: string[] = [];
  for (const part of parts) {
    const form = arrayForm(ctx, part);
    if (i < form.length) pointers.push(`${form.tuple}/${i}`);
    else if (form.rest) pointers.push(form.rest);
    if (ctx.draft4 || !('unevaluatedItems' in part.schema)) continue;
    const evaluated = parts.some((q) => isWithin(q, part) && (i < arrayForm(ctx, q).length || arrayForm(ctx, q).rest !== undefined || containsHere.includes(q)));
    if (!evaluated) pointers.push(`${part.pointer}/unevaluatedItems`);
  }
  return pointers.some((pointer) => resolve(ctx, pointer) === false) ? false : pointers;
}

function containsSpecs(ctx: Context, parts: readonly Part[], at: string): ContainsSpec[] {
  if (ctx.draft4) return [];
  const specs: ContainsSpec[] = [];
  for (const part of parts) {
    if (!('contains' in part.schema)) continue;
    const min = typeof part.schema['minContains'] === 'number' ? part.schema['minContains'] : 1;
    const max = typeof part.schema['maxContains'] === 'number' ? part.schema['maxContains'] : Infinity;
    if (min > max) throw new SampleError(at, `minContains ${min} exceeds maxContains ${max}`);
    specs.push({ pointer: `${part.pointer}/contains`, part, min, max });
  }
  return specs;
}

/** The most items allowed: `maxItems`, and the tuple's length where nothing may follow it. */
function maxItemCount(ctx: Context, parts: readonly Part[]): number {
  let max = Infinity;
  for (const part of parts) {
    if (typeof part.schema['maxItems'] === 'number') max = Math.min(max, Math.floor(part.schema['maxItems']));
    const form = arrayForm(ctx, part);
    if (form.rest && resolve(ctx, form.rest) === false) max = Math.min(max, form.length);
  }
  return max;
}

function itemCount(ctx: Context, g: Gathered, w: Walk, specs: readonly ContainsSpec[], at: string): number {
  const minItems = Math.max(0, ...g.parts.map((p) => (typeof p.schema['minItems'] === 'number' ? Math.ceil(p.schema['minItems']) : 0)));
  const min = Math.max(minItems, ...specs.map((s) => s.min));
  const max = maxItemCount(ctx, g.parts);
  if (min > max) throw new SampleError(at, `no array has at least ${min} and at most ${max} items`);
  if (isShallow(w)) return min;
  const tuple = Math.max(0, ...g.parts.map((p) => arrayForm(ctx, p).length));
  const count = w.random.int(min, Math.min(max, Math.max(min, tuple) + 2));
  // Tuples read best complete.
  return tuple > count && w.random.chance(0.7) ? Math.min(tuple, max) : count;
}

/** Which items stand for each `contains`: as many as it needs (now and then one more), at random places. */
function containsPlaces(specs: readonly ContainsSpec[], count: number, w: Walk): Map<number, ContainsSpec[]> {
  const places = new Map<number, ContainsSpec[]>();
  for (const spec of specs) {
    const wanted = Math.min(count, spec.min + (!isShallow(w) && spec.max > spec.min && w.random.chance(0.3) ? 1 : 0));
    const free = Array.from({ length: count }, (_, i) => i);
    for (let n = 0; n < wanted; n++) {
      const index = free.splice(w.random.int(0, free.length - 1), 1)[0]!;
      places.set(index, [...(places.get(index) ?? []), spec]);
    }
  }
  return places;
}

function buildArray(ctx: Context, g: Gathered, w: Walk, at: string): unknown[] {
  const specs = containsSpecs(ctx, g.parts, at);
  const count = itemCount(ctx, g, w, specs, at);
  const places = containsPlaces(specs, count, w);
  const unique = g.parts.some((p) => p.schema['uniqueItems'] === true);
  // Items not placed for a bounded `contains` must not match it, or they would count too.
  const bounded = specs.filter((s) => Number.isFinite(s.max)).map((s) => s.pointer);
  const items: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const here = places.get(i) ?? [];
    const pointers = itemPointers(ctx, g.parts, i, here.map((s) => s.part));
    if (pointers === false) throw new SampleError(at, `no item may stand at index ${i}`);
    const avoid = here.length > 0 ? [] : bounded;
    items.push(sampleItem(ctx, [...pointers, ...here.map((s) => s.pointer)], child(w, i), { unique, items, avoid }, at));
  }
  return items;
}

function sampleItem(ctx: Context, pointers: string[], w: Walk, rules: { unique: boolean; items: unknown[]; avoid: string[] }, at: string): unknown {
  const plain = !rules.unique && rules.avoid.length === 0;
  for (let attempt = 0; attempt < 10; attempt++) {
    const item = sampleAll(ctx, pointers, attempt === 0 ? w : { ...w, random: w.random.fork(`again${attempt}`) });
    if (plain) return item;
    if (rules.unique && rules.items.some((other) => jsonEqual(other, item))) continue;
    if (rules.avoid.some((pointer) => passes(ctx, [pointer], item))) continue;
    return item;
  }
  throw new SampleError(at, `no distinct item found for index ${rules.items.length}${rules.avoid.length > 0 ? ' outside `contains`' : ''}`);
}

// ---------------------------------------------------------------------------------------------
// Objects

/** Declared member names of every part, in the order written. */
function declaredNames(g: Gathered): string[] {
  const names = new Set<string>();
  for (const { schema } of g.parts) if (isObject(schema['properties'])) for (const name of Object.keys(schema['properties'])) names.add(name);
  return [...names];
}

/** Whether a part declares the member hidden in this direction (on its schema or on the schema its `$ref` names). */
function hiddenIn(ctx: Context, part: Part, name: string): boolean {
  const properties = part.schema['properties'];
  if (!ctx.hiddenFlag || !isObject(properties) || !hasOwn(properties, name)) return false;
  const member = properties[name];
  if (!isObject(member)) return false;
  if (member[ctx.hiddenFlag] === true) return true;
  const target = typeof member['$ref'] === 'string' ? resolve(ctx, member['$ref']) : undefined;
  return isObject(target) && target[ctx.hiddenFlag] === true;
}

function isHidden(ctx: Context, g: Gathered, name: string): boolean {
  return g.parts.some((part) => hiddenIn(ctx, part, name));
}

/** `required` of every part, except members a part hides in this direction (the runtime does not require those). */
function requiredNames(ctx: Context, g: Gathered): string[] {
  const names: string[] = [];
  for (const part of g.parts) {
    if (!Array.isArray(part.schema['required'])) continue;
    for (const name of part.schema['required']) if (typeof name === 'string' && !hiddenIn(ctx, part, name)) names.push(name);
  }
  return names;
}

/** Which of a part's keywords speak for member `name`: its declaration, the patterns it matches, else additionalProperties. */
function ownMemberPointers(part: Part, name: string): { pointers: string[]; evaluated: boolean } {
  const { schema, pointer } = part;
  const pointers: string[] = [];
  if (isObject(schema['properties']) && hasOwn(schema['properties'], name)) pointers.push(`${pointer}/properties/${escapeToken(name)}`);
  if (isObject(schema['patternProperties'])) {
    for (const source of Object.keys(schema['patternProperties'])) {
      if (compilePattern(source)?.test(name)) pointers.push(`${pointer}/patternProperties/${escapeToken(source)}`);
    }
  }
  if (pointers.length === 0 && 'additionalProperties' in schema) pointers.push(`${pointer}/additionalProperties`);
  return { pointers, evaluated: pointers.length > 0 };
}

/**
 * The schemas member `name` must meet, or false when it may not be there. `unevaluatedProperties`
 * applies where nothing within its own schema evaluated the member.
 */
function memberPointers(ctx: Context, g: Gathered, name: string): string[] | false {
  const pointers: string[] = [];
  const evaluatedBy: Part[] = [];
  for (const part of g.parts) {
    const own = ownMemberPointers(part, name);
    pointers.push(...own.pointers);
    if (own.evaluated) evaluatedBy.push(part);
  }
  if (!ctx.draft4) {
    for (const part of g.parts) {
      if ('unevaluatedProperties' in part.schema && !evaluatedBy.some((q) => isWithin(q, part))) pointers.push(`${part.pointer}/unevaluatedProperties`);
    }
  }
  return pointers.some((pointer) => resolve(ctx, pointer) === false) ? false : pointers;
}

/** Whether member `name` may be present: some keyword allows it, and every `propertyNames` takes it. */
function nameAllowed(ctx: Context, g: Gathered, name: string): boolean {
  if (memberPointers(ctx, g, name) === false) return false;
  if (ctx.draft4) return true;
  return g.parts.every((part) => !('propertyNames' in part.schema) || passes(ctx, [`${part.pointer}/propertyNames`], name));
}

function propertyLimits(g: Gathered): { min: number; max: number } {
  let min = 0;
  let max = Infinity;
  for (const { schema } of g.parts) {
    if (typeof schema['minProperties'] === 'number') min = Math.max(min, Math.ceil(schema['minProperties']));
    if (typeof schema['maxProperties'] === 'number') max = Math.min(max, Math.floor(schema['maxProperties']));
  }
  return { min, max };
}

function buildObject(ctx: Context, g: Gathered, w: Walk, at: string): Json {
  const chosen = new Set<string>([...g.forced.keys(), ...requiredNames(ctx, g)]);
  const limits = propertyLimits(g);
  if (limits.min > limits.max) throw new SampleError(at, `no object has at least ${limits.min} and at most ${limits.max} members`);
  chooseOptional(ctx, g, w, chosen, limits);
  expandDependencies(ctx, g, w, chosen);
  addExtraMembers(ctx, g, w, chosen, limits, at);
  return memberValues(ctx, g, w, chosen, at);
}

/** Optional declared members: each now and then, none deep down, as many as minProperties needs. */
function chooseOptional(ctx: Context, g: Gathered, w: Walk, chosen: Set<string>, limits: { min: number; max: number }): void {
  const shallow = isShallow(w);
  for (const name of declaredNames(g)) {
    if (chosen.has(name) || chosen.size >= limits.max) continue;
    const needed = chosen.size < limits.min;
    if (!needed && (shallow || !w.random.chance(0.6))) continue;
    if (!isHidden(ctx, g, name) && nameAllowed(ctx, g, name)) chosen.add(name);
  }
}

/**
 * dependentRequired, dependentSchemas and draft 4's dependencies, for the members chosen:
 * required names are added, dependent schemas gathered like `allOf` branches (their
 * `required` and declarations count from then on). Bounded: each schema is gathered once.
 */
function expandDependencies(ctx: Context, g: Gathered, w: Walk, chosen: Set<string>): void {
  const applied = new Set<string>();
  for (let round = 0; round < 16; round++) {
    const before = chosen.size + applied.size;
    for (const part of [...g.parts]) {
      for (const [keyword, trigger, dependency] of dependencyEntries(ctx, part)) {
        if (!chosen.has(trigger)) continue;
        if (Array.isArray(dependency)) {
          for (const name of dependency) if (typeof name === 'string') chosen.add(name);
          continue;
        }
        const pointer = `${part.pointer}/${keyword}/${escapeToken(trigger)}`;
        if (applied.has(pointer)) continue;
        applied.add(pointer);
        gatherAt(ctx, g, pointer, part, w);
      }
    }
    for (const name of [...g.forced.keys(), ...requiredNames(ctx, g)]) chosen.add(name);
    if (chosen.size + applied.size === before) return;
  }
}

function dependencyEntries(ctx: Context, part: Part): Array<[keyword: string, trigger: string, dependency: unknown]> {
  const entries: Array<[string, string, unknown]> = [];
  const keywords = ctx.draft4 ? ['dependencies'] : ['dependentRequired', 'dependentSchemas'];
  for (const keyword of keywords) {
    const map = part.schema[keyword];
    if (isObject(map)) for (const [trigger, dependency] of Object.entries(map)) entries.push([keyword, trigger, dependency]);
  }
  return entries;
}

/** Whether the object reads as a map (members named by patterns or open to a schema), where a few entries look natural. */
function isMapLike(g: Gathered): boolean {
  return g.parts.some((p) => isObject(p.schema['patternProperties']) || isObject(p.schema['additionalProperties']));
}

/** Members beyond the declared ones: those minProperties needs, and a few entries of a map (or of an object that declares none). */
function addExtraMembers(ctx: Context, g: Gathered, w: Walk, chosen: Set<string>, limits: { min: number; max: number }, at: string): void {
  let wanted = Math.max(0, limits.min - chosen.size);
  if (!isShallow(w) && declaredNames(g).length === 0 && w.random.chance(isMapLike(g) ? 0.7 : 0.3)) wanted = Math.max(wanted, w.random.int(1, 3));
  wanted = Math.min(wanted, limits.max - chosen.size);
  const needed = Math.max(0, limits.min - chosen.size);
  let added = 0;
  for (let attempt = 0; added < wanted && attempt < wanted * 8 + 8; attempt++) {
    const name = extraName(ctx, g, { ...w, random: w.random.fork(`name${attempt}`) });
    if (name === undefined || chosen.has(name) || !nameAllowed(ctx, g, name)) continue;
    chosen.add(name);
    added++;
  }
  if (added < needed) throw new SampleError(at, `found no names for the ${needed} more members minProperties needs`);
}

/** A member name: from a pattern of patternProperties, else from propertyNames, else a word. */
function extraName(ctx: Context, g: Gathered, w: Walk): string | undefined {
  const patterns = g.parts.flatMap((part) =>
    isObject(part.schema['patternProperties']) ? Object.keys(part.schema['patternProperties']).filter((s) => resolve(ctx, `${part.pointer}/patternProperties/${escapeToken(s)}`) !== false) : [],
  );
  if (patterns.length > 0 && w.random.chance(0.8)) {
    try {
      return sampleFromPattern(w.random.pick(patterns), { random: w.random.fork('pattern'), minLength: 1, maxLength: 24 });
    } catch (error) {
      if (!(error instanceof PatternSampleError)) throw error;
    }
  }
  const names = ctx.draft4 ? [] : g.parts.filter((p) => 'propertyNames' in p.schema).map((p) => `${p.pointer}/propertyNames`);
  if (names.length > 0) return nameFromSchemas(ctx, names, w);
  const word = w.random.pick(WORDS);
  return w.random.chance(0.5) ? word : `${word}${w.random.int(1, 99)}`;
}

const STRING_PART: Part = { schema: { type: 'string' }, pointer: '#', parent: undefined };

function nameFromSchemas(ctx: Context, pointers: string[], w: Walk): string | undefined {
  try {
    const name = sampleAll(ctx, pointers, w, [STRING_PART]);
    return typeof name === 'string' ? name : undefined;
  } catch (error) {
    if (!(error instanceof SampleError) || error instanceof EffortSpent) throw error;
    return undefined;
  }
}

/** The members' values, declared members first in the order written. */
function memberValues(ctx: Context, g: Gathered, w: Walk, chosen: Set<string>, at: string): Json {
  const declared = declaredNames(g).filter((name) => chosen.has(name));
  const order = [...declared, ...[...chosen].filter((name) => !declared.includes(name))];
  const out: Json = {};
  for (const name of order) {
    if (g.forced.has(name)) {
      out[name] = structuredClone(g.forced.get(name));
      continue;
    }
    const pointers = memberPointers(ctx, g, name);
    if (pointers === false) throw new SampleError(at, `member ${JSON.stringify(name)} is needed but not allowed`);
    // `defineProperty`: a member named `__proto__` is a member like any other.
    Object.defineProperty(out, name, { value: sampleAll(ctx, pointers, child(w, name)), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
