import { beforeAll, describe, expect, it } from 'vitest';
import { loadValidators, specWithSchemas, type LoadedValidators } from './helpers/generated.js';
import { SCHEMAS } from './helpers/fixtures.js';

describe('generated validators follow JSON Schema semantics', () => {
  let v: LoadedValidators;
  beforeAll(async () => {
    v = await loadValidators(specWithSchemas(SCHEMAS));
  });
  // Each answer is asked of the zod schema and of the schema's check function, when it has one.
  const answer = (name: string, value: unknown, expected: boolean) => {
    expect(v.schemas[name]!.safeParse(value).success, JSON.stringify(value)).toBe(expected);
    const check = (v['checks'] as Record<string, ((value: unknown) => boolean) | undefined>)[name];
    if (check) expect(check(value), `check of ${name}: ${JSON.stringify(value)}`).toBe(expected);
  };
  const ok = (name: string, value: unknown) => answer(name, value, true);
  const bad = (name: string, value: unknown) => answer(name, value, false);

  it('keeps the DateTime pattern exactly: any offset but -00:00, fractions optional', () => {
    for (const good of ['2024-02-29T10:00:00Z', '2024-01-01T10:00:00+04:00', '2024-01-01T10:00:00.123456-05:30', '2024-01-01T10:00:00+00:00']) ok('DateTime', good);
    for (const wrong of ['2024-01-01T10:00:00-00:00', '2024-01-01T10:00:00', '2024-01-01 10:00:00Z', '2023-02-29T10:00:00Z', '2024-01-01T24:00:00Z']) bad('DateTime', wrong);
  });

  it('treats additionalProperties: false as a closed object and checks lengths', () => {
    ok('Closed', { Id: 'a' });
    bad('Closed', { Id: 'a', Extra: 1 });
    bad('Closed', {});
    bad('Closed', { Id: '' });
    bad('Closed', { Id: 'abcde' });
    ok('Open', { Id: 'a', Extra: 1 });
    expect(v.schemas['Open']!.safeParse({ Extra: 1 }).data).toStrictEqual({ Extra: 1 });
  });

  it('checks int32 and exclusive bounds, and integers beyond 2^53', () => {
    ok('Big', 2 ** 60);
    bad('Big', 1.5);
    ok('Count', 0);
    ok('Count', 2147483647);
    bad('Count', 2147483648);
    bad('Count', -1);
    bad('Count', 1.5);
    bad('Ratio', 0);
    ok('Ratio', 1);
    bad('Ratio', 1.01);
  });

  it('reads nullable, enum, const-like enums and arrays', () => {
    bad('NullableColour', null);
    ok('NullableColourWithNull', null);
    bad('NullableColourWithNull', 'Blue');
    ok('NullableNoType', null);
    ok('NullableNoType', 'x');
    bad('NullableNoType', 1);
    ok('Nullable', null);
    ok('Nullable', 'x');
    ok('Colour', 'Red');
    bad('Colour', 'Blue');
    ok('Constant', 'Only');
    bad('Constant', 'Other');
    ok('Tags', ['a']);
    bad('Tags', []);
    bad('Tags', ['a', 'b', 'c']);
    bad('Tags', ['a', 'a']);
  });

  it('checks the date and uri formats', () => {
    ok('Day', '2024-02-29');
    bad('Day', '2023-02-29');
    bad('Day', '2024-1-01');
    ok('Link', 'https://example.com/a?b=c#d');
    ok('Link', 'https://[::1]:8443/x');
    bad('Link', 'https://example.com/a[b]');
    bad('Link', 'not a uri');
    bad('Link', '/relative/path');
  });

  it('reads oneOf as exactly one and anyOf as at least one', () => {
    ok('Pet', { kind: 'cat', meows: true });
    bad('Pet', { kind: 'x', meows: true, barks: true });
    bad('Pet', { kind: 'x' });
    ok('AnyPet', { kind: 'x', meows: true, barks: true });
  });

  it('reads a discriminator as a hint: the answer is that of oneOf', () => {
    ok('TaggedPet', { kind: 'dog', barks: true });
    // Exactly one variant matches, whatever the tag says.
    ok('TaggedPet', { kind: 'dog', meows: true });
    ok('TaggedPet', { kind: 'bird', meows: true });
    // The tag names Dog, but both variants match.
    bad('TaggedPet', { kind: 'dog', meows: true, barks: true });
    bad('TaggedPet', { kind: 'bird' });
    // Nothing matches: the error reports the variant the tag names.
    const issues = v.schemas['TaggedPet']!.safeParse({ kind: 'dog', barks: 'loud' }).error!.issues;
    expect(issues.map((i) => i.path)).toStrictEqual([['barks']]);
  });

  it('dispatches on a tag every variant requires and pins', () => {
    ok('PinnedPet', { kind: 'cat', meows: true });
    ok('PinnedPet', { kind: 'puppy', barks: true });
    bad('PinnedPet', { kind: 'dog', meows: true });
    bad('PinnedPet', { kind: 'bird', meows: true });
    bad('PinnedPet', { meows: true });
    bad('PinnedPet', null);
    const issue = v.schemas['PinnedPet']!.safeParse({ kind: 'bird' }).error!.issues[0]!;
    expect(issue.path).toStrictEqual(['kind']);
    expect(issue.message).toBe('must be one of "cat", "dog", "puppy"');
  });

  it('reads additionalProperties: false inside allOf as "nothing beyond what the allOf declares"', () => {
    ok('Signed', { iss: 'hub', exp: 1, message: { Id: 'a' } });
    bad('Signed', { iss: 'hub', exp: 1, message: { Id: 'a' }, extra: 1 });
    bad('Signed', { iss: 'hub', message: { Id: 'a' } });
    bad('Signed', { iss: 'hub', exp: 1, message: { Id: 'a', Extra: 1 } });
  });

  it('handles recursive references without looping', () => {
    ok('Node', { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] });
    bad('Node', { name: 'a', children: [{ children: [] }] });
  });

  it('applies defaults to absent members', () => {
    expect(v.schemas['WithDefault']!.safeParse({}).data).toStrictEqual({ size: 100 });
    expect(v.schemas['WithDefault']!.safeParse({ size: 5 }).data).toStrictEqual({ size: 5 });
  });

  it('names the field and the rule in errors', () => {
    const result = v.schemas['Closed']!.safeParse({ Id: 'abcdef', Extra: true });
    const issues = result.error!.issues.map((i) => ({ path: i.path, code: i.code }));
    expect(issues).toContainEqual({ path: ['Id'], code: 'too_big' });
    expect(issues).toContainEqual({ path: [], code: 'unrecognized_keys' });
  });
});

describe('OpenAPI 3.1 documents', () => {
  it('reads type arrays, const and numeric exclusive bounds', async () => {
    const v = await loadValidators(
      specWithSchemas(
        {
          MaybeText: { type: ['string', 'null'] },
          Fixed: { const: 'A' },
          Positive: { type: 'number', exclusiveMinimum: 0 },
        },
        '3.1.0',
      ),
    );
    expect(v.schemas['MaybeText']!.safeParse(null).success).toBe(true);
    expect(v.schemas['MaybeText']!.safeParse(1).success).toBe(false);
    expect(v.schemas['Fixed']!.safeParse('A').success).toBe(true);
    expect(v.schemas['Fixed']!.safeParse('B').success).toBe(false);
    expect(v.schemas['Positive']!.safeParse(0).success).toBe(false);
    expect(v.schemas['Positive']!.safeParse(0.1).success).toBe(true);
  });
});
