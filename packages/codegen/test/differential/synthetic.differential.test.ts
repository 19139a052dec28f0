// The same differential on small documents written here, for the constructs the published
// account-information files do not use (recursion, nullable, 3.1 type arrays and const,
// exclusive bounds, multipleOf, uniqueItems, maxItems, schema-valued additionalProperties,
// maxProperties, defaults, allOf of strings). Disagreements follow the same allow-list.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, formatCheckDisagreement, formatCounts, formatDisagreement, runDifferential } from '../support/differential.js';
import { removeScratchDirs, scratchDir } from '../support/generated-validators.js';
import { explain } from './known-disagreements.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const COMMON = {
  Code: { type: 'string', pattern: '^[A-Z]{2,4}$' },
  Tree: {
    type: 'object',
    required: ['name'],
    properties: { name: ref('Code'), children: { type: 'array', maxItems: 3, items: ref('Tree') } },
    additionalProperties: false,
  },
  Ratio: { type: 'number', minimum: 0, maximum: 1, multipleOf: 0.25 },
  Tags: { type: 'array', items: { type: 'string', maxLength: 3 }, minItems: 1, maxItems: 4, uniqueItems: true },
  Counters: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 }, maxProperties: 3 },
  Settings: {
    type: 'object',
    properties: { size: { type: 'integer', default: 100 }, mode: { type: 'string', enum: ['fast', 'safe'], default: 'safe' } },
    additionalProperties: false,
  },
  ShortCode: { allOf: [ref('Code'), { type: 'string', maxLength: 3 }] },
  Choice: { anyOf: [{ type: 'string', maxLength: 4 }, { type: 'string', minLength: 2 }, { type: 'integer' }] },
  // Discriminators: a hint that never changes the outcome (ajv evaluates the plain oneOf/anyOf).
  // A tag the business variant leaves optional.
  Person: { type: 'object', required: ['IdentityType', 'FullName'], properties: { IdentityType: { type: 'string', enum: ['Person'] }, FullName: { type: 'string', maxLength: 8 } } },
  Business: { type: 'object', required: ['BusinessName'], properties: { IdentityType: { type: 'string', enum: ['Business'] }, BusinessName: { type: 'string', maxLength: 8 } } },
  Party: { oneOf: [ref('Person'), ref('Business')], discriminator: { propertyName: 'IdentityType', mapping: { Person: '#/components/schemas/Person', Business: '#/components/schemas/Business' } } },
  // Tags that no variant pins (open variants): unmapped values, crossed tags, two matches.
  Left: { type: 'object', required: ['kind', 'left'], properties: { kind: { type: 'string' }, left: { type: 'string', maxLength: 3 } } },
  Right: { type: 'object', required: ['kind', 'right'], properties: { kind: { type: 'string' }, right: { type: 'integer' } } },
  Unpinned: { oneOf: [ref('Left'), ref('Right')], discriminator: { propertyName: 'kind', mapping: { l: '#/components/schemas/Left', r: '#/components/schemas/Right' } } },
  AnyTagged: { anyOf: [ref('Left'), ref('Right')], discriminator: { propertyName: 'kind', mapping: { l: '#/components/schemas/Left', r: '#/components/schemas/Right' } } },
  // Implicit mapping: the component names are the values.
  Implicit: { oneOf: [ref('Left'), ref('Right')], discriminator: { propertyName: 'kind' } },
  // Pinned, required tags: the generated code dispatches on the tag (a switch).
  PinnedLeft: { type: 'object', required: ['kind', 'left'], properties: { kind: { type: 'string', enum: ['l'] }, left: { type: 'string', maxLength: 3 } } },
  PinnedRight: { type: 'object', required: ['kind', 'right'], properties: { kind: { type: 'string', enum: ['r', 'rr'] }, right: { type: 'integer' } } },
  Pinned: { oneOf: [ref('PinnedLeft'), ref('PinnedRight')], discriminator: { propertyName: 'kind', mapping: { l: '#/components/schemas/PinnedLeft', r: '#/components/schemas/PinnedRight' } } },
  // A discriminator on a base schema the variants extend with allOf.
  Animal: { type: 'object', required: ['species'], properties: { species: { type: 'string' } }, discriminator: { propertyName: 'species' } },
  Feline: { allOf: [ref('Animal'), { type: 'object', properties: { lives: { type: 'integer', maximum: 9 } } }] },
  Canine: { allOf: [ref('Animal'), { type: 'object', required: ['barks'], properties: { barks: { type: 'boolean' } } }] },
  AnyAnimal: { oneOf: [ref('Feline'), ref('Canine')], discriminator: { propertyName: 'species', mapping: { cat: '#/components/schemas/Feline', dog: '#/components/schemas/Canine' } } },
};

/** Schemas with a discriminator: their mutants must include tags that map nowhere and tags of another variant. */
const DISCRIMINATED = ['Party', 'Unpinned', 'AnyTagged', 'Implicit', 'Pinned', 'AnyAnimal'];

const OPENAPI_30 = {
  openapi: '3.0.3',
  info: { title: 'Synthetic 3.0', version: '1' },
  paths: {},
  components: {
    schemas: {
      ...COMMON,
      MaybeText: { type: 'string', nullable: true, maxLength: 5 },
      MaybeList: { type: 'array', nullable: true, items: { type: 'boolean' } },
      MaybeColour: { type: 'string', nullable: true, enum: ['red', 'green'] },
      MaybeColourOrNull: { type: 'string', nullable: true, enum: ['red', null] },
      MaybeCode: { allOf: [ref('Code')], nullable: true },
      // The nullable idiom beside oneOf with a discriminator.
      MaybeParty: { nullable: true, oneOf: [ref('Person'), ref('Business')], discriminator: { propertyName: 'IdentityType' } },
      RefWithNullable: { type: 'object', properties: { code: { $ref: '#/components/schemas/Code', nullable: true } } },
      Positive: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true },
      Holder: { type: 'object', required: ['tree'], properties: { tree: ref('Tree'), ratio: ref('Ratio'), note: { type: 'string', nullable: true } } },
    },
  },
};

const OPENAPI_31 = {
  openapi: '3.1.0',
  info: { title: 'Synthetic 3.1', version: '1' },
  paths: {},
  components: {
    schemas: {
      ...COMMON,
      MaybeText: { type: ['string', 'null'], maxLength: 5 },
      NumberOrText: { type: ['number', 'string'], minimum: 1, maxLength: 2 },
      MaybeColour: { type: ['string', 'null'], enum: ['red', 'green'] },
      Fixed: { const: 'A' },
      Positive: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 },
      Holder: { type: 'object', required: ['tree', 'kind'], properties: { tree: ref('Tree'), kind: { const: 'holder' }, count: { type: 'integer', format: 'int32' } } },
    },
  },
};

describe('zod and ajv agree on synthetic documents', () => {
  afterAll(removeScratchDirs);

  for (const document of [OPENAPI_30, OPENAPI_31]) {
    it(document.info.title, { timeout: 60_000 }, async () => {
      const dir = await scratchDir('synthetic');
      const file = path.join(dir, 'spec.json');
      await writeFile(file, JSON.stringify(document, null, 2));
      const report = await runDifferential(file, DEFAULT_OPTIONS);
      console.log(formatCounts(document.info.title, report));
      expect(report.skipped).toStrictEqual([]);
      expect(report.generatorRejects.map(formatDisagreement)).toStrictEqual([]);
      expect(report.outputMismatches.map((m) => `${m.schema}: zod ${JSON.stringify(m.zod)} vs ajv ${JSON.stringify(m.ajv)}`)).toStrictEqual([]);
      expect(report.disagreements.filter((d) => explain(d).length === 0).map(formatDisagreement)).toStrictEqual([]);
      expect(report.checkDisagreements.map(formatCheckDisagreement)).toStrictEqual([]);
      expect(report.checked.schemas).toBeGreaterThan(0);
      for (const name of DISCRIMINATED) expect(report.counts.find((c) => c.schema === name)?.mutants, name).toBeGreaterThan(0);
      // Tags that map nowhere, or to another variant: mutants of every discriminated schema, and
      // (the tag being a hint) not all of them refused.
      for (const kind of ['discriminator-unmapped', 'discriminator-other-variant']) {
        const counts = report.kinds.get(kind);
        expect(counts?.mutants, kind).toBeGreaterThan(0);
        expect(counts!.zodRejects, kind).toBeLessThan(counts!.mutants);
        expect(counts!.zodRejects, kind).toBe(counts!.ajvRejects);
      }
    });
  }
});
