/**
 * The IR walk of the mocks (templates/mocks/sample.ts) on hand-made nodes: each keyword the
 * validators check is met by construction, and `sampleValid` never returns what its check
 * refuses.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../templates/mocks/random.js';
import { sampleNode, sampleValid, SampleError, type MockNode, type SampleContext } from '../../templates/mocks/sample.js';

const NOW = Date.UTC(2026, 10, 27);
const P = '#/components/schemas/T';

function ctx(seed: number, extra: Partial<SampleContext> = {}): SampleContext {
  return { schemas: {}, random: seededRandom(seed), now: NOW, ...extra };
}

function many(node: MockNode, extra: Partial<SampleContext> = {}, count = 200): unknown[] {
  return Array.from({ length: count }, (_, seed) => sampleNode(node, ctx(seed, extra)));
}

describe('sampleNode', () => {
  it('numbers: bounds, exclusive bounds, int32 and decimal multipleOf', () => {
    const bounded: MockNode = { kind: 'number', integer: true, pointer: P, minimum: 5, exclusiveMaximum: 9 };
    for (const v of many(bounded)) expect(Number.isInteger(v) && (v as number) >= 5 && (v as number) < 9).toBe(true);
    const decimal: MockNode = { kind: 'number', integer: false, pointer: P, minimum: 0, maximum: 10, multipleOf: 0.01 };
    for (const v of many(decimal)) {
      expect(v as number).toBeGreaterThanOrEqual(0);
      expect(v as number).toBeLessThanOrEqual(10);
      expect(String(v)).toMatch(/^\d+(\.\d{1,2})?$/);
    }
    const int32: MockNode = { kind: 'number', integer: true, pointer: P, format: 'int32', minimum: -3e9 };
    for (const v of many(int32)) expect((v as number) >= -2147483648 && (v as number) <= 2147483647).toBe(true);
    const open: MockNode = { kind: 'number', integer: false, pointer: P, exclusiveMinimum: 0, exclusiveMaximum: 0.01 };
    for (const v of many(open)) expect((v as number) > 0 && (v as number) < 0.01).toBe(true);
    const impossible: MockNode = { kind: 'number', integer: true, pointer: P, minimum: 0.2, maximum: 0.8 };
    expect(() => sampleNode(impossible, ctx(1))).toThrow(SampleError);
  });

  it('strings: enum, lengths in code points, every pattern, formats and name hints', () => {
    const patterned: MockNode = { kind: 'string', pointer: P, patterns: ['^[A-Z]{3}$'] };
    for (const v of many(patterned)) expect(v).toMatch(/^[A-Z]{3}$/);
    const both: MockNode = { kind: 'string', pointer: P, patterns: ['^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$'], maxLength: 6 };
    for (const v of many(both)) {
      expect(v).toMatch(/^\d{1,13}$|^\d{1,13}\.\d{1,5}$/);
      expect((v as string).length).toBeLessThanOrEqual(6);
    }
    const lengths: MockNode = { kind: 'string', pointer: P, minLength: 30, maxLength: 31 };
    for (const v of many(lengths)) expect([...(v as string)].length).toBeGreaterThanOrEqual(30);
    const enumerated: MockNode = { kind: 'string', pointer: P, enum: ['a', 'b'] };
    for (const v of many(enumerated)) expect(['a', 'b']).toContain(v);
    const date: MockNode = { kind: 'string', pointer: P, format: 'date' };
    for (const v of many(date)) expect(Math.abs(Date.parse(v as string) - NOW)).toBeLessThan(3 * 366 * 86_400_000);
    const currency: MockNode = { kind: 'object', pointer: P, additional: 'forbid', properties: [{ name: 'Currency', required: true, schema: { kind: 'string', pointer: `${P}/properties/Currency`, patterns: ['^[A-Z]{3}$'] } }] };
    const currencies = new Set(many(currency, { hints: 'open-finance' }).map((v) => (v as { Currency: string }).Currency));
    expect([...currencies].every((c) => ['AED', 'USD', 'EUR', 'GBP', 'SAR'].includes(c))).toBe(true);
    const anyDomain = new Set(many(currency).map((v) => (v as { Currency: string }).Currency));
    expect([...anyDomain].every((c) => ['EUR', 'USD', 'GBP', 'JPY', 'CAD'].includes(c))).toBe(true);
  });

  it('arrays: item counts and unique items', () => {
    const node: MockNode = { kind: 'array', pointer: P, minItems: 3, maxItems: 4, uniqueItems: true, items: { kind: 'number', integer: true, pointer: `${P}/items`, minimum: 0, maximum: 3 } };
    for (const v of many(node)) {
      const items = v as number[];
      expect(items.length >= 3 && items.length <= 4).toBe(true);
      expect(new Set(items).size).toBe(items.length);
    }
    const tooFew: MockNode = { ...node, minItems: 5, maxItems: 5 };
    expect(() => sampleNode(tooFew, ctx(1))).toThrow(/fewer than minItems 5/);
  });

  it('objects: required members always, hidden members by direction, min/maxProperties', () => {
    const node: MockNode = {
      kind: 'object',
      pointer: P,
      additional: { kind: 'boolean', pointer: `${P}/additionalProperties` },
      minProperties: 3,
      maxProperties: 3,
      properties: [
        { name: 'id', required: true, schema: { kind: 'string', pointer: `${P}/properties/id`, readOnly: true } },
        { name: 'secret', required: false, schema: { kind: 'string', pointer: `${P}/properties/secret`, writeOnly: true } },
      ],
    };
    for (const v of many(node, { direction: 'response' })) {
      const record = v as Record<string, unknown>;
      expect(typeof record['id']).toBe('string');
      expect('secret' in record).toBe(false);
      expect(Object.keys(record)).toHaveLength(3);
    }
  });

  it('unions: discriminator tags name the variant taken; recursion ends', () => {
    const cat: MockNode = { kind: 'object', pointer: '#/c', additional: 'allow', properties: [{ name: 'meows', required: true, schema: { kind: 'boolean', pointer: '#/c/m' } }] };
    const dog: MockNode = { kind: 'object', pointer: '#/d', additional: 'allow', properties: [{ name: 'barks', required: true, schema: { kind: 'boolean', pointer: '#/d/b' } }] };
    const union: MockNode = { kind: 'union', mode: 'oneOf', pointer: P, variants: [cat, dog], discriminator: { propertyName: 'type', mapping: { cat: 0, dog: 1 } } };
    for (const v of many(union)) {
      const record = v as Record<string, unknown>;
      expect(record['type']).toBe('meows' in record ? 'cat' : 'dog');
    }
    const tree: MockNode = {
      kind: 'object',
      pointer: '#/components/schemas/Tree',
      additional: 'forbid',
      properties: [{ name: 'children', required: true, schema: { kind: 'array', pointer: '#/t/c', items: { kind: 'ref', name: 'Tree', pointer: '#/t/c/items' } } }],
    };
    for (const v of many({ kind: 'ref', name: 'Tree', pointer: P }, { schemas: { Tree: tree } }, 50)) expect(JSON.stringify(v).length).toBeLessThan(100_000);
    const endless: MockNode = { kind: 'object', pointer: '#/e', additional: 'forbid', properties: [{ name: 'next', required: true, schema: { kind: 'ref', name: 'E', pointer: '#/e/n' } }] };
    expect(() => sampleNode({ kind: 'ref', name: 'E', pointer: P }, ctx(1, { schemas: { E: endless } }))).toThrow(/deeper than 32/);
  });

  it('is deterministic: the same seed gives the same value', () => {
    const node: MockNode = { kind: 'object', pointer: P, additional: 'forbid', properties: [{ name: 'a', required: false, schema: { kind: 'string', pointer: '#/a', format: 'date-time' } }, { name: 'b', required: false, schema: { kind: 'number', integer: false, pointer: '#/b' } }] };
    expect(many(node, {}, 30)).toStrictEqual(many(node, {}, 30));
  });
});

describe('sampleValid', () => {
  it('returns only what the check accepts, and names the pointer when nothing is', () => {
    const node: MockNode = { kind: 'number', integer: true, pointer: P, minimum: 0, maximum: 100 };
    for (let seed = 0; seed < 50; seed++) expect(sampleValid(node, ctx(seed), (v) => ((v as number) % 2 === 0 ? undefined : 'odd')) as number % 2).toBe(0);
    expect(() => sampleValid(node, ctx(1), () => 'never')).toThrow(new RegExp(`^${P.replace(/\//g, '\\/')}: no valid value found in 24 attempts`));
  });
});
