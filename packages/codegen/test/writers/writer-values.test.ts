/**
 * The writers on values a corpus of JSON cannot hold: what JSON.stringify treats specially
 * (toJSON, undefined, functions, BigInt, -0, NaN, lone surrogates, holes), objects that are not
 * plain (class instances, null prototypes, inherited and non-enumerable members). For each, a
 * writer returns text only where that text is JSON.stringify's (and, checking, only for a value
 * zod accepts); otherwise it leaves the value to the ordinary path.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonWriterOf, type JsonWriter } from '@bank-data-sharing/wire';
import { loadValidators, type LoadedValidators } from '../helpers/generated.js';
import { differs } from './support/writer-corpus.js';

const SCHEMAS: Record<string, unknown> = {
  Text: { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' }, when: { type: 'string', format: 'date-time' } } },
  Numbers: { type: 'object', properties: { n: { type: 'number' }, i: { type: 'integer', format: 'int32' } } },
  Open: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, extra: {} } },
  NumberMap: { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: { type: 'number' } },
  Closed: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' }, b: { type: 'integer' } } },
  AnyList: { type: 'array', items: {} },
  Tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] } },
  Cat: { type: 'object', required: ['kind', 'lives'], properties: { kind: { type: 'string' }, lives: { type: 'integer' } } },
  Dog: { type: 'object', required: ['kind', 'good'], properties: { kind: { type: 'string' }, good: { type: 'boolean' } } },
  Pet: {
    oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
    discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' } },
  },
  EitherOr: { oneOf: [{ type: 'string' }, { type: 'string', maxLength: 1 }] },
  AnyOfNull: { anyOf: [{ type: 'integer' }, { type: 'string' }], nullable: true },
  Defaulted: { type: 'object', required: ['mode'], properties: { mode: { type: 'string', default: 'a' }, note: { type: 'string', default: 'x' } } },
  Tree: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } } },
  // An object and two unions of objects: an allOf that stays an intersection.
  Mixed: { allOf: [{ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }, { anyOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'integer' } } }, { type: 'object', required: ['b'], properties: { b: { type: 'integer' } } }] }, { anyOf: [{ type: 'object', properties: { c: { type: 'string' } } }, { type: 'object', properties: { d: { type: 'string' } } }] }] },
  // A string and a union of strings: an intersection whose parts are not objects.
  Code: { allOf: [{ type: 'string' }, { anyOf: [{ type: 'string', enum: ['A', 'B'] }, { type: 'string', pattern: '^x-' }] }] },
  Cents: { type: 'object', properties: { price: { type: 'number', multipleOf: 0.01 } } },
  // Constant text runs on past optional members and into enum values (print-writer.ts): every
  // mix of members present and absent, after a string, an enum, a number and at the start.
  Entry: {
    type: 'object',
    required: ['id', 'status'],
    properties: {
      id: { type: 'string' },
      note: { type: 'string' },
      when: { type: 'string', format: 'date-time' },
      level: { type: 'string', enum: ['low', 'high'] },
      status: { type: 'string', enum: ['on', 'off'] },
      kind: { type: 'string', enum: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] },
      count: { type: 'integer' },
      tail: { type: 'string' },
    },
  },
  // A small object of scalars is written in place of a call to its writer (print-writer.ts).
  Currency: { type: 'string', enum: ['AED', 'USD', 'EUR', 'GBP', 'SAR', 'QAR', 'OMR'] },
  Money: { type: 'object', additionalProperties: false, required: ['amount', 'currency'], properties: { amount: { type: 'string', pattern: '^\\d+\\.\\d{2}$' }, currency: { $ref: '#/components/schemas/Currency' } } },
  Payment: { type: 'object', required: ['id', 'total'], properties: { id: { type: 'string' }, total: { $ref: '#/components/schemas/Money' }, fee: { $ref: '#/components/schemas/Money' }, note: { type: 'string' } } },
  Ledger: { type: 'object', properties: { payments: { type: 'array', items: { $ref: '#/components/schemas/Payment' } } } },
  Loose: { type: 'object', properties: { first: { type: 'string' }, kind: { type: 'string', enum: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] }, last: { type: 'string' } } },
};

/** `base` with each subset of `optional` (name and value) added, in schema order. */
function everyMix(base: Record<string, unknown>, optional: ReadonlyArray<[string, unknown]>, order: readonly string[]): Array<Record<string, unknown>> {
  return Array.from({ length: 2 ** optional.length }, (_, bits) => {
    const chosen = { ...base, ...Object.fromEntries(optional.filter((_, i) => (bits >> i) & 1)) };
    return Object.fromEntries(order.filter((name) => name in chosen).map((name) => [name, chosen[name]]));
  });
}
const ENTRY_ORDER = ['id', 'note', 'when', 'level', 'status', 'kind', 'count', 'tail'];
const ENTRY_OPTIONAL: Array<[string, unknown]> = [['note', 'n "q"'], ['when', '2025-01-01T00:00:00Z'], ['level', 'high'], ['kind', 'h'], ['count', 3], ['tail', 't']];

/** A Tree `depth` levels deep. */
function tree(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { name: 'leaf' };
  for (let i = 1; i < depth; i++) node = { name: `level ${i}`, children: [node] };
  return node;
}

class Holder {
  text = 'x';
}
const withToJson = { text: 'x', toJSON: () => ({ text: 'y' }) };
const nonEnumerable = Object.defineProperty({ text: 'x' }, 'when', { value: '2025-01-01T00:00:00Z', enumerable: false });
const inherited = Object.create({ text: 'x' }) as Record<string, unknown>;
const holes = [1, , 3]; // eslint-disable-line no-sparse-arrays

const CASES: Array<[string, unknown, 'written' | 'left' | 'either']> = [
  ['Text', { text: 'plain' }, 'written'],
  ['Text', { text: 'quote " backslash \\ newline \n tab \t nul \u0000 del \u007f' }, 'written'],
  ['Text', { text: 'line separators \u2028\u2029 and é and 😀' }, 'written'],
  ['Text', { text: 'lone \ud800 and \udc00 surrogates' }, 'written'],
  ['Text', { text: 'a long string with a quote " beyond the short scan '.repeat(3) }, 'written'],
  ['Text', { text: 'x', when: '2025-01-01T00:00:00+04:00' }, 'written'],
  ['Text', { text: 'x', when: undefined }, 'written'],
  ['Text', { text: 'x', when: new Date(0) }, 'left'],
  ['Text', { text: 'x', other: 1 }, 'left'],
  ['Text', { text: 'x', other: undefined }, 'left'],
  ['Text', { text: undefined }, 'left'],
  ['Text', {}, 'left'],
  ['Text', withToJson, 'left'],
  ['Text', new Holder(), 'left'],
  ['Text', Object.assign(Object.create(null), { text: 'x' }), 'left'],
  ['Text', inherited, 'left'],
  ['Text', nonEnumerable, 'left'],
  ['Text', { text: 'x', when: () => 1 }, 'left'],
  ['Numbers', { n: -0, i: -0 }, 'written'],
  ['Numbers', { n: 1e21, i: 2147483647 }, 'written'],
  ['Numbers', { n: 5e-7 }, 'written'],
  ['Numbers', { n: 0.1 + 0.2 }, 'written'],
  ['Numbers', { n: Number.NaN }, 'left'],
  ['Numbers', { n: Number.POSITIVE_INFINITY }, 'left'],
  ['Numbers', { i: 2 ** 31 }, 'either'],
  ['Numbers', { i: 1.5 }, 'either'],
  ['Numbers', { n: 10n }, 'left'],
  ['Open', { id: 'a', later: [1, { b: 'c' }], more: 'text "quoted"' }, 'written'],
  ['Open', { id: 'a', extra: { deep: [null, true] } }, 'written'],
  ['Open', { id: 'a', extra: new Date(0) }, 'left'],
  ['Open', { id: 'a', extra: { when: new Date(0) } }, 'written'],
  ['Open', { id: 'a', later: undefined, fn: () => 1 }, 'written'],
  ['Open', { id: 'a', big: 1n }, 'left'],
  ['Open', { id: 'a', toJSON: () => ({ id: 'b' }) }, 'left'],
  ['NumberMap', { id: 'a', toJSON: () => ({ id: 'b' }) }, 'left'],
  ['Open', { 2: 'two', id: 'a', 1: 'one' }, 'written'],
  ['NumberMap', { id: 'a', n: 1, m: -0 }, 'written'],
  ['NumberMap', { id: 'a', n: '1' }, 'either'],
  ['NumberMap', { id: 'a', n: undefined }, 'either'],
  ['Closed', { a: 'x', b: 1 }, 'written'],
  ['Closed', { b: 1, a: 'x' }, 'written'],
  ['Closed', {}, 'written'],
  ['Closed', { a: 'x', c: 1 }, 'left'],
  ['AnyList', [1, 'two', { three: [3] }, null], 'written'],
  ['AnyList', holes, 'written'],
  ['AnyList', [new Date(0), undefined, () => 1], 'written'],
  ['AnyList', Object.assign([1], { toJSON: () => 'x' }), 'left'],
  ['Tags', ['a', 'h'], 'written'],
  ['Tags', ['a', 'z'], 'either'],
  ['Pet', { kind: 'cat', lives: 9 }, 'written'],
  ['Pet', { kind: 'dog', good: true }, 'written'],
  ['Pet', { kind: 'dog', lives: 9 }, 'either'],
  ['Pet', { kind: 'toString', lives: 9 }, 'either'],
  ['EitherOr', 'ab', 'written'],
  ['EitherOr', 'a', 'either'],
  ['AnyOfNull', null, 'written'],
  ['AnyOfNull', 1, 'written'],
  ['AnyOfNull', 'one', 'written'],
  ['AnyOfNull', 1.5, 'either'],
  ['Defaulted', { mode: 'b' }, 'written'],
  ['Defaulted', {}, 'either'],
  ['Tree', { name: 'root', children: [{ name: 'a' }, { name: 'b', children: [] }] }, 'written'],
  ['Tree', { children: [], name: 'root' }, 'written'],
  ['Tree', { name: 'root', children: [{ name: 1 }] }, 'either'],
  ['Tree', tree(64), 'written'],
  ['Tree', tree(65), 'left'],
  ['Mixed', { name: 'n', a: 1, c: 'x' }, 'written'],
  ['Mixed', { b: 2, name: 'n', extra: [1] }, 'written'],
  ['Mixed', { name: 'n' }, 'either'],
  ['Mixed', { name: 'n', a: 1, when: new Date(0) }, 'either'],
  ['Code', 'A', 'written'],
  ['Code', 'x-own', 'written'],
  ['Code', 'C', 'either'],
  ['Cents', { price: 0.3 }, 'written'],
  ['Cents', { price: 19.99 }, 'written'],
  ['Cents', { price: 0.305 }, 'either'],
  ...everyMix({ id: 'i', status: 'off' }, ENTRY_OPTIONAL, ENTRY_ORDER).map((value): [string, unknown, 'written'] => ['Entry', value, 'written']),
  ...everyMix({}, [['first', 'f'], ['kind', 'a'], ['last', 'l']], ['first', 'kind', 'last']).map((value): [string, unknown, 'written'] => ['Loose', value, 'written']),
  ['Entry', { id: 'i', status: 'off', note: undefined, kind: undefined, tail: 't' }, 'written'],
  ['Entry', { id: 'i', status: 'maybe' }, 'either'],
  ['Payment', { id: 'p', total: { amount: '1.00', currency: 'AED' } }, 'written'],
  ['Payment', { id: 'p', total: { amount: '1.00', currency: 'AED' }, fee: { amount: '0.10', currency: 'USD' }, note: 'n' }, 'written'],
  ['Payment', { id: 'p', total: { currency: 'AED', amount: '1.00' }, note: 'n' }, 'written'],
  ['Payment', { id: 'p', total: { amount: '1', currency: 'AED' } }, 'either'],
  ['Payment', { id: 'p', total: { amount: '1.00', currency: 'XXX' } }, 'either'],
  ['Payment', { id: 'p', total: { amount: '1.00', currency: 'AED', extra: 1 } }, 'left'],
  ['Payment', { id: 'p', total: { amount: '1.00' } }, 'either'],
  ['Payment', { id: 'p', total: null }, 'either'],
  ['Payment', { id: 'p', total: Object.assign(Object.create(null), { amount: '1.00', currency: 'AED' }) }, 'left'],
  ['Entry', { id: 'i', status: 'on', kind: 'z' }, 'either'],
];

/** A spec whose every schema is the 200 answer of an operation: writers exist for bodies only. */
function specWithBodies(schemas: Record<string, unknown>): Record<string, unknown> {
  const paths = Object.fromEntries(
    Object.keys(schemas).map((name) => [
      `/${name.toLowerCase()}`,
      { get: { operationId: `get${name}`, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } } } } },
    ]),
  );
  return { openapi: '3.0.3', info: { title: 'Writers', version: '1.0.0' }, paths, components: { schemas } };
}

describe('writers on values JSON cannot carry', () => {
  let v: LoadedValidators;
  const writerOf = (name: string): JsonWriter => jsonWriterOf(v.schemas[name])!;
  beforeAll(async () => {
    v = await loadValidators(specWithBodies(SCHEMAS));
  });

  it('every body schema has a writer, exported by name', () => {
    for (const name of Object.keys(SCHEMAS)) {
      expect(writerOf(name), name).toBeTypeOf('function');
      expect(v[`write${name}`], name).toBe(writerOf(name));
    }
  });

  it('write only JSON.stringify text, and only valid values when checking', () => {
    const problems: string[] = [];
    for (const [name, value, expected] of CASES) {
      const writer = writerOf(name);
      const valid = v.schemas[name]!.safeParse(value).success;
      const label = `${name} ${shown(value)}`;
      let checked: string | undefined;
      let unchecked: string | undefined;
      try {
        checked = writer(value, true);
        unchecked = writer(value, false);
      } catch (error) {
        problems.push(`${label}: threw ${String(error)}`);
        continue;
      }
      if (checked !== undefined && !valid) problems.push(`${label}: written though zod refuses it`);
      for (const text of [checked, unchecked]) {
        const problem = text === undefined ? undefined : differs(writer, value, text);
        if (problem) problems.push(`${label}: ${problem}`);
      }
      if (expected === 'written' && (checked === undefined || unchecked === undefined)) problems.push(`${label}: not written (checked: ${checked !== undefined}, unchecked: ${unchecked !== undefined})`);
      if (expected === 'left' && (checked !== undefined || unchecked !== undefined)) problems.push(`${label}: written, though it must be left to JSON.stringify`);
    }
    expect(problems).toStrictEqual([]);
  });

  it('write members in schema order, extras after them, byte for byte as JSON.stringify does for that order', () => {
    expect(writerOf('Closed')({ b: 1, a: 'x' })).toBe('{"a":"x","b":1}');
    expect(writerOf('Open')({ id: 'a', z: 1, extra: 2 })).toBe('{"id":"a","extra":2,"z":1}');
    expect(writerOf('Text')({ text: 'a\u2028\ud800"' })).toBe(JSON.stringify({ text: 'a\u2028\ud800"' }));
    expect(writerOf('Numbers')({ n: -0, i: 1e21 > 0 ? 7 : 0 })).toBe('{"n":0,"i":7}');
    // As its first part: its declared member, then the rest in their own order.
    expect(writerOf('Mixed')({ b: 2, z: true, name: 'r' })).toBe('{"name":"r","b":2,"z":true}');
  });

  it('write a small object of scalars in place, and a larger one by its own writer', () => {
    expect(String(v['writePayment'])).not.toContain('writeMoney(');
    expect(writerOf('Payment')({ id: 'p', total: { amount: '1.00', currency: 'AED' }, note: 'n' })).toBe('{"id":"p","total":{"amount":"1.00","currency":"AED"},"note":"n"}');
    // Payment has an object member: called, not copied in.
    expect(String(v['writeLedger'])).toContain('writePayment(');
    expect(writerOf('Ledger')({ payments: [{ id: 'p', total: { amount: '1.00', currency: 'AED' } }] })).toBe('{"payments":[{"id":"p","total":{"amount":"1.00","currency":"AED"}}]}');
  });

  it('refuse, when checking, what zod refuses in a reference cycle, an intersection and multipleOf', () => {
    expect(writerOf('Tree')({ name: 'root', children: [{ name: 'a', children: [{ name: 2 }] }] })).toBeUndefined();
    expect(writerOf('Mixed')({ name: 'root', a: 1.5 })).toBeUndefined();
    // zod cannot merge the parts' copies of NaN (it throws): left to the ordinary path.
    expect(writerOf('Mixed')({ name: 'root', a: 1, n: Number.NaN })).toBeUndefined();
    expect(writerOf('Code')('C')).toBeUndefined();
    expect(writerOf('Cents')({ price: 0.305 })).toBeUndefined();
    expect(writerOf('Cents')({ price: 0.305 }, false)).toBe('{"price":0.305}');
  });

  it('leave a value nested deeper than the bound in a reference cycle to JSON.stringify, and keep counting right after it', () => {
    expect(writerOf('Tree')(tree(65))).toBeUndefined();
    // A getter that throws in the middle of a walk leaves the count where it was.
    const throwing = { name: 'root', children: [Object.defineProperty({}, 'name', { enumerable: true, get: () => { throw new Error('no'); } })] };
    expect(() => writerOf('Tree')(throwing)).toThrow('no');
    expect(writerOf('Tree')(tree(64))).toBe(JSON.stringify(tree(64)));
  });
});

function shown(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x))?.slice(0, 60) ?? String(value);
  } catch {
    return String(value);
  }
}
