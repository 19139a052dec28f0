/**
 * The discriminator is a hint (OpenAPI 3.0.4, 3.1.1: it "MUST NOT change the validation outcome
 * of the schema"): generated zod schemas and check functions answer as oneOf/anyOf do, dispatch
 * on the tag only where it provably selects, report the variant the tag names, and type each
 * union no narrower than the schema. 3.0 and 3.1 documents alike.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../src/index.js';
import { loadValidators, scratchDir, specWithSchemas, writeSpec, type LoadedValidators } from './helpers/generated.js';
import { typeCheckFile } from './helpers/type-check.js';

const P = '#/components/schemas';
const ref = (name: string) => ({ $ref: `${P}/${name}` });

function schemas(openapi: string): Record<string, unknown> {
  const pin = (value: string) => (openapi.startsWith('3.1') ? { const: value } : { type: 'string', enum: [value] });
  const text = { type: 'string' };
  return {
    // The tag the business variant leaves optional (the pattern of the official claims).
    Person: { type: 'object', required: ['IdentityType', 'FullName'], properties: { IdentityType: pin('Person'), FullName: text } },
    Business: { type: 'object', required: ['BusinessName'], properties: { IdentityType: pin('Business'), BusinessName: text } },
    Party: { oneOf: [ref('Person'), ref('Business')], discriminator: { propertyName: 'IdentityType', mapping: { Person: `${P}/Person`, Business: `${P}/Business` } } },
    // Open variants that do not pin the tag.
    A: { type: 'object', required: ['kind', 'a'], properties: { kind: text, a: text } },
    B: { type: 'object', required: ['kind', 'b'], properties: { kind: text, b: { type: 'number' } } },
    Unpinned: { oneOf: [ref('A'), ref('B')], discriminator: { propertyName: 'kind', mapping: { a: `${P}/A`, b: `${P}/B` } } },
    AnyTagged: { anyOf: [ref('A'), ref('B')], discriminator: { propertyName: 'kind', mapping: { a: `${P}/A`, b: `${P}/B` } } },
    // Implicit mapping: the component names are the tag values.
    Cat: { type: 'object', required: ['petType', 'name'], properties: { petType: text, name: text } },
    Dog: { type: 'object', required: ['petType', 'bark'], properties: { petType: text, bark: text } },
    Implicit: { oneOf: [ref('Cat'), ref('Dog')], discriminator: { propertyName: 'petType' } },
    // Every variant requires and pins the tag: the tag selects (a switch).
    PA: { type: 'object', required: ['kind', 'a'], properties: { kind: pin('a'), a: text } },
    PB: { type: 'object', required: ['kind', 'b'], properties: { kind: { type: 'string', enum: ['b', 'bb'] }, b: { type: 'number' } } },
    Pinned: { oneOf: [ref('PA'), ref('PB')], discriminator: { propertyName: 'kind', mapping: { a: `${P}/PA`, b: `${P}/PB` } } },
    // A discriminator on a base schema the variants extend with allOf (the OpenAPI documents' example).
    Pet: {
      type: 'object',
      required: ['petType'],
      properties: { petType: text },
      discriminator: { propertyName: 'petType', mapping: { cat: `${P}/BaseCat`, dog: `${P}/BaseDog` } },
    },
    BaseCat: { allOf: [ref('Pet'), { type: 'object', properties: { meow: { type: 'boolean' } } }] },
    BaseDog: { allOf: [ref('Pet'), { type: 'object', properties: { bark: { type: 'boolean' } } }] },
    AnyPet: { oneOf: [ref('BaseCat'), ref('BaseDog')], discriminator: { propertyName: 'petType', mapping: { cat: `${P}/BaseCat`, dog: `${P}/BaseDog` } } },
    // The same, each variant pinning the tag in its own branch: through allOf, the tag selects.
    PinnedCat: { allOf: [ref('Pet'), { type: 'object', properties: { petType: pin('cat'), meow: { type: 'boolean' } } }] },
    PinnedDog: { allOf: [ref('Pet'), { type: 'object', properties: { petType: pin('dog'), bark: { type: 'boolean' } } }] },
    PinnedPet: { oneOf: [ref('PinnedCat'), ref('PinnedDog')], discriminator: { propertyName: 'petType', mapping: { cat: `${P}/PinnedCat`, dog: `${P}/PinnedDog` } } },
  };
}

for (const openapi of ['3.0.3', '3.1.0']) {
  describe(`discriminator as a hint (${openapi})`, () => {
    let v: LoadedValidators;
    beforeAll(async () => {
      v = await loadValidators(specWithSchemas(schemas(openapi), openapi));
    });
    const answer = (name: string, value: unknown, expected: boolean) => {
      expect(v.schemas[name]!.safeParse(value).success, `${name}: ${JSON.stringify(value)}`).toBe(expected);
      const check = (v['checks'] as Record<string, ((value: unknown) => boolean) | undefined>)[name];
      expect(check, `${name} has a check function`).toBeDefined();
      expect(check!(value), `check of ${name}: ${JSON.stringify(value)}`).toBe(expected);
    };
    const ok = (name: string, value: unknown) => answer(name, value, true);
    const bad = (name: string, value: unknown) => answer(name, value, false);
    const issues = (name: string, value: unknown) => v.schemas[name]!.safeParse(value).error!.issues.map((i) => ({ path: i.path, message: i.message }));

    it('accepts a variant that leaves the tag optional, without the tag', () => {
      ok('Party', { BusinessName: 'Acme' });
      ok('Party', { IdentityType: 'Business', BusinessName: 'Acme' });
      ok('Party', { IdentityType: 'Person', FullName: 'Ann' });
      bad('Party', { IdentityType: 'Person', BusinessName: 'Acme' });
      bad('Party', { FullName: 'Ann' });
      // Neither matches: Person pins its tag to Person, Business requires BusinessName.
      bad('Party', { IdentityType: 'Business', FullName: 'Ann' });
    });

    it('answers oneOf with unpinned tags: unmapped values, crossed tags, two matches', () => {
      ok('Unpinned', { kind: 'a', a: 'x' });
      ok('Unpinned', { kind: 'zzz', a: 'x' });
      ok('Unpinned', { kind: 'b', a: 'x' });
      bad('Unpinned', { kind: 'a', a: 'x', b: 1 });
      bad('Unpinned', { a: 'x' });
      bad('Unpinned', 'a');
    });

    it('answers anyOf with a discriminator as anyOf', () => {
      ok('AnyTagged', { kind: 'a', a: 'x', b: 1 });
      ok('AnyTagged', { kind: 'zzz', b: 1 });
      ok('AnyTagged', { kind: 'a', b: 1 });
      bad('AnyTagged', { kind: 'a' });
      bad('AnyTagged', null);
    });

    it('reads implicit mapping (component names) as a hint too', () => {
      ok('Implicit', { petType: 'Cat', name: 'Tom' });
      ok('Implicit', { petType: 'Dog', name: 'Tom' });
      ok('Implicit', { petType: 'Bird', bark: 'woof' });
      bad('Implicit', { petType: 'Cat', name: 'Tom', bark: 'woof' });
    });

    it('reports the issues of the variant the tag names when nothing matches', () => {
      expect(issues('Unpinned', { kind: 'b', b: 'nope' })).toStrictEqual([{ path: ['b'], message: 'Invalid input: expected number, received string' }]);
      expect(issues('Implicit', { petType: 'Dog' }).map((i) => i.path)).toStrictEqual([['bark']]);
      expect(issues('AnyTagged', { kind: 'a', a: 1 }).map((i) => i.path)).toStrictEqual([['a']]);
      expect(issues('Unpinned', { kind: 'a', a: 'x', b: 1 })[0]!.message).toBe('must match exactly one schema of oneOf, but matches 2');
    });

    it('dispatches on a pinned, required tag (a switch), with the same answers', () => {
      ok('Pinned', { kind: 'a', a: 'x' });
      ok('Pinned', { kind: 'bb', b: 1 });
      bad('Pinned', { kind: 'b', a: 'x' });
      bad('Pinned', { kind: 'zzz', a: 'x' });
      bad('Pinned', { a: 'x' });
      bad('Pinned', []);
      expect(issues('Pinned', { kind: 'zzz' })).toStrictEqual([{ path: ['kind'], message: 'must be one of "a", "b", "bb"' }]);
    });

    it('validates a base schema with a discriminator as written, and variants that extend it with allOf as oneOf', () => {
      ok('Pet', { petType: 'dog', bark: 'not a boolean: Pet does not know bark' });
      bad('Pet', { bark: true });
      ok('BaseCat', { petType: 'cat', meow: true });
      // Both open variants match a cat: oneOf refuses it, though the tag names BaseCat.
      bad('AnyPet', { petType: 'cat', meow: true });
      ok('AnyPet', { petType: 'cat', meow: true, bark: 'x' });
      ok('AnyPet', { petType: 'dog', meow: 'x' });
      // Pinned in each variant's own branch: the tag selects through allOf.
      ok('PinnedPet', { petType: 'cat', meow: true });
      bad('PinnedPet', { petType: 'cat', bark: true, meow: 'x' });
      bad('PinnedPet', { petType: 'bird' });
    });
  });
}

describe('what the generated code does with a discriminator', () => {
  let files: Record<string, string>;
  beforeAll(async () => {
    const { generate } = await import('../src/index.js');
    const spec = await writeSpec(specWithSchemas(schemas('3.0.3')));
    const result = await generate({ spec, targets: ['validators'] });
    files = Object.fromEntries(result.files.map((f) => [f.path, f.contents]));
  });

  it('switches on the tag only where it provably selects', () => {
    const block = (file: string, start: string): string => {
      const text = files[file]!;
      const at = text.indexOf(start);
      expect(at, start).toBeGreaterThanOrEqual(0);
      return text.slice(at, text.indexOf('\n\n', at));
    };
    const zod = (name: string) => block('validators/schemas.gen.ts', `export const ${name} =`).replace(/\s+/g, ' ');
    const check = (name: string) => block('validators/checks.gen.ts', `export function is${name}(`);
    expect(zod('Pinned')).toContain('rt.discriminated("kind", [ PA, PB, ], { a: 0, b: 1, bb: 1 })');
    expect(zod('PinnedPet')).toContain('rt.discriminated("petType", [ PinnedCat, PinnedDog, ], { cat: 0, dog: 1 })');
    expect(zod('Unpinned')).toContain('rt.oneOf([ A, B, ], "kind", { a: 0, b: 1 })');
    expect(zod('AnyTagged')).toContain('rt.anyOf([ A, B, ], "kind", { a: 0, b: 1 })');
    expect(zod('Implicit')).toContain('rt.oneOf([ Cat, Dog, ], "petType", { Cat: 0, Dog: 1 })');
    expect(zod('Party')).toContain('rt.oneOf([ Person, Business, ], "IdentityType", { Business: 1, Person: 0 })');
    expect(check('Pinned')).toContain('switch ((value as Record<string, unknown>)["kind"]) {');
    expect(check('PinnedPet')).toContain('switch ((value as Record<string, unknown>)["petType"]) {');
    for (const name of ['Party', 'Unpinned', 'AnyTagged', 'Implicit', 'AnyPet']) expect(check(name)).not.toContain('switch');
  });
});

describe('types of discriminated unions, type-checked', () => {
  for (const openapi of ['3.0.3', '3.1.0']) {
    it(`are never narrower than the schema, and tagged where the tag is pinned (${openapi})`, async () => {
      const spec = await writeSpec(specWithSchemas(schemas(openapi), openapi));
      const dir = await scratchDir();
      const report = await verify({ spec, keepDir: dir, targets: ['validators'] });
      expect(report.typeErrors).toStrictEqual([]);
      await writeFile(
        path.join(dir, 'consumer.ts'),
        [
          "import type { AnyPet, AnyTagged, Implicit, Party, Pinned, PinnedPet, Unpinned } from './validators/index.js';",
          '// Valid values (each matches exactly one variant) are values of the type.',
          "export const business: Party = { BusinessName: 'Acme' };",
          "export const unmapped: Unpinned = { kind: 'zzz', a: 'x' };",
          "export const crossed: Unpinned = { kind: 'b', a: 'x' };",
          "export const implicit: Implicit = { petType: 'Bird', bark: 'woof' };",
          "export const any: AnyTagged = { kind: 'a', b: 1 };",
          "export const pet: AnyPet = { petType: 'dog', meow: 'x' };",
          "export const pinned: Pinned = { kind: 'bb', b: 1 };",
          "export const pinnedPet: PinnedPet = { petType: 'cat', meow: true };",
          '// Where the tag is pinned the union is tagged: a wrong tag is a type error, and the tag narrows.',
          '// @ts-expect-error "b" is not the tag of the variant with a',
          "export const wrong: Pinned = { kind: 'b', a: 'x' };",
          "export function narrow(p: Pinned): string | number { return p.kind === 'a' ? p.a : p.b; }",
          '',
        ].join('\n'),
      );
      expect(await typeCheckFile(path.join(dir, 'consumer.ts'))).toStrictEqual([]);
      expect(await readFile(path.join(dir, 'validators/schemas.gen.ts'), 'utf8')).not.toContain('& { kind:');
    }, 120_000);
  }
});

describe('3.0 nullable idiom in generated validators', () => {
  it('accepts null beside allOf, oneOf, anyOf and $ref without type', async () => {
    const v = await loadValidators(
      specWithSchemas({
        X: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        AllOf: { nullable: true, allOf: [ref('X')] },
        OneOf: { nullable: true, oneOf: [ref('X'), { type: 'integer' }] },
        AnyOf: { nullable: true, anyOf: [ref('X'), { type: 'integer' }] },
        Holder: { type: 'object', required: ['x'], properties: { x: { nullable: true, $ref: `${P}/X` } } },
      }),
    );
    const checks = v['checks'] as Record<string, (value: unknown) => boolean>;
    for (const name of ['AllOf', 'OneOf', 'AnyOf']) {
      for (const [value, expected] of [
        [null, true],
        [{ id: 'a' }, true],
        [{}, false],
        ['x', false],
      ] as const) {
        expect(v.schemas[name]!.safeParse(value).success, `${name} ${JSON.stringify(value)}`).toBe(expected);
        expect(checks[name]!(value), `check of ${name} ${JSON.stringify(value)}`).toBe(expected);
      }
    }
    expect(v.schemas['Holder']!.safeParse({ x: null }).success).toBe(true);
    expect(checks['Holder']!({ x: null })).toBe(true);
    expect(v.schemas['Holder']!.safeParse({ x: 1 }).success).toBe(false);
  });
});
