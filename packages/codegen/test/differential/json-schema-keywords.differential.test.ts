// The differential on documents that use every keyword the JSON Schema runtime validates
// (json-schema.gen.ts): a 3.1 document, read exactly (JSON Schema 2020-12, ajv's 2020
// draft), and a 3.0 document with draft 4's own forms, read leniently as the generator reads
// 3.0 by default (ajv's 2019 draft, given the allOf reading). Disagreements follow the same
// allow-list as the other differential tests.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, formatCheckDisagreement, formatCounts, formatDisagreement, runDifferential } from '../support/differential.js';
import { removeScratchDirs, scratchDir } from '../support/generated-validators.js';
import { explain } from './known-disagreements.js';

// More instances than the default: these documents are small, and each keyword has several mutations.
const OPTIONS = { ...DEFAULT_OPTIONS, validPerSchema: 40, mutantsPerSchema: 80 };

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const KEYWORDS_31 = {
  openapi: '3.1.0',
  info: { title: 'JSON Schema keywords 3.1 (exact)', version: '1' },
  paths: {},
  components: {
    schemas: {
      Code: { type: 'string', pattern: '^[A-Z]{2,4}$' },
      // not
      NotX: { type: 'string', maxLength: 6, not: { pattern: '^x' } },
      NotObject: { not: { type: 'object' } },
      NotRequired: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string' } }, not: { required: ['a', 'b'] } },
      // if / then / else
      Conditional: {
        type: 'object',
        required: ['kind'],
        properties: { kind: { enum: ['a', 'b'] }, a: { type: 'integer' }, b: { type: 'string', maxLength: 4 } },
        if: { properties: { kind: { const: 'a' } } },
        then: { required: ['a'] },
        else: { required: ['b'] },
      },
      IfOnlyThen: { type: 'integer', if: { minimum: 10 }, then: { multipleOf: 5 } },
      // patternProperties, propertyNames
      PatternMap: {
        type: 'object',
        properties: { id: { type: 'string' } },
        patternProperties: { '^x-': { type: 'string', maxLength: 5 }, '^n[0-9]+$': { type: 'integer', minimum: 0 } },
        additionalProperties: false,
      },
      PatternOpen: { type: 'object', patternProperties: { '^[a-c]$': { type: 'boolean' } }, additionalProperties: { type: 'string' } },
      Names: { type: 'object', propertyNames: { pattern: '^[a-z]+$', maxLength: 8 }, additionalProperties: { type: 'number' } },
      // prefixItems, items after it
      Pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
      HeadThenFlags: { type: 'array', prefixItems: [ref('Code')], items: { type: 'boolean' }, maxItems: 4 },
      // contains, minContains, maxContains
      SomeLarge: { type: 'array', items: { type: 'integer', maximum: 100 }, contains: { minimum: 10 }, minContains: 2, maxContains: 3 },
      HasHere: { contains: { const: 'here' } },
      // dependentRequired, dependentSchemas
      Payment: {
        type: 'object',
        properties: { card: { type: 'string' }, billing: { type: 'string' }, name: { type: 'string' } },
        dependentRequired: { card: ['billing'] },
      },
      CardCheck: {
        type: 'object',
        properties: { card: { type: 'string' } },
        dependentSchemas: { card: { required: ['cvv'], properties: { cvv: { type: 'string', pattern: '^[0-9]{3}$' } } } },
      },
      // unevaluatedProperties over allOf, over if/then, and with a schema
      ClosedAllOf: {
        allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } } }],
        unevaluatedProperties: false,
      },
      ClosedConditional: {
        type: 'object',
        properties: { kind: { enum: ['x', 'y'] } },
        required: ['kind'],
        if: { properties: { kind: { const: 'x' } } },
        then: { properties: { x: { type: 'string' } } },
        unevaluatedProperties: false,
      },
      ClosedRef: { $ref: '#/components/schemas/CardCheck', unevaluatedProperties: false },
      UnevaluatedInts: { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: { type: 'integer' } },
      // unevaluatedItems
      OnlyPrefix: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }], unevaluatedItems: false },
      PrefixThenInts: { allOf: [{ prefixItems: [{ type: 'string' }] }], unevaluatedItems: { type: 'integer' }, maxItems: 4 },
      // boolean schemas
      AnyValue: true,
      NoGone: { type: 'object', properties: { gone: false, kept: true } },
      // $defs with pointer refs; $ref beside other keywords
      WithDefs: {
        type: 'object',
        $defs: { positive: { type: 'integer', minimum: 1 }, label: { type: 'string', minLength: 1, maxLength: 5 } },
        properties: { count: { $ref: '#/components/schemas/WithDefs/$defs/positive' }, label: { $ref: '#/components/schemas/WithDefs/$defs/label' } },
        required: ['count'],
      },
      ShortCode: { $ref: '#/components/schemas/Code', maxLength: 3 },
      DefsUser: { type: 'array', items: { $ref: '#/components/schemas/WithDefs/$defs/label' }, uniqueItems: true },
      // recursion: through the component, through an $anchor, through "#" under an $id
      LinkedList: {
        type: 'object',
        required: ['value'],
        properties: { value: { type: 'integer' }, next: ref('LinkedList') },
        unevaluatedProperties: false,
      },
      AnchoredNode: {
        $anchor: 'node',
        type: 'object',
        properties: { label: { type: 'string', maxLength: 4 }, children: { type: 'array', maxItems: 2, items: { $ref: '#node' } } },
        not: { required: ['forbidden'] },
      },
      IdTree: {
        $id: 'https://example.com/schemas/id-tree',
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, kids: { type: 'array', maxItems: 2, items: { $ref: '#' } } },
        additionalProperties: false,
      },
      // typeless schemas, read exactly: each keyword only constrains its own type
      MaxTwo: { maxItems: 2 },
      NeedsA: { required: ['a'] },
      Short: { maxLength: 3 },
      BelowFive: { exclusiveMaximum: 5 },
      ClosedMixed: { properties: { a: { type: 'string' } }, additionalProperties: false, minLength: 2 },
      // runtime schemas used from plain ones: as members, in allOf, as oneOf variants; defaults inside them
      Holder: {
        type: 'object',
        required: ['conditional'],
        properties: { conditional: ref('Conditional'), pair: ref('Pair'), list: ref('LinkedList'), names: ref('Names'), tree: ref('IdTree') },
        additionalProperties: false,
      },
      NarrowNotX: { allOf: [ref('NotX'), { type: 'string', minLength: 2 }] },
      PairOrMap: { oneOf: [ref('Pair'), ref('PatternMap')] },
      WithDefault: {
        type: 'object',
        properties: { mode: { type: 'string', enum: ['fast', 'safe'], default: 'safe' }, size: { type: 'integer' } },
        not: { required: ['size'], properties: { size: { const: 0 } } },
      },
      // corners of annotations: anyOf branches, dependentSchemas, a bare if, not (never counts), $defs
      ClosedAnyOf: { anyOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } }, required: ['b'] }], unevaluatedProperties: false },
      ClosedDependent: { type: 'object', properties: { a: { type: 'string' } }, dependentSchemas: { a: { properties: { b: { type: 'integer' } } } }, unevaluatedProperties: false },
      ClosedBareIf: { type: 'object', if: { properties: { x: { const: 1 } }, required: ['x'] }, unevaluatedProperties: false },
      ClosedNot: { type: 'object', properties: { a: { type: 'integer' } }, not: { properties: { b: { type: 'string' } }, required: ['b'] }, unevaluatedProperties: false },
      ClosedDefs: { $ref: '#/components/schemas/ClosedDefs/$defs/base', $defs: { base: { properties: { id: { type: 'string' } }, required: ['id'] } }, unevaluatedProperties: false },
      NestedClosed: { type: 'object', properties: { inner: { $ref: '#/components/schemas/ClosedAllOf' } }, unevaluatedProperties: false },
      ItemsAcrossAllOf: { allOf: [{ prefixItems: [{ type: 'integer' }] }, { contains: { type: 'string' } }], unevaluatedItems: false },
      OverlappingPatterns: { type: 'object', patternProperties: { '^a': { type: 'string' }, 'b$': { maxLength: 3 } }, additionalProperties: false },
      ShortNames: { type: 'object', propertyNames: { maxLength: 3 }, maxProperties: 3 },
      ConstNames: { type: 'object', propertyNames: { enum: ['one', 'two'] } },
      PairMin: { type: 'array', prefixItems: [{ type: 'boolean' }, { type: 'string' }], minItems: 2 },
      MaybeNone: { type: 'array', contains: { type: 'null' }, minContains: 0, maxContains: 1 },
      UniqueObjects: { type: 'array', items: { type: 'object', properties: { a: { type: 'integer' } } }, uniqueItems: true, prefixItems: [true] },
      ObjectEnum: { enum: [{ a: 1 }, [1, 2], 'x', null] },
      ObjectConst: { const: { a: [1, { b: null }] } },
      FormatsInside: { type: 'array', prefixItems: [{ type: 'string', format: 'date' }, { type: 'string', format: 'uuid' }], items: false },
    },
  },
};

export const KEYWORDS_30 = {
  openapi: '3.0.3',
  info: { title: 'JSON Schema keywords 3.0 (lenient)', version: '1' },
  paths: {},
  components: {
    schemas: {
      Base: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
      NotForbidden: { type: 'string', not: { enum: ['forbidden'] } },
      MaybeNotA: { type: 'string', nullable: true, not: { pattern: '^a' } },
      WithDefault30: {
        type: 'object',
        properties: { mode: { type: 'string', enum: ['fast', 'safe'], default: 'safe' }, size: { type: 'integer', nullable: true } },
        not: { required: ['size'], properties: { size: { enum: [0] } } },
      },
      Holder30: { type: 'object', properties: { tuple: ref('Tuple'), headers: ref('Headers'), closed: ref('ClosedWithNot') }, additionalProperties: false },
      MaybeTuple: { type: 'array', nullable: true, items: [{ type: 'integer', nullable: true }], additionalItems: { type: 'boolean' } },
      DependsOnBase: { type: 'object', properties: { id: { type: 'string' }, x: { type: 'integer' } }, dependencies: { x: ref('Base') } },
      NotNullableRef: { not: ref('NotForbidden') },
      NotBoth: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, not: { required: ['a', 'b'] } },
      Headers: { type: 'object', patternProperties: { '^x-': { type: 'string', maxLength: 4 } }, additionalProperties: { type: 'integer' } },
      ClosedHeaders: { type: 'object', properties: { id: { type: 'string' } }, patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false },
      Dependent: {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'integer' } },
        dependencies: { a: ['b'], c: { required: ['a'], properties: { a: { minLength: 2 } } } },
      },
      Tuple: { type: 'array', items: [{ type: 'string' }, { type: 'number', minimum: 0, exclusiveMinimum: true }], additionalItems: false },
      TupleThenShort: { type: 'array', items: [{ type: 'boolean' }], additionalItems: { type: 'string', maxLength: 2 }, maxItems: 4 },
      TupleOpen: { type: 'array', items: [{ type: 'integer' }, { type: 'string', nullable: true }] },
      ClosedWithNot: {
        allOf: [ref('Base'), { type: 'object', properties: { note: { type: 'string' } }, additionalProperties: false }],
        not: { required: ['note'], properties: { note: { enum: ['bad'] } } },
      },
    },
  },
};

describe('zod and ajv agree on the JSON Schema keywords', () => {
  afterAll(removeScratchDirs);

  for (const document of [KEYWORDS_31, KEYWORDS_30]) {
    it(document.info.title, { timeout: 120_000 }, async () => {
      const started = Date.now();
      const dir = await scratchDir('keywords');
      const file = path.join(dir, 'spec.json');
      await writeFile(file, JSON.stringify(document, null, 2));
      const report = await runDifferential(file, OPTIONS);
      console.log(formatCounts(document.info.title, report));
      const explained = new Map<string, number>();
      for (const d of report.disagreements) for (const k of explain(d)) explained.set(k.id, (explained.get(k.id) ?? 0) + 1);
      if (explained.size > 0) console.log(`  known disagreements seen: ${[...explained].map(([id, n]) => `${id} ×${n}`).join(', ')}`);
      console.log(`  ajv ${report.oracle.draft}, ${report.oracle.reading} reading; ${Date.now() - started} ms`);
      expect(report.skipped).toStrictEqual([]);
      // ajv rejecting an instance built as valid is a generator bug, unless a known ajv bug explains it.
      expect(report.generatorRejects.filter((d) => explain(d).length === 0).map(formatDisagreement)).toStrictEqual([]);
      expect(report.outputMismatches.map((m) => `${m.schema}: zod ${JSON.stringify(m.zod)} vs ajv ${JSON.stringify(m.ajv)}`)).toStrictEqual([]);
      expect(report.disagreements.filter((d) => explain(d).length === 0).map(formatDisagreement)).toStrictEqual([]);
      expect(report.checkDisagreements.map(formatCheckDisagreement)).toStrictEqual([]);
      // The mutations are not vacuous: most of them are rejected by both.
      const mutants = report.counts.reduce((n, c) => n + c.mutants, 0);
      const rejected = report.counts.reduce((n, c) => n + c.rejected, 0);
      expect(rejected / mutants).toBeGreaterThan(0.5);
    });
  }
});
