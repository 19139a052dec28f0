import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAjvOracle } from '../support/ajv-oracle.js';
import { applySite, InstanceGenerator, pickMutants, UnsatisfiableSchema } from '../support/instances.js';

// The DateTime type of the service specification (rejects the -00:00 offset).
const DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|\\+\\d{2}:\\d{2}|-(?:0[1-9]|1[0-2]):\\d{2})$';

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Fixture', version: '1' },
  paths: {},
  components: {
    schemas: {
      DateTime: { type: 'string', format: 'date-time', pattern: DATE_TIME_PATTERN },
      Code: { type: 'string', pattern: '^[A-Z]{3}$', minLength: 3, maxLength: 3 },
      Count: { type: 'integer', format: 'int32', minimum: 0 },
      Colour: { type: 'string', enum: ['Red', 'Green'] },
      Tags: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'string', minLength: 1, maxLength: 4 } },
      Claims: { type: 'object', required: ['iss'], properties: { iss: { type: 'string' }, exp: { type: 'number' } } },
      Message: {
        type: 'object',
        required: ['At', 'Code'],
        properties: { At: { $ref: '#/components/schemas/DateTime' }, Code: { $ref: '#/components/schemas/Code' }, Tags: { $ref: '#/components/schemas/Tags' } },
        additionalProperties: false,
      },
      Signed: { allOf: [{ $ref: '#/components/schemas/Claims' }, { type: 'object', required: ['message'], properties: { message: { $ref: '#/components/schemas/Message' } }, additionalProperties: false }] },
      Cat: { type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['cat'] }, colour: { $ref: '#/components/schemas/Colour' } }, additionalProperties: false },
      Dog: { allOf: [{ type: 'object', properties: { kind: { type: 'string' } } }, { type: 'object', properties: { count: { $ref: '#/components/schemas/Count' } } }] },
      Pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }], discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' } } },
      Node: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
      Impossible: { type: 'object', required: ['a'], properties: { b: { type: 'string' } }, additionalProperties: false },
    },
  },
};

const generator = new InstanceGenerator({ document: DOCUMENT });
const oracle = buildAjvOracle(DOCUMENT);
const NAMES = Object.keys(DOCUMENT.components.schemas).filter((n) => n !== 'Impossible');

describe('InstanceGenerator', () => {
  it.each(NAMES)('builds instances of %s that ajv accepts', (name) => {
    const samples = fc.sample(generator.forComponent(name), { seed: 42, numRuns: 30 });
    const rejected = samples.filter((s) => !s.uncertain && !oracle.validate(name, s.value)).map((s) => JSON.stringify(s.value));
    expect(rejected).toStrictEqual([]);
  });

  it('marks instances of a oneOf with a discriminator uncertain: the tag never decides, another variant may match too', () => {
    const samples = fc.sample(generator.forComponent('Pet'), { seed: 42, numRuns: 30 });
    expect(samples.every((s) => s.uncertain)).toBe(true);
    expect(samples.filter((s) => oracle.validate('Pet', s.value)).length).toBeGreaterThan(0);
  });

  it('is deterministic for a seed', () => {
    const a = fc.sample(generator.forComponent('Signed'), { seed: 7, numRuns: 5 });
    const b = fc.sample(generator.forComponent('Signed'), { seed: 7, numRuns: 5 });
    expect(a).toStrictEqual(b);
  });

  it('offers the mutations the differential relies on', () => {
    const kinds = new Set<string>();
    for (const name of NAMES) {
      for (const sample of fc.sample(generator.forComponent(name), { seed: 1, numRuns: 10 })) for (const site of sample.sites) kinds.add(site.kind);
    }
    for (const expected of [
      'missing-required',
      'unknown-member',
      'wrong-type:string',
      'null-not-allowed',
      'enum-outside',
      'too-long',
      'too-short',
      'pattern-empty',
      'date-time:offset -00:00 (valid RFC 3339; the DateTime pattern rejects it)',
      'int32-overflow',
      'under-minimum',
      'under-minItems',
      'over-maxItems',
      'discriminator-unmapped',
      'discriminator-other-variant',
    ]) {
      expect(kinds).toContain(expected);
    }
  });

  it('reads allOf as the generator does: members of every branch are allowed, others are not', () => {
    const samples = fc.sample(generator.forComponent('Signed'), { seed: 3, numRuns: 10 });
    for (const sample of samples) {
      expect(Object.keys(sample.value as object)).toContain('message');
      const unknown = sample.sites.find((s) => s.kind === 'unknown-member' && s.path.length === 0)!;
      expect(oracle.validate('Signed', applySite(sample.value, unknown))).toBe(false);
    }
  });

  it('mutates DateTime into -00:00, which the pattern rejects', () => {
    const [sample] = fc.sample(generator.forComponent('DateTime'), { seed: 5, numRuns: 1 });
    const site = sample!.sites.find((s) => s.kind.startsWith('date-time:offset -00:00'))!;
    const mutated = applySite(sample!.value, site) as string;
    expect(mutated.endsWith('-00:00')).toBe(true);
    expect(oracle.validate('DateTime', mutated)).toBe(false);
  });

  it('picks mutants across kinds, deterministically, without duplicates', () => {
    const samples = fc.sample(generator.forComponent('Pet'), { seed: 11, numRuns: 20 });
    const a = pickMutants(samples, 25, 99);
    const b = pickMutants(samples, 25, 99);
    expect(a).toStrictEqual(b);
    expect(a.length).toBe(25);
    expect(new Set(a.map((m) => JSON.stringify(m.value))).size).toBe(a.length);
    expect(new Set(a.map((m) => m.kind)).size).toBeGreaterThan(8);
  });

  it('says so when no instance exists', () => {
    expect(() => fc.sample(generator.forComponent('Impossible'), { seed: 1, numRuns: 1 })).toThrow(UnsatisfiableSchema);
  });
});

// The keywords the JSON Schema runtime validates, in a 3.1 document read exactly.
const KEYWORDS = {
  openapi: '3.1.0',
  info: { title: 'Keywords', version: '1' },
  paths: {},
  components: {
    schemas: {
      Pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
      Large: { type: 'array', items: { type: 'integer' }, contains: { minimum: 10 }, minContains: 2, maxContains: 3 },
      Labels: { type: 'object', patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false },
      Names: { type: 'object', propertyNames: { pattern: '^[a-z]+$' }, additionalProperties: { type: 'number' } },
      Card: { type: 'object', properties: { card: { type: 'string' }, billing: { type: 'string' } }, dependentRequired: { card: ['billing'] } },
      Closed: { allOf: [{ properties: { a: { type: 'string' } } }], unevaluatedProperties: false },
      Tail: { type: 'array', prefixItems: [{ type: 'string' }], unevaluatedItems: false },
      Tree: { $id: 'https://example.com/tree', type: 'object', properties: { kids: { type: 'array', maxItems: 2, items: { $ref: '#' } } } },
      Node: { $anchor: 'node', type: 'object', properties: { next: { $ref: '#node' } } },
      NotX: { type: 'string', not: { pattern: '^x' } },
    },
  },
};

describe('InstanceGenerator on the keywords of the JSON Schema runtime', () => {
  const keywords = new InstanceGenerator({ document: KEYWORDS });
  const keywordsOracle = buildAjvOracle(KEYWORDS);
  const names = Object.keys(KEYWORDS.components.schemas);

  it.each(names)('builds instances of %s that ajv accepts (unless marked uncertain)', (name) => {
    const samples = fc.sample(keywords.forComponent(name), { seed: 42, numRuns: 30 });
    const rejected = samples.filter((s) => !s.uncertain && !keywordsOracle.validate(name, s.value)).map((s) => JSON.stringify(s.value));
    expect(rejected).toStrictEqual([]);
  });

  it('offers a mutation aimed at each keyword, which ajv rejects', () => {
    const byKind = new Map<string, boolean[]>();
    for (const name of names) {
      for (const sample of fc.sample(keywords.forComponent(name), { seed: 1, numRuns: 20 })) {
        for (const site of sample.sites) byKind.set(site.kind, [...(byKind.get(site.kind) ?? []), keywordsOracle.validate(name, applySite(sample.value, site))]);
      }
    }
    for (const kind of ['prefix-item-other-type', 'item-after-prefix', 'contains-removed', 'under-minContains', 'over-maxContains', 'unknown-member', 'pattern-member-other-type', 'property-name-invalid', 'dependent-required-missing', 'unevaluated-member', 'unevaluated-item', 'matches-not']) {
      expect(byKind.get(kind), kind).toBeDefined();
      expect(byKind.get(kind)!.some((valid) => !valid), kind).toBe(true);
    }
  });

  it('reads 3.1 documents exactly: ajv 2020, no allOf reading', () => {
    expect([keywordsOracle.draft, keywordsOracle.reading, keywordsOracle.rewrittenAllOf]).toStrictEqual(['2020', 'exact', []]);
    expect([oracle.draft, oracle.reading]).toStrictEqual(['2019', 'lenient']);
  });
});
