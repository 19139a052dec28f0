import { describe, expect, it } from 'vitest';
import { printSchema, type PrintContext } from '../../src/emit/validators/print-zod.js';
import { NameResolver } from '../../src/emit/shared/names.js';
import type { SchemaNode } from '../../src/ir/types.js';

function ctx(names: string[] = [], recursive: string[] = []): PrintContext {
  const resolver = new NameResolver();
  for (const n of names) resolver.assign(n);
  return { names: resolver, recursive: new Set(recursive) };
}
const p = '#';

describe('printing IR nodes as zod', () => {
  it('prints a string with lengths, the pattern exactly, and its format check', () => {
    const node: SchemaNode = { kind: 'string', pointer: p, minLength: 1, maxLength: 35, patterns: ['^\\d+$'], format: 'date' };
    expect(printSchema(node, ctx())).toBe("z.string().min(1).max(35).regex(/^\\d+$/u).refine(rt.isDate, rt.formatError[\"date\"])");
  });

  it('keeps a pattern with a slash exact by going through the RegExp constructor', () => {
    expect(printSchema({ kind: 'string', pointer: p, patterns: ['^a/b$'] }, ctx())).toBe('z.string().regex(new RegExp("^a/b$", \'u\'))');
  });

  it('drops enum values that other keywords rule out', () => {
    expect(printSchema({ kind: 'string', pointer: p, enum: ['a', 'bbbb'], maxLength: 3 }, ctx())).toBe('z.enum(["a"])');
  });

  it('prints int32 and bounds', () => {
    expect(printSchema({ kind: 'number', integer: true, format: 'int32', minimum: 0, pointer: p }, ctx())).toBe('z.int32().gte(0)');
    expect(printSchema({ kind: 'number', integer: false, exclusiveMaximum: 1, multipleOf: 0.5, pointer: p }, ctx())).toBe('z.number().lt(1).multipleOf(0.5)');
  });

  it('prints closed, open and catch-all objects, with optional, nullable and default members', () => {
    const node: SchemaNode = {
      kind: 'object',
      pointer: p,
      additional: 'forbid',
      properties: [
        { name: 'Id', required: true, schema: { kind: 'string', pointer: p } },
        { name: 'x-y', required: false, schema: { kind: 'number', integer: true, pointer: p, nullable: true } },
        { name: 'size', required: false, schema: { kind: 'number', integer: true, pointer: p, default: 100 } },
      ],
    };
    expect(printSchema(node, ctx())).toBe(
      ['z.strictObject({', '  Id: z.string(),', '  "x-y": z.number().refine(Number.isInteger, rt.integerError).nullable().optional(),', '  size: z.number().refine(Number.isInteger, rt.integerError).default(100),', '})'].join('\n'),
    );
    expect(printSchema({ kind: 'object', pointer: p, additional: 'allow', properties: [] }, ctx())).toBe('z.looseObject({})');
    expect(printSchema({ kind: 'object', pointer: p, additional: { kind: 'string', pointer: p }, properties: [] }, ctx())).toBe(
      'z.record(z.string(), z.string())',
    );
    const withMembers: SchemaNode = { kind: 'object', pointer: p, additional: { kind: 'string', pointer: p }, properties: [{ name: 'Id', required: true, schema: { kind: 'string', pointer: p } }] };
    expect(printSchema(withMembers, ctx())).toBe('z.object({\n  Id: z.string(),\n}).catchall(z.string())');
  });

  it('prints unions by what analysis proved: plain, counted, or dispatched', () => {
    const names = ctx(['Cat', 'Dog']);
    const variants: SchemaNode[] = [
      { kind: 'ref', name: 'Cat', pointer: p },
      { kind: 'ref', name: 'Dog', pointer: p },
    ];
    expect(printSchema({ kind: 'union', mode: 'oneOf', exclusive: true, variants, pointer: p }, names)).toBe('z.union([\n  Cat,\n  Dog,\n])');
    expect(printSchema({ kind: 'union', mode: 'oneOf', exclusive: false, variants, pointer: p }, names)).toBe('rt.oneOf([\n  Cat,\n  Dog,\n])');
    expect(printSchema({ kind: 'union', mode: 'anyOf', exclusive: false, variants, pointer: p }, names)).toBe('z.union([\n  Cat,\n  Dog,\n])');
    // A discriminator that does not provably select is a hint: the answer stays oneOf/anyOf's.
    const hint = { propertyName: 'kind', mapping: { dog: 1, cat: 0 } };
    expect(printSchema({ kind: 'union', mode: 'oneOf', exclusive: false, variants, pointer: p, discriminator: hint }, names)).toBe(
      'rt.oneOf([\n  Cat,\n  Dog,\n], "kind", { cat: 0, dog: 1 })',
    );
    expect(printSchema({ kind: 'union', mode: 'anyOf', exclusive: false, variants, pointer: p, discriminator: hint }, names)).toBe(
      'rt.anyOf([\n  Cat,\n  Dog,\n], "kind", { cat: 0, dog: 1 })',
    );
    // Proven to select: dispatch on the tag's pinned values.
    const selects = { ...hint, selects: { c: 0, cat: 0, dog: 1 } };
    expect(printSchema({ kind: 'union', mode: 'oneOf', exclusive: true, variants, pointer: p, discriminator: selects }, names)).toBe(
      'rt.discriminated("kind", [\n  Cat,\n  Dog,\n], { c: 0, cat: 0, dog: 1 })',
    );
  });

  it('defers references into a cycle', () => {
    expect(printSchema({ kind: 'ref', name: 'Node', pointer: p }, ctx(['Node'], ['Node']))).toBe('z.lazy(() => Node)');
    expect(printSchema({ kind: 'ref', name: 'Node', pointer: p }, ctx(['Node']))).toBe('Node');
  });

  it('gives names that are not identifiers a safe, unique identifier', () => {
    const names = new NameResolver();
    expect(names.assign('AE.Account-Id')).toBe('AE_Account_Id');
    expect(names.assign('AE_Account_Id')).toBe('AE_Account_Id_2');
    expect(names.assign('1st')).toBe('_1st');
    expect(names.assign('string')).toBe('string_');
    expect(names.assign('GetItem', 'operation:GetItem')).toBe('GetItem');
    expect(names.assign('GetItem')).toBe('GetItem_2');
  });
});
