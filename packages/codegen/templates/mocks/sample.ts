/**
 * Seeded values for the schemas of an API, walked from the generator's intermediate
 * representation (the same nodes the validators were printed from). Values are built to be
 * valid; whoever returns one to a user checks it with the generated validator first
 * (`sampleValid`), so a keyword this walk reads loosely costs a retry, never a wrong value.
 *
 * Schemas the validators leave to the JSON Schema runtime (`json` nodes) are sampled from
 * their raw form by json-schema-sample.ts.
 */
import { sampleAnyFormat } from './formats.js';
import { type Random } from './random.js';
import { patternTest, type PatternTest } from '../validators/linear-regex.js';
import { PatternSampleError, sampleFromPattern } from './regex-sample.js';
import { hintFor, isPluralName, type HintVocabulary } from './hints.js';
import { SampleError } from './sample-error.js';

/** The nodes of the generator's IR, as far as sampling reads them (they are emitted as data). */
export type MockNode =
  | (NodeMeta & { kind: 'any' })
  | (NodeMeta & { kind: 'never' })
  | (NodeMeta & { kind: 'boolean' })
  | (NodeMeta & { kind: 'null' })
  | (NodeMeta & { kind: 'ref'; name: string })
  | (NodeMeta & { kind: 'string'; minLength?: number; maxLength?: number; patterns?: string[]; format?: string; annotatedFormat?: string; enum?: string[] })
  | (NodeMeta & {
      kind: 'number';
      integer: boolean;
      format?: string;
      minimum?: number;
      maximum?: number;
      exclusiveMinimum?: number;
      exclusiveMaximum?: number;
      multipleOf?: number;
      enum?: number[];
    })
  | (NodeMeta & { kind: 'literal'; values: Array<string | number | boolean | null> })
  | (NodeMeta & { kind: 'array'; items: MockNode; minItems?: number; maxItems?: number; uniqueItems?: boolean })
  | (NodeMeta & {
      kind: 'object';
      properties: Array<{ name: string; schema: MockNode; required: boolean }>;
      additional: 'allow' | 'forbid' | MockNode;
      minProperties?: number;
      maxProperties?: number;
      requiredUndeclared?: string[];
    })
  | (NodeMeta & {
      kind: 'union';
      mode: 'oneOf' | 'anyOf';
      variants: MockNode[];
      discriminator?: { propertyName: string; mapping: Record<string, number> };
      /** Proven: at most one variant accepts any value (then "exactly one" needs no care). */
      exclusive?: boolean;
    })
  | (NodeMeta & { kind: 'intersection'; parts: MockNode[] })
  | (NodeMeta & { kind: 'json'; mode?: { direction: 'request' | 'response'; refuse: boolean } });

interface NodeMeta {
  pointer: string;
  readOnly?: boolean;
  writeOnly?: boolean;
  nullable?: boolean;
  default?: unknown;
}

export { SampleError } from './sample-error.js';

/** Samples a `json` node (the JSON Schema runtime's schemas) at its pointer. */
export type JsonNodeSampler = (node: Extract<MockNode, { kind: 'json' }>, random: Random, depth: number) => unknown;

export interface SampleContext {
  /** Component schemas (and their per-direction variants) by their IR name. */
  schemas: Readonly<Record<string, MockNode>>;
  /** Examples of component schemas by IR name, used by `preferExamples`. */
  examples?: Readonly<Record<string, readonly unknown[]>>;
  random: Random;
  /** Reference time for dates, ms since the epoch. */
  now: number;
  /** Members hidden in this direction (readOnly in requests, writeOnly in responses) are left out. */
  direction?: 'request' | 'response';
  /** Below this depth, optional members and extra items are no longer added. Default 4. */
  softDepth?: number;
  /** Take a component schema's own example where it has one (the caller's check decides). */
  preferExamples?: boolean;
  /**
   * The words of name hints (hints.ts): `neutral` (the default) for any API, `open-finance`
   * for this API family's files, whose hints were made for its members and come before formats.
   */
  hints?: HintVocabulary;
  json?: JsonNodeSampler;
  /**
   * Whether the component schema of that name accepts the value (undefined when unknown): lets
   * a `oneOf` value be made again when another variant accepts it too.
   */
  accepts?: (name: string, value: unknown) => boolean | undefined;
}

/** How deep references may nest before a schema counts as unsatisfiable (infinite recursion). */
const HARD_DEPTH = 32;
const DEFAULT_SOFT_DEPTH = 4;
/** Numbers without bounds are drawn from here: values a person would write. */
const PLAIN_RANGE = { min: 0, max: 1000 } as const;
const FORMAT_RANGES: Record<string, { min: number; max: number }> = {
  int8: { min: -128, max: 127 },
  int16: { min: -32768, max: 32767 },
  int32: { min: -2147483648, max: 2147483647 },
};

interface Walk {
  ctx: SampleContext;
  random: Random;
  depth: number;
  /** Member name the value is for, for realistic strings. */
  name?: string;
  softDepth: number;
  /** Add every optional member of this object (a `oneOf` variant tells itself apart by them). */
  full?: boolean;
}

/** A value for `node`, built to be valid (not checked: see `sampleValid`). */
export function sampleNode(node: MockNode, ctx: SampleContext, name?: string): unknown {
  return walk(node, { ctx, random: ctx.random, depth: 0, softDepth: ctx.softDepth ?? DEFAULT_SOFT_DEPTH, ...(name ? { name } : {}) });
}

/**
 * A value for `node` that `check` accepts: sampled again with forked randomness until one is,
 * at most `attempts` times; then a SampleError naming the node's pointer and the last reason.
 */
export function sampleValid(node: MockNode, ctx: SampleContext, check: (value: unknown) => string | undefined, attempts = 24): unknown {
  let reason = 'no value was accepted';
  for (let attempt = 0; attempt < attempts; attempt++) {
    // Later attempts take examples less and go shallower: what failed may be either.
    const tryCtx: SampleContext = {
      ...ctx,
      random: attempt === 0 ? ctx.random : ctx.random.fork(attempt),
      preferExamples: ctx.preferExamples === true && attempt < 2,
      softDepth: Math.max(1, (ctx.softDepth ?? DEFAULT_SOFT_DEPTH) - Math.floor(attempt / 6)),
    };
    let value: unknown;
    try {
      value = sampleNode(node, tryCtx);
    } catch (error) {
      if (!(error instanceof SampleError) && !(error instanceof PatternSampleError)) throw error;
      reason = (error as Error).message;
      continue;
    }
    const problem = check(value);
    if (problem === undefined) return value;
    reason = `a generated value was refused by the validator: ${problem}`;
  }
  throw new SampleError(node.pointer, `no valid value found in ${attempts} attempts (${reason})`);
}

function walk(node: MockNode, w: Walk): unknown {
  // Deep down, null ends a nullable recursion.
  if (node.nullable && node.kind !== 'null' && w.random.chance(w.depth >= w.softDepth ? 0.9 : 0.05)) return null;
  if (node.default !== undefined && w.random.chance(0.15)) return structuredClone(node.default);
  return SAMPLERS[node.kind](node as never, w);
}

type Sampler<K extends MockNode['kind']> = (node: Extract<MockNode, { kind: K }>, w: Walk) => unknown;

/** One sampler per node kind: a kind without one does not compile. */
const SAMPLERS: { [K in MockNode['kind']]: Sampler<K> } = {
  any: (_node, w) => plainText(w),
  never: (node) => {
    throw new SampleError(node.pointer, 'the schema accepts no value');
  },
  null: () => null,
  boolean: (_node, w) => w.random.chance(0.5),
  literal: (node, w) => w.random.pick(node.values),
  ref: sampleRef,
  string: sampleString,
  number: sampleNumber,
  array: sampleArray,
  object: sampleObject,
  union: sampleUnion,
  intersection: sampleIntersection,
  json: (node, w) => {
    if (!w.ctx.json) throw new SampleError(node.pointer, 'no sampler for schemas of the JSON Schema runtime');
    return w.ctx.json(node, w.random.fork(node.pointer), w.depth);
  },
};

function sampleRef(node: Extract<MockNode, { kind: 'ref' }>, w: Walk): unknown {
  const target = w.ctx.schemas[node.name];
  if (!target) throw new SampleError(node.pointer, `no schema named ${JSON.stringify(node.name)}`);
  if (w.depth >= HARD_DEPTH) throw new SampleError(node.pointer, `references nest deeper than ${HARD_DEPTH} (a required cycle?)`);
  const examples = w.ctx.preferExamples ? w.ctx.examples?.[node.name] : undefined;
  if (examples && examples.length > 0) return structuredClone(w.random.pick(examples));
  return walk(target, { ...w, depth: w.depth + 1 });
}

/**
 * A string from what the file says first (enum, format), then from the member's name (a hint
 * that meets the keywords), then from its pattern or lengths. This family's hints were made
 * for its own members and formats, and keep the place they always had, before the format.
 */
function sampleString(node: Extract<MockNode, { kind: 'string' }>, w: Walk): string {
  if (node.enum && node.enum.length > 0) return w.random.pick(node.enum);
  const fits = (value: string) => stringFits(node, value);
  const vocabulary = w.ctx.hints ?? 'neutral';
  const hint = () => (w.name === undefined ? undefined : hintFor(w.name, w.random, w.ctx.now, vocabulary));
  if (vocabulary === 'open-finance') {
    const hinted = hint();
    if (hinted !== undefined && fits(hinted)) return hinted;
  }
  const format = node.format ?? node.annotatedFormat;
  const formatted = format ? sampleAnyFormat(format, w.random, w.ctx.now) : undefined;
  if (formatted !== undefined && fits(formatted)) return formatted;
  // A name says nothing of a value its format already shapes (a `date` hint for a date-time).
  if (vocabulary === 'neutral' && formatted === undefined) {
    const hinted = hint();
    if (hinted !== undefined && fits(hinted)) return hinted;
  }
  const patterns = node.patterns ?? [];
  if (patterns.length > 0) {
    for (let attempt = 0; attempt < 8; attempt++) {
      const value = sampleFromPattern(patterns[0]!, {
        random: w.random.fork(attempt),
        ...(node.minLength !== undefined ? { minLength: node.minLength } : {}),
        ...(node.maxLength !== undefined ? { maxLength: node.maxLength } : {}),
      });
      if (fits(value)) return value;
    }
    throw new SampleError(node.pointer, `no string found that matches ${patterns.map((p) => JSON.stringify(p)).join(' and ')} within the length bounds`);
  }
  return plainText(w, node.minLength ?? 0, node.maxLength);
}

/** Whether a string meets the string keywords of the node (the format is the caller's concern). */
function stringFits(node: Extract<MockNode, { kind: 'string' }>, value: string): boolean {
  const length = [...value].length;
  if (node.minLength !== undefined && length < node.minLength) return false;
  if (node.maxLength !== undefined && length > node.maxLength) return false;
  return (node.patterns ?? []).every((pattern) => compiled(pattern).test(value));
}

const PATTERN_CACHE = new Map<string, PatternTest>();

/** A pattern as the validators compile it (with the `u` flag where it is valid with it), tested without backtracking. */
function compiled(pattern: string): PatternTest {
  let regex = PATTERN_CACHE.get(pattern);
  if (!regex) {
    regex = patternTest(pattern);
    PATTERN_CACHE.set(pattern, regex);
  }
  return regex;
}

const WORDS = ['alpha', 'amber', 'basin', 'cedar', 'delta', 'ember', 'falcon', 'harbor', 'juniper', 'lumen', 'meadow', 'nova', 'orbit', 'pearl', 'quartz', 'river', 'summit', 'tidal', 'violet', 'willow'];

/** Words of between `min` and `max` code points (a plain string without other constraints). */
function plainText(w: Walk, min = 0, max?: number): string {
  const upper = max ?? Math.max(min, 24);
  let text = w.random.pick(WORDS);
  while ([...text].length < min) text += ` ${w.random.pick(WORDS)}`;
  if ([...text].length > upper) text = [...text].slice(0, upper).join('');
  return text.replace(/ $/, 'x');
}

function sampleNumber(node: Extract<MockNode, { kind: 'number' }>, w: Walk): number {
  if (node.enum && node.enum.length > 0) return w.random.pick(node.enum);
  const formatRange = node.format ? FORMAT_RANGES[node.format] : undefined;
  let low = Math.max(node.minimum ?? -Infinity, formatRange?.min ?? -Infinity);
  let high = Math.min(node.maximum ?? Infinity, formatRange?.max ?? Infinity);
  const lowOpen = node.exclusiveMinimum !== undefined && node.exclusiveMinimum >= low;
  const highOpen = node.exclusiveMaximum !== undefined && node.exclusiveMaximum <= high;
  if (lowOpen) low = node.exclusiveMinimum!;
  if (highOpen) high = node.exclusiveMaximum!;
  // Unbounded sides are brought near what a person would write.
  if (low === -Infinity) low = high === Infinity ? PLAIN_RANGE.min : Math.min(PLAIN_RANGE.min, high - PLAIN_RANGE.max);
  if (high === Infinity) high = Math.max(PLAIN_RANGE.max, low + PLAIN_RANGE.max);
  const step = node.multipleOf ?? (node.integer ? 1 : undefined);
  if (step !== undefined) return multipleBetween(node, { low, high, lowOpen, highOpen, step, integer: node.integer }, w.random);
  // Two decimals, as amounts and rates are written; the ends are avoided when they are open.
  const span = high - low;
  for (let attempt = 0; attempt < 8; attempt++) {
    const value = Math.round((low + w.random.next() * span) * 100) / 100;
    if (value > low && value < high) return value;
    if (!lowOpen && value === low) return value;
    if (!highOpen && value === high) return value;
  }
  const middle = low + span / 2;
  if ((middle > low || !lowOpen) && (middle < high || !highOpen)) return middle;
  throw new SampleError(node.pointer, `no number lies between ${low} and ${high}`);
}

interface Range {
  low: number;
  high: number;
  lowOpen: boolean;
  highOpen: boolean;
  step: number;
  integer: boolean;
}

/** A multiple of `step` in the range, written with no more decimals than `step` has. */
function multipleBetween(node: MockNode, range: Range, random: Random): number {
  const { step } = range;
  const decimals = decimalPlaces(step);
  const integerStep = range.integer ? Math.max(1, Math.ceil(step)) : step;
  const unit = range.integer && !Number.isInteger(step) ? lcmOfStepAndOne(step) : integerStep;
  let first = Math.ceil(range.low / unit);
  let last = Math.floor(range.high / unit);
  if (range.lowOpen && first * unit <= range.low) first++;
  if (range.highOpen && last * unit >= range.high) last--;
  if (first > last) throw new SampleError(node.pointer, `no multiple of ${step} lies between ${range.low} and ${range.high}`);
  // Small multiples read better: prefer the first few of the range.
  const k = random.int(first, Math.min(last, first + 1000));
  return Number((k * unit).toFixed(Math.min(20, decimals)));
}

/** The least common multiple of a decimal step and 1 (for integers that must be multiples of 0.5, say). */
function lcmOfStepAndOne(step: number): number {
  const scale = 10 ** decimalPlaces(step);
  const scaled = Math.round(step * scale);
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  return scaled / gcd(scaled, scale);
}

function decimalPlaces(value: number): number {
  const text = String(value);
  const exponent = /e-(\d+)$/.exec(text);
  if (exponent) return Number(exponent[1]) + (text.split('e')[0]!.split('.')[1]?.length ?? 0);
  return text.split('.')[1]?.length ?? 0;
}

function sampleArray(node: Extract<MockNode, { kind: 'array' }>, w: Walk): unknown[] {
  const min = node.minItems ?? 0;
  const shallow = w.depth >= w.softDepth;
  const max = Math.min(node.maxItems ?? Infinity, shallow ? min : min + 3);
  // A member named as a plural (`dates`, `tags`) reads as broken when empty: one item at least,
  // deep down too where the item ends there (no reference onward that could recurse).
  const least = min === 0 && (node.maxItems ?? 1) > 0 && isPluralName(w.name) && (!shallow || !refersOnward(node.items)) ? 1 : min;
  const wanted = w.random.int(least, Math.max(least, Math.min(max, min === 0 && !shallow ? 3 : max)));
  const items: unknown[] = [];
  const seen = new Set<string>();
  const inner = { ...w, depth: w.depth + 1, name: undefined } as Walk;
  for (let attempt = 0; items.length < wanted && attempt < wanted * 8 + 8; attempt++) {
    const item = walk(node.items, { ...inner, random: w.random.fork(`item${attempt}`) });
    if (node.uniqueItems) {
      const key = canonicalJson(item);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    items.push(item);
  }
  if (items.length < min) throw new SampleError(node.pointer, `found ${items.length} distinct items, fewer than minItems ${min}`);
  return items;
}

/** JSON text with members in sorted order: equal for values JSON Schema calls equal. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
    .join(',')}}`;
}

function sampleObject(node: Extract<MockNode, { kind: 'object' }>, w: Walk): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const shallow = w.depth >= w.softDepth;
  const hiddenFlag = w.ctx.direction === 'request' ? 'readOnly' : w.ctx.direction === 'response' ? 'writeOnly' : undefined;
  const optional: Array<{ name: string; schema: MockNode }> = [];
  for (const property of node.properties) {
    if (!property.required) {
      if (hiddenFlag && isHidden(property.schema, hiddenFlag, w.ctx)) continue;
      optional.push(property);
      continue;
    }
    out[property.name] = walk(property.schema, child(w, property.name));
  }
  for (const name of node.requiredUndeclared ?? []) out[name] = plainText(child(w, name));
  const limit = node.maxProperties ?? Infinity;
  const count = () => Object.keys(out).length;
  for (const property of optional) {
    if (count() >= limit) break;
    const needed = node.minProperties !== undefined && count() < node.minProperties;
    if (!needed && !w.full && (shallow || !w.random.chance(0.7))) continue;
    out[property.name] = walk(property.schema, child(w, property.name));
  }
  const extra = typeof node.additional === 'object' ? node.additional : node.additional === 'allow' ? ({ kind: 'any', pointer: node.pointer } as MockNode) : undefined;
  for (let i = 1; extra && count() < (node.minProperties ?? 0) && i < 64; i++) {
    const name = `extra${i}`;
    if (name in out) continue;
    out[name] = walk(extra, child(w, name));
  }
  if (count() < (node.minProperties ?? 0)) throw new SampleError(node.pointer, `cannot reach minProperties ${node.minProperties}`);
  return out;
}

function child(w: Walk, name: string): Walk {
  return { ...w, random: w.random.fork(name), depth: w.depth + 1, name, full: false };
}

/** Whether the member is hidden in this direction, on itself or on the schema it names. */
function isHidden(schema: MockNode, flag: 'readOnly' | 'writeOnly', ctx: SampleContext): boolean {
  if (schema[flag]) return true;
  return schema.kind === 'ref' && ctx.schemas[schema.name]?.[flag] === true;
}

function sampleUnion(node: Extract<MockNode, { kind: 'union' }>, w: Walk): unknown {
  if (node.variants.length === 0) throw new SampleError(node.pointer, 'a union without variants accepts no value');
  // Deep down, variants without references end the recursion.
  const shallow = w.depth >= w.softDepth;
  const leaves = node.variants.map((v, i) => ({ v, i })).filter(({ v }) => !shallow || !refersOnward(v));
  const choices = leaves.length > 0 ? leaves : node.variants.map((v, i) => ({ v, i }));
  // "Exactly one": a value another variant also accepts is made again (where that can be told).
  const careful = node.mode === 'oneOf' && !node.exclusive && node.variants.length > 1;
  let value: unknown;
  for (let attempt = 0; attempt < (careful ? 8 : 1); attempt++) {
    const { v: variant, i: index } = w.random.pick(choices);
    const made = walk(variant, { ...w, random: w.random.fork(`${index}:${attempt}`), depth: w.depth + 1, full: careful });
    value = withDiscriminatorTag(node, index, made, w.random);
    if (!careful) return value;
    let other = acceptedByAnother(node, index, value, w.ctx);
    // Setting apart helps only where every other variant can be asked (all are references).
    const askable = node.variants.every((v, i) => i === index || v.kind === 'ref');
    for (let tries = 0; askable && other !== undefined && tries < 4; tries++) {
      value = setApart(value, node.variants[index]!, node.variants[other]!, w.ctx);
      other = acceptedByAnother(node, index, value, w.ctx);
    }
    if (other === undefined) return value;
  }
  return value;
}

/** The index of a variant other than `index`, a component schema, known to accept the value. */
function acceptedByAnother(node: Extract<MockNode, { kind: 'union' }>, index: number, value: unknown, ctx: SampleContext): number | undefined {
  if (!ctx.accepts) return undefined;
  const found = node.variants.findIndex((variant, i) => i !== index && variant.kind === 'ref' && ctx.accepts!(componentName(variant.name), value) === true);
  return found < 0 ? undefined : found;
}

/**
 * Two open object variants that accept the same value are told apart by a member only the
 * other one declares, given a value of a type it refuses: the chosen variant, open, still
 * accepts it (the final check has the last word).
 */
function setApart(value: unknown, chosen: MockNode, other: MockNode, ctx: SampleContext): unknown {
  const mine = objectNode(chosen, ctx);
  const theirs = objectNode(other, ctx);
  if (!mine || !theirs || mine.additional !== 'allow' || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  const declared = new Set(mine.properties.map((p) => p.name));
  for (const property of theirs.properties) {
    if (declared.has(property.name) || property.name in record) continue;
    const wrong = wrongTypeFor(property.schema, ctx);
    if (wrong !== undefined) return { ...record, [property.name]: wrong };
  }
  return value;
}

function objectNode(node: MockNode, ctx: SampleContext): Extract<MockNode, { kind: 'object' }> | undefined {
  const target = node.kind === 'ref' ? ctx.schemas[node.name] : node;
  return target?.kind === 'object' ? target : undefined;
}

/** A value of another type than the node's: one it certainly refuses (null is not among them). */
const WRONG_TYPE: Partial<Record<MockNode['kind'], unknown>> = { string: 0, number: 'x', boolean: 'x', null: 'x', object: 0, array: 0 };

function wrongTypeFor(node: MockNode, ctx: SampleContext): unknown {
  const target = node.kind === 'ref' ? ctx.schemas[node.name] : node;
  return target ? WRONG_TYPE[target.kind] : undefined;
}

/** The component a per-direction variant (`Name@response`) derives from. */
function componentName(name: string): string {
  const at = name.lastIndexOf('@');
  return at > 0 ? name.slice(0, at) : name;
}

/** Sets the discriminator member to a tag that names the chosen variant, where the value lacks one. */
function withDiscriminatorTag(node: Extract<MockNode, { kind: 'union' }>, index: number, value: unknown, random: Random): unknown {
  const discriminator = node.discriminator;
  if (!discriminator || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const tags = Object.keys(discriminator.mapping).filter((tag) => discriminator.mapping[tag] === index);
  const record = value as Record<string, unknown>;
  const current = record[discriminator.propertyName];
  if (tags.length === 0 || (typeof current === 'string' && tags.includes(current))) return value;
  return { ...record, [discriminator.propertyName]: random.pick(tags) };
}

function refersOnward(node: MockNode): boolean {
  switch (node.kind) {
    case 'ref':
    case 'json':
      return true;
    case 'array':
      return refersOnward(node.items);
    case 'object':
      return node.properties.some((p) => p.required && refersOnward(p.schema));
    case 'union':
      return node.variants.every(refersOnward);
    case 'intersection':
      return node.parts.some(refersOnward);
    default:
      return false;
  }
}

/**
 * An `allOf` the generator could not merge: objects are merged member by member; otherwise
 * the value of the most specific part (a union, an enum, a reference before a bare `type`),
 * which the other parts most often also accept (`type: string` beside an `anyOf` of strings).
 */
function sampleIntersection(node: Extract<MockNode, { kind: 'intersection' }>, w: Walk): unknown {
  const values = node.parts.map((part, i) => walk(part, { ...w, random: w.random.fork(i), depth: w.depth + 1 }));
  if (values.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v))) return Object.assign({}, ...values);
  const ranked = node.parts.map((part, i) => ({ i, rank: specificity(part) })).sort((a, b) => b.rank - a.rank || a.i - b.i);
  return values[ranked[0]!.i];
}

/** How much a node says about its values: bare types say least. */
function specificity(node: MockNode): number {
  switch (node.kind) {
    case 'literal':
      return 5;
    case 'union':
    case 'ref':
    case 'json':
    case 'intersection':
      return 4;
    case 'string':
      return node.enum ? 5 : node.patterns || node.format ? 3 : node.minLength !== undefined || node.maxLength !== undefined ? 2 : 1;
    case 'number':
      return node.enum ? 5 : 2;
    case 'any':
      return 0;
    default:
      return 1;
  }
}
