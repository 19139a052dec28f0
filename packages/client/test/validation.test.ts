/**
 * The check-only validation path (src/runtime/validation.ts): it must give the same answer
 * as `safeParse` for every schema, take the fast path only where the parsed value equals
 * the input, and leave schemas that change values (defaults, transforms...) to `safeParse`.
 */
import { operations } from '@bank-data-sharing/validators/v2.2';
import { z } from 'zod';
import { compile } from 'zod/v4/core';
import { describe, expect, it } from 'vitest';
import { checkValue, keepsInput } from '../src/runtime/validation.js';
import type { SchemaLike } from '../src/runtime/types.js';
import { transaction, transactionsPage } from './helpers/fixtures.js';

const uuid = z.string().refine((v) => /^[0-9a-f-]{36}$/.test(v), { error: 'must be a UUID' });

/** Schemas whose parsed value equals their input. */
const preserving: Record<string, z.ZodType> = {
  strictObject: z.strictObject({ a: z.string(), b: z.number().int().optional() }),
  looseObject: z.looseObject({ id: uuid }),
  arrayOfUnion: z.array(z.union([z.strictObject({ k: z.literal('x') }), z.strictObject({ k: z.literal('y'), n: z.number() })])),
  nullableEnum: z.enum(['A', 'B']).nullable(),
  record: z.record(z.string(), z.strictObject({ v: z.boolean() })),
  tuple: z.tuple([z.string(), z.number()]),
  intersection: z.intersection(z.looseObject({ a: z.string() }), z.looseObject({ b: z.string() })),
};

/** Schemas whose parsed value may differ from their input. */
const changing: Record<string, z.ZodType> = {
  strip: z.object({ a: z.string() }),
  default: z.strictObject({ a: z.string().default('x') }),
  transform: z.string().transform((s) => s.length),
  preprocess: z.preprocess((v) => (typeof v === 'string' ? Number(v) : v), z.number()),
  coerce: z.coerce.number(),
  catch: z.strictObject({ a: z.number().catch(0) }),
  trim: z.strictObject({ s: z.string().trim() }),
  nestedDefault: z.array(z.strictObject({ tags: z.array(z.string()).default([]) })),
  readonly: z.strictObject({ a: z.string() }).readonly(),
  codec: z.stringbool(),
};

const samples: unknown[] = [
  { a: 'x' },
  { a: 'x', b: 2 },
  { a: 'x', b: 2.5 },
  { a: 'x', extra: 1 },
  { id: '123e4567-e89b-12d3-a456-426614174000', more: true },
  { id: 'nope' },
  [{ k: 'x' }, { k: 'y', n: 1 }],
  [{ k: 'y' }],
  'B',
  null,
  'C',
  { one: { v: true } },
  { one: { v: 'no' } },
  ['s', 1],
  ['s', 's'],
  { a: 'x', b: 'y' },
  '  padded ',
  '4',
  'true',
  4,
  { s: ' t ' },
  [{ tags: ['a'] }, {}],
  { a: 1 },
  {},
];

function parity(name: string, schema: z.ZodType): void {
  // Compiled as the generated validators compile theirs; the clone carries the check-only validator.
  const compiled = compile(schema);
  for (const value of samples) {
    const expected = compiled.safeParse(value);
    const got = checkValue(compiled as unknown as SchemaLike, value);
    expect(got.ok, `${name} ${JSON.stringify(value)}`).toBe(expected.success);
    if (got.ok && expected.success) expect(got.value, `${name} ${JSON.stringify(value)}`).toEqual(expected.data);
    if (!got.ok && !expected.success) expect(got.issues).toEqual(expected.error.issues);
  }
}

describe('check-only validation', () => {
  it('knows which schemas hand back their input unchanged', () => {
    for (const [name, schema] of Object.entries(preserving)) expect(keepsInput(schema), name).toBe(true);
    for (const [name, schema] of Object.entries(changing)) expect(keepsInput(schema), name).toBe(false);
    expect(keepsInput({ safeParse: () => ({ success: true, data: 1 }) })).toBe(false);
  });

  it('follows a recursive schema without looping', () => {
    interface Node {
      name: string;
      children: Node[];
    }
    const node: z.ZodType<Node> = z.strictObject({ name: z.string(), children: z.array(z.lazy(() => node)) });
    expect(keepsInput(node)).toBe(true);
    const withDefault: z.ZodType<unknown> = z.strictObject({ name: z.string().default('n'), children: z.array(z.lazy(() => withDefault)) });
    expect(keepsInput(withDefault)).toBe(false);
  });

  it('gives the same answer as safeParse, value and issues, for schemas that keep their input and those that do not', () => {
    for (const [name, schema] of Object.entries({ ...preserving, ...changing })) parity(name, schema);
  });

  it('hands back the input itself on the fast path, and the parsed copy otherwise', () => {
    const input = { a: 'x', extra: 1 };
    const strict = compile(z.looseObject({ a: z.string() }));
    expect(checkValue(strict as unknown as SchemaLike, input)).toEqual({ ok: true, value: input });
    expect((checkValue(strict as unknown as SchemaLike, input) as { value: unknown }).value).toBe(input);
    const strip = compile(z.object({ a: z.string() }));
    expect(checkValue(strip as unknown as SchemaLike, input)).toEqual({ ok: true, value: { a: 'x' } });
    const withDefault = compile(z.strictObject({ a: z.string(), b: z.number().default(7) }));
    expect(checkValue(withDefault as unknown as SchemaLike, { a: 'x' })).toEqual({ ok: true, value: { a: 'x', b: 7 } });
  });

  it('takes the fast path with the generated transaction schema once it has compiled, with the same answers', () => {
    const schema = operations.GetAccountsAccountIdTransactions.responses['200'].content['application/json'];
    const page = transactionsPage('acc', [transaction('t1', new Date(Date.UTC(2026, 0, 1))), transaction('t2', new Date(Date.UTC(2025, 11, 31)))], { Self: 'https://lfi.example/accounts/acc/transactions' }, 1);
    const first = checkValue(schema, page);
    expect(first).toEqual({ ok: true, value: page });
    expect(keepsInput(schema)).toBe(true);
    expect(typeof (schema as unknown as { _zod: { bag: { validator?: unknown } } })._zod.bag.validator).toBe('function');
    const second = checkValue(schema, page);
    expect(second.ok && second.value).toBe(page);
    const broken = structuredClone(page) as { Data: { Transaction: Array<Record<string, unknown>> } };
    broken.Data.Transaction[1]!['BookingDateTime'] = '2025-13-01T00:00:00Z';
    const expected = schema.safeParse(broken);
    const got = checkValue(schema, broken);
    expect(got.ok).toBe(false);
    expect(expected.success).toBe(false);
    if (!got.ok && !expected.success) expect(got.issues).toEqual(expected.error.issues);
  });
});
