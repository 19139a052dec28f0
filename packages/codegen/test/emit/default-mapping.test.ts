/**
 * OpenAPI 3.2 `discriminator.defaultMapping` as the generated validators carry it: a value
 * without a mapped tag is reported with the default variant's issues, for `oneOf` and for
 * `anyOf`; what validates is the union's answer either way. A `defaultMapping` that names no
 * variant is warned about and leaves the union's own report.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../src/index.js';
import { loadValidators, specWithSchemas, writeSpec, type LoadedValidators } from '../helpers/generated.js';

const Card = { type: 'object', required: ['number'], properties: { method: { type: 'string' }, number: { type: 'string', pattern: '^\\d{16}$' } } };
const Transfer = { type: 'object', required: ['method', 'iban'], properties: { method: { type: 'string', enum: ['transfer'] }, iban: { type: 'string' } } };
const mapping = { card: '#/components/schemas/Card', transfer: '#/components/schemas/Transfer' };

const SCHEMAS = {
  Card,
  Transfer,
  // Card's method is open, so the tag cannot select: oneOf counts the matches.
  Payment: { oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Transfer' }], discriminator: { propertyName: 'method', mapping, defaultMapping: '#/components/schemas/Card' } },
  AnyPayment: { anyOf: [{ $ref: '#/components/schemas/Transfer' }, { $ref: '#/components/schemas/Card' }], discriminator: { propertyName: 'method', mapping, defaultMapping: '#/components/schemas/Card' } },
  NoDefault: { oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Transfer' }], discriminator: { propertyName: 'method', mapping } },
};

const MISNAMED = {
  Card,
  Transfer,
  Payment: { oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Transfer' }], discriminator: { propertyName: 'method', mapping, defaultMapping: '#/components/schemas/Cheque' } },
  Cheque: { type: 'object', required: ['serial'], properties: { serial: { type: 'string' } } },
};

let loaded: LoadedValidators;
const paths = (name: string, value: unknown) => loaded.schemas[name]!.safeParse(value).error?.issues.map((issue) => issue.path.join('.'));

beforeAll(async () => {
  loaded = await loadValidators(specWithSchemas(SCHEMAS, '3.2.0'));
}, 60_000);

describe('discriminator defaultMapping', () => {
  it('oneOf: a value without the tag, or with a tag the mapping does not name, gets the default variant\'s issues', () => {
    expect(paths('Payment', {})).toEqual(['number']);
    expect(paths('Payment', { method: 'cash' })).toEqual(['number']);
    expect(paths('Payment', { number: '12' })).toEqual(['number']);
    // A mapped tag still names its own variant.
    expect(paths('Payment', { method: 'transfer' })).toEqual(['iban']);
    // Without defaultMapping the union reports itself (no variant's member paths only).
    expect(paths('NoDefault', {})).not.toEqual(['number']);
  });

  it('anyOf: the default variant is reported even when it is not the first variant', () => {
    expect(paths('AnyPayment', {})).toEqual(['number']);
    expect(paths('AnyPayment', { method: 'transfer' })).toEqual(['iban']);
  });

  it('does not change what validates', () => {
    for (const name of ['Payment', 'AnyPayment', 'NoDefault']) {
      const schema = loaded.schemas[name]!;
      expect(schema.safeParse({ number: '1234567812345678' }).success, name).toBe(true);
      expect(schema.safeParse({ method: 'transfer', iban: 'GB00' }).success, name).toBe(true);
      expect(schema.safeParse({ method: 'transfer' }).success, name).toBe(false);
    }
    // Both variants match (Card's method is any string): oneOf says no, defaultMapping or not.
    const both = { method: 'transfer', iban: 'GB00', number: '1234567812345678' };
    expect(loaded.schemas['Payment']!.safeParse(both).success).toBe(false);
    expect(loaded.schemas['AnyPayment']!.safeParse(both).success).toBe(true);
  });

  it('warns about a defaultMapping naming no variant, and keeps the union\'s own report', async () => {
    const spec = await writeSpec(specWithSchemas(MISNAMED, '3.2.0'));
    const result = await generate({ spec, targets: ['validators'] });
    const warning = result.diagnostics.find((d) => d.severity === 'warning' && d.pointer.endsWith('/Payment/discriminator/defaultMapping'));
    expect(warning?.message).toMatch(/Cheque/);
    const misnamed = await loadValidators(specWithSchemas(MISNAMED, '3.2.0'));
    const issues = misnamed.schemas['Payment']!.safeParse({}).error?.issues.map((issue) => issue.path.join('.'));
    expect(issues).toBeDefined();
    expect(issues).not.toEqual(['serial']);
    expect(issues).not.toEqual(['number']);
  }, 60_000);
});
