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
  /**
   * True when the walk could not make sure the value is valid (a `not`, an `if` whose `else`
   * branch was taken, a `maxContains` ordinary items may exceed...): the differential still
   * compares both validators on it, but does not count ajv rejecting it as a generator bug.
   */
  uncertain?: boolean;
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

const DOCUMENT_BASE = 'urn:x-differential:document';
const SINGLE_KEYWORDS = ['items', 'additionalProperties', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'];
const LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];

function joinUri(reference: string, base: string): string {
  try {
    return new URL(reference, base).href;
  } catch {
    const hash = base.indexOf('#');
    return `${hash < 0 ? base : base.slice(0, hash)}${reference}`;
  }
}

/**
 * A copy of a 3.1 document where every `$ref` of a component schema is a JSON pointer into
 * the document: references resolve against the base URI each `$id` sets, to `$anchor`s, and
 * to pointers inside the resource they name (as JSON Schema 2020-12 §8.2 says).
 */
export function pointerRefs(document: Json): Json {
  const copy = structuredClone(document);
  const schemas = ((copy['components'] as Json | undefined)?.['schemas'] ?? {}) as Json;
  const resources = new Map<string, string>([[DOCUMENT_BASE, '#']]);
  const anchors = new Map<string, string>();
  const refs: Array<{ node: Json; base: string }> = [];
  const strip = (uri: string): string => (uri.includes('#') ? uri.slice(0, uri.indexOf('#')) : uri);
  const walk = (node: unknown, pointer: string, outer: string): void => {
    if (!isObject(node)) return;
    let base = outer;
    if (typeof node['$id'] === 'string') {
      base = strip(joinUri(node['$id'], outer));
      resources.set(base, pointer);
    }
    if (typeof node['$anchor'] === 'string') anchors.set(`${base}#${node['$anchor']}`, pointer);
    if (typeof node['$ref'] === 'string') refs.push({ node, base });
    const esc = (t: string): string => t.replace(/~/g, '~0').replace(/\//g, '~1');
    for (const key of SINGLE_KEYWORDS) walk(node[key], `${pointer}/${key}`, base);
    for (const key of LIST_KEYWORDS) if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((c, i) => walk(c, `${pointer}/${key}/${i}`, base));
    for (const key of MAP_KEYWORDS) if (isObject(node[key])) for (const [name, child] of Object.entries(node[key])) walk(child, `${pointer}/${key}/${esc(name)}`, base);
  };
  for (const [name, schema] of Object.entries(schemas)) walk(schema, `${COMPONENT_PREFIX}${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, DOCUMENT_BASE);
  for (const { node, base } of refs) {
    const absolute = joinUri(node['$ref'] as string, base);
    const resource = strip(absolute);
    const fragment = absolute.slice(resource.length + 1);
    const root = resources.get(resource);
    if (root === undefined) throw new Error(`$ref ${String(node['$ref'])} names no resource of the document`);
    if (fragment === '' || fragment.startsWith('/')) node['$ref'] = `${root}${decodeURIComponent(fragment)}`;
    else {
      const anchored = anchors.get(`${resource}#${fragment}`);
      if (anchored === undefined) throw new Error(`$ref ${String(node['$ref'])} names no $anchor`);
      node['$ref'] = anchored;
    }
  }
  return copy;
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
  /**
   * Item schemas, one entry per schema that has any: the positional schemas (`prefixItems`,
   * draft 4's array `items`) and the schema of the items after them (`items`,
   * `additionalItems`; undefined: any).
   */
  tuples: Array<{ prefix: unknown[]; rest: unknown }>;
  /** `contains` with its `minContains`/`maxContains`. */
  contains: Array<{ schema: unknown; min: number; max?: number }>;
  /** `unevaluatedItems` schemas (`false` included). */
  unevaluatedItems: unknown[];
  minItems?: number;
  maxItems?: number;
  uniqueItems: boolean;
  properties: Map<string, unknown[]>;
  required: Set<string>;
  /**
   * Each closed object (or closed allOf) allows only these names and names matching these
   * patterns. An `unevaluated` one (`unevaluatedProperties: false`) also allows every name
   * declared anywhere in the instance's schemas (approximation: the branches taken).
   */
  closed: Array<{ names: Set<string>; patterns: RegExp[]; unevaluated?: boolean }>;
  additional: unknown[];
  /** `unevaluatedProperties` schemas other than `false`. */
  unevaluatedProperties: unknown[];
  patternProperties: Array<{ regex: RegExp; schema: unknown }>;
  propertyNames: unknown[];
  dependentRequired: Array<[string, string[]]>;
  dependentSchemas: Array<[string, unknown]>;
  /** Member names a chosen `dependent*` branch keeps out of the instance. */
  forbidden: Set<string>;
  conditionals: Array<{ if: unknown; then: unknown; else: unknown }>;
  nots: unknown[];
  /** The instance may be invalid (see Sample.uncertain). */
  uncertain: boolean;
  minProperties?: number;
  maxProperties?: number;
  unions: Union[];
  /** A 3.0 `nullable: true` that has no effect (no `type` beside it, or beside a `$ref`). */
  ignoredNullable: boolean;
}

function emptyEffective(): Effective {
  return {
    enums: [],
    patterns: [],
    formats: [],
    tuples: [],
    contains: [],
    unevaluatedItems: [],
    uniqueItems: false,
    properties: new Map(),
    required: new Set(),
    closed: [],
    additional: [],
    unevaluatedProperties: [],
    patternProperties: [],
    propertyNames: [],
    dependentRequired: [],
    dependentSchemas: [],
    forbidden: new Set(),
    conditionals: [],
    nots: [],
    uncertain: false,
    unions: [],
    ignoredNullable: false,
  };
}

function cloneEffective(e: Effective): Effective {
  return {
    ...e,
    ...(e.types ? { types: new Set(e.types) } : {}),
    ignoredNullable: e.ignoredNullable,
    enums: [...e.enums],
    patterns: [...e.patterns],
    formats: [...e.formats],
    tuples: [...e.tuples],
    contains: [...e.contains],
    unevaluatedItems: [...e.unevaluatedItems],
    properties: new Map([...e.properties].map(([k, v]) => [k, [...v]])),
    required: new Set(e.required),
    closed: e.closed.map((c) => ({ ...c, names: new Set(c.names), patterns: [...c.patterns] })),
    additional: [...e.additional],
    unevaluatedProperties: [...e.unevaluatedProperties],
    patternProperties: [...e.patternProperties],
    propertyNames: [...e.propertyNames],
    dependentRequired: [...e.dependentRequired],
    dependentSchemas: [...e.dependentSchemas],
    forbidden: new Set(e.forbidden),
    conditionals: [...e.conditionals],
    nots: [...e.nots],
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
  /**
   * The generator's reading to follow: `lenient` reads a closed `allOf` branch as closing the
   * whole `allOf`. Default: `exact` for 3.1 documents, `lenient` for 3.0 (the generator's).
   */
  reading?: 'exact' | 'lenient';
}

export class InstanceGenerator {
  private readonly dialect: '3.0' | '3.1';
  private readonly reading: 'exact' | 'lenient';
  /** The document with every `$ref` of a 3.1 schema rewritten as a pointer into it. */
  private readonly document: Json;

  constructor(options: InstanceGeneratorOptions) {
    this.dialect = String(options.document['openapi']).startsWith('3.1') ? '3.1' : '3.0';
    this.reading = options.reading ?? (this.dialect === '3.1' ? 'exact' : 'lenient');
    this.document = this.dialect === '3.1' ? pointerRefs(options.document) : options.document;
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
    const target = lookup(this.document, ref);
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
    const is31 = this.dialect === '3.1';
    if (is31) {
      const prefix = Array.isArray(schema['prefixItems']) ? (schema['prefixItems'] as unknown[]) : [];
      if (prefix.length > 0 || 'items' in schema) eff.tuples.push({ prefix, rest: 'items' in schema ? schema['items'] : undefined });
    } else if (Array.isArray(schema['items'])) {
      // Draft 4: array `items` is positional, `additionalItems` applies after it.
      eff.tuples.push({ prefix: schema['items'] as unknown[], rest: 'additionalItems' in schema ? schema['additionalItems'] : undefined });
    } else if ('items' in schema) eff.tuples.push({ prefix: [], rest: schema['items'] });
    if (is31 && 'contains' in schema) {
      const min = typeof schema['minContains'] === 'number' ? schema['minContains'] : 1;
      eff.contains.push({ schema: schema['contains'], min, ...(typeof schema['maxContains'] === 'number' ? { max: schema['maxContains'] } : {}) });
    }
    if (is31 && 'unevaluatedItems' in schema) eff.unevaluatedItems.push(schema['unevaluatedItems']);
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
    const ownPatterns: RegExp[] = [];
    if (isObject(schema['patternProperties'])) {
      for (const [source, sub] of Object.entries(schema['patternProperties'])) {
        const regex = new RegExp(source, 'u');
        ownPatterns.push(regex);
        eff.patternProperties.push({ regex, schema: sub });
      }
    }
    const additional = schema['additionalProperties'];
    if (additional === false) eff.closed.push({ names: new Set(declared), patterns: ownPatterns });
    else if (isObject(additional) && Object.keys(additional).length > 0) eff.additional.push(additional);
    if (is31 && 'propertyNames' in schema) eff.propertyNames.push(schema['propertyNames']);
    const dependentRequired = is31 ? schema['dependentRequired'] : undefined;
    if (isObject(dependentRequired)) for (const [name, list] of Object.entries(dependentRequired)) eff.dependentRequired.push([name, list as string[]]);
    const dependentSchemas = is31 ? schema['dependentSchemas'] : undefined;
    if (isObject(dependentSchemas)) for (const [name, sub] of Object.entries(dependentSchemas)) eff.dependentSchemas.push([name, sub]);
    const dependencies = is31 ? undefined : schema['dependencies'];
    if (isObject(dependencies)) {
      for (const [name, dep] of Object.entries(dependencies)) {
        if (Array.isArray(dep)) eff.dependentRequired.push([name, dep as string[]]);
        else eff.dependentSchemas.push([name, dep]);
      }
    }
    if ('not' in schema) eff.nots.push(schema['not']);
    if (is31 && 'if' in schema) eff.conditionals.push({ if: schema['if'], then: schema['then'], else: schema['else'] });
    const minProperties = num('minProperties');
    const maxProperties = num('maxProperties');
    if (minProperties !== undefined) eff.minProperties = maxOf(eff.minProperties, minProperties);
    if (maxProperties !== undefined) eff.maxProperties = minOf(eff.maxProperties, maxProperties);

    for (const mode of ['oneOf', 'anyOf'] as const) {
      const variants = schema[mode];
      if (!Array.isArray(variants)) continue;
      const union: Union = { mode, variants };
      const d = schema['discriminator'];
      if (isObject(d) && typeof d['propertyName'] === 'string') {
        union.discriminator = { tag: d['propertyName'], keys: this.discriminatorKeys(d, variants) };
      }
      eff.unions.push(union);
    }

    if (Array.isArray(schema['allOf'])) {
      for (const branch of schema['allOf']) for (const n of this.collect(branch, eff, hops + 1)) declared.add(n);
      // The generator's lenient reading: a closed branch (or the node itself) closes the whole
      // allOf over every name the allOf declares, like `unevaluatedProperties: false`.
      if (this.reading === 'lenient' && eff.closed.length > closedBefore) {
        const patterns = eff.closed.slice(closedBefore).flatMap((c) => c.patterns);
        eff.closed.splice(closedBefore, eff.closed.length - closedBefore, { names: new Set(declared), patterns });
      }
    }
    // Members evaluated anywhere in this schema (its allOf, $ref, chosen branches) are allowed.
    if (is31 && 'unevaluatedProperties' in schema) {
      const unevaluated = schema['unevaluatedProperties'];
      if (unevaluated === false) eff.closed.push({ names: new Set(declared), patterns: [...ownPatterns], unevaluated: true });
      else if (unevaluated !== true) eff.unevaluatedProperties.push(unevaluated);
    }
    return declared;
  }

  private discriminatorKeys(d: Json, variants: unknown[]): string[][] {
    const mapping = isObject(d['mapping']) ? d['mapping'] : {};
    return variants.map((variant) => {
      const ref = isObject(variant) && typeof variant['$ref'] === 'string' ? variant['$ref'] : undefined;
      // An inline variant has no name: no value names it (the discriminator is a hint only).
      if (ref === undefined) return [];
      const keys = Object.entries(mapping)
        .filter(([, target]) => target === ref || `${COMPONENT_PREFIX}${String(target)}` === ref)
        .map(([key]) => key);
      return keys.length > 0 ? keys : [unescapeToken(ref.slice(ref.lastIndexOf('/') + 1))];
    });
  }

  // ---------------------------------------------------------------- generating

  private fromEffective(eff: Effective, depth: number): fc.Arbitrary<Sample> {
    if (eff.unions.length > 0 || eff.conditionals.length > 0) return this.withUnions(eff, depth);
    if (eff.nots.length > 0) return this.withNots(eff, depth);
    const core = this.fromTypes(eff, depth);
    return eff.uncertain ? core.map((sample) => ({ ...sample, uncertain: true })) : core;
  }

  /**
   * `not`: the value is generated without it (it may match a negated schema, so it is
   * uncertain), and a value of each negated schema is offered as a mutation.
   */
  private withNots(eff: Effective, depth: number): fc.Arbitrary<Sample> {
    const base = cloneEffective(eff);
    base.nots = [];
    const negated = eff.nots.flatMap((schema) => {
      try {
        return [this.forSchema(schema, depth + 1)];
      } catch (error) {
        if (error instanceof UnsatisfiableSchema) return [];
        throw error;
      }
    });
    return fc.tuple(this.fromEffective(base, depth), ...negated).map(([sample, ...matches]) => ({
      value: sample.value,
      uncertain: true,
      sites: [...sample.sites, ...matches.map((m) => ({ path: [], kind: 'matches-not', replacement: m.value }))],
    }));
  }

  private fromTypes(eff: Effective, depth: number): fc.Arbitrary<Sample> {
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

  /**
   * Picks a variant of each union and a branch of each `if` (its `if` and `then`, or its
   * `else`: then the value may still match `if`, so it is uncertain), merges them in, and
   * generates from the result.
   */
  private withUnions(eff: Effective, depth: number): fc.Arbitrary<Sample> {
    const keys = (union: Union, choice: number): string[] => union.discriminator?.keys[choice] ?? [];
    const unions = eff.unions;
    const conditionals = eff.conditionals;
    return fc.tuple(fc.tuple(...unions.map((u) => fc.nat(u.variants.length - 1))), fc.tuple(...conditionals.map(() => fc.boolean()))).chain(([choices, branches]) => {
      const merged = cloneEffective(eff);
      merged.unions = [];
      merged.conditionals = [];
      conditionals.forEach((conditional, i) => {
        if (branches[i]) {
          this.collect(conditional.if, merged, 0);
          this.collect(conditional.then, merged, 0);
        } else {
          this.collect(conditional.else, merged, 0);
          merged.uncertain = true;
        }
      });
      unions.forEach((union, i) => {
        const choice = choices[i]!;
        this.collect(union.variants[choice], merged, 0);
        if (union.discriminator && keys(union, choice).length > 0) {
          // The tag value naming the chosen variant, as a writer following the mapping would.
          const { tag } = union.discriminator;
          merged.properties.set(tag, [...(merged.properties.get(tag) ?? []), { type: 'string', enum: keys(union, choice) }]);
          merged.required.add(tag);
          // The discriminator is a hint (it never changes the outcome): another variant may
          // match the value too, which a oneOf rejects.
          if (union.mode === 'oneOf' && union.variants.length > 1) merged.uncertain = true;
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
        return { ...sample, sites };
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
    if (
      eff.properties.size > 0 ||
      eff.required.size > 0 ||
      eff.closed.length > 0 ||
      eff.additional.length > 0 ||
      eff.minProperties !== undefined ||
      eff.maxProperties !== undefined ||
      eff.patternProperties.length > 0 ||
      eff.propertyNames.length > 0 ||
      eff.dependentRequired.length > 0 ||
      eff.dependentSchemas.length > 0 ||
      eff.unevaluatedProperties.length > 0
    )
      return new Set(['object']);
    if (eff.tuples.length > 0 || eff.contains.length > 0 || eff.unevaluatedItems.length > 0 || eff.minItems !== undefined || eff.maxItems !== undefined || eff.uniqueItems) return new Set(['array']);
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
    if (!allows('null')) sites.push({ path: [], kind: `null-not-allowed${suffix || (ignoredNullable ? ' (nullable without type: no effect in OpenAPI 3.0.3; the idiom beside $ref/allOf/oneOf/anyOf accepts null unless --nullable literal)' : '')}`, replacement: null });
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
    const plain = eff.tuples.every((t) => t.prefix.length === 0) && eff.contains.length === 0 && eff.unevaluatedItems.length === 0;
    if (!plain) return this.fromPositionalArray(eff, depth, types);
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
      return { value, sites, ...(samples.some((s) => s.uncertain) ? { uncertain: true } : {}) };
    });
  }

  private itemArbitrary(eff: Effective, depth: number): fc.Arbitrary<Sample> {
    const schemas = eff.tuples.map((t) => t.rest).filter((r) => r !== undefined);
    return this.forSchema(schemas.length === 0 ? true : schemas.length === 1 ? schemas[0] : { allOf: schemas }, depth + 1);
  }

  /** The schemas that apply to the item at `index` (positional, then the rest). */
  private itemSchemas(eff: Effective, index: number, matchedByContains = false): unknown[] {
    const out: unknown[] = [];
    for (const t of eff.tuples) {
      const schema = index < t.prefix.length ? t.prefix[index] : t.rest;
      if (schema !== undefined) out.push(schema);
    }
    // Items no `prefixItems`/`items` evaluates fall to `unevaluatedItems` (unless `contains` matched them).
    const evaluated = eff.tuples.some((t) => t.rest !== undefined || index < t.prefix.length);
    if (!evaluated && !matchedByContains) out.push(...eff.unevaluatedItems);
    return out;
  }

  private itemAt(eff: Effective, index: number, depth: number, extra: unknown[] = []): fc.Arbitrary<Sample> {
    const schemas = [...this.itemSchemas(eff, index, extra.length > 0), ...extra];
    return this.forSchema(schemas.length === 0 ? true : schemas.length === 1 ? schemas[0] : { allOf: schemas }, depth + 1);
  }

  /**
   * Arrays with positional items (`prefixItems`, draft 4's array `items`), `contains` or
   * `unevaluatedItems`: ordinary items first, each from the schemas of its position, then the
   * items `contains` needs (each also valid for its position).
   */
  private fromPositionalArray(eff: Effective, depth: number, types: Set<string>): fc.Arbitrary<Sample> {
    const prefixLength = Math.max(0, ...eff.tuples.map((t) => t.prefix.length));
    // The first index no item may take: a `false` schema there.
    let cap = Infinity;
    for (let i = 0; i <= prefixLength; i++) {
      if (this.itemSchemas(eff, i).includes(false)) {
        cap = i;
        break;
      }
    }
    const needed = eff.contains.reduce((n, c) => n + c.min, 0);
    for (const c of eff.contains) if (c.max !== undefined && c.max < c.min) throw new UnsatisfiableSchema('minContains above maxContains');
    const min = eff.minItems ?? 0;
    let ordinaryMin = Math.max(0, min - needed);
    const ordinaryMax = Math.min(cap, (eff.maxItems ?? Infinity) - needed, depth >= SOFT_DEPTH ? ordinaryMin : Math.max(ordinaryMin, prefixLength) + 1);
    // The items `contains` needs go after the positional ones where there is room.
    if (needed > 0) ordinaryMin = Math.max(ordinaryMin, Math.min(prefixLength, ordinaryMax));
    if (ordinaryMax < ordinaryMin) throw new UnsatisfiableSchema('no array length satisfies minItems, maxItems, contains and the item schemas');
    // Ordinary items may match a `contains` by chance and pass its `maxContains`.
    const uncertain = eff.contains.some((c) => c.max !== undefined) || (eff.uniqueItems && eff.contains.length > 0);
    return fc.integer({ min: ordinaryMin, max: ordinaryMax }).chain((n) => {
      const ordinary = Array.from({ length: n }, (_, i) => this.itemAt(eff, i, depth));
      const wanted: Array<{ entry: number; index: number }> = [];
      eff.contains.forEach((c, entry) => {
        for (let k = 0; k < c.min; k++) wanted.push({ entry, index: n + wanted.length });
      });
      const matching = wanted.map(({ entry, index }) => this.itemAt(eff, index, depth, [eff.contains[entry]!.schema]));
      const spareMatch = eff.contains.map((c, entry) => this.itemAt(eff, n + wanted.length, depth, [c.schema]).map((s) => ({ entry, sample: s })));
      return fc.tuple(fc.tuple(...ordinary), fc.tuple(...matching), fc.tuple(...spareMatch)).map(([items, matches, spares]) => {
        const samples = [...items, ...matches];
        let value = samples.map((s) => s.value);
        let dropped = false;
        if (eff.uniqueItems) {
          const seen = new Set<string>();
          const kept = value.filter((v) => !seen.has(canonical(v)) && seen.add(canonical(v)) !== undefined);
          dropped = kept.length !== value.length;
          value = kept;
        }
        const sites: Site[] = [...this.scalarSites(value, types, this.isTyped(eff), eff.ignoredNullable)];
        if (!dropped) {
          samples.forEach((s, i) => {
            for (const site of s.sites) sites.push({ ...site, path: [i, ...site.path] });
          });
          // A positional item of another type.
          for (let i = 0; i < Math.min(prefixLength, value.length); i++) sites.push({ path: [i], kind: 'prefix-item-other-type', replacement: otherType(value[i]) });
          // One item past the positional ones where nothing else may follow.
          const after = value.length;
          const closedAfter = this.itemSchemas(eff, after).some((sch) => sch === false);
          if (closedAfter) sites.push({ path: [], kind: eff.tuples.some((t) => t.rest === false) ? 'item-after-prefix' : 'unevaluated-item', replacement: [...value, 'extra'] });
          else if (eff.unevaluatedItems.length > 0) sites.push({ path: [], kind: 'unevaluated-item-appended', replacement: [...value, { unevaluated: true }] });
          // contains: none left, one too few, one too many.
          if (matches.length > 0) sites.push({ path: [], kind: 'contains-removed', replacement: value.slice(0, n) });
          eff.contains.forEach((c, entry) => {
            const own = wanted.filter((w) => w.entry === entry).map((w) => w.index);
            if (c.min > 1) sites.push({ path: [], kind: 'under-minContains', replacement: value.filter((_, i) => i !== own[0]) });
            const spare = spares.find((sp) => sp.entry === entry)!.sample.value;
            if (c.max !== undefined) sites.push({ path: [], kind: 'over-maxContains', replacement: [...value, ...Array.from({ length: c.max + 1 - c.min }, () => spare)] });
          });
        }
        if (min > 0) sites.push({ path: [], kind: 'under-minItems', replacement: value.slice(0, min - 1) });
        if (eff.maxItems !== undefined) sites.push({ path: [], kind: 'over-maxItems', replacement: [...value, ...Array.from({ length: eff.maxItems + 1 - value.length }, () => value[value.length - 1] ?? 'extra')] });
        if (eff.uniqueItems && value.length > 0) sites.push({ path: [], kind: 'duplicate-items', replacement: [...value, value[0]] });
        const anyUncertain = uncertain || dropped || samples.some((s) => s.uncertain);
        return { value, sites, ...(anyUncertain ? { uncertain: true } : {}) };
      });
    });
  }

  // ---------------------------------------------------------------- objects

  private fromObject(eff: Effective, depth: number, types: Set<string>): fc.Arbitrary<Sample> {
    if (eff.dependentRequired.length > 0 || eff.dependentSchemas.length > 0) return this.withDependents(eff, depth);
    const patternSchemas = (name: string): unknown[] => eff.patternProperties.filter((p) => p.regex.test(name)).map((p) => p.schema);
    const everyDeclared = new Set(eff.properties.keys());
    const allowed = (name: string): boolean =>
      eff.closed.every((c) => c.names.has(name) || c.patterns.some((r) => r.test(name)) || (c.unevaluated === true && (everyDeclared.has(name) || patternSchemas(name).length > 0)));
    // propertyNames: the name, a string, must pass every such schema (read with the string keywords).
    const names = emptyEffective();
    for (const schema of eff.propertyNames) this.collect(schema, names, 0);
    const nameOk = (name: string): boolean =>
      eff.propertyNames.length === 0 || ((names.types === undefined || names.types.has('string')) && this.enumAdmits(names, name) && this.stringAccepts(names, name));
    /** Every schema a member of this name must pass. */
    const memberSchemas = (name: string): unknown[] => {
      const own = [...(eff.properties.get(name) ?? []), ...patternSchemas(name)];
      if (own.length > 0 || eff.properties.has(name)) return own;
      return eff.additional.length > 0 ? eff.additional : eff.unevaluatedProperties;
    };
    const memberArbitrary = (name: string): fc.Arbitrary<Sample> => {
      const schemas = memberSchemas(name);
      if (schemas.length > 0) return this.forSchema(schemas.length === 1 ? schemas[0] : { allOf: schemas }, depth + 1);
      return fc.constant({ value: 'value', sites: [] });
    };
    for (const name of eff.required) {
      if (!allowed(name)) throw new UnsatisfiableSchema(`required member ${name} is not allowed by a closed object`);
    }
    const possible = (name: string): boolean => allowed(name) && nameOk(name) && !eff.forbidden.has(name) && !memberSchemas(name).includes(false);
    const declared = [...eff.properties.keys()].filter(possible);
    const optional = declared.filter((n) => !eff.required.has(n));
    const required = [...eff.required];
    const open = eff.closed.length === 0;
    // Extra members are named XDifferentialExtra0...; under propertyNames, by its first pattern.
    const namedExtra = names.patterns.length > 0 ? fc.stringMatching(new RegExp(names.patterns[0]!, 'u'), { size: 'xsmall' }).map((n) => (nameOk(n) && !eff.properties.has(n) ? n : undefined)) : fc.constant(undefined);
    const extraSchemas = memberSchemas(`${EXTRA_MEMBER}0`);
    const extrasPossible = open && (nameOk(`${EXTRA_MEMBER}0`) || names.patterns.length > 0) && !extraSchemas.includes(false);
    // minProperties beyond the required members: take optional members in order, then extras.
    const minMembers = eff.minProperties ?? 0;
    const forced = new Set(optional.slice(0, Math.max(0, minMembers - required.length)));
    const needExtras = Math.max(0, minMembers - required.length - optional.length);
    if (needExtras > 0 && !extrasPossible) throw new UnsatisfiableSchema('minProperties cannot be reached');

    const entries = [
      ...required.map((name) => memberArbitrary(name).map((s) => [name, s] as const)),
      ...optional.map((name) => {
        const always = forced.has(name);
        const include = always ? fc.constant(true) : depth >= SOFT_DEPTH ? fc.constant(false) : fc.boolean();
        return include.chain((yes) => (yes ? memberArbitrary(name).map((s) => [name, s] as const) : fc.constant(undefined)));
      }),
      // patternProperties: at most one member per pattern, named by the pattern.
      ...(depth >= SOFT_DEPTH ? [] : eff.patternProperties).map((p) =>
        fc.option(fc.stringMatching(p.regex, { size: 'xsmall' }), { nil: undefined, freq: 2 }).chain((name) => {
          if (name === undefined || name.length > 24 || eff.properties.has(name) || !possible(name)) return fc.constant(undefined);
          return memberArbitrary(name).map((s) => [name, s] as const);
        }),
      ),
    ];
    const extraCount = extrasPossible ? (needExtras > 0 ? fc.constant(needExtras) : depth >= SOFT_DEPTH ? fc.constant(0) : fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(1) })) : fc.constant(0);
    const extraValue = extraSchemas.length > 0 && extrasPossible ? memberArbitrary(`${EXTRA_MEMBER}0`) : fc.constant<Sample>({ value: 'extra', sites: [] });
    return fc.tuple(fc.tuple(...entries), extraCount, extraValue, namedExtra).map(([members, extras, extra, named]) => {
      const value: Json = {};
      let uncertain = false;
      const sites: Site[] = [...this.scalarSites(value, types, this.isTyped(eff), eff.ignoredNullable)];
      const patternMembers: string[] = [];
      for (const member of members) {
        if (!member) continue;
        const [name, sample] = member;
        if (name in value) continue;
        value[name] = sample.value;
        if (sample.uncertain) uncertain = true;
        if (!eff.properties.has(name)) patternMembers.push(name);
        for (const site of sample.sites) sites.push({ ...site, path: [name, ...site.path] });
      }
      for (let i = 0; i < extras; i++) {
        const name = names.patterns.length > 0 ? named : `${EXTRA_MEMBER}${i}`;
        if (name === undefined || name in value || patternSchemas(name).length > 0) continue;
        value[name] = extra.value;
        if (extra.uncertain) uncertain = true;
        for (const site of extra.sites) sites.push({ ...site, path: [name, ...site.path] });
      }
      if (eff.maxProperties !== undefined && Object.keys(value).length > eff.maxProperties) {
        for (const name of Object.keys(value).filter((n) => !eff.required.has(n)).slice(0, Object.keys(value).length - eff.maxProperties)) delete value[name];
      }
      for (const name of required) {
        const without = { ...value };
        delete without[name];
        sites.push({ path: [], kind: 'missing-required', replacement: without });
      }
      if (!open) {
        const byUnevaluated = eff.closed.some((c) => c.unevaluated === true && !c.names.has(UNKNOWN_MEMBER));
        const byAdditional = eff.closed.some((c) => c.unevaluated !== true);
        sites.push({ path: [], kind: byAdditional ? 'unknown-member' : byUnevaluated ? 'unevaluated-member' : 'unknown-member', replacement: { ...value, [UNKNOWN_MEMBER]: 'x' } });
      }
      if (open && extraSchemas.length === 0 && eff.propertyNames.length === 0) sites.push({ path: [], kind: 'extra-member-open (valid)', replacement: { ...value, [UNKNOWN_MEMBER]: { nested: [1] } } });
      if (open && eff.unevaluatedProperties.length > 0 && eff.additional.length === 0) sites.push({ path: [], kind: 'unevaluated-member-other-type', replacement: { ...value, [UNKNOWN_MEMBER]: otherType(extra.value) } });
      for (const name of patternMembers) sites.push({ path: [name], kind: 'pattern-member-other-type', replacement: otherType(value[name]) });
      if (eff.propertyNames.length > 0) {
        const bad = ['', 'x'.repeat(40), 'not a name!', '0', 'A', 'zz', EXTRA_MEMBER].find((n) => !nameOk(n) && !(n in value));
        if (bad !== undefined) sites.push({ path: [], kind: 'property-name-invalid', replacement: { ...value, [bad]: extra.value } });
      }
      for (const name of eff.properties.keys()) {
        if (memberSchemas(name).includes(false) && !(name in value)) sites.push({ path: [], kind: 'false-member-present', replacement: { ...value, [name]: 'x' } });
      }
      if (minMembers > 0) sites.push({ path: [], kind: 'under-minProperties', replacement: {} });
      if (eff.maxProperties !== undefined) {
        const over: Json = { ...value };
        for (let i = 0; Object.keys(over).length <= eff.maxProperties; i++) over[`${UNKNOWN_MEMBER}${i}`] = extra.value;
        sites.push({ path: [], kind: 'over-maxProperties', replacement: over });
      }
      if (Object.keys(value).some((n) => eff.forbidden.has(n))) uncertain = true;
      return { value, sites: sites.filter((s) => s.path.length === 0 || s.path[0]! in value), ...(uncertain ? { uncertain: true } : {}) };
    });
  }

  /**
   * `dependentRequired`/`dependentSchemas` (draft 4: `dependencies`): decides which trigger
   * members are present; a present one brings its required members and its schema, an absent
   * one is kept out. Offers as mutations: a dependent member removed, an absent trigger added.
   */
  private withDependents(eff: Effective, depth: number): fc.Arbitrary<Sample> {
    const triggers = [...new Set([...eff.dependentRequired.map(([t]) => t), ...eff.dependentSchemas.map(([t]) => t)])];
    const include = triggers.map((t) => (eff.required.has(t) ? fc.constant(true) : depth >= SOFT_DEPTH ? fc.constant(false) : fc.boolean()));
    return fc.tuple(...include).chain((flags) => {
      const merged = cloneEffective(eff);
      merged.dependentRequired = [];
      merged.dependentSchemas = [];
      const dependents: string[] = [];
      triggers.forEach((trigger, i) => {
        if (!flags[i]) {
          merged.forbidden.add(trigger);
          return;
        }
        merged.required.add(trigger);
        for (const [t, list] of eff.dependentRequired) {
          if (t !== trigger) continue;
          for (const name of list) {
            if (!merged.required.has(name)) dependents.push(name);
            merged.required.add(name);
          }
        }
        for (const [t, schema] of eff.dependentSchemas) if (t === trigger) this.collect(schema, merged, 0);
      });
      const absent = triggers.filter((_, i) => !flags[i]);
      return this.fromEffective(merged, depth).map((sample) => {
        if (!isObject(sample.value)) return sample;
        const value = sample.value;
        const sites = [...sample.sites];
        for (const name of dependents) {
          if (!(name in value) || eff.required.has(name)) continue;
          const without = { ...value };
          delete without[name];
          sites.push({ path: [], kind: 'dependent-required-missing', replacement: without });
        }
        for (const trigger of absent) sites.push({ path: [], kind: 'dependent-trigger-added', replacement: { ...value, [trigger]: 'x' } });
        return { ...sample, sites };
      });
    });
  }
}

/** A JSON value of another type than `value`. */
function otherType(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number') return 'text';
  return typeof value === 'boolean' ? 'text' : false;
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
