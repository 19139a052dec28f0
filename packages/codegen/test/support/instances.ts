/**
 * Seeded instances for a JSON Schema of an OpenAPI document: valid ones, built by walking the
 * schema (fast-check), and "sites" where each valid one can be mutated into a likely-invalid
 * one (a required member dropped, an unknown member added to a closed object, a wrong type,
 * a value outside an enum, a string one past maxLength, a broken pattern, a DateTime with
 * `-00:00`, an int32 overflow, an array under minItems...), plus edge probes where
 * validators commonly differ (astral characters and string lengths, RFC 3339 variants, URI
 * and email oddities, integers beyond 2^53).
 *
 * The walk reads the schema as JSON Schema does, with the generator's reading of `allOf`
 * (a closed branch closes the whole `allOf` over everything it declares). It does not
 * validate: whether an instance is valid is for the validators under test to say, and the
 * differential test checks that ajv accepts every instance built as valid.
 */
import fc from 'fast-check';

type Json = Record<string, unknown>;
export type PathItem = string | number;

/** One way to mutate a valid instance: put `replacement` at `path`. */
export interface Site {
  path: PathItem[];
  kind: string;
  replacement: unknown;
}

export interface Sample {
  value: unknown;
  sites: Site[];
}

export class UnsatisfiableSchema extends Error {}

const COMPONENT_PREFIX = '#/components/schemas/';
/** Objects and arrays stop growing optional parts below this depth. */
const SOFT_DEPTH = 4;
/** A required chain deeper than this is treated as unsatisfiable (infinite recursion). */
const HARD_DEPTH = 24;
const ASTRAL = '\u{1D49C}';
const EXTRA_MEMBER = 'XDifferentialExtra';
const UNKNOWN_MEMBER = 'XDifferentialUnknown';

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function unescapeToken(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
}

function lookup(document: Json, pointer: string): unknown {
  if (pointer === '#') return document;
  if (!pointer.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of pointer.slice(2).split('/')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Json)[unescapeToken(raw)];
  }
  return node;
}

function codePoints(value: string): number {
  return [...value].length;
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical((value as Json)[k])}`)
    .join(',')}}`;
}

interface Union {
  mode: 'oneOf' | 'anyOf';
  variants: unknown[];
  /** For a discriminated oneOf: the tag and, per variant, the values that select it. */
  discriminator?: { tag: string; keys: string[][] };
}

/** Every constraint that applies at one place of an instance (allOf already merged). */
interface Effective {
  /** Allowed JSON types (`integer` is a kind of `number`); undefined: any. */
  types?: Set<string>;
  enums: unknown[][];
  minLength?: number;
  maxLength?: number;
  patterns: string[];
  formats: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  items: unknown[];
  minItems?: number;
  maxItems?: number;
  uniqueItems: boolean;
  properties: Map<string, unknown[]>;
  required: Set<string>;
  /** Each closed object (or closed allOf) allows only these names. */
  closed: Array<Set<string>>;
  additional: unknown[];
  minProperties?: number;
  maxProperties?: number;
  unions: Union[];
  /** A 3.0 `nullable: true` that has no effect (no `type` beside it, or beside a `$ref`). */
  ignoredNullable: boolean;
}

function emptyEffective(): Effective {
  return { enums: [], patterns: [], formats: [], items: [], uniqueItems: false, properties: new Map(), required: new Set(), closed: [], additional: [], unions: [], ignoredNullable: false };
}

function cloneEffective(e: Effective): Effective {
  return {
    ...e,
    ...(e.types ? { types: new Set(e.types) } : {}),
    ignoredNullable: e.ignoredNullable,
    enums: [...e.enums],
    patterns: [...e.patterns],
    formats: [...e.formats],
    items: [...e.items],
    properties: new Map([...e.properties].map(([k, v]) => [k, [...v]])),
    required: new Set(e.required),
    closed: e.closed.map((s) => new Set(s)),
    additional: [...e.additional],
    unions: [...e.unions],
  };
}

function intersectTypes(a: Set<string> | undefined, b: Set<string>): Set<string> {
  if (!a) return new Set(b);
  const out = new Set<string>();
  for (const t of a) if (b.has(t)) out.add(t);
  if ((a.has('integer') && b.has('number')) || (a.has('number') && b.has('integer'))) out.add('integer');
  return out;
}

const maxOf = (a: number | undefined, b: number): number => (a === undefined ? b : Math.max(a, b));
const minOf = (a: number | undefined, b: number): number => (a === undefined ? b : Math.min(a, b));

export interface InstanceGeneratorOptions {
  /** The whole (bundled) OpenAPI document, to resolve `$ref`s. */
  document: Json;
}

export class InstanceGenerator {
  private readonly dialect: '3.0' | '3.1';

  constructor(private readonly options: InstanceGeneratorOptions) {
    this.dialect = String(options.document['openapi']).startsWith('3.1') ? '3.1' : '3.0';
  }

  /** Valid instances of the named component schema. */
  forComponent(name: string): fc.Arbitrary<Sample> {
    return this.forSchema({ $ref: `${COMPONENT_PREFIX}${name.replace(/~/g, '~0').replace(/\//g, '~1')}` }, 0);
  }

  forSchema(schema: unknown, depth: number): fc.Arbitrary<Sample> {
    if (depth > HARD_DEPTH) throw new UnsatisfiableSchema('required members recurse without end');
    const eff = emptyEffective();
    this.collect(schema, eff, 0);
    return this.fromEffective(eff, depth);
  }

  // ---------------------------------------------------------------- collecting constraints

  private resolve(ref: string): unknown {
    const target = lookup(this.options.document, ref);
    if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
    return target;
  }

  /** Adds the constraints of `schema` to `eff`. Returns the property names it declares. */
  private collect(schema: unknown, eff: Effective, hops: number): Set<string> {
    const declared = new Set<string>();
    if (hops > 64) throw new Error('$ref chain too long');
    if (schema === true || schema === undefined) return declared;
    if (schema === false) {
      eff.types = new Set();
      return declared;
    }
    if (!isObject(schema)) throw new Error(`not a schema: ${JSON.stringify(schema)}`);
    if (typeof schema['$ref'] === 'string') {
      const names = this.collect(this.resolve(schema['$ref']), eff, hops + 1);
      // OpenAPI 3.0 ignores a Reference Object's siblings; 3.1 applies them.
      if (this.dialect === '3.0') {
        if (schema['nullable'] === true) eff.ignoredNullable = true;
        return names;
      }
      const rest: Json = { ...schema };
      delete rest['$ref'];
      for (const n of this.collect(rest, eff, hops + 1)) names.add(n);
      return names;
    }
    for (const key of ['not', 'if', 'then', 'else', 'patternProperties', 'dependentSchemas', 'prefixItems', 'contains', 'unevaluatedProperties']) {
      if (key in schema) throw new Error(`keyword "${key}" is not supported by the instance generator`);
    }

    const closedBefore = eff.closed.length;
    // Types: `nullable` (3.0) adds null to this schema's own types.
    const type = schema['type'];
    if (type !== undefined) {
      const own = new Set(Array.isArray(type) ? (type as string[]) : [type as string]);
      if (this.dialect === '3.0' && schema['nullable'] === true) own.add('null');
      eff.types = intersectTypes(eff.types, own);
    } else if (this.dialect === '3.0' && schema['nullable'] === true) {
      // OpenAPI 3.0.3: nullable adds null "only if type is explicitly defined within the same Schema Object".
      eff.ignoredNullable = true;
    }
    if (Array.isArray(schema['enum'])) eff.enums.push(schema['enum'] as unknown[]);
    if ('const' in schema) eff.enums.push([schema['const']]);
    const num = (key: string): number | undefined => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
    const minLength = num('minLength');
    const maxLength = num('maxLength');
    if (minLength !== undefined) eff.minLength = maxOf(eff.minLength, minLength);
    if (maxLength !== undefined) eff.maxLength = minOf(eff.maxLength, maxLength);
    if (typeof schema['pattern'] === 'string') eff.patterns.push(schema['pattern']);
    if (typeof schema['format'] === 'string') eff.formats.push(schema['format']);
    const minimum = num('minimum');
    const maximum = num('maximum');
    if (minimum !== undefined) {
      if (this.dialect === '3.0' && schema['exclusiveMinimum'] === true) eff.exclusiveMinimum = maxOf(eff.exclusiveMinimum, minimum);
      else eff.minimum = maxOf(eff.minimum, minimum);
    }
    if (maximum !== undefined) {
      if (this.dialect === '3.0' && schema['exclusiveMaximum'] === true) eff.exclusiveMaximum = minOf(eff.exclusiveMaximum, maximum);
      else eff.maximum = minOf(eff.maximum, maximum);
    }
    const exMin = num('exclusiveMinimum');
    const exMax = num('exclusiveMaximum');
    if (exMin !== undefined) eff.exclusiveMinimum = maxOf(eff.exclusiveMinimum, exMin);
    if (exMax !== undefined) eff.exclusiveMaximum = minOf(eff.exclusiveMaximum, exMax);
    const multipleOf = num('multipleOf');
    if (multipleOf !== undefined) {
      if (eff.multipleOf !== undefined && eff.multipleOf !== multipleOf) throw new Error('two different multipleOf are not supported');
      eff.multipleOf = multipleOf;
    }
    if ('items' in schema) {
      if (Array.isArray(schema['items'])) throw new Error('tuple items are not supported');
      eff.items.push(schema['items']);
    }
    const minItems = num('minItems');
    const maxItems = num('maxItems');
    if (minItems !== undefined) eff.minItems = maxOf(eff.minItems, minItems);
    if (maxItems !== undefined) eff.maxItems = minOf(eff.maxItems, maxItems);
    if (schema['uniqueItems'] === true) eff.uniqueItems = true;
    if (isObject(schema['properties'])) {
      for (const [name, sub] of Object.entries(schema['properties'])) {
        declared.add(name);
        eff.properties.set(name, [...(eff.properties.get(name) ?? []), sub]);
      }
    }
    if (Array.isArray(schema['required'])) for (const name of schema['required'] as string[]) eff.required.add(name);
    const additional = schema['additionalProperties'];
    if (additional === false) eff.closed.push(new Set(declared));
    else if (isObject(additional) && Object.keys(additional).length > 0) eff.additional.push(additional);
    const minProperties = num('minProperties');
    const maxProperties = num('maxProperties');
    if (minProperties !== undefined) eff.minProperties = maxOf(eff.minProperties, minProperties);
    if (maxProperties !== undefined) eff.maxProperties = minOf(eff.maxProperties, maxProperties);

    for (const mode of ['oneOf', 'anyOf'] as const) {
      const variants = schema[mode];
      if (!Array.isArray(variants)) continue;
      const union: Union = { mode, variants };
      const d = schema['discriminator'];
      if (mode === 'oneOf' && isObject(d) && typeof d['propertyName'] === 'string') {
        union.discriminator = { tag: d['propertyName'], keys: this.discriminatorKeys(d, variants) };
      }
      eff.unions.push(union);
    }

    if (Array.isArray(schema['allOf'])) {
      for (const branch of schema['allOf']) for (const n of this.collect(branch, eff, hops + 1)) declared.add(n);
      // The generator's reading: a closed branch (or the node itself) closes the whole allOf
      // over every name the allOf declares, like `unevaluatedProperties: false`.
      if (eff.closed.length > closedBefore) eff.closed.splice(closedBefore, eff.closed.length - closedBefore, new Set(declared));
    }
    return declared;
  }

  private discriminatorKeys(d: Json, variants: unknown[]): string[][] {
    const mapping = isObject(d['mapping']) ? d['mapping'] : {};
    return variants.map((variant) => {
      const ref = isObject(variant) && typeof variant['$ref'] === 'string' ? variant['$ref'] : undefined;
      if (ref === undefined) throw new Error('discriminator variants must be $refs');
      const keys = Object.entries(mapping)
        .filter(([, target]) => target === ref || `${COMPONENT_PREFIX}${String(target)}` === ref)
        .map(([key]) => key);
      return keys.length > 0 ? keys : [unescapeToken(ref.slice(ref.lastIndexOf('/') + 1))];
    });
  }

  // ---------------------------------------------------------------- generating

  private fromEffective(eff: Effective, depth: number): fc.Arbitrary<Sample> {
    if (eff.unions.length > 0) return this.withUnions(eff, depth);
    const types = this.candidateTypes(eff);
    const nonNull = [...types].filter((t) => t !== 'null');
    const nullAllowed = types.has('null') && this.enumAdmits(eff, null);
    const options: Array<{ weight: number; arbitrary: fc.Arbitrary<Sample> }> = [];
    const enumValues = this.enumValues(eff);
    if (enumValues !== undefined) {
      const nonNullValues = enumValues.filter((v) => v !== null);
      if (nonNullValues.length > 0) options.push({ weight: 10, arbitrary: this.fromEnum(eff, nonNullValues, types) });
    } else {
      for (const type of nonNull) options.push({ weight: 10, arbitrary: this.fromType(type, eff, depth, types) });
    }
    if (nullAllowed) options.push({ weight: options.length > 0 ? 1 : 10, arbitrary: fc.constant({ value: null, sites: this.scalarSites(null, types, this.isTyped(eff), eff.ignoredNullable) }) });
    if (options.length === 0) throw new UnsatisfiableSchema('no value satisfies every constraint');
    return options.length === 1 ? options[0]!.arbitrary : fc.oneof(...options);
  }

  /** Picks a variant of each union, merges it in, and generates from the result. */
  private withUnions(eff: Effective, depth: number): fc.Arbitrary<Sample> {
    const unions = eff.unions;
    return fc.tuple(...unions.map((u) => fc.nat(u.variants.length - 1))).chain((choices) => {
      const merged = cloneEffective(eff);
      merged.unions = [];
      unions.forEach((union, i) => {
        const choice = choices[i]!;
        this.collect(union.variants[choice], merged, 0);
        if (union.discriminator) {
          const { tag, keys } = union.discriminator;
          merged.properties.set(tag, [...(merged.properties.get(tag) ?? []), { type: 'string', enum: keys[choice] }]);
          merged.required.add(tag);
        }
      });
      return this.fromEffective(merged, depth).map((sample) => {
        const sites = [...sample.sites];
        for (const union of unions) {
          if (!union.discriminator || !isObject(sample.value)) continue;
          const { tag, keys } = union.discriminator;
          sites.push({ path: [tag], kind: 'discriminator-unmapped', replacement: 'NotAMappedValue' });
          const current = sample.value[tag];
          const other = keys.flat().find((k) => k !== current);
          if (other !== undefined) sites.push({ path: [tag], kind: 'discriminator-other-variant', replacement: other });
        }
        return { value: sample.value, sites };
      });
    });
  }

  private isTyped(eff: Effective): boolean {
    return eff.types !== undefined || eff.enums.length > 0;
  }

  private candidateTypes(eff: Effective): Set<string> {
    if (eff.types) {
      const out = new Set(eff.types);
      if (out.has('number') && out.has('integer')) out.delete('integer');
      return out;
    }
    // No `type`: keywords only constrain values of their own type. Pick what they describe.
    if (eff.enums.length > 0) return new Set(eff.enums[0]!.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)));
    if (eff.properties.size > 0 || eff.required.size > 0 || eff.closed.length > 0 || eff.additional.length > 0 || eff.minProperties !== undefined) return new Set(['object']);
    if (eff.items.length > 0 || eff.minItems !== undefined) return new Set(['array']);
    if (eff.patterns.length > 0 || eff.minLength !== undefined || eff.maxLength !== undefined || eff.formats.some((f) => STRING_FORMATS.has(f))) return new Set(['string']);
    if (eff.minimum !== undefined || eff.maximum !== undefined || eff.multipleOf !== undefined) return new Set(['number']);
    return new Set(['string', 'integer', 'boolean', 'object']);
  }

  private enumAdmits(eff: Effective, value: unknown): boolean {
    return eff.enums.every((list) => list.some((v) => canonical(v) === canonical(value)));
  }

  /** Values every `enum`/`const` allows and the other keywords accept; undefined when no enum. */
  private enumValues(eff: Effective): unknown[] | undefined {
    if (eff.enums.length === 0) return undefined;
    const types = this.candidateTypes(eff);
    return eff.enums[0]!.filter((v) => {
      if (!this.enumAdmits(eff, v)) return false;
      if (eff.types) {
        const t = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
        const ok = types.has(t) || (t === 'number' && types.has('integer') && Number.isInteger(v));
        if (!ok) return false;
      }
      if (typeof v === 'string') return this.stringAccepts(eff, v);
      if (typeof v === 'number') return this.numberAccepts(eff, v);
      return true;
    });
  }

  private stringAccepts(eff: Effective, value: string): boolean {
    const n = codePoints(value);
    if (eff.minLength !== undefined && n < eff.minLength) return false;
    if (eff.maxLength !== undefined && n > eff.maxLength) return false;
    if (!eff.patterns.every((p) => new RegExp(p, 'u').test(value))) return false;
    return eff.formats.every((f) => !FORMAT_CHECKS[f] || FORMAT_CHECKS[f](value));
  }

  private numberAccepts(eff: Effective, value: number): boolean {
    if (eff.minimum !== undefined && value < eff.minimum) return false;
    if (eff.maximum !== undefined && value > eff.maximum) return false;
    if (eff.exclusiveMinimum !== undefined && value <= eff.exclusiveMinimum) return false;
    if (eff.exclusiveMaximum !== undefined && value >= eff.exclusiveMaximum) return false;
    return true;
  }

  private fromEnum(eff: Effective, values: unknown[], types: Set<string>): fc.Arbitrary<Sample> {
    return fc.constantFrom(...values).map((value) => {
      const sites = this.scalarSites(value, types, this.isTyped(eff), eff.ignoredNullable);
      // OpenAPI 3.0.3 §4.7.24 (nullable): other keywords keep their meaning, so an enum without null rejects null.
      if (types.has('null') && !this.enumAdmits(eff, null)) sites.push({ path: [], kind: 'null-outside-enum', replacement: null });
      if (typeof value === 'string') {
        sites.push({ path: [], kind: 'enum-outside', replacement: `${value}X` });
        sites.push({ path: [], kind: 'enum-case', replacement: value.toLowerCase() === value ? value.toUpperCase() : value.toLowerCase() });
      } else sites.push({ path: [], kind: 'enum-outside', replacement: typeof value === 'number' ? value + 1 : 'NotInTheList' });
      return { value, sites };
    });
  }

  /**
   * Wrong-type and null replacements for a value of the given allowed types. `typed` is false
   * when the schema has neither `type` nor `enum`: its keywords then only constrain values of
   * their own type, and a value of another type is valid in JSON Schema (the kind says so).
   */
  private scalarSites(value: unknown, types: Set<string>, typed: boolean, ignoredNullable = false): Site[] {
    const sites: Site[] = [];
    const suffix = typed ? '' : ' (no type keyword: valid in JSON Schema)';
    const allows = (t: string): boolean => types.has(t) || (t === 'integer' && types.has('number'));
    if (!allows('null')) sites.push({ path: [], kind: `null-not-allowed${suffix || (ignoredNullable ? ' (nullable without type or beside $ref: no effect in OpenAPI 3.0)' : '')}`, replacement: null });
    const candidates: Array<[string, unknown]> = [
      ['string', typeof value === 'number' || typeof value === 'boolean' ? String(value) : 'text'],
      ['number', typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : 12.5],
      ['boolean', true],
      ['array', [value]],
      ['object', { value }],
    ];
    for (const [type, replacement] of candidates) {
      if (allows(type) || (type === 'number' && allows('integer'))) continue;
      sites.push({ path: [], kind: `wrong-type:${type}${suffix}`, replacement });
    }
    return sites;
  }

  private fromType(type: string, eff: Effective, depth: number, types: Set<string>): fc.Arbitrary<Sample> {
    switch (type) {
      case 'string':
        return this.fromString(eff, types);
      case 'integer':
      case 'number':
        return this.fromNumber(eff, type === 'integer', types);
      case 'boolean':
        return fc.boolean().map((value) => ({ value, sites: this.scalarSites(value, types, this.isTyped(eff), eff.ignoredNullable) }));
      case 'array':
        return this.fromArray(eff, depth, types);
      case 'object':
        return this.fromObject(eff, depth, types);
      default:
        throw new Error(`unknown type ${type}`);
    }
  }

  // ---------------------------------------------------------------- strings

  private fromString(eff: Effective, types: Set<string>): fc.Arbitrary<Sample> {
    const format = eff.formats.find((f) => FORMAT_ARBITRARIES[f] !== undefined);
    const min = eff.minLength ?? 0;
    const max = eff.maxLength;
    let base: fc.Arbitrary<string>;
    if (format) base = FORMAT_ARBITRARIES[format]!();
    else if (eff.patterns.length > 0) base = fc.stringMatching(new RegExp(eff.patterns[0]!, 'u'), { size: 'small' });
    else {
      const maxLength = Math.min(max ?? min + 12, min + 12);
      base = fc.oneof(
        { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength }) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength }) },
      );
    }
    const valid = base.filter((s) => this.stringAccepts(eff, s));
    return valid.map((value) => ({ value, sites: [...this.scalarSites(value, types, this.isTyped(eff), eff.ignoredNullable), ...this.stringSites(eff, value, format)] }));
  }

  private stringSites(eff: Effective, value: string, format: string | undefined): Site[] {
    const sites: Site[] = [];
    const chars = [...value];
    const filler = chars[chars.length - 1] ?? 'A';
    if (eff.maxLength !== undefined) {
      sites.push({ path: [], kind: 'too-long', replacement: value + filler.repeat(Math.max(1, eff.maxLength + 1 - chars.length)) });
    }
    if (eff.minLength !== undefined && eff.minLength > 0) {
      sites.push({ path: [], kind: 'too-short', replacement: chars.slice(0, eff.minLength - 1).join('') });
    }
    const free = eff.patterns.length === 0 && eff.formats.length === 0;
    // A character outside the Basic Multilingual Plane counts once in JSON Schema, twice in UTF-16.
    if (free && eff.maxLength !== undefined && eff.maxLength >= (eff.minLength ?? 0) && eff.maxLength > 0) {
      sites.push({ path: [], kind: 'astral-at-maxLength (valid)', replacement: ASTRAL.repeat(eff.maxLength) });
    }
    if (free && eff.minLength !== undefined && eff.minLength >= 2) {
      sites.push({ path: [], kind: 'astral-under-minLength', replacement: ASTRAL.repeat(eff.minLength - 1) });
    }
    if (eff.patterns.length > 0) {
      sites.push({ path: [], kind: 'pattern-trailing-newline', replacement: `${value}\n` });
      sites.push({ path: [], kind: 'pattern-leading-space', replacement: ` ${value}` });
      sites.push({ path: [], kind: 'pattern-empty', replacement: '' });
    }
    if (format && FORMAT_PROBES[format]) {
      for (const [kind, replacement] of FORMAT_PROBES[format]!(value)) sites.push({ path: [], kind: `${format}:${kind}`, replacement });
    }
    return sites;
  }

  // ---------------------------------------------------------------- numbers

  private fromNumber(eff: Effective, integer: boolean, types: Set<string>): fc.Arbitrary<Sample> {
    const int32 = eff.formats.includes('int32');
    let lo = eff.minimum ?? (eff.exclusiveMinimum !== undefined ? eff.exclusiveMinimum + (integer ? 1 : 0.25) : -1000);
    let hi = eff.maximum ?? (eff.exclusiveMaximum !== undefined ? eff.exclusiveMaximum - (integer ? 1 : 0.25) : lo + 2000);
    if (eff.minimum === undefined && eff.exclusiveMinimum === undefined) lo = Math.min(lo, hi - 2000);
    if (int32) {
      lo = Math.max(lo, -(2 ** 31));
      hi = Math.min(hi, 2 ** 31 - 1);
    }
    const step = eff.multipleOf ?? (integer ? 1 : 0.25);
    const kLo = Math.ceil(lo / step);
    const kHi = Math.floor(hi / step);
    if (kLo > kHi) throw new UnsatisfiableSchema('empty numeric range');
    const whole = fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) }).filter((v) => Number.isInteger(v / step));
    const stepped = fc.integer({ min: Math.max(kLo, -1e9), max: Math.min(kHi, 1e9) }).map((k) => k * step);
    const arbitrary = (integer || eff.multipleOf !== undefined || Math.ceil(lo) > Math.floor(hi) ? stepped : fc.oneof(whole, stepped)).filter((v) =>
      this.numberAccepts(eff, v),
    );
    return arbitrary.map((value) => {
      const sites = this.scalarSites(value, types, this.isTyped(eff), eff.ignoredNullable);
      if (integer) sites.push({ path: [], kind: 'not-an-integer', replacement: value + 0.5 });
      if (eff.minimum !== undefined) sites.push({ path: [], kind: 'under-minimum', replacement: eff.minimum - (integer ? 1 : 0.5) });
      if (eff.maximum !== undefined) sites.push({ path: [], kind: 'over-maximum', replacement: eff.maximum + (integer ? 1 : 0.5) });
      if (eff.exclusiveMinimum !== undefined) sites.push({ path: [], kind: 'at-exclusiveMinimum', replacement: eff.exclusiveMinimum });
      if (eff.exclusiveMaximum !== undefined) sites.push({ path: [], kind: 'at-exclusiveMaximum', replacement: eff.exclusiveMaximum });
      if (int32) {
        if (eff.maximum === undefined || eff.maximum >= 2 ** 31) sites.push({ path: [], kind: 'int32-overflow', replacement: 2 ** 31 });
        if (eff.minimum === undefined || eff.minimum < -(2 ** 31)) sites.push({ path: [], kind: 'int32-underflow', replacement: -(2 ** 31) - 1 });
      } else if (integer && eff.maximum === undefined && eff.exclusiveMaximum === undefined) {
        // JSON Schema's integer has no range; JavaScript numbers hold this one exactly.
        sites.push({ path: [], kind: 'integer-beyond-2^53 (valid)', replacement: 2 ** 60 });
      }
      return { value, sites };
    });
  }

  // ---------------------------------------------------------------- arrays

  private fromArray(eff: Effective, depth: number, types: Set<string>): fc.Arbitrary<Sample> {
    const min = eff.minItems ?? 0;
    const max = Math.min(eff.maxItems ?? Infinity, depth >= SOFT_DEPTH ? min : min + 2);
    if (max < min) throw new UnsatisfiableSchema('minItems above maxItems');
    const item = this.itemArbitrary(eff, depth);
    const items = eff.uniqueItems
      ? fc.uniqueArray(item, { minLength: min, maxLength: max, selector: (s) => canonical(s.value) })
      : fc.array(item, { minLength: min, maxLength: max });
    return fc.tuple(items, item).map(([samples, spare]) => {
      const value = samples.map((s) => s.value);
      const sites: Site[] = [...this.scalarSites(value, types, this.isTyped(eff), eff.ignoredNullable)];
      samples.forEach((s, i) => {
        for (const site of s.sites) sites.push({ ...site, path: [i, ...site.path] });
      });
      if (min > 0) sites.push({ path: [], kind: 'under-minItems', replacement: value.slice(0, min - 1) });
      if (eff.maxItems !== undefined) {
        const extra = Array.from({ length: eff.maxItems + 1 - value.length }, () => spare.value);
        sites.push({ path: [], kind: 'over-maxItems', replacement: [...value, ...extra] });
      }
      if (eff.uniqueItems && value.length > 0) sites.push({ path: [], kind: 'duplicate-items', replacement: [...value, value[0]] });
      return { value, sites };
    });
  }

  private itemArbitrary(eff: Effective, depth: number): fc.Arbitrary<Sample> {
    const schemas = eff.items.length > 0 ? eff.items : [true];
    return this.forSchema(schemas.length === 1 ? schemas[0] : { allOf: schemas }, depth + 1);
  }

  // ---------------------------------------------------------------- objects

  private fromObject(eff: Effective, depth: number, types: Set<string>): fc.Arbitrary<Sample> {
    const allowed = (name: string): boolean => eff.closed.every((set) => set.has(name));
    for (const name of eff.required) {
      if (!allowed(name)) throw new UnsatisfiableSchema(`required member ${name} is not allowed by a closed object`);
    }
    const declared = [...eff.properties.keys()].filter(allowed);
    const optional = declared.filter((n) => !eff.required.has(n));
    const required = [...eff.required];
    const open = eff.closed.length === 0;
    const extraSchema = eff.additional.length === 0 ? undefined : eff.additional.length === 1 ? eff.additional[0] : { allOf: eff.additional };
    // minProperties beyond the required members: take optional members in order, then extras.
    const minMembers = eff.minProperties ?? 0;
    const forced = new Set(optional.slice(0, Math.max(0, minMembers - required.length)));
    const needExtras = Math.max(0, minMembers - required.length - optional.length);
    if (needExtras > 0 && !open) throw new UnsatisfiableSchema('minProperties cannot be reached');

    const memberArbitrary = (name: string): fc.Arbitrary<Sample> => {
      const schemas = eff.properties.get(name);
      if (schemas) return this.forSchema(schemas.length === 1 ? schemas[0] : { allOf: schemas }, depth + 1);
      if (extraSchema) return this.forSchema(extraSchema, depth + 1);
      return fc.constant({ value: 'value', sites: [] });
    };
    const entries = [
      ...required.map((name) => memberArbitrary(name).map((s) => [name, s] as const)),
      ...optional.map((name) => {
        const always = forced.has(name);
        const include = always ? fc.constant(true) : depth >= SOFT_DEPTH ? fc.constant(false) : fc.boolean();
        return include.chain((yes) => (yes ? memberArbitrary(name).map((s) => [name, s] as const) : fc.constant(undefined)));
      }),
    ];
    const extraCount = open ? (needExtras > 0 ? fc.constant(needExtras) : depth >= SOFT_DEPTH ? fc.constant(0) : fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(1) })) : fc.constant(0);
    const extraValue = extraSchema ? this.forSchema(extraSchema, depth + 1) : fc.constant<Sample>({ value: 'extra', sites: [] });
    return fc.tuple(fc.tuple(...entries), extraCount, extraValue).map(([members, extras, extra]) => {
      const value: Json = {};
      const sites: Site[] = [...this.scalarSites(value, types, this.isTyped(eff), eff.ignoredNullable)];
      for (const member of members) {
        if (!member) continue;
        const [name, sample] = member;
        value[name] = sample.value;
        for (const site of sample.sites) sites.push({ ...site, path: [name, ...site.path] });
      }
      for (let i = 0; i < extras; i++) {
        value[`${EXTRA_MEMBER}${i}`] = extra.value;
        for (const site of extra.sites) sites.push({ ...site, path: [`${EXTRA_MEMBER}${i}`, ...site.path] });
      }
      if (eff.maxProperties !== undefined && Object.keys(value).length > eff.maxProperties) {
        for (const name of Object.keys(value).filter((n) => !eff.required.has(n)).slice(0, Object.keys(value).length - eff.maxProperties)) delete value[name];
      }
      for (const name of required) {
        const without = { ...value };
        delete without[name];
        sites.push({ path: [], kind: 'missing-required', replacement: without });
      }
      if (!open) sites.push({ path: [], kind: 'unknown-member', replacement: { ...value, [UNKNOWN_MEMBER]: 'x' } });
      if (open && !extraSchema) sites.push({ path: [], kind: 'extra-member-open (valid)', replacement: { ...value, [UNKNOWN_MEMBER]: { nested: [1] } } });
      if (minMembers > 0) sites.push({ path: [], kind: 'under-minProperties', replacement: {} });
      if (eff.maxProperties !== undefined) {
        const over: Json = { ...value };
        for (let i = 0; Object.keys(over).length <= eff.maxProperties; i++) over[`${UNKNOWN_MEMBER}${i}`] = extra.value;
        sites.push({ path: [], kind: 'over-maxProperties', replacement: over });
      }
      return { value, sites: sites.filter((s) => s.path.length === 0 || s.path[0]! in value) };
    });
  }
}

// -------------------------------------------------------------------- formats

const STRING_FORMATS = new Set(['date', 'date-time', 'time', 'uri', 'uuid', 'email', 'duration', 'byte']);

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

const dateArbitrary = (): fc.Arbitrary<string> =>
  fc
    .record({ y: fc.integer({ min: 1900, max: 2099 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 31 }) })
    .map(({ y, m, d }) => `${pad(y, 4)}-${pad(m)}-${pad(Math.min(d, m === 2 && isLeap(y) ? 29 : DAYS[m - 1]!))}`);

const offsetArbitrary = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant('Z'),
    fc.constant('+00:00'),
    fc.record({ sign: fc.constantFrom('+', '-'), h: fc.integer({ min: 1, max: 12 }), m: fc.constantFrom(0, 30, 45) }).map(({ sign, h, m }) => `${sign}${pad(h)}:${pad(m)}`),
  );

const timeArbitrary = (): fc.Arbitrary<string> =>
  fc
    .record({
      h: fc.integer({ min: 0, max: 23 }),
      m: fc.integer({ min: 0, max: 59 }),
      s: fc.integer({ min: 0, max: 59 }),
      fraction: fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: undefined }),
      offset: offsetArbitrary(),
    })
    .map(({ h, m, s, fraction, offset }) => `${pad(h)}:${pad(m)}:${pad(s)}${fraction ? `.${fraction}` : ''}${offset}`);

const durationArbitrary = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc
      .record({ y: fc.option(fc.nat(30)), mo: fc.option(fc.nat(24)), d: fc.option(fc.nat(40)), h: fc.option(fc.nat(48)), mi: fc.option(fc.nat(90)), s: fc.option(fc.nat(90)) })
      .map(({ y, mo, d, h, mi, s }) => {
        const date = `${y !== null ? `${y}Y` : ''}${mo !== null ? `${mo}M` : ''}${d !== null ? `${d}D` : ''}`;
        const time = `${h !== null ? `${h}H` : ''}${mi !== null ? `${mi}M` : ''}${s !== null ? `${s}S` : ''}`;
        return `P${date}${time ? `T${time}` : ''}` === 'P' ? 'P1D' : `P${date}${time ? `T${time}` : ''}`;
      }),
    fc.nat(52).map((w) => `P${w}W`),
  );

const FORMAT_ARBITRARIES: Record<string, (() => fc.Arbitrary<string>) | undefined> = {
  date: dateArbitrary,
  'date-time': () => fc.tuple(dateArbitrary(), timeArbitrary()).map(([d, t]) => `${d}T${t}`),
  time: timeArbitrary,
  uri: () => fc.oneof({ weight: 4, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) }, { weight: 1, arbitrary: fc.constantFrom('urn:example:animal:ferret:nose', 'mailto:someone@example.com', 'ftp://ftp.example.org/pub/file.txt') }),
  uuid: () => fc.uuid(),
  email: () => fc.emailAddress(),
  duration: durationArbitrary,
  byte: () => fc.base64String({ maxLength: 24 }),
};

/** Checks used only to keep enum values that cannot validate out of the valid instances. */
const FORMAT_CHECKS: Record<string, ((value: string) => boolean) | undefined> = {
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v),
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(v),
};

/** Edge cases per format, derived from a valid value. The kind says which are valid. */
const FORMAT_PROBES: Record<string, ((valid: string) => Array<[string, string]>) | undefined> = {
  'date-time': (valid) => {
    const [date, time] = valid.split('T') as [string, string];
    const clock = time.slice(0, 8);
    return [
      ['offset -00:00 (valid RFC 3339; the DateTime pattern rejects it)', `${date}T${clock}-00:00`],
      ['space separator', `${date} ${clock}Z`],
      ['lower-case t and z (valid RFC 3339)', `${date}t${clock}z`],
      ['offset without colon', `${date}T${clock}+0400`],
      ['offset hours only', `${date}T${clock}+04`],
      ['no offset', `${date}T${clock}`],
      ['hour 24', `${date}T24:00:00Z`],
      ['leap second 23:59:60Z (valid RFC 3339)', `${date}T23:59:60Z`],
      ['leap second at a non-UTC-midnight minute', `${date}T12:00:60Z`],
      ['29 February of a common year', `2023-02-29T${clock}Z`],
      ['offset hour 24', `${date}T${clock}+24:00`],
      ['date only', date],
    ];
  },
  date: (valid) => [
    ['29 February of a common year', '2023-02-29'],
    ['29 February of a leap year (valid)', '2024-02-29'],
    ['month 13', `${valid.slice(0, 4)}-13-01`],
    ['day 00', `${valid.slice(0, 8)}00`],
    ['date-time instead of date', `${valid}T00:00:00Z`],
    ['no hyphens', valid.replace(/-/g, '')],
  ],
  time: (valid) => [
    ['no offset', valid.slice(0, 8)],
    ['hour 24', '24:00:00Z'],
  ],
  uri: () => [
    ['relative reference', 'relative/path'],
    ['space in path', 'https://example.com/a b'],
    ['square bracket in path', 'https://example.com/a[b]'],
    ['bad percent escape', 'https://example.com/%zz'],
    ['non-ASCII host', 'https://\u4f8b\u3048.jp/'],
    ['scheme only (valid)', 'urn:'],
    ['IPv6 host (valid)', 'http://[2001:db8::1]:8080/path'],
    ['backslash', 'https://example.com\\path'],
    ['double quote', 'https://example.com/"q"'],
  ],
  email: () => [
    ['no domain dot', 'someone@localhost'],
    ['no at sign', 'someone.example.com'],
    ['space', 'some one@example.com'],
    ['quoted local part (valid)', '"some one"@example.com'],
    ['IP literal domain (valid)', 'someone@[192.168.0.1]'],
  ],
  duration: () => [
    ['P alone', 'P'],
    ['T without time', 'P1DT'],
    ['fractional seconds', 'PT1.5S'],
    ['weeks with days', 'P1W2D'],
    ['negative', '-P1D'],
  ],
  uuid: (valid) => [
    ['upper case (valid)', valid.toUpperCase()],
    ['urn prefix', `urn:uuid:${valid}`],
    ['no hyphens', valid.replace(/-/g, '')],
    ['braces', `{${valid}}`],
  ],
  byte: (valid) => [
    ['trailing newline', `${valid}\n`],
    ['not base64', '!!!!'],
  ],
};

/** A copy of `root` with `site.replacement` put at `site.path`. */
export function applySite(root: unknown, site: Site): unknown {
  if (site.path.length === 0) return structuredClone(site.replacement);
  const copy = structuredClone(root);
  let node = copy as Record<PathItem, unknown>;
  for (const step of site.path.slice(0, -1)) node = node[step] as Record<PathItem, unknown>;
  node[site.path[site.path.length - 1]!] = structuredClone(site.replacement);
  return copy;
}

/** A small deterministic PRNG (mulberry32), for picking mutations. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable 32-bit hash of a string (FNV-1a), to derive a seed per schema. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface Mutant {
  value: unknown;
  kind: string;
  path: PathItem[];
}

/**
 * Picks up to `count` mutants from the sites of `samples`, spreading the choice over kinds
 * (round robin) so that rare kinds are not crowded out by frequent ones.
 */
export function pickMutants(samples: Sample[], count: number, seed: number): Mutant[] {
  const random = seededRandom(seed);
  const byKind = new Map<string, Array<{ sample: Sample; site: Site }>>();
  for (const sample of samples) {
    for (const site of sample.sites) byKind.set(site.kind, [...(byKind.get(site.kind) ?? []), { sample, site }]);
  }
  const queues = [...byKind.keys()].sort().map((kind) => {
    const list = byKind.get(kind)!;
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  });
  const out: Mutant[] = [];
  const seen = new Set<string>();
  for (let round = 0; out.length < count && queues.some((q) => q.length > round); round++) {
    for (const queue of queues) {
      const entry = queue[round];
      if (!entry || out.length >= count) continue;
      const value = applySite(entry.sample.value, entry.site);
      const key = canonical(value);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ value, kind: entry.site.kind, path: entry.site.path });
    }
  }
  return out;
}
