/**
 * The mocks' sampler for raw JSON Schemas (templates/mocks/json-schema-sample.ts): every value
 * it returns is accepted by the JSON Schema runtime it samples for and by ajv, an independent
 * validator; keyword by keyword on small tables, then over the official JSON-Schema-Test-Suite.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleJsonSchema, SampleError, type JsonSampleOptions } from '../../templates/mocks/json-schema-sample.js';
import { seededRandom } from '../../templates/mocks/random.js';
import { scratchDir } from '../helpers/generated.js';
import { adaptForAjv } from '../support/ajv-oracle.js';
import { PACKAGE_ROOT, REPO_ROOT } from '../support/spec-files.js';

const require = createRequire(import.meta.url);
const { default: Ajv2019 } = require('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js');
const { default: Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');

type Dialect = '3.0' | '3.1';
type Table = Record<string, unknown>;
type Check = (value: unknown) => boolean;

/** What the tests use of the runtime's `JsonSchemas` (loaded from a scratch copy, see below). */
interface JsonSchemasLike {
  check(pointer: string): Check;
  directed(direction: 'request' | 'response', refuse: boolean): JsonSchemasLike;
}
type JsonSchemasClass = new (table: Table, dialect: Dialect) => JsonSchemasLike;

const NOW = Date.UTC(2026, 10, 27);
const S = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${S}${name}` });

let JsonSchemas: JsonSchemasClass;

/**
 * The template imports `./runtime.gen.js`, the name the generator writes the runtime under:
 * both are copied, under those names, to a scratch folder inside the package (so that `zod`
 * resolves), as the generated-code tests load what the generator writes.
 */
beforeAll(async () => {
  const dir = await scratchDir();
  const templates = path.join(PACKAGE_ROOT, 'templates/validators');
  await copyFile(path.join(templates, 'json-schema.ts'), path.join(dir, 'json-schema.ts'));
  await copyFile(path.join(templates, 'runtime.ts'), path.join(dir, 'runtime.gen.ts'));
  const module = (await import(pathToFileURL(path.join(dir, 'json-schema.ts')).href)) as { JsonSchemas: JsonSchemasClass };
  JsonSchemas = module.JsonSchemas;
});

/** Keywords whose values are schemas, as the generator's table walks them. */
const SINGLE = ['additionalProperties', 'items', 'additionalItems', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A copy of the schema with each `$ref` (in schema positions only, not in `enum` or `const` data) rewritten. */
function rewriteRefs(schema: unknown, rewrite: (reference: string) => string, visit: (key: string, value: unknown) => void = () => {}): unknown {
  if (!isRecord(schema)) return schema;
  const again = (item: unknown) => rewriteRefs(item, rewrite, visit);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    visit(key, value);
    // Another draft's meta-schema would make ajv look it up.
    if (key === '$schema') continue;
    if (key === '$ref' && typeof value === 'string') out[key] = rewrite(value);
    else if (SINGLE.includes(key) && !Array.isArray(value)) out[key] = again(value);
    else if (LISTS.includes(key) && Array.isArray(value)) out[key] = value.map(again);
    else if (MAPS.includes(key) && isRecord(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, again(item)]));
    else out[key] = value;
  }
  return out;
}

function asFragment(pointer: string): string {
  return `#${pointer.slice(1).split('/').map(encodeURIComponent).join('/')}`;
}

const DOCUMENT_ID = 'urn:json-schema-sample:table';

/**
 * ajv over a table whose keys are all `#/components/schemas/<name>`, with OpenAPI's rules
 * written in as the differential tests do (adaptForAjv). `multipleOfPrecision`: ajv divides
 * in binary (12.34 / 0.01 is not a whole number there), the runtime checks the decimals
 * written; the sampler's values pass the runtime's check before they are returned.
 */
function ajvFor(table: Table, dialect: Dialect, formats: boolean): (pointer: string, value: unknown) => boolean {
  const schemas: Table = {};
  // Table pointers are decoded; in a `$ref` ajv reads a URI fragment.
  for (const [key, schema] of Object.entries(table)) schemas[key.slice(S.length)] = rewriteRefs(schema, asFragment);
  const { document } = adaptForAjv({ openapi: dialect === '3.1' ? '3.1.0' : '3.0.3', components: { schemas } });
  const Ajv = dialect === '3.1' ? Ajv2020 : Ajv2019;
  const ajv = new Ajv({ strict: false, logger: false, validateSchema: false, validateFormats: formats, multipleOfPrecision: 9 });
  if (formats) addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, ...document });
  const compiled = new Map<string, ValidateFunction>();
  return (pointer, value) => {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.getSchema(`${DOCUMENT_ID}${asFragment(pointer)}`);
      if (!validate) throw new Error(`ajv has no schema at ${pointer}`);
      compiled.set(pointer, validate);
    }
    return validate(value) === true;
  };
}

interface Sampling {
  table: Table;
  dialect: Dialect;
  direction?: 'request' | 'response';
  softDepth?: number;
}

function optionsFor(s: Sampling, seed: number): JsonSampleOptions {
  const schemas = new JsonSchemas(s.table, s.dialect);
  const checking = s.direction ? schemas.directed(s.direction, true) : schemas;
  return {
    table: s.table,
    dialect: s.dialect,
    random: seededRandom(seed),
    now: NOW,
    check: (pointer) => checking.check(pointer),
    ...(s.direction ? { direction: s.direction } : {}),
    ...(s.softDepth !== undefined ? { softDepth: s.softDepth } : {}),
  };
}

/**
 * `count` values for the schema named `name`, each asserted valid by the runtime (directed
 * where a direction is given) and, unless `ajv: false`, by ajv with every format asserted.
 */
function samples(s: Sampling, name: string, count = 60, ajv = true): unknown[] {
  const pointer = `${S}${name}`;
  const schemas = new JsonSchemas(s.table, s.dialect);
  const runtime = (s.direction ? schemas.directed(s.direction, true) : schemas).check(pointer);
  const independent = ajv ? ajvFor(s.table, s.dialect, true) : undefined;
  return Array.from({ length: count }, (_, seed) => {
    const value = sampleJsonSchema(pointer, optionsFor(s, seed));
    expect(runtime(value), `runtime refused ${JSON.stringify(value)} (seed ${seed})`).toBe(true);
    if (independent) expect(independent(pointer, value), `ajv refused ${JSON.stringify(value)} (seed ${seed})`).toBe(true);
    return value;
  });
}

function sampleError(s: Sampling, name: string, seed = 1): SampleError {
  try {
    sampleJsonSchema(`${S}${name}`, optionsFor(s, seed));
  } catch (error) {
    if (error instanceof SampleError) return error;
    throw error;
  }
  throw new Error(`${name}: a value was sampled, an error was expected`);
}

const table31 = (schemas: Record<string, unknown>): Sampling => ({
  dialect: '3.1',
  table: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [`${S}${name}`, schema])),
});
const table30 = (schemas: Record<string, unknown>): Sampling => ({ ...table31(schemas), dialect: '3.0' });

const codePoints = (text: unknown) => [...(text as string)].length;

describe('sampleJsonSchema: types, enum, const', () => {
  const s = table31({
    Either: { type: ['string', 'integer'] },
    Flag: { type: 'boolean' },
    Nothing: { type: 'null' },
    Listed: { enum: ['a', 'b', 3, { x: [1] }] },
    Fixed: { const: { x: 1, y: [true, null] } },
    StringsOnly: { type: 'string', enum: ['a', 1, null] },
    Untyped: {},
    Anything: true,
  });

  it('meets `type`, as a string or a list', () => {
    const kinds = new Set(samples(s, 'Either').map((v) => typeof v));
    expect(kinds).toEqual(new Set(['string', 'number']));
    expect(new Set(samples(s, 'Flag'))).toEqual(new Set([true, false]));
    expect(new Set(samples(s, 'Nothing', 5))).toEqual(new Set([null]));
  });

  it('takes `enum` and `const` values that meet the other keywords too', () => {
    expect(samples(s, 'Listed').length).toBe(60);
    for (const v of samples(s, 'Fixed', 10)) expect(v).toEqual({ x: 1, y: [true, null] });
    for (const v of samples(s, 'StringsOnly', 20)) expect(v).toBe('a');
  });

  it('gives an empty schema and `true` some realistic value', () => {
    samples(s, 'Untyped');
    expect(samples(s, 'Anything').some((v) => typeof v === 'string')).toBe(true);
  });

  it('3.0: `nullable` adds null, and an enum still applies', () => {
    const t = table30({ Maybe: { type: 'string', nullable: true, maxLength: 3 }, MaybeListed: { type: 'string', nullable: true, enum: ['x', null] } });
    const values = samples(t, 'Maybe', 200);
    expect(values).toContain(null);
    expect(values.some((v) => typeof v === 'string')).toBe(true);
    expect(new Set(samples(t, 'MaybeListed'))).toEqual(new Set(['x', null]));
  });
});

describe('sampleJsonSchema: strings', () => {
  const s = table31({
    Sized: { type: 'string', minLength: 3, maxLength: 5 },
    Long: { type: 'string', minLength: 40 },
    Code: { type: 'string', pattern: '^[A-Z]{3}-\\d{2}$' },
    TwoPatterns: { allOf: [{ type: 'string', pattern: '^[a-z]+$' }, { pattern: 'q', minLength: 2, maxLength: 2 }] },
    Smiles: { type: 'string', pattern: '^😀+$', minLength: 2, maxLength: 3 },
    When: { type: 'string', format: 'date-time' },
    Day: { type: 'string', format: 'date', pattern: '^\\d{4}-' },
    Mail: { type: 'string', format: 'email' },
    Id: { type: 'string', format: 'uuid' },
    Link: { type: 'string', format: 'uri' },
    ShortLink: { type: 'string', format: 'uri', maxLength: 3 },
  });

  it('meets lengths in code points', () => {
    for (const v of samples(s, 'Sized')) expect(codePoints(v)).toBeGreaterThanOrEqual(3);
    for (const v of samples(s, 'Long')) expect(codePoints(v)).toBeGreaterThanOrEqual(40);
    for (const v of samples(s, 'Smiles')) expect(codePoints(v)).toBeLessThanOrEqual(3);
  });

  it('makes strings from patterns, all of them at once', () => {
    for (const v of samples(s, 'Code')) expect(v).toMatch(/^[A-Z]{3}-\d{2}$/);
    for (const v of samples(s, 'TwoPatterns')) expect(v).toMatch(/^(q[a-z]|[a-z]q)$/);
  });

  it('makes formatted strings, near the reference time for dates', () => {
    for (const v of samples(s, 'When')) expect(Math.abs(Date.parse(v as string) - NOW)).toBeLessThan(5 * 366 * 86_400_000);
    samples(s, 'Day');
    samples(s, 'Mail');
    samples(s, 'Id');
    samples(s, 'Link');
    // No sampled uri fits in 3 characters, and plain words are no uris: refused, not wrong.
    expect(sampleError(s, 'ShortLink').message).toMatch(/refused|no valid value/);
  });

  it('refuses, naming the schema, what no string meets', () => {
    const t = table31({ Impossible: { type: 'string', minLength: 5, maxLength: 2 } });
    const error = sampleError(t, 'Impossible');
    expect(error.pointer).toBe(`${S}Impossible`);
    expect(error.message).toMatch(/at least 5 and at most 2/);
  });
});

describe('sampleJsonSchema: numbers', () => {
  const s = table31({
    Amount: { type: 'number', minimum: 0, maximum: 100, multipleOf: 0.01 },
    Between: { type: 'integer', exclusiveMinimum: 5, exclusiveMaximum: 8 },
    Tiny: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 0.01 },
    Halves: { type: 'integer', multipleOf: 0.5, minimum: 3 },
    Quarters: { type: 'number', multipleOf: 0.25, maximum: -10 },
    Twelves: { allOf: [{ type: 'integer', multipleOf: 4 }, { multipleOf: 6 }], minimum: 1 },
    Small: { type: 'number', multipleOf: 0.0001, minimum: 0.0075, maximum: 0.0076 },
    Huge: { type: 'integer', minimum: 1e15 },
  });

  it('writes decimal multiples as people do (12.34), exact for the runtime', () => {
    for (const v of samples(s, 'Amount')) {
      expect(String(v)).toMatch(/^\d{1,3}(\.\d{1,2})?$/);
      expect(v as number).toBeLessThanOrEqual(100);
    }
    for (const v of samples(s, 'Small')) expect([0.0075, 0.0076]).toContain(v);
  });

  it('meets exclusive bounds (2020-12 numbers)', () => {
    expect(new Set(samples(s, 'Between'))).toEqual(new Set([6, 7]));
    for (const v of samples(s, 'Tiny')) expect((v as number) > 0 && (v as number) < 0.01).toBe(true);
  });

  it('combines multipleOf with integer and with other multipleOfs', () => {
    for (const v of samples(s, 'Halves')) expect(Number.isInteger(v) && (v as number) >= 3).toBe(true);
    for (const v of samples(s, 'Quarters')) expect(Math.abs((v as number) % 0.25)).toBe(0);
    for (const v of samples(s, 'Twelves')) expect(Math.abs((v as number) % 12)).toBe(0);
    for (const v of samples(s, 'Huge')) expect(v as number).toBeGreaterThanOrEqual(1e15);
  });

  it('3.0: boolean exclusive bounds and int32', () => {
    const t = table30({
      Open: { type: 'number', minimum: 1, exclusiveMinimum: true, maximum: 2, exclusiveMaximum: true },
      Closed: { type: 'integer', minimum: 1, exclusiveMinimum: false, maximum: 2 },
      Int: { type: 'integer', format: 'int32', minimum: -1e12 },
    });
    for (const v of samples(t, 'Open')) expect((v as number) > 1 && (v as number) < 2).toBe(true);
    expect(new Set(samples(t, 'Closed'))).toEqual(new Set([1, 2]));
    for (const v of samples(t, 'Int')) expect(v as number).toBeGreaterThanOrEqual(-2147483648);
  });

  it('refuses a range without a valid number', () => {
    const t = table31({ None: { type: 'integer', minimum: 0.2, maximum: 0.8 } });
    expect(sampleError(t, 'None').message).toMatch(/no multiple of 1/);
  });
});

describe('sampleJsonSchema: arrays', () => {
  const s = table31({
    Digits: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 3 }, minItems: 3, maxItems: 4, uniqueItems: true },
    Pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false, minItems: 1 },
    SomeLarge: { type: 'array', items: { type: 'integer', maximum: 1000 }, contains: { minimum: 100 }, minContains: 2, maxContains: 3 },
    Head: { type: 'array', prefixItems: [{ type: 'string' }], unevaluatedItems: false },
    Flags: { type: 'array', allOf: [{ prefixItems: [{ const: 1 }] }], unevaluatedItems: { type: 'boolean' }, minItems: 3 },
    Distinct: { type: 'array', items: { type: 'object', properties: { k: { enum: [1, 2] } }, required: ['k'], additionalProperties: false }, minItems: 2, uniqueItems: true },
  });

  it('meets item counts, item schemas and uniqueness (deep equality)', () => {
    for (const v of samples(s, 'Digits')) expect(new Set(v as number[]).size).toBe((v as number[]).length);
    for (const v of samples(s, 'Distinct')) expect((v as unknown[]).length).toBe(2);
  });

  it('fills tuples (prefixItems) and stops where `items: false` says', () => {
    for (const v of samples(s, 'Pair')) expect((v as unknown[]).length).toBeLessThanOrEqual(2);
  });

  it('meets contains, minContains and maxContains', () => {
    for (const v of samples(s, 'SomeLarge')) {
      const large = (v as number[]).filter((n) => n >= 100).length;
      expect(large >= 2 && large <= 3).toBe(true);
    }
  });

  it('meets unevaluatedItems', () => {
    for (const v of samples(s, 'Head')) expect((v as unknown[]).length).toBeLessThanOrEqual(1);
    for (const v of samples(s, 'Flags')) expect((v as unknown[]).slice(1).every((x) => typeof x === 'boolean')).toBe(true);
  });

  it('3.0: the tuple form of items, with additionalItems', () => {
    const t = table30({ Row: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false, minItems: 2 } });
    for (const v of samples(t, 'Row')) expect((v as unknown[]).length).toBe(2);
  });
});

describe('sampleJsonSchema: objects', () => {
  const s = table31({
    Closed: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, note: { type: 'string' } }, additionalProperties: false },
    Labels: { type: 'object', patternProperties: { '^x-[a-z]{2,6}$': { type: 'string' } }, additionalProperties: false, minProperties: 2 },
    Scores: { type: 'object', propertyNames: { pattern: '^[a-z]{2,5}$' }, additionalProperties: { type: 'integer' }, minProperties: 2, maxProperties: 3 },
    Map: { type: 'object', additionalProperties: { type: 'number', minimum: 0 } },
    Payment: { type: 'object', properties: { card: { type: 'string' }, billing: { type: 'string' } }, required: ['card'], dependentRequired: { card: ['billing'] } },
    CardCheck: {
      type: 'object',
      required: ['card'],
      properties: { card: { type: 'string' } },
      dependentSchemas: { card: { required: ['cvv'], properties: { cvv: { type: 'string', pattern: '^[0-9]{3}$' } } } },
      unevaluatedProperties: false,
    },
    Unevaluated: { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: { type: 'integer' }, minProperties: 3 },
    NoFoo: { type: 'object', properties: { foo: false }, minProperties: 1 },
  });

  it('meets properties, required and additionalProperties: false', () => {
    for (const v of samples(s, 'Closed')) expect(Object.keys(v as object).every((k) => k === 'id' || k === 'note')).toBe(true);
  });

  it('names members from patternProperties and propertyNames', () => {
    for (const v of samples(s, 'Labels')) for (const key of Object.keys(v as object)) expect(key).toMatch(/^x-[a-z]{2,6}$/);
    for (const v of samples(s, 'Scores')) for (const key of Object.keys(v as object)) expect(key).toMatch(/^[a-z]{2,5}$/);
    expect(samples(s, 'Map').some((v) => Object.keys(v as object).length > 0)).toBe(true);
  });

  it('meets dependentRequired and dependentSchemas', () => {
    for (const v of samples(s, 'Payment')) expect(v).toHaveProperty('billing');
    for (const v of samples(s, 'CardCheck')) expect((v as { cvv: string }).cvv).toMatch(/^\d{3}$/);
  });

  it('meets unevaluatedProperties and properties that are `false`', () => {
    samples(s, 'Unevaluated');
    for (const v of samples(s, 'NoFoo')) expect(v).not.toHaveProperty('foo');
  });

  it('3.0: draft 4 dependencies, in both forms', () => {
    const t = table30({
      Deps: {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' }, c: { type: 'string' } },
        required: ['a', 'c'],
        dependencies: { a: ['b'], c: { properties: { b: { minimum: 10 } } } },
      },
    });
    for (const v of samples(t, 'Deps')) expect((v as { b: number }).b).toBeGreaterThanOrEqual(10);
  });

  it('leaves readOnly members out of requests and writeOnly ones out of responses', () => {
    const base = table30({
      Secret: { type: 'string', writeOnly: true, minLength: 8 },
      Account: { type: 'object', required: ['id', 'password', 'name'], properties: { id: { type: 'string', readOnly: true }, password: ref('Secret'), name: { type: 'string' } } },
    });
    for (const v of samples({ ...base, direction: 'request' }, 'Account', 30, false)) {
      expect(v).not.toHaveProperty('id');
      expect(v).toHaveProperty('password');
    }
    for (const v of samples({ ...base, direction: 'response' }, 'Account', 30, false)) {
      expect(v).toHaveProperty('id');
      expect(v).not.toHaveProperty('password');
    }
  });
});

describe('sampleJsonSchema: applicators', () => {
  const s = table31({
    Base: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } },
    Named: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
    Both: { allOf: [ref('Base'), ref('Named'), { properties: { age: { type: 'integer', minimum: 0, maximum: 120 } } }], unevaluatedProperties: false },
    Either: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'integer', minimum: 10 }] },
    Halves: { oneOf: [{ type: 'integer' }, { type: 'number', multipleOf: 0.5 }] },
    Shapes: {
      oneOf: [
        { type: 'object', required: ['r'], properties: { r: { type: 'number', minimum: 0 } } },
        { type: 'object', required: ['w', 'h'], properties: { w: { type: 'number' }, h: { type: 'number' } } },
      ],
    },
    NotWords: { type: 'string', not: { enum: ['alpha', 'amber', 'basin', 'cedar', 'delta'] } },
    NotText: { not: { type: ['string', 'number'] } },
    Odd: { type: 'integer', not: { multipleOf: 2 } },
    Tagged: {
      type: 'object',
      required: ['kind'],
      properties: { kind: { enum: ['a', 'b'] }, a: { type: 'integer' }, b: { type: 'string', maxLength: 4 } },
      if: { properties: { kind: { const: 'a' } } },
      then: { required: ['a'] },
      else: { required: ['b'] },
    },
    IfOnlyThen: { type: 'integer', if: { minimum: 10 }, then: { multipleOf: 5 } },
  });

  it('allOf: one object from the merged branches', () => {
    for (const v of samples(s, 'Both')) {
      expect(v).toHaveProperty('id');
      expect(v).toHaveProperty('name');
    }
  });

  it('anyOf and oneOf (exactly one branch)', () => {
    const kinds = new Set(samples(s, 'Either').map((v) => typeof v));
    expect(kinds).toEqual(new Set(['string', 'number']));
    for (const v of samples(s, 'Halves')) expect(Number.isInteger(v)).toBe(false);
    samples(s, 'Shapes');
  });

  it('not', () => {
    samples(s, 'NotWords');
    for (const v of samples(s, 'NotText')) expect(['string', 'number']).not.toContain(typeof v);
    for (const v of samples(s, 'Odd')) expect(Math.abs((v as number) % 2)).toBe(1);
  });

  it('if/then/else', () => {
    const kinds = new Set(samples(s, 'Tagged').map((v) => (v as { kind: string }).kind));
    expect(kinds).toEqual(new Set(['a', 'b']));
    samples(s, 'IfOnlyThen');
  });

  it('$ref with siblings (3.1), into the middle of a schema, and boolean schemas', () => {
    const t = table31({
      Pet: { type: 'object', required: ['tag'], properties: { tag: { type: 'string', pattern: '^[a-z]{4}$' } } },
      Tag: { $ref: `${S}Pet/properties/tag` },
      Strict: { $ref: `${S}Pet`, properties: { age: { type: 'integer' } }, required: ['age'], unevaluatedProperties: false },
      Never: false,
      NeverInside: { type: 'object', required: ['x'], properties: { x: false } },
    });
    for (const v of samples(t, 'Tag')) expect(v).toMatch(/^[a-z]{4}$/);
    for (const v of samples(t, 'Strict')) expect(Object.keys(v as object).sort()).toEqual(['age', 'tag']);
    expect(sampleError(t, 'Never').pointer).toBe(`${S}Never`);
    expect(sampleError(t, 'NeverInside').message).toMatch(/x/);
  });

  it('3.0: the keywords beside $ref are ignored', () => {
    const t = table30({ Word: { type: 'string', minLength: 3 }, Aside: { $ref: `${S}Word`, maxLength: 0 } });
    for (const v of samples(t, 'Aside')) expect(codePoints(v)).toBeGreaterThanOrEqual(3);
  });

  it('$recursiveRef: the dynamic scope decides what the nested nodes meet', () => {
    const t = table31({
      Tree: { $recursiveAnchor: true, type: 'object', properties: { data: { type: 'integer' }, children: { type: 'array', items: { $recursiveRef: `${S}Tree` } } } },
      StrictTree: { $recursiveAnchor: true, $ref: `${S}Tree`, unevaluatedProperties: false },
    });
    const trees = samples({ ...t, softDepth: 6 }, 'StrictTree');
    expect(trees.some((v) => ((v as { children?: unknown[] }).children ?? []).length > 0)).toBe(true);
  });

  it('discriminator: the tag names the chosen variant (mapping key, else component name)', () => {
    const t = table31({
      Cat: { type: 'object', required: ['petType', 'meow'], properties: { petType: { type: 'string' }, meow: { type: 'boolean' } }, additionalProperties: false },
      Dog: { type: 'object', required: ['petType', 'bark'], properties: { petType: { type: 'string' }, bark: { type: 'string' } }, additionalProperties: false },
      Pet: { oneOf: [ref('Cat'), ref('Dog')], discriminator: { propertyName: 'petType', mapping: { cat: `${S}Cat` } } },
    });
    const tags = new Set<string>();
    for (const v of samples(t, 'Pet') as Array<Record<string, unknown>>) {
      tags.add(v['petType'] as string);
      expect(v['petType']).toBe('meow' in v ? 'cat' : 'Dog');
    }
    expect(tags).toEqual(new Set(['cat', 'Dog']));
  });
});

describe('sampleJsonSchema: examples, recursion, determinism', () => {
  it('uses an example or default now and then, only when the schema accepts it', () => {
    const s = table31({
      Offered: { type: 'string', pattern: '^s', examples: ['sample-example'] },
      Wrong: { type: 'integer', maximum: 10, examples: [1000], default: 2000 },
      Defaulted: { type: 'integer', default: 7 },
    });
    expect(samples(s, 'Offered', 100)).toContain('sample-example');
    for (const v of samples(s, 'Wrong', 100)) expect(v as number).toBeLessThanOrEqual(10);
    expect(samples(s, 'Defaulted', 100)).toContain(7);
  });

  it('stops optional recursion beyond softDepth and refuses a required cycle', () => {
    const s = table31({
      List: { type: 'object', required: ['value'], properties: { value: { type: 'integer' }, next: ref('List') } },
      Node: { type: 'object', required: ['next'], properties: { next: { anyOf: [{ type: 'null' }, ref('Node')] } } },
      Endless: { type: 'object', required: ['next'], properties: { next: ref('Endless') } },
    });
    const depth = (v: unknown): number => (v && typeof v === 'object' && 'next' in v ? 1 + depth((v as { next: unknown }).next) : 0);
    for (const v of samples(s, 'List')) expect(depth(v)).toBeLessThanOrEqual(5);
    for (const v of samples(s, 'Node')) expect(depth(v)).toBeLessThanOrEqual(8);
    const started = Date.now();
    expect(sampleError(s, 'Endless').message).toMatch(/deeper than 32|gave up/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('gives the same value for the same seed, and different values for different seeds', () => {
    const s = table31({
      Doc: {
        type: 'object',
        required: ['id', 'tags', 'amount'],
        properties: { id: { type: 'string', format: 'uuid' }, tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]{3,8}$' } }, amount: { type: 'number', multipleOf: 0.01 }, note: { type: 'string' } },
        patternProperties: { '^x-': { type: 'string' } },
      },
    });
    const a = samples(s, 'Doc', 20);
    const b = samples(s, 'Doc', 20);
    expect(b).toEqual(a);
    expect(new Set(a.map((v) => JSON.stringify(v))).size).toBeGreaterThan(15);
  });

  it('never loops: contradictions end in a SampleError naming the schema', () => {
    const s = table31({
      Clash: { allOf: [{ type: 'string' }, { type: 'integer' }] },
      NoFit: { type: 'array', items: { type: 'boolean' }, minItems: 3, uniqueItems: true },
      NotAny: { not: {} },
      ClosedMin: { type: 'object', additionalProperties: false, minProperties: 1 },
    });
    for (const name of ['Clash', 'NoFit', 'NotAny', 'ClosedMin']) {
      const error = sampleError(s, name);
      expect(error.pointer).toBe(`${S}${name}`);
      expect(error.name).toBe('SampleError');
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The official JSON-Schema-Test-Suite, read as input only (never copied into the repository).

const SUITE_DIR = path.resolve(REPO_ROOT, '../shared/json-schema-test-suite');
const SUITE_DRAFTS = [
  { folder: 'draft2020-12', dialect: '3.1' as const },
  { folder: 'draft4', dialect: '3.0' as const },
];
/** An upper bound on the groups the sampler refuses: a rise means a keyword got worse. */
const MAX_REFUSED = 3;
const VALUES_PER_SCHEMA = 10;
/** Identifiers and dynamic references: resolving them is the generator's work, which the table here skips. */
const UNSUPPORTED = ['$id', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$recursiveRef', '$recursiveAnchor'];

/**
 * The schema as it would stand in a table at `root`: each `$ref` rewritten as a pointer below
 * `root`. Throws (with the reason to skip) on what only the generator resolves.
 */
function intoTable(schema: unknown, root: string, draft4: boolean): unknown {
  return rewriteRefs(
    schema,
    (reference) => tablePointer(reference, root),
    (key, value) => {
      if (UNSUPPORTED.includes(key) || (draft4 && key === 'id' && typeof value === 'string')) throw new Error(`uses ${key}`);
    },
  );
}

function tablePointer(reference: string, root: string): string {
  if (!reference.startsWith('#')) throw new Error(`remote $ref ${reference}`);
  const fragment = decodeURIComponent(reference.slice(1));
  if (fragment !== '' && !fragment.startsWith('/')) throw new Error(`anchor $ref ${reference}`);
  return `${root}${fragment}`;
}

interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: Array<{ data: unknown; valid: boolean }>;
}

interface SuiteCounts {
  groups: number;
  sampled: number;
  /** Groups not sampled, by reason (`uses $id`, `remote $ref`...). */
  skipped: Map<string, number>;
  refused: string[];
  invalid: string[];
  values: number;
  /** Groups where ajv answers one of the suite's own tests wrongly: the runtime judges their values. */
  ajvDeviates: string[];
}

function runSuiteFile(file: string, dialect: Dialect, counts: SuiteCounts): void {
  const groups = JSON.parse(readFileSync(file, 'utf8')) as SuiteGroup[];
  const root = `${S}S`;
  for (const [index, group] of groups.entries()) {
    counts.groups++;
    if (!group.tests.some((t) => t.valid)) continue;
    const label = `${path.basename(path.dirname(file))}/${path.basename(file)} #${index} ${group.description}`;
    let table: Table;
    try {
      table = { [root]: intoTable(group.schema, root, dialect === '3.0') };
    } catch (error) {
      const reason = (error as Error).message.split(' ').slice(0, 2).join(' ');
      counts.skipped.set(reason, (counts.skipped.get(reason) ?? 0) + 1);
      continue;
    }
    sampleSuiteGroup({ table, dialect }, root, { label, group }, counts);
  }
}

/**
 * The independent judge of a group's values: ajv with the suite's reading (formats are
 * annotations), unless ajv answers one of the group's own tests otherwise than the suite
 * does (ajv 8 has such bugs); then the runtime, if it answers them all as the suite does.
 */
function suiteOracle(s: Sampling, root: string, group: SuiteGroup, label: string, counts: SuiteCounts): Check | undefined {
  const ajv = ajvFor(s.table, s.dialect, false);
  if (group.tests.every((t) => ajv(root, t.data) === t.valid)) return (value) => ajv(root, value);
  counts.ajvDeviates.push(label);
  const runtime = new JsonSchemas(s.table, s.dialect).check(root);
  return group.tests.every((t) => runtime(t.data) === t.valid) ? runtime : undefined;
}

/** Samples one group's schema: every value must pass the runtime and the group's judge. */
function sampleSuiteGroup(s: Sampling, root: string, { label, group }: { label: string; group: SuiteGroup }, counts: SuiteCounts): void {
  const judge = suiteOracle(s, root, group, label, counts);
  if (!judge) {
    counts.skipped.set('no judge', (counts.skipped.get('no judge') ?? 0) + 1);
    return;
  }
  counts.sampled++;
  const runtime = new JsonSchemas(s.table, s.dialect).check(root);
  let refusal: string | undefined;
  for (let seed = 0; seed < VALUES_PER_SCHEMA; seed++) {
    let value: unknown;
    try {
      value = sampleJsonSchema(root, optionsFor(s, seed));
    } catch (error) {
      if (!(error instanceof SampleError)) throw error;
      refusal ??= `${label}: ${error.message}`;
      continue;
    }
    counts.values++;
    if (!judge(value) || !runtime(value)) counts.invalid.push(`${label}: ${JSON.stringify(value)}`);
  }
  if (refusal) counts.refused.push(refusal);
}

describe('sampleJsonSchema over the JSON-Schema-Test-Suite', () => {
  const available = existsSync(SUITE_DIR);
  if (!available) console.log(`skipping the JSON-Schema-Test-Suite: ${path.relative(REPO_ROOT, SUITE_DIR)} is not present on this machine`);

  it.skipIf(!available)('samples only valid values, and refuses few schemas', () => {
    const counts: SuiteCounts = { groups: 0, sampled: 0, skipped: new Map(), refused: [], invalid: [], values: 0, ajvDeviates: [] };
    for (const { folder, dialect } of SUITE_DRAFTS) {
      const dir = path.join(SUITE_DIR, 'tests', folder);
      for (const name of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) runSuiteFile(path.join(dir, name), dialect, counts);
    }
    console.log(
      `JSON-Schema-Test-Suite: ${counts.groups} groups, ${counts.sampled} sampled (${counts.values} values), ${[...counts.skipped.values()].reduce((a, b) => a + b, 0)} skipped (${[...counts.skipped].map(([why, n]) => `${why}: ${n}`).join(', ')}), ` +
        `${counts.refused.length} refused, ${counts.invalid.length} invalid values; ${counts.ajvDeviates.length} judged by the runtime (ajv deviates from the suite there)`,
    );
    for (const line of counts.refused) console.log(`  refused: ${line}`);
    for (const line of counts.ajvDeviates) console.log(`  ajv deviates: ${line}`);
    expect(counts.invalid).toEqual([]);
    expect(counts.refused.length).toBeLessThanOrEqual(MAX_REFUSED);
  });
});
