import { describe, expect, it } from 'vitest';
import { heldSchema, printZodType, referenceMap, type ZodTypeContext } from '../../src/emit/validators/print-zod-type.js';
import type { TypeContext } from '../../src/emit/validators/print-ts-type.js';
import { NameResolver } from '../../src/emit/shared/names.js';
import type { SchemaNode } from '../../src/ir/types.js';

// The printed types are proven equal to what zod's builders give by types-match.test.ts; these
// tests show what they read like.
function ctx(names: string[] = [], recursive: string[] = [], inputs: Record<string, string> = {}): ZodTypeContext {
  const resolver = new NameResolver();
  for (const n of names) resolver.assign(n);
  const output: TypeContext = { names: resolver, recursive: new Set(recursive), mode: 'output', inputTypeNames: new Map(Object.entries(inputs)) };
  return { output, input: { ...output, mode: 'input' } };
}
const p = '#';
const str: SchemaNode = { kind: 'string', pointer: p };

describe('printing the zod type of each schema', () => {
  it('types a closed object by its shape, strict, with optional and default members', () => {
    const node: SchemaNode = {
      kind: 'object',
      pointer: p,
      additional: 'forbid',
      properties: [
        { name: 'Id', required: true, schema: { kind: 'ref', name: 'AccountId', pointer: p } },
        { name: 'x-y', required: false, schema: { ...str, nullable: true } },
        { name: 'size', required: false, schema: { kind: 'number', integer: true, pointer: p, default: 100 } },
      ],
    };
    expect(printZodType(node, ctx(['AccountId']))).toBe(
      [
        'zod.ZodObject<{',
        '  Id: typeof AccountId;',
        '  "x-y": zod.ZodOptional<zod.ZodNullable<zod.ZodString>>;',
        '  size: zod.ZodDefault<zod.ZodNumber>;',
        '}, zod.core.$strict>',
      ].join('\n'),
    );
    expect(printZodType({ kind: 'object', pointer: p, additional: 'allow', properties: [] }, ctx())).toBe('zod.ZodObject<{}, zod.core.$loose>');
  });

  it('types records, catch-all objects, enums, arrays and unions as zod builds them', () => {
    expect(printZodType({ kind: 'object', pointer: p, additional: str, properties: [] }, ctx())).toBe('zod.ZodRecord<zod.ZodString, zod.ZodString>');
    expect(printZodType({ kind: 'object', pointer: p, additional: str, properties: [{ name: 'Id', required: true, schema: str }] }, ctx())).toBe(
      'zod.ZodObject<{\n  Id: zod.ZodString;\n}, zod.core.$catchall<zod.ZodString>>',
    );
    expect(printZodType({ kind: 'string', pointer: p, enum: ['A', 'B'] }, ctx())).toBe('zod.ZodEnum<{ "A": "A"; "B": "B" }>');
    expect(printZodType({ kind: 'array', pointer: p, items: { kind: 'ref', name: 'Cat', pointer: p } }, ctx(['Cat']))).toBe('zod.ZodArray<typeof Cat>');
    const variants: SchemaNode[] = [
      { kind: 'ref', name: 'Cat', pointer: p },
      { kind: 'ref', name: 'Dog', pointer: p },
    ];
    expect(printZodType({ kind: 'union', mode: 'anyOf', exclusive: false, variants, pointer: p }, ctx(['Cat', 'Dog']))).toBe(
      'zod.ZodUnion<readonly [\n  typeof Cat,\n  typeof Dog,\n]>',
    );
  });

  it('types what no zod class describes by its written-out types', () => {
    const variants: SchemaNode[] = [
      { kind: 'ref', name: 'Cat', pointer: p },
      { kind: 'ref', name: 'Dog', pointer: p },
    ];
    // A counted oneOf is a runtime function (rt.oneOf), not a zod class.
    expect(printZodType({ kind: 'union', mode: 'oneOf', exclusive: false, variants, pointer: p }, ctx(['Cat', 'Dog'], [], { Dog: 'DogInput' }))).toBe(
      'zod.ZodType<Cat | Dog, Cat | DogInput>',
    );
    expect(printZodType({ kind: 'ref', name: 'Node', pointer: p }, ctx(['Node'], ['Node']))).toBe('zod.ZodLazy<typeof Node>');
  });

  it('parenthesizes an optional tuple element whose type is a union (a draft-4 tuple item with nullable)', () => {
    const tuple: SchemaNode = {
      kind: 'array',
      pointer: p,
      items: { kind: 'any', pointer: p },
      tuple: { prefix: [{ kind: 'number', integer: false, pointer: p }, { ...str, nullable: true }], present: 0 },
    };
    const printed = printZodType({ kind: 'json', pointer: p, shape: tuple }, ctx());
    expect(printed).toContain('[number?, (string | null)?, ...Array<unknown>]');
  });

  it('holds a component schema in an operation as ZodType<output, input>, anything else through rt.declared', () => {
    const { output } = ctx(['Account'], [], { Account: 'AccountInput' });
    expect(heldSchema({ kind: 'ref', name: 'Account', pointer: p }, 'Account', output)).toBe('Account as unknown as z.ZodType<Account, AccountInput>');
    expect(heldSchema({ kind: 'array', items: { kind: 'ref', name: 'Account', pointer: p }, pointer: p }, 'z.array(Account)', output)).toBe('rt.declared(z.array(Account))');
  });

  it('types the maps of an index by reference', () => {
    expect(referenceMap('schemas', [['"A"', 'S.A']])).toBe('export const schemas: {\n  readonly "A": typeof S.A;\n} = {\n  "A": S.A,\n};');
    expect(referenceMap('checks', [])).toBe('export const checks = {} as const;');
  });
});
