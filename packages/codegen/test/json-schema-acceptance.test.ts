/**
 * What JSON Schema allows is accepted (issue 18, item 5): patterns valid only without the `u`
 * flag, unknown keywords, discriminators over inline variants, earlier drafts' `$schema`; and
 * a `default`, `enum`/`const` member or example that does not fit is a warning, never a
 * refusal or a type error in the output.
 */
import { describe, expect, it } from 'vitest';
import { buildIR } from '../src/ir/build-ir.js';
import type { ObjectNode } from '../src/ir/types.js';
import { loadValidators, specWithSchemas } from './helpers/generated.js';
import { patternFlags } from '../src/ir/pattern.js';

const P = '#/components/schemas';

function built(schemas: Record<string, unknown>, openapi = '3.0.3') {
  return buildIR({ source: 'fixture.yaml', document: specWithSchemas(schemas, openapi), diagnostics: [] });
}

function codes(schemas: Record<string, unknown>, openapi = '3.0.3') {
  return built(schemas, openapi).api.diagnostics.map((d) => [d.severity, d.code, d.pointer]);
}

describe('patterns', () => {
  const ESCAPED_COLON = '^[a-zA-Z0-9_\\-\\:]+$';
  const ESCAPED_QUOTE = '^[^\\"]*$';
  const LONE_BRACE = '^{[0-9]+}$';

  it('compiles with u when it can, else without it, and refuses what is invalid either way', () => {
    expect(patternFlags('^\\p{L}+$')).toBe('u');
    expect(patternFlags(ESCAPED_COLON)).toBe('');
    expect(patternFlags(ESCAPED_QUOTE)).toBe('');
    expect(patternFlags(LONE_BRACE)).toBe('');
    expect(patternFlags('([a-z')).toBeUndefined();
  });

  it('keeps a pattern valid only without u, with a note naming the pointer', () => {
    for (const openapi of ['3.0.3', '3.1.0']) {
      expect(codes({ A: { type: 'string', pattern: ESCAPED_COLON } }, openapi)).toStrictEqual([['info', 'pattern-without-unicode', `${P}/A/pattern`]]);
    }
  });

  it('notes it in a schema the JSON Schema runtime validates too, for pattern and patternProperties keys', () => {
    // `not` and `patternProperties` send the schemas to the runtime, whose table check reads the patterns.
    expect(codes({ A: { type: 'string', pattern: ESCAPED_COLON, not: { const: 'x' } } }, '3.1.0')).toStrictEqual([['info', 'pattern-without-unicode', `${P}/A`]]);
    expect(codes({ B: { type: 'object', patternProperties: { [ESCAPED_COLON]: { type: 'integer' } } } }, '3.1.0')).toStrictEqual([['info', 'pattern-without-unicode', `${P}/B`]]);
  });

  it('names the pointer of a pattern invalid with and without u', () => {
    expect(codes({ A: { type: 'string', pattern: '([a-z' } })).toStrictEqual([['error', 'invalid-pattern', `${P}/A/pattern`]]);
    // In a schema the JSON Schema runtime validates too.
    expect(codes({ A: { type: 'string', pattern: '([a-z', not: { const: 'x' } } }, '3.1.0')).toContainEqual(['error', 'invalid-pattern', `${P}/A`]);
  });

  it('validates with it, in zod builders and in the JSON Schema runtime', { timeout: 60_000 }, async () => {
    for (const openapi of ['3.0.3', '3.1.0']) {
      const v = await loadValidators(
        specWithSchemas(
          {
            Key: { type: 'string', pattern: ESCAPED_COLON },
            Quoted: { type: 'string', pattern: ESCAPED_QUOTE },
            Braced: { type: 'string', pattern: LONE_BRACE },
            // `not` sends the schema to the runtime.
            KeyRuntime: { type: 'string', pattern: ESCAPED_COLON, not: { enum: ['no:pe'] } },
            Keyed: { type: 'object', patternProperties: { [ESCAPED_COLON]: { type: 'integer' } } },
          },
          openapi,
        ),
      );
      const ok = (name: string, value: unknown) => v.schemas[name]!.safeParse(value).success;
      expect(ok('Key', 'a_b-c:d')).toBe(true);
      expect(ok('Key', 'a b')).toBe(false);
      expect(ok('Quoted', 'plain')).toBe(true);
      expect(ok('Quoted', 'say "hi"')).toBe(false);
      expect(ok('Braced', '{42}')).toBe(true);
      expect(ok('Braced', '42')).toBe(false);
      expect(ok('KeyRuntime', 'a:b')).toBe(true);
      expect(ok('KeyRuntime', 'a b')).toBe(false);
      expect(ok('KeyRuntime', 'no:pe')).toBe(false);
      expect(ok('Keyed', { 'a:b': 1 })).toBe(true);
      expect(ok('Keyed', { 'a:b': 'x' })).toBe(false);
      expect(ok('Keyed', { 'a b': 'x' })).toBe(true);
    }
  });
});

describe('unknown keywords', () => {
  it('are annotations: a note each, never an error, and they change nothing', () => {
    const schemas = { A: { type: 'array', items: { type: 'string' }, min_items: 2, optional: true, 'x-foo': 1 } };
    for (const openapi of ['3.0.3', '3.1.0']) {
      expect(codes(schemas, openapi)).toStrictEqual([
        ['info', 'unknown-keyword', `${P}/A/min_items`],
        ['info', 'unknown-keyword', `${P}/A/optional`],
      ]);
      expect(built(schemas, openapi).api.schemas[0]!.schema).toStrictEqual({ kind: 'array', pointer: `${P}/A`, items: { kind: 'string', pointer: `${P}/A/items` } });
    }
  });

  it('known keywords the generator cannot represent are still refused', () => {
    expect(codes({ A: { $vocabulary: { 'https://example.com/vocab/strict': true } } }, '3.1.0')).toContainEqual(['error', 'unsupported-keyword', `${P}/A/$vocabulary`]);
    // 2020-12's dynamic references in a 3.0 (draft 4) file.
    expect(codes({ A: { $dynamicRef: '#meta' } })).toContainEqual(['error', 'unsupported-keyword', `${P}/A/$dynamicRef`]);
    // A 2020-12 keyword in a 3.0 (draft 4) file.
    expect(codes({ A: { type: 'array', prefixItems: [{ type: 'string' }] } })).toContainEqual(['error', 'unsupported-keyword', `${P}/A/prefixItems`]);
  });
});

describe('earlier drafts named by $schema in a 3.1 file', () => {
  it('read as 2020-12 where their keywords mean the same', () => {
    for (const uri of ['https://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-06/schema', 'https://json-schema.org/draft/2019-09/schema#']) {
      expect(codes({ A: { $schema: uri, type: 'number', minimum: 1 } }, '3.1.0')).toStrictEqual([]);
    }
  });

  it('refused where a keyword changed meaning since (tuple items)', () => {
    expect(codes({ A: { $schema: 'https://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }] } }, '3.1.0')).toStrictEqual([
      ['error', 'unsupported-dialect', `${P}/A/$schema`],
    ]);
  });

  it('reads a boolean exclusiveMinimum as draft 4 does, with a warning', () => {
    const ir = built({ A: { $schema: 'https://json-schema.org/draft-07/schema#', type: 'number', minimum: 10, maximum: 20, exclusiveMinimum: true, exclusiveMaximum: false } }, '3.1.0');
    expect(ir.api.schemas[0]!.schema).toMatchObject({ kind: 'number', exclusiveMinimum: 10, maximum: 20 });
    expect(ir.api.schemas[0]!.schema).not.toHaveProperty('minimum');
    expect(ir.api.diagnostics.map((d) => [d.code, d.pointer])).toStrictEqual([
      ['draft4-exclusive-bound', `${P}/A/exclusiveMinimum`],
      ['draft4-exclusive-bound', `${P}/A/exclusiveMaximum`],
    ]);
  });
});

describe('values that do not fit their schema', () => {
  it('drops a default that does not fit, with a warning naming it', () => {
    const ir = built({
      A: {
        type: 'object',
        properties: {
          nullString: { type: 'string', default: null },
          textInteger: { type: 'integer', default: '1234' },
          tooShort: { type: 'string', minLength: 3, default: 'ab' },
          fits: { type: 'string', nullable: true, default: null },
          fitsInteger: { type: 'integer', default: 3 },
        },
      },
    });
    const members = (ir.api.schemas[0]!.schema as ObjectNode).properties;
    expect(members.filter((m) => 'default' in m.schema).map((m) => m.name)).toStrictEqual(['fits', 'fitsInteger']);
    expect(ir.api.diagnostics.map((d) => [d.severity, d.code, d.pointer])).toStrictEqual([
      ['warning', 'default-mismatch', `${P}/A/properties/nullString/default`],
      ['warning', 'default-mismatch', `${P}/A/properties/textInteger/default`],
      ['warning', 'default-mismatch', `${P}/A/properties/tooShort/default`],
    ]);
    expect(ir.api.diagnostics[1]!.message).toContain('expected integer, got string "1234"');
  });

  it('an absent member with a dropped default stays absent; one that fits is filled in', { timeout: 60_000 }, async () => {
    const v = await loadValidators(specWithSchemas({ A: { type: 'object', properties: { s: { type: 'string', default: null }, n: { type: 'integer', default: 7 } } } }));
    expect(v.schemas['A']!.safeParse({}).data).toStrictEqual({ n: 7 });
  });

  it('warns of enum and const members of another type (they can never validate)', () => {
    expect(codes({ A: { type: 'string', enum: ['a', 1, null] } })).toStrictEqual([['warning', 'enum-mismatch', `${P}/A/enum`]]);
    expect(codes({ A: { type: 'integer', const: 'x' } }, '3.1.0')).toStrictEqual([['warning', 'const-mismatch', `${P}/A/const`]]);
    expect(codes({ A: { type: 'string', nullable: true, enum: ['a', null] } })).toStrictEqual([]);
  });

  it('warns of an example that does not fit, naming its pointer', () => {
    const ir = built({ A: { type: 'object', required: ['id'], properties: { id: { type: 'integer', example: 'one' } }, example: { name: 'x' } } });
    expect(ir.api.diagnostics.map((d) => [d.code, d.pointer])).toStrictEqual([
      ['example-mismatch', `${P}/A/example`],
      ['example-mismatch', `${P}/A/properties/id/example`],
    ]);
  });
});

describe('a shared example that does not fit', () => {
  it('is named once, however many operations use it', () => {
    const response = { description: 'd', content: { 'application/json': { schema: { type: 'object' }, examples: { none: { value: null } } } } };
    const document = {
      ...specWithSchemas({}),
      paths: { '/a': { get: { operationId: 'a', responses: { '202': { $ref: '#/components/responses/Accepted' } } } }, '/b': { get: { operationId: 'b', responses: { '202': { $ref: '#/components/responses/Accepted' } } } } },
      components: { schemas: {}, responses: { Accepted: response } },
    };
    const diagnostics = buildIR({ source: 'f.yaml', document, diagnostics: [] }).api.diagnostics;
    expect(diagnostics.map((d) => [d.code, d.pointer, d.message])).toStrictEqual([
      ['example-mismatch', '#/components/responses/Accepted/content/application~1json/examples/none/value', 'example does not fit its schema (expected object, got null)'],
    ]);
  });
});

describe('discriminators whose variants are inline schemas', () => {
  const pet = (openapi: string, mapping?: Record<string, string>) =>
    specWithSchemas(
      {
        Pet: {
          oneOf: [
            { type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['cat'] }, lives: { type: 'integer' } } },
            { type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['dog'] }, barks: { type: 'boolean' } } },
          ],
          discriminator: { propertyName: 'kind', ...(mapping ? { mapping } : {}) },
        },
        Other: { type: 'object' },
      },
      openapi,
    );

  it('dispatch on the tag values the variants pin', () => {
    const ir = buildIR({ source: 'f.yaml', document: pet('3.0.3'), diagnostics: [] });
    expect(ir.api.schemas[0]!.schema).toMatchObject({ kind: 'union', discriminator: { propertyName: 'kind', selects: { cat: 0, dog: 1 } } });
    expect(ir.api.diagnostics).toStrictEqual([]);
  });

  it('validate as oneOf requires, with or without a mapping to components', { timeout: 60_000 }, async () => {
    for (const openapi of ['3.0.3', '3.1.0']) {
      for (const mapping of [undefined, { cat: `${P}/Other` }]) {
        const v = await loadValidators(pet(openapi, mapping));
        const ok = (value: unknown) => v.schemas['Pet']!.safeParse(value).success;
        expect(ok({ kind: 'cat', lives: 9 })).toBe(true);
        expect(ok({ kind: 'dog', barks: true })).toBe(true);
        expect(ok({ kind: 'cat', lives: 'nine' })).toBe(false);
        expect(ok({ kind: 'fish' })).toBe(false);
        expect(ok({ lives: 9 })).toBe(false);
      }
    }
  });
});

describe('$recursiveRef and $recursiveAnchor (JSON Schema 2019-09) in a 3.1 file', () => {
  const tree = (anchor: boolean) => ({
    Tree: {
      $id: 'https://example.com/tree',
      ...(anchor ? { $recursiveAnchor: true } : {}),
      type: 'object',
      properties: { data: true, children: { type: 'array', items: { $recursiveRef: '#' } } },
    },
    StrictTree: { $id: 'https://example.com/strict-tree', $recursiveAnchor: true, $ref: 'tree', unevaluatedProperties: false },
  });

  it('are accepted (a 3.0 file still refuses them)', () => {
    expect(built(tree(true), '3.1.0').api.diagnostics).toStrictEqual([]);
    expect(codes({ A: { $recursiveRef: '#' } })).toContainEqual(['error', 'unsupported-keyword', `${P}/A/$recursiveRef`]);
    expect(codes({ A: { $id: 'https://example.com/a', $recursiveRef: '#/x' } }, '3.1.0')).toContainEqual(['error', 'unsupported-keyword', `${P}/A/$recursiveRef`]);
  });

  it('lead to the outermost resource in the dynamic scope with $recursiveAnchor: true', { timeout: 60_000 }, async () => {
    const v = await loadValidators(specWithSchemas(tree(true), '3.1.0'));
    const ok = (name: string, value: unknown) => v.schemas[name]!.safeParse(value).success;
    const extraInChild = { data: 1, children: [{ data: 2, extra: true }] };
    expect(ok('Tree', extraInChild)).toBe(true);
    // From StrictTree, the children of Tree are strict trees too.
    expect(ok('StrictTree', extraInChild)).toBe(false);
    expect(ok('StrictTree', { data: 1, children: [{ data: 2, children: [{ data: 3 }] }] })).toBe(true);
    expect(ok('StrictTree', { data: 1, children: [{ data: 2, children: [{ data: 3, extra: 1 }] }] })).toBe(false);
    expect(ok('StrictTree', { data: 1, extra: 1 })).toBe(false);
  });

  it('read as $ref: "#" when the initial target has no $recursiveAnchor', { timeout: 60_000 }, async () => {
    const v = await loadValidators(specWithSchemas(tree(false), '3.1.0'));
    const ok = (name: string, value: unknown) => v.schemas[name]!.safeParse(value).success;
    // The children are plain trees, whatever refers to Tree.
    expect(ok('StrictTree', { data: 1, children: [{ data: 2, extra: true }] })).toBe(true);
    expect(ok('StrictTree', { data: 1, extra: 1 })).toBe(false);
    expect(ok('Tree', { data: 1, children: ['not a tree'] })).toBe(false);
  });
});
