/**
 * Valid values built from the generated validators themselves (the spec's schemas), and a
 * map of where their leaves and objects are, so that a mutation can break one precisely.
 *
 * Strings with a pattern or a format are taken from a list of candidates: the first one the
 * schema accepts wins (the schema is the judge, never this file). Every sample is checked
 * against its schema before it is used.
 */
import type { z } from 'zod';
import type { Prng } from './prng.js';

export type JsonPath = ReadonlyArray<string | number>;

/** The parts of zod's internal definition this file reads. */
interface Check {
  _zod: { def: { check: string; minimum?: number; maximum?: number; value?: number; inclusive?: boolean; format?: string; pattern?: RegExp } };
}
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
  checks?: Check[];
  getter?: () => z.ZodType;
}

export function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function isOptional(schema: z.ZodType): boolean {
  return (schema as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';
}

function checks(schema: z.ZodType): Check['_zod']['def'][] {
  return (defOf(schema).checks ?? []).map((c) => c._zod.def);
}

/** Facts about a string schema that mutations use. */
export interface StringFacts {
  minLength: number | undefined;
  maxLength: number | undefined;
  /** It takes an RFC 3339 date-time (and refuses a bare date): a DateTime or `format: date-time`. */
  dateTime: boolean;
  /** A date-time that also refuses the `-00:00` offset (the DateTime pattern of section 2.4). */
  strictOffset: boolean;
}

export function stringFacts(schema: z.ZodType): StringFacts {
  let minLength: number | undefined;
  let maxLength: number | undefined;
  for (const c of checks(schema)) {
    if (c.check === 'min_length') minLength = c.minimum;
    if (c.check === 'max_length') maxLength = c.maximum;
  }
  // Judged by behaviour, not by reading the pattern: the schema is the authority.
  const dateTime = defOf(schema).type === 'string' && schema.safeParse('2025-03-14T05:30:00Z').success && !schema.safeParse('2025-03-14').success;
  const strictOffset = dateTime && !schema.safeParse('2025-03-14T05:30:00-00:00').success;
  return { minLength, maxLength, dateTime, strictOffset };
}

/** Unwraps optional/nullable/default/pipe wrappers to the schema that does the checking. */
export function core(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type) && def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.out) current = def.out;
    else if (def.type === 'lazy' && def.getter) current = def.getter();
    else return current;
  }
  return current;
}

/**
 * Text that the schemas of our specs may ask for. Order matters little: the first candidate
 * the schema accepts is used.
 */
export const STRING_CANDIDATES: readonly string[] = [
  'acc-001',
  '2025-03-14T09:30:00+04:00',
  '2025-03-14T05:30:00Z',
  '2025-03-14T05:30:00.123Z',
  '2025-03-14',
  '0f8fad5b-d9cb-469f-a165-70867728950e',
  'https://example.com/resource/1',
  'AED',
  '10.00',
  'Tue, 11 Mar 2025 10:00:00 GMT',
  '198.51.100.7',
  'Mozilla/5.0 (X11; Linux x86_64)',
  'P1D',
  '09:30:00',
  '09:30:00+04:00',
  'UTC+04:00',
  'user@example.com',
  'AAEC',
  'AE070331234567890123456',
  '+971-500000000',
  'Purchase',
  'NotKnown',
  'A.B',
  'x',
];

export interface LeafInfo {
  path: JsonPath;
  /** The checking schema of the leaf (wrappers removed). */
  schema: z.ZodType;
  kind: 'string' | 'number' | 'boolean' | 'enum' | 'other';
  facts?: StringFacts;
  enumValues?: readonly unknown[];
}

export interface ObjectInfo {
  path: JsonPath;
  /** Unknown members are rejected (`additionalProperties: false`). */
  strict: boolean;
  required: readonly string[];
  optional: readonly string[];
}

export interface Sample {
  value: unknown;
  leaves: LeafInfo[];
  objects: ObjectInfo[];
}

export class SampleError extends Error {}

interface Walk {
  rng: Prng;
  optionalRate: number;
  leaves: LeafInfo[];
  objects: ObjectInfo[];
  depth: number;
}

/** A string the (string) schema accepts. */
export function sampleString(schema: z.ZodType, rng: Prng, path: JsonPath = []): string {
  const facts = stringFacts(schema);
  const min = Math.max(facts.minLength ?? 1, 1);
  const own = ['abcdefghijklmnopqrstuvwxyz'.repeat(Math.ceil(min / 26)).slice(0, Math.max(min, 3))];
  const candidates = [...own, ...STRING_CANDIDATES];
  const valid = candidates.filter((c) => schema.safeParse(c).success);
  if (valid.length === 0) throw new SampleError(`no candidate string fits the schema at ${path.join('.') || '(root)'}`);
  // Mostly the first fit, sometimes another, so that runs cover more than one shape.
  return rng.chance(0.7) ? valid[0]! : rng.pick(valid);
}

function sampleNumber(schema: z.ZodType): number {
  for (const candidate of [1, 2, 10, 100, 0, 1.5, 1000]) if (schema.safeParse(candidate).success) return candidate;
  throw new SampleError('no candidate number fits');
}

function gen(schema: z.ZodType, path: JsonPath, w: Walk): unknown {
  if (w.depth > 40) throw new SampleError(`schema too deep at ${path.join('.')}`);
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return gen(def.innerType!, path, w);
    case 'pipe':
      return gen(def.out!, path, w);
    case 'lazy':
      return gen(def.getter!(), path, w);
    case 'string': {
      w.leaves.push({ path, schema, kind: 'string', facts: stringFacts(schema) });
      return sampleString(schema, w.rng, path);
    }
    case 'number': {
      w.leaves.push({ path, schema, kind: 'number' });
      return sampleNumber(schema);
    }
    case 'boolean':
      w.leaves.push({ path, schema, kind: 'boolean' });
      return w.rng.chance(0.5);
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      w.leaves.push({ path, schema, kind: 'enum', enumValues: values });
      return w.rng.pick(values);
    }
    case 'literal':
      w.leaves.push({ path, schema, kind: 'enum', enumValues: def.values ?? [] });
      return (def.values ?? [])[0];
    case 'unknown':
    case 'any':
      w.leaves.push({ path, schema, kind: 'other' });
      return 'x';
    case 'array': {
      let min = 0;
      let max = 3;
      for (const c of checks(schema)) {
        if (c.check === 'min_length' && c.minimum !== undefined) min = c.minimum;
        if (c.check === 'max_length' && c.maximum !== undefined) max = c.maximum;
      }
      const count = Math.min(max, Math.max(min, w.rng.int(0, 2)));
      w.depth++;
      const out = Array.from({ length: count }, (_, i) => gen(def.element!, [...path, i], w));
      w.depth--;
      return out;
    }
    case 'object': {
      const shape = def.shape ?? {};
      const strict = def.catchall !== undefined && defOf(def.catchall).type === 'never';
      const keys = Object.keys(shape);
      const optional = keys.filter((k) => isOptional(shape[k]!));
      const required = keys.filter((k) => !isOptional(shape[k]!));
      w.objects.push({ path, strict, required, optional });
      const out: Record<string, unknown> = {};
      w.depth++;
      for (const key of keys) {
        if (optional.includes(key) && !w.rng.chance(w.optionalRate)) continue;
        out[key] = gen(shape[key]!, [...path, key], w);
      }
      w.depth--;
      return out;
    }
    case 'union': {
      for (const option of w.rng.shuffle(def.options ?? [])) {
        const attempt: Walk = { ...w, leaves: [], objects: [] };
        try {
          const value = gen(option, path, attempt);
          if (schema.safeParse(value).success) {
            w.leaves.push(...attempt.leaves);
            w.objects.push(...attempt.objects);
            return value;
          }
        } catch (error) {
          if (!(error instanceof SampleError)) throw error;
        }
      }
      throw new SampleError(`no option of the union at ${path.join('.')} could be sampled`);
    }
    case 'intersection': {
      const left = gen(def.left!, path, w);
      const right = gen(def.right!, path, w);
      if (left !== null && typeof left === 'object' && right !== null && typeof right === 'object') return { ...left, ...right };
      return right;
    }
    case 'record':
      return {};
    default:
      throw new SampleError(`cannot sample a ${def.type} at ${path.join('.') || '(root)'}`);
  }
}

/**
 * A value the schema accepts, with the map of its leaves and objects. Tries a few times with
 * optional members, then falls back to required members only.
 *
 * @example
 * const { value } = sampleValid(operations.PatchAccountAccessConsentsConsentId.request.body!.content['application/json'], rng);
 */
export function sampleValid(schema: z.ZodType, rng: Prng, optionalRate = 0.5): Sample {
  const problems: string[] = [];
  for (let attempt = 0; attempt < 8; attempt++) {
    const w: Walk = { rng, optionalRate: attempt < 6 ? optionalRate : 0, leaves: [], objects: [], depth: 0 };
    try {
      const value = gen(schema, [], w);
      const checked = schema.safeParse(value);
      if (checked.success) return { value, leaves: w.leaves, objects: w.objects };
      problems.push(checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    } catch (error) {
      if (!(error instanceof SampleError)) throw error;
      problems.push(error.message);
    }
  }
  throw new SampleError(`could not build a valid sample: ${[...new Set(problems)].slice(0, 3).join(' | ')}`);
}

/** A deep copy with the member at `path` replaced (or removed, when `value` is REMOVE). */
export const REMOVE = Symbol('remove');

export function setAt(root: unknown, path: JsonPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: unknown = structuredClone(root);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === REMOVE) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

export function getAt(root: unknown, path: JsonPath): unknown {
  let node = root;
  for (const key of path) node = (node as Record<string | number, unknown> | undefined)?.[key];
  return node;
}
