/**
 * Check functions against zod's parse on values the differential tests cannot produce
 * (they build JSON): members set to `undefined`, inherited members, class instances,
 * astral characters near length limits, negative zero. Each answer must equal zod's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadValidators, specWithSchemas, type LoadedValidators } from '../helpers/generated.js';

const SCHEMAS = {
  Short: { type: 'string', minLength: 2, maxLength: 3 },
  Strict: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string' }, note: { type: 'string' } } },
  Loose: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
  NumberMap: { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: { type: 'number' } },
  AnyRequired: { type: 'object', required: ['payload'], properties: { payload: {} } },
  WithDefault: { type: 'object', properties: { mode: { type: 'string', enum: ['a', 'b'], default: 'a' } } },
  Zero: { type: 'number', enum: [0, 1] },
  Wide: { type: 'string', enum: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] },
  Int: { type: 'integer', format: 'int32', minimum: -5 },
  Unique: { type: 'array', items: { type: 'integer' }, uniqueItems: true, maxItems: 3 },
  Counted: { type: 'object', minProperties: 1, maxProperties: 2, required: ['undeclared'] },
  EitherOr: { oneOf: [{ type: 'string' }, { type: 'string', maxLength: 1 }] },
  AnyOfNull: { anyOf: [{ type: 'integer' }, { type: 'string' }], nullable: true },
  Cat: { type: 'object', required: ['kind', 'lives'], properties: { kind: { type: 'string' }, lives: { type: 'integer' } } },
  Dog: { type: 'object', required: ['kind', 'good'], properties: { kind: { type: 'string' }, good: { type: 'boolean' } } },
  Pet: {
    oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
    discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' } },
  },
  Tree: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } } },
  Cents: { type: 'number', multipleOf: 0.01 },
  Odd: { type: 'object', properties: { ['__proto__']: { type: 'string' } } },
  Priced: { type: 'object', properties: { price: { $ref: '#/components/schemas/Cents' } } },
  // An object and two unions of objects: an allOf that stays an intersection.
  Mixed: { allOf: [{ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }, { anyOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'integer' } } }, { type: 'object', required: ['b'], properties: { b: { type: 'integer' } } }] }, { anyOf: [{ type: 'object', properties: { c: { type: 'string' } } }, { type: 'object', properties: { d: { type: 'string' } } }] }] },
  Code: { allOf: [{ type: 'string' }, { anyOf: [{ type: 'string', enum: ['A', 'B'] }, { type: 'string', pattern: '^x-' }] }] },
  // A default under a part: zod merges what the parts make, which the parts' checks cannot see.
  Defaulted: { allOf: [{ type: 'string' }, { anyOf: [{ type: 'string', enum: ['A'] }, { type: 'string', enum: ['B'] }] }, { anyOf: [{ type: 'string' }, { type: 'integer' }], default: 'A' }] },
};

class Holder {
  id = 'x';
}

const CASES: Array<[string, unknown]> = [
  ['Short', 'ab'],
  ['Short', 'a'],
  ['Short', '😀'],
  ['Short', '😀😀'],
  ['Short', '😀😀😀'],
  ['Short', '😀😀😀😀'],
  ['Short', 'abcd'],
  ['Short', '\ud800\ud800'],
  ['Strict', { id: 'a' }],
  ['Strict', { id: 'a', note: undefined }],
  ['Strict', { id: 'a', other: undefined }],
  ['Strict', { id: undefined }],
  ['Strict', Object.create({ id: 'a' })],
  ['Strict', new Holder()],
  ['Strict', Object.assign(Object.create(null), { id: 'a' })],
  ['Strict', ['a']],
  ['Loose', { id: 'a', extra: [1] }],
  ['Loose', Object.create({ id: 'a' })],
  ['Loose', new Date()],
  ['NumberMap', { id: 'a', n: 1 }],
  ['NumberMap', { id: 'a', n: '1' }],
  ['NumberMap', { n: undefined }],
  ['NumberMap', Object.create({ n: 'x' })],
  ['AnyRequired', {}],
  ['AnyRequired', { payload: undefined }],
  ['AnyRequired', Object.create({ payload: 1 })],
  ['WithDefault', {}],
  ['WithDefault', { mode: undefined }],
  ['WithDefault', { mode: 'c' }],
  ['Zero', -0],
  ['Zero', 0],
  ['Zero', '0'],
  ['Wide', 'h'],
  ['Wide', 'i'],
  ['Wide', undefined],
  ['Int', -5],
  ['Int', -6],
  ['Int', 2 ** 31],
  ['Int', -0],
  ['Int', Number.NaN],
  ['Unique', [1, 2, 3]],
  ['Unique', [1, 1]],
  ['Unique', [1, 2, 3, 4]],
  ['Counted', { undeclared: 1 }],
  ['Counted', Object.create({ undeclared: 1 })],
  ['Counted', {}],
  ['Counted', { undeclared: 1, b: 2, c: 3 }],
  ['EitherOr', 'ab'],
  ['EitherOr', 'a'],
  ['AnyOfNull', null],
  ['AnyOfNull', 1.5],
  ['AnyOfNull', '1.5'],
  ['Pet', { kind: 'cat', lives: 9 }],
  ['Pet', { kind: 'dog', lives: 9 }],
  ['Pet', { kind: 'toString', lives: 9 }],
  ['Pet', { kind: '__proto__', good: true }],
  ['Pet', null],
  ['Tree', { children: [{ children: [] }, {}] }],
  ['Tree', { children: [{ children: [{ children: 'x' }] }] }],
  ['Tree', { children: null }],
  ['Cents', 0.3],
  ['Cents', 19.99],
  ['Cents', 0.305],
  ['Cents', -0],
  ['Priced', { price: 0.07 }],
  ['Priced', { price: 0.071 }],
  ['Mixed', { name: 'a', a: 1 }],
  ['Mixed', { name: 'a', b: 1, c: 'x', extra: { deep: [1] } }],
  ['Mixed', { name: 'a', a: 1.5 }],
  ['Mixed', { a: 1 }],
  ['Mixed', Object.assign(Object.create(null), { name: 'a', a: 1 })],
  ['Code', 'A'],
  ['Code', 'x-a'],
  ['Code', 'C'],
  ['Code', 1],
];

describe('check functions answer as zod does', () => {
  let v: LoadedValidators;
  let checks: Record<string, (value: unknown) => boolean>;
  beforeAll(async () => {
    v = await loadValidators(specWithSchemas(SCHEMAS));
    checks = v['checks'] as typeof checks;
  });

  it('on values JSON cannot carry, and near every limit', () => {
    const differing = CASES.filter(([name, value]) => checks[name]!(value) !== v.schemas[name]!.safeParse(value).success).map(([name, value]) => `${name}: ${JSON.stringify(value)} (zod ${String(v.schemas[name]!.safeParse(value).success)})`);
    expect(differing).toStrictEqual([]);
    // Not vacuous: both answers occur for every schema with more than one case.
    for (const name of new Set(CASES.map(([n]) => n))) {
      const answers = new Set(CASES.filter(([n]) => n === name).map(([, value]) => checks[name]!(value)));
      expect([name, answers.size]).toStrictEqual([name, 2]);
    }
  });

  it('leaves to zod alone what it has no check for, and whatever refers to it', () => {
    expect(Object.keys(checks).sort()).toStrictEqual(Object.keys(SCHEMAS).filter((n) => n !== 'Defaulted').sort());
  });

  it('refuses in an intersection what it cannot show zod merges, and zod decides', () => {
    // A member NaN: zod cannot merge the parts' copies (NaN is not NaN).
    expect(checks['Mixed']!({ name: 'a', a: 1, n: Number.NaN })).toBe(false);
    // A Date zod merges (the same object in both copies): the check says no, the parse yes.
    const dated = { name: 'a', a: 1, when: new Date(0) };
    expect(checks['Mixed']!(dated)).toBe(false);
    expect((v.schemas['Mixed'] as unknown as { validate(value: unknown): boolean }).validate(dated)).toBe(true);
  });

  it('checks a member named __proto__ (through the JSON Schema runtime) as zod does', () => {
    for (const [text, valid] of [['{"__proto__": "a"}', true], ['{"__proto__": 1}', false], ['{}', true]] as const) {
      const value: unknown = JSON.parse(text);
      expect([checks['Odd']!(value), v.schemas['Odd']!.safeParse(value).success]).toStrictEqual([valid, valid]);
    }
  });

  it('is the check-only path of the zod schema', () => {
    const schema = v.schemas['Strict'] as unknown as { validate(value: unknown): boolean };
    expect(schema.validate({ id: 'a' })).toBe(true);
    expect(schema.validate({ id: 'a', other: 1 })).toBe(false);
  });
});
