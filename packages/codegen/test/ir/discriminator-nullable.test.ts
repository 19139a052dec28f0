import { describe, expect, it } from 'vitest';
import { buildIR, type BuildOptions } from '../../src/ir/build-ir.js';
import type { SchemaNode, UnionNode } from '../../src/ir/types.js';

const P = '#/components/schemas';

function irOf(schemas: Record<string, unknown>, openapi = '3.0.3', options: BuildOptions = {}) {
  const document = { openapi, info: { title: 'T', version: '1' }, paths: {}, components: { schemas } };
  return buildIR({ source: 'fixture.yaml', document, diagnostics: [] }, options).api;
}

function unionOf(schemas: Record<string, unknown>, name: string, openapi?: string): UnionNode {
  const node = irOf(schemas, openapi).schemas.find((s) => s.name === name)!.schema;
  expect(node.kind).toBe('union');
  return node as UnionNode;
}

const object = (tag: unknown, required: string[], extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required,
  properties: { kind: tag, ...extra },
});
const ref = (name: string) => ({ $ref: `${P}/${name}` });

describe('discriminator: a hint, dispatch only where the tag provably selects', () => {
  for (const openapi of ['3.0.3', '3.1.0']) {
    const pin = (value: string) => (openapi === '3.0.3' ? { type: 'string', enum: [value] } : { const: value });
    describe(openapi, () => {
      it('selects when every variant requires and pins the tag (explicit mapping agreeing)', () => {
        const union = unionOf(
          {
            A: object(pin('a'), ['kind']),
            B: object({ type: 'string', enum: ['b', 'bb'] }, ['kind']),
            U: { oneOf: [ref('A'), ref('B')], discriminator: { propertyName: 'kind', mapping: { a: `${P}/A`, b: `${P}/B` } } },
          },
          'U',
          openapi,
        );
        expect(union.discriminator).toStrictEqual({ propertyName: 'kind', mapping: { a: 0, b: 1 }, selects: { a: 0, b: 1, bb: 1 } });
      });

      it('keeps implicit mapping (component names) as a hint and selects by the pins', () => {
        const union = unionOf({ A: object(pin('a'), ['kind']), B: object(pin('b'), ['kind']), U: { oneOf: [ref('A'), ref('B')], discriminator: { propertyName: 'kind' } } }, 'U', openapi);
        expect(union.discriminator).toStrictEqual({ propertyName: 'kind', mapping: { A: 0, B: 1 }, selects: { a: 0, b: 1 } });
      });

      it('does not select when a variant leaves the tag optional', () => {
        const union = unionOf({ A: object(pin('a'), ['kind']), B: object(pin('b'), []), U: { oneOf: [ref('A'), ref('B')], discriminator: { propertyName: 'kind' } } }, 'U', openapi);
        expect(union.discriminator!.selects).toBeUndefined();
        expect(union.discriminator!.mapping).toStrictEqual({ A: 0, B: 1 });
      });

      it('does not select when a variant does not pin the tag', () => {
        const union = unionOf(
          { A: object(pin('a'), ['kind']), B: object({ type: 'string' }, ['kind']), U: { oneOf: [ref('A'), ref('B')], discriminator: { propertyName: 'kind' } } },
          'U',
          openapi,
        );
        expect(union.discriminator!.selects).toBeUndefined();
      });

      it('does not select when two variants admit the same value', () => {
        const union = unionOf(
          {
            A: object({ type: 'string', enum: ['a', 'x'] }, ['kind']),
            B: object({ type: 'string', enum: ['b', 'x'] }, ['kind']),
            U: { anyOf: [ref('A'), ref('B')], discriminator: { propertyName: 'kind' } },
          },
          'U',
          openapi,
        );
        expect(union.discriminator!.selects).toBeUndefined();
      });

      it('does not select when the explicit mapping disagrees with the pins, with a warning', () => {
        const api = irOf(
          {
            A: object(pin('a'), ['kind']),
            B: object(pin('b'), ['kind']),
            U: { oneOf: [ref('A'), ref('B')], discriminator: { propertyName: 'kind', mapping: { a: `${P}/B` } } },
          },
          openapi,
        );
        const union = api.schemas.find((s) => s.name === 'U')!.schema as UnionNode;
        expect(union.discriminator!.selects).toBeUndefined();
        expect(api.diagnostics.map((d) => [d.code, d.pointer])).toContainEqual(['discriminator-mapping', `${P}/U/discriminator/mapping/a`]);
      });

      it('looks through allOf: a base with the tag, each variant pinning it', () => {
        const union = unionOf(
          {
            Base: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } }, discriminator: { propertyName: 'kind' } },
            A: { allOf: [ref('Base'), { type: 'object', properties: { kind: pin('A'), a: { type: 'string' } } }] },
            B: { allOf: [ref('Base'), { type: 'object', properties: { kind: pin('B'), b: { type: 'string' } } }] },
            U: { oneOf: [ref('A'), ref('B')], discriminator: { propertyName: 'kind' } },
          },
          'U',
          openapi,
        );
        expect(union.discriminator!.selects).toStrictEqual({ A: 0, B: 1 });
      });

      it('accepts inline variants (a hint by nothing but pins) instead of refusing them', () => {
        const api = irOf({ U: { oneOf: [object(pin('a'), ['kind']), object(pin('b'), ['kind'])], discriminator: { propertyName: 'kind' } } }, openapi);
        expect(api.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([]);
        const union = api.schemas[0]!.schema as UnionNode;
        expect(union.discriminator).toStrictEqual({ propertyName: 'kind', mapping: {}, selects: { a: 0, b: 1 } });
      });
    });
  }

  it('ignores a discriminator on a schema that is not a union (a base the variants extend)', () => {
    const api = irOf({ Base: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } }, discriminator: { propertyName: 'kind' } } });
    expect(api.schemas[0]!.schema.kind).toBe('object');
    expect(api.diagnostics).toStrictEqual([]);
  });
});

describe('3.0 nullable idiom', () => {
  const idioms: Record<string, unknown> = {
    X: { type: 'string' },
    AllOf: { nullable: true, allOf: [ref('X')] },
    OneOf: { nullable: true, oneOf: [ref('X'), { type: 'integer' }] },
    AnyOf: { nullable: true, anyOf: [ref('X'), { type: 'integer' }] },
    Ref: { nullable: true, $ref: `${P}/X` },
  };
  const nullable = (node: SchemaNode) => node.nullable === true;

  it('reads nullable beside allOf/oneOf/anyOf/$ref without type as "null is also accepted", with a warning naming the pointer', () => {
    const api = irOf(idioms);
    for (const name of ['AllOf', 'OneOf', 'AnyOf', 'Ref']) {
      expect(nullable(api.schemas.find((s) => s.name === name)!.schema), name).toBe(true);
      expect(api.diagnostics.map((d) => [d.severity, d.code, d.pointer])).toContainEqual(['warning', 'nullable-idiom', `${P}/${name}/nullable`]);
    }
  });

  it('keeps 3.0.3 literal text with nullable: literal', () => {
    const api = irOf(idioms, '3.0.3', { nullable: 'literal' });
    for (const name of ['AllOf', 'OneOf', 'AnyOf', 'Ref']) {
      expect(nullable(api.schemas.find((s) => s.name === name)!.schema), name).toBe(false);
      expect(api.diagnostics.map((d) => [d.code, d.pointer])).toContainEqual(['nullable-without-type', `${P}/${name}/nullable`]);
    }
  });

  it('leaves nullable without type and without a composition as it was (no effect, a warning)', () => {
    const api = irOf({ A: { nullable: true, enum: ['a'] } });
    expect(nullable(api.schemas[0]!.schema)).toBe(false);
    expect(api.diagnostics.map((d) => d.code)).toStrictEqual(['nullable-without-type']);
  });
});
