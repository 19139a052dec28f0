import { describe, expect, it } from 'vitest';
import { adaptForAjv, buildAjvOracle } from '../support/ajv-oracle.js';
import { applyAllOfReading } from '../support/all-of-reading.js';

function doc(schemas: Record<string, unknown>, openapi = '3.0.3'): Record<string, unknown> {
  return { openapi, info: { title: 'Fixture', version: '1' }, paths: {}, components: { schemas } };
}

function schemasOf(document: Record<string, unknown>): Record<string, Record<string, unknown>> {
  return (document['components'] as { schemas: Record<string, Record<string, unknown>> }).schemas;
}

const CLAIMS = { type: 'object', required: ['iss'], properties: { iss: { type: 'string' }, exp: { type: 'number' } } };
const CLOSED_MESSAGE = { type: 'object', required: ['message'], properties: { message: { type: 'string' } }, additionalProperties: false };

describe('applyAllOfReading', () => {
  it('closes a signed-body allOf over both branches instead of rejecting the claims', () => {
    const input = doc({ Claims: CLAIMS, Signed: { allOf: [{ $ref: '#/components/schemas/Claims' }, CLOSED_MESSAGE] } });
    const { document, rewritten } = applyAllOfReading(input);
    const signed = schemasOf(document)['Signed']!;
    expect(rewritten).toStrictEqual(['#/components/schemas/Signed']);
    expect(signed['unevaluatedProperties']).toBe(false);
    expect(signed['allOf']).toStrictEqual([{ $ref: '#/components/schemas/Claims' }, { type: 'object', required: ['message'], properties: { message: { type: 'string' } } }]);
  });

  it('inlines an open copy of a closed $ref branch and leaves the component itself closed', () => {
    const input = doc({
      Message: CLOSED_MESSAGE,
      Signed: { allOf: [{ $ref: '#/components/schemas/Message' }, { $ref: '#/components/schemas/Claims' }] },
      Claims: CLAIMS,
    });
    const { document } = applyAllOfReading(input);
    const schemas = schemasOf(document);
    expect(schemas['Message']!['additionalProperties']).toBe(false);
    expect((schemas['Signed']!['allOf'] as unknown[])[0]).toStrictEqual({ type: 'object', required: ['message'], properties: { message: { type: 'string' } } });
    expect((schemas['Signed']!['allOf'] as unknown[])[1]).toStrictEqual({ $ref: '#/components/schemas/Claims' });
  });

  it('leaves an allOf without a closed branch as written', () => {
    const input = doc({ Claims: CLAIMS, Both: { allOf: [{ $ref: '#/components/schemas/Claims' }, { properties: { a: { type: 'string' } } }] } });
    const { document, rewritten } = applyAllOfReading(input);
    expect(rewritten).toStrictEqual([]);
    expect(document).toStrictEqual(input);
  });

  it('moves additionalProperties: false written beside the allOf', () => {
    const input = doc({ Claims: CLAIMS, Beside: { allOf: [{ $ref: '#/components/schemas/Claims' }], properties: { note: { type: 'string' } }, additionalProperties: false } });
    const beside = schemasOf(applyAllOfReading(input).document)['Beside']!;
    expect(beside['additionalProperties']).toBeUndefined();
    expect(beside['unevaluatedProperties']).toBe(false);
  });

  it('opens an inner rewritten allOf when an outer allOf uses it, so the outer one closes over everything', () => {
    const input = doc({
      Claims: CLAIMS,
      Signed: { allOf: [{ $ref: '#/components/schemas/Claims' }, CLOSED_MESSAGE] },
      Wrapped: { allOf: [{ $ref: '#/components/schemas/Signed' }, { properties: { extra: { type: 'boolean' } } }] },
    });
    const { document, rewritten } = applyAllOfReading(input);
    const wrapped = schemasOf(document)['Wrapped']!;
    expect(rewritten).toContain('#/components/schemas/Wrapped');
    expect(wrapped['unevaluatedProperties']).toBe(false);
    expect(((wrapped['allOf'] as unknown[])[0] as Record<string, unknown>)['unevaluatedProperties']).toBeUndefined();
    const oracle = buildAjvOracle(input);
    expect(oracle.validate('Wrapped', { iss: 'a', message: 'm', extra: true })).toBe(true);
    expect(oracle.validate('Wrapped', { iss: 'a', message: 'm', other: 1 })).toBe(false);
    expect(oracle.validate('Signed', { iss: 'a', message: 'm', extra: true })).toBe(false);
  });

  it('rewrites allOf nodes nested in properties and items, and reports their pointers', () => {
    const input = doc({
      Claims: CLAIMS,
      Outer: { type: 'object', properties: { list: { type: 'array', items: { allOf: [{ $ref: '#/components/schemas/Claims' }, CLOSED_MESSAGE] } } } },
    });
    const { rewritten } = applyAllOfReading(input);
    expect(rewritten).toStrictEqual(['#/components/schemas/Outer/properties/list/items']);
  });

  it('does not modify its input and terminates on recursive components', () => {
    const input = doc({
      Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } }, additionalProperties: false },
      Tree: { allOf: [{ $ref: '#/components/schemas/Node' }, { properties: { root: { type: 'boolean' } } }] },
    });
    const before = structuredClone(input);
    const { document } = applyAllOfReading(input);
    expect(input).toStrictEqual(before);
    expect(schemasOf(document)['Tree']!['unevaluatedProperties']).toBe(false);
  });

  it('gives ajv the generator reading: real signed payloads pass, unknown members fail', () => {
    const input = doc({ Claims: CLAIMS, Signed: { allOf: [{ $ref: '#/components/schemas/Claims' }, CLOSED_MESSAGE] } });
    const oracle = buildAjvOracle(input);
    expect(oracle.validate('Signed', { iss: 'tpp', exp: 1, message: 'hello' })).toBe(true);
    expect(oracle.validate('Signed', { iss: 'tpp', message: 'hello', unknown: 1 })).toBe(false);
    expect(oracle.validate('Signed', { message: 'hello' })).toBe(false);
    // The closed component keeps its own meaning where it is used alone.
    expect(oracle.validate('Claims', { iss: 'tpp', anything: 1 })).toBe(true);
  });
});

describe('adaptForAjv', () => {
  it('removes the discriminator: ajv evaluates the plain oneOf (the discriminator never changes the outcome)', () => {
    const input = doc({
      Cat: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' }, meows: { type: 'boolean' } } },
      Dog: { allOf: [{ type: 'object', properties: { kind: { type: 'string' } } }, { properties: { barks: { type: 'boolean' } } }] },
      Pet: {
        oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
        discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat' } },
      },
    });
    const pet = schemasOf(adaptForAjv(input).document)['Pet']!;
    expect(pet).toStrictEqual({ oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] });
    const oracle = buildAjvOracle(input);
    // Dog is open and leaves kind a string: only Cat matches when barks is not a boolean.
    expect(oracle.validate('Pet', { kind: 'cat', meows: true, barks: 'no' })).toBe(true);
    // Both variants match: oneOf fails, though the tag maps to Cat.
    expect(oracle.validate('Pet', { kind: 'cat', meows: true })).toBe(false);
    // Only Dog matches (Cat requires kind): valid without the tag.
    expect(oracle.validate('Pet', { barks: true })).toBe(true);
    // Unmapped tag, exactly one variant: valid.
    expect(oracle.validate('Pet', { kind: 'bird', meows: 'no', barks: true })).toBe(true);
  });

  it('reads the 3.0 nullable idiom as the generator does, or literally when told', () => {
    const input = doc({ A: { type: 'string' }, B: { nullable: true, allOf: [{ $ref: '#/components/schemas/A' }] } });
    expect(buildAjvOracle(input).validate('B', null)).toBe(true);
    expect(buildAjvOracle(input, { nullable: 'literal' }).validate('B', null)).toBe(false);
    expect(buildAjvOracle(input).validate('B', 1)).toBe(false);
  });

  it('drops the siblings of a 3.0 $ref, which OpenAPI 3.0 ignores', () => {
    const input = doc({ A: { type: 'string' }, B: { $ref: '#/components/schemas/A', description: 'kept', maxLength: 1 } });
    expect(schemasOf(adaptForAjv(input).document)['B']).toStrictEqual({ $ref: '#/components/schemas/A', description: 'kept' });
    expect(buildAjvOracle(input).validate('B', 'long')).toBe(true);
  });

  it('reads nullable as OpenAPI 3.0.3 does (beside type; enum keeps its meaning), the nullable idiom as the generator does, and boolean exclusive bounds', () => {
    const input = doc({
      A: { type: 'string', nullable: true },
      B: { type: 'object' },
      C: { allOf: [{ $ref: '#/components/schemas/B' }], nullable: true },
      E: { type: 'string', nullable: true, enum: ['a'] },
      R: { type: 'number', minimum: 0, exclusiveMinimum: true },
    });
    const oracle = buildAjvOracle(input);
    expect(oracle.validate('A', null)).toBe(true);
    // The nullable idiom (no type beside allOf): null is also accepted, unless read literally.
    expect(oracle.validate('C', null)).toBe(true);
    expect(buildAjvOracle(input, { nullable: 'literal' }).validate('C', null)).toBe(false);
    expect(oracle.validate('C', {})).toBe(true);
    expect(oracle.validate('E', null)).toBe(false);
    expect(oracle.validate('R', 0)).toBe(false);
    expect(oracle.validate('R', 0.1)).toBe(true);
  });

  it('ignores nullable in a 3.1 document, where it is not a keyword', () => {
    const oracle = buildAjvOracle(doc({ A: { type: 'string', nullable: true } }, '3.1.0'));
    expect(oracle.validate('A', null)).toBe(false);
  });

  it('uses every ajv-formats format, and counts string length in code points', () => {
    const oracle = buildAjvOracle(
      doc({
        D: { type: 'string', format: 'date' },
        T: { type: 'string', format: 'date-time' },
        I: { type: 'integer', format: 'int32' },
        S: { type: 'string', maxLength: 2 },
      }),
    );
    expect(oracle.validate('D', '2023-02-29')).toBe(false);
    expect(oracle.validate('D', '2024-02-29')).toBe(true);
    expect(oracle.validate('T', '2024-02-29T10:00:00-00:00')).toBe(true);
    expect(oracle.validate('I', 2 ** 31)).toBe(false);
    expect(oracle.validate('S', '\u{1D49C}\u{1D49C}')).toBe(true);
  });
});
