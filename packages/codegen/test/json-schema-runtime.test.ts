/**
 * Schemas only the generated JSON Schema runtime validates: what they answer (zod and check
 * functions alike), what their errors say, that the generated code type-checks, and that
 * their TypeScript types are never narrower than the schemas.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, verify } from '../src/index.js';
import { loadValidators, scratchDir, specWithSchemas, writeSpec } from './helpers/generated.js';
import { typeCheckFile } from './helpers/type-check.js';

const REF = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const SCHEMAS = {
  NotEmpty: { type: 'string', not: { const: '' }, examples: ['x'] },
  Tagged: {
    type: 'object',
    required: ['kind'],
    properties: { kind: { type: 'string' }, a: { type: 'integer' }, b: { type: 'integer' } },
    if: { properties: { kind: { const: 'a' } } },
    then: { required: ['a'] },
    else: { required: ['b'] },
  },
  Pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], minItems: 1, items: false },
  Labels: { type: 'object', patternProperties: { '^x-': { type: 'string', examples: ['v'] } }, additionalProperties: false, properties: { 'x-id': { type: 'string', not: { const: '' }, example: 'i' } } },
  Base: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
  Closed: { allOf: [REF('Base')], properties: { note: { type: 'string' } }, unevaluatedProperties: false },
  Tree: { $anchor: 'node', type: 'object', properties: { children: { type: 'array', items: { $ref: '#node' } } }, additionalProperties: false },
  AtMostTwo: { maxItems: 2 },
  Holder: { type: 'object', properties: { pair: REF('Pair'), labels: REF('Labels') } },
};

type Parse = { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
interface Generated {
  schemas: Record<string, { safeParse(value: unknown): Parse }>;
  checks: Record<string, (value: unknown) => boolean>;
}

const CASES: Array<[name: string, value: unknown, valid: boolean]> = [
  ['NotEmpty', 'x', true],
  ['NotEmpty', '', false],
  ['NotEmpty', 1, false],
  ['Tagged', { kind: 'a', a: 1 }, true],
  ['Tagged', { kind: 'a', b: 1 }, false],
  ['Tagged', { kind: 'z', b: 1 }, true],
  ['Tagged', { kind: 'z' }, false],
  ['Pair', ['a', 1], true],
  ['Pair', ['a'], true],
  ['Pair', [], false],
  ['Pair', ['a', 1, 2], false],
  ['Pair', [1, 1], false],
  ['Labels', { 'x-a': 'v' }, true],
  ['Labels', { 'x-a': 1 }, false],
  ['Labels', { other: 'v' }, false],
  ['Closed', { id: 'i', note: 'n' }, true],
  ['Closed', { id: 'i', extra: 1 }, false],
  ['Closed', { note: 'n' }, false],
  ['Tree', { children: [{ children: [] }, {}] }, true],
  ['Tree', { children: [{ children: [{ leaf: true }] }] }, false],
  ['AtMostTwo', [1, 2], true],
  ['AtMostTwo', [1, 2, 3], false],
  // maxItems says nothing about values that are not arrays.
  ['AtMostTwo', 'abc', true],
  ['Holder', { pair: ['a', 2], labels: { 'x-b': 'c' } }, true],
  ['Holder', { pair: ['a', 'b'] }, false],
];

describe('the JSON Schema runtime, in generated validators (OpenAPI 3.1)', () => {
  let generated: Generated;
  let dir: string;
  beforeAll(async () => {
    dir = await scratchDir();
    const spec = path.join(dir, 'spec.json');
    // With an operation whose body and answer the runtime validates, so that the server and
    // client code built on them type-check too.
    const paths = {
      '/closed': {
        post: {
          operationId: 'PostClosed',
          requestBody: { required: true, content: { 'application/json': { schema: REF('Closed') } } },
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: REF('Holder') } } } },
        },
      },
    };
    await writeFile(spec, JSON.stringify({ ...specWithSchemas(SCHEMAS, '3.1.0'), paths }));
    const report = await verify({ spec, keepDir: path.join(dir, 'out'), targets: ['validators', 'server', 'client'] });
    expect(report.typeErrors).toEqual([]);
    expect(report.ok).toBe(true);
    generated = (await import(pathToFileURL(path.join(dir, 'out/validators/index.ts')).href)) as Generated;
  }, 120_000);

  it('answers as JSON Schema does, in zod and in the check functions', () => {
    const wrong = CASES.filter(([name, value, valid]) => generated.schemas[name]!.safeParse(value).success !== valid || generated.checks[name]!(value) !== valid);
    expect(wrong).toStrictEqual([]);
  });

  it('names the place and the keyword that failed', () => {
    const issues = (name: string, value: unknown) => generated.schemas[name]!.safeParse(value).error!.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues('Labels', { 'x-a': 1 })).toStrictEqual([['x-a', 'expected string, received number (type)']]);
    expect(issues('Closed', { id: 'i', extra: 1 })).toStrictEqual([['extra', 'member "extra" is not allowed or does not match (unevaluatedProperties)']]);
    expect(issues('Pair', ['a', 'b'])).toStrictEqual([['1', 'expected integer, received string (type)']]);
    expect(issues('Holder', { pair: ['a', 'b'] })).toStrictEqual([['pair.1', 'expected integer, received string (type)']]);
  });

  it('types them at least as wide as the schemas: tuples, index signatures, the base type of not and if', async () => {
    await writeFile(
      path.join(dir, 'out', 'consumer.ts'),
      [
        "import type { AtMostTwo, Holder, Labels, NotEmpty, Pair, Tagged } from './validators/index.js';",
        'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
        'const assert = <T extends true>(): T | undefined => undefined;',
        'assert<Same<Pair, [string, number?]>>();',
        'assert<Same<NotEmpty, string>>();',
        'assert<Same<AtMostTwo, unknown>>();',
        "export const labels: Labels = { 'x-a': 'v', anything: 1 };",
        "export const tagged: Tagged = { kind: 'a' };",
        "export const holder: Holder = { pair: ['a'] };",
        '// @ts-expect-error the first item of a Pair is a string',
        'export const wrong: Pair = [1];',
        '',
      ].join('\n'),
    );
    expect(await typeCheckFile(path.join(dir, 'out', 'consumer.ts'))).toStrictEqual([]);
  }, 120_000);
});

describe('verify, on schemas the JSON Schema runtime validates', () => {
  it('checks their examples, and names one that does not validate', async () => {
    const dir = await scratchDir();
    const spec = path.join(dir, 'spec.json');
    await writeFile(spec, JSON.stringify(specWithSchemas({ ...SCHEMAS, Bad: { type: 'object', properties: { n: { type: 'string', not: { const: '' }, example: '' } } } }, '3.1.0')));
    const report = await verify({ spec, targets: ['validators'] });
    expect(report.typeErrors).toEqual([]);
    expect(report.exampleFailures.map((f) => f.pointer)).toStrictEqual(['#/components/schemas/Bad/properties/n/example']);
  }, 120_000);
});

describe('readings and --unsupported', () => {
  const typeless = { Links: { required: ['Self'], properties: { Self: { type: 'string' } }, additionalProperties: false } };

  it('reads a 3.0 schema without type as its keywords type (a warning names it), and exactly on request', async () => {
    const spec = await writeSpec(specWithSchemas(typeless));
    const lenient = await generate({ spec, targets: ['validators'] });
    expect(lenient.diagnostics.map((d) => [d.code, d.pointer])).toContainEqual(['type-inferred', '#/components/schemas/Links']);
    expect(lenient.built.api.schemas[0]!.schema.kind).toBe('object');
    const exact = await generate({ spec, targets: ['validators'], reading: 'exact' });
    expect(exact.built.api.schemas[0]!.schema.kind).toBe('json');
    expect(exact.diagnostics.map((d) => d.code)).not.toContain('type-inferred');
  });

  it('reads 3.1 exactly by default, and never drops keywords a lenient reading cannot type', async () => {
    const exact = await generate({ spec: await writeSpec(specWithSchemas(typeless, '3.1.0')), targets: ['validators'] });
    expect(exact.built.api.schemas[0]!.schema.kind).toBe('json');
    const mixed = await generate({ spec: await writeSpec(specWithSchemas({ M: { minLength: 2, maxItems: 1 } })), targets: ['validators'] });
    expect(mixed.built.api.schemas[0]!.schema.kind).toBe('json');
  });

  it('names each use of the allOf reading in a 3.0 file', async () => {
    const spec = await writeSpec(
      specWithSchemas({
        Claims: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        Signed: { allOf: [REF('Claims'), { type: 'object', properties: { b: { type: 'string' } } }] },
      }),
    );
    const result = await generate({ spec, targets: ['validators'] });
    expect(result.diagnostics.filter((d) => d.code === 'all-of-closed-reading').map((d) => d.pointer)).toStrictEqual(['#/components/schemas/Signed']);
    const exact = await generate({ spec, targets: ['validators'], reading: 'exact' });
    expect(exact.diagnostics.map((d) => d.code)).not.toContain('all-of-closed-reading');
    expect(exact.built.api.schemas[1]!.schema.kind).toBe('json');
  });

  it('gives the allOf reading to a 3.0 schema the runtime validates too (beside not), and names it', async () => {
    const schemas = {
      Base: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
      ClosedWithNot: {
        allOf: [REF('Base'), { type: 'object', properties: { note: { type: 'string' } }, additionalProperties: false }],
        not: { required: ['note'], properties: { note: { enum: ['bad'] } } },
      },
    };
    const spec = await writeSpec(specWithSchemas(schemas));
    const result = await generate({ spec, targets: ['validators'] });
    expect(result.built.api.schemas[1]!.schema.kind).toBe('json');
    expect(result.diagnostics.filter((d) => d.code === 'all-of-closed-reading').map((d) => d.pointer)).toStrictEqual(['#/components/schemas/ClosedWithNot']);
    const v = await loadValidators(specWithSchemas(schemas));
    const valid = (value: unknown) => v.schemas['ClosedWithNot']!.safeParse(value).success;
    // `id`, declared by the other branch, is allowed; an undeclared member is not; `not` still applies.
    expect([valid({ id: 'a' }), valid({ id: 'a', note: 'n' }), valid({ id: 'a', other: 1 }), valid({ id: 'a', note: 'bad' })]).toStrictEqual([true, true, false, false]);
  });

  it('fills defaults in schemas the runtime validates, as the plain validators do, without touching the input', async () => {
    const v = await loadValidators(
      specWithSchemas(
        {
          Options: {
            type: 'object',
            properties: { mode: { type: 'string', default: 'safe' }, inner: { allOf: [{ properties: { size: { type: 'integer', default: 1 } } }] } },
            not: { required: ['size'] },
          },
          Plain: { type: 'object', properties: { options: REF('Options') } },
        },
        '3.1.0',
      ),
    );
    const input = { inner: {} };
    expect(v.schemas['Options']!.safeParse(input).data).toStrictEqual({ mode: 'safe', inner: { size: 1 } });
    expect(input).toStrictEqual({ inner: {} });
    expect(v.schemas['Plain']!.safeParse({ options: {} }).data).toStrictEqual({ options: { mode: 'safe' } });
    expect(v.schemas['Options']!.safeParse({ mode: 'fast', size: 1 }).success).toBe(false);
  });

  it('skips what it cannot represent only when asked: an accepting schema and a warning naming it', async () => {
    const spec = await writeSpec(specWithSchemas({ Dyn: { $vocabulary: { 'https://example.com/vocab/strict': true } }, Fine: { type: 'string' }, Remote: { $ref: 'https://example.com/schema.json' } }, '3.1.0'));
    await expect(generate({ spec, targets: ['validators'] })).rejects.toThrow(/remote reference/);
    const skipped = await generate({ spec, targets: ['validators'], unsupported: 'skip' });
    expect(skipped.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([]);
    const warnings = skipped.diagnostics.filter((d) => d.severity === 'warning').map((d) => [d.code, d.pointer]);
    expect(warnings).toContainEqual(['unsupported-keyword', '#/components/schemas/Dyn/$vocabulary']);
    expect(warnings).toContainEqual(['remote-ref', '#/components/schemas/Remote/$ref']);
    expect(skipped.built.api.schemas.map((s) => s.schema.kind)).toStrictEqual(['any', 'string', 'any']);
  });

  it('reports a problem once, however many schemas refer to it', async () => {
    const bad = { type: 'object', properties: { x: { $dynamicRef: '#m' } } };
    // `#m` names no anchor of the document.
    const spec = await writeSpec(specWithSchemas({ Bad: bad, A: { not: REF('Bad') }, B: { not: REF('Bad') } }, '3.1.0'));
    const result = await generate({ spec, targets: ['validators'], unsupported: 'skip' });
    expect(result.diagnostics.map((d) => [d.code, d.pointer])).toStrictEqual([['unresolved-ref', '#/components/schemas/Bad/properties/x/$dynamicRef']]);
  });
});

describe('parameters the JSON Schema runtime validates', () => {
  it('are decoded from text as their shape says, then checked', async () => {
    const document = {
      ...specWithSchemas({}, '3.1.0'),
      paths: {
        '/things': {
          get: {
            operationId: 'ListThings',
            parameters: [
              { name: 'page', in: 'query', schema: { type: 'integer', not: { const: 3 } } },
              { name: 'ids', in: 'query', schema: { type: 'array', items: { type: 'integer' }, contains: { const: 1 } } },
            ],
            responses: { '204': { description: 'none' } },
          },
        },
      },
    };
    const mod = await loadValidators(document);
    const query = (mod.operations['ListThings'] as { request: { query: { safeParse(value: unknown): Parse & { data?: unknown } } } }).request.query;
    expect(query.safeParse({ page: '4', ids: ['2', '1'] })).toStrictEqual({ success: true, data: { page: 4, ids: [2, 1] } });
    expect(query.safeParse({ page: '3' }).error!.issues.map((i) => [i.path.join('.'), i.message])).toStrictEqual([['page', 'must not match the schema (not)']]);
    expect(query.safeParse({ ids: ['2'] }).success).toBe(false);
    expect(query.safeParse({ page: ['4', '5'] }).error!.issues[0]!.message).toBe('given 2 times; the spec defines this parameter once');
  });
});

describe('readOnly and writeOnly by direction, in schemas the JSON Schema runtime validates', () => {
  const USER = {
    type: 'object',
    required: ['id', 'password', 'name'],
    properties: { id: { type: 'string', readOnly: true }, password: { type: 'string', writeOnly: true }, name: { type: 'string' } },
    unevaluatedProperties: false,
  };
  const document = {
    ...specWithSchemas({ User: USER, Team: { type: 'object', properties: { lead: REF('User') }, not: { required: ['banned'] } } }, '3.1.0'),
    paths: {
      '/users': {
        post: {
          operationId: 'CreateUser',
          requestBody: { required: true, content: { 'application/json': { schema: REF('User') } } },
          responses: { '201': { description: 'created', content: { 'application/json': { schema: REF('User') } } } },
        },
      },
      '/teams': {
        put: {
          operationId: 'PutTeam',
          requestBody: { required: true, content: { 'application/json': { schema: REF('Team') } } },
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: REF('Team') } } } },
        },
      },
    },
  };
  type Body = { safeParse(v: unknown): Parse };
  type Op = { request: { body: { content: Record<string, Body> } }; responses: Record<string, { content: Record<string, Body> }> };

  it('requires readOnly members in responses only and writeOnly members in requests only; a writeOnly member in a response is refused', async () => {
    const loaded = await loadValidators(document);
    const create = loaded.operations['CreateUser'] as Op;
    const request = create.request.body.content['application/json']!;
    const response = create.responses['201']!.content['application/json']!;
    const user = loaded['User'] as Body;
    expect([user.safeParse({ password: 'p', name: 'n' }).success, request.safeParse({ password: 'p', name: 'n' }).success]).toStrictEqual([false, true]);
    expect([user.safeParse({ id: 'i', name: 'n' }).success, response.safeParse({ id: 'i', name: 'n' }).success]).toStrictEqual([false, true]);
    expect(response.safeParse({ id: 'i', name: 'n', password: 'p' }).error!.issues.map((i) => [i.path.join('.'), i.message])).toStrictEqual([
      ['password', 'member "password" is writeOnly: a response may not carry it'],
    ]);
    // Through a reference from another runtime-validated schema, nested one level down.
    const team = loaded.operations['PutTeam'] as Op;
    expect(team.request.body.content['application/json']!.safeParse({ lead: { password: 'p', name: 'n' } }).success).toBe(true);
    expect(team.responses['200']!.content['application/json']!.safeParse({ lead: { id: 'i', name: 'n', password: 'p' } }).success).toBe(false);
    expect(team.responses['200']!.content['application/json']!.safeParse({ lead: { id: 'i', name: 'n' } }).success).toBe(true);
    // The check functions of the variants answer the same.
    const checks = loaded['checks'] as Record<string, (v: unknown) => boolean>;
    const isUserResponse = loaded['isUserResponse'] as (v: unknown) => boolean;
    expect([checks['User']!({ id: 'i', name: 'n' }), isUserResponse({ id: 'i', name: 'n' }), isUserResponse({ id: 'i', name: 'n', password: 'p' })]).toStrictEqual([false, true, false]);
  });

  it('types the variants by direction', async () => {
    const dir = await scratchDir();
    const spec = path.join(dir, 'spec.json');
    await writeFile(spec, JSON.stringify(document));
    const report = await verify({ spec, keepDir: path.join(dir, 'out'), targets: ['validators'] });
    expect(report.typeErrors).toEqual([]);
    await writeFile(
      path.join(dir, 'out', 'consumer.ts'),
      [
        "import type { UserRequest, UserResponse } from './validators/index.js';",
        "export const created: UserRequest = { password: 'p', name: 'n' };",
        "export const answered: UserResponse = { id: 'i', name: 'n' };",
        '// @ts-expect-error a response does not carry the writeOnly password',
        "export const leaked: UserResponse = { id: 'i', name: 'n', password: 'p' };",
        '',
      ].join('\n'),
    );
    expect(await typeCheckFile(path.join(dir, 'out', 'consumer.ts'))).toStrictEqual([]);
  }, 120_000);
});
