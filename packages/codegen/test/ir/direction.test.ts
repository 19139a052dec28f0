/**
 * readOnly and writeOnly by direction (ir/direction.ts): the per-direction variants of the
 * schemas that need them, the operations that use them, and what the validators export.
 */
import { describe, expect, it } from 'vitest';
import { buildIR, type BuiltIR } from '../../src/ir/build-ir.js';
import { applyDirections, type DirectionOptions } from '../../src/ir/direction.js';
import type { NamedSchema, ObjectNode, SchemaNode } from '../../src/ir/types.js';
import { emitValidators } from '../../src/emit/validators/emit-validators.js';
import { verify } from '../../src/index.js';
import { loadValidators, scratchDir, writeSpec } from '../helpers/generated.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });

function document(openapi: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi,
    info: { title: 'Directions', version: '1' },
    paths: {
      '/users': {
        post: {
          operationId: 'createUser',
          requestBody: { required: true, content: json(ref('User')) },
          responses: { '201': { description: 'created', content: json(ref('User')) } },
        },
      },
      '/admins': {
        put: {
          operationId: 'putAdmins',
          requestBody: { content: json({ type: 'array', items: ref('Admin') }) },
          responses: { '200': { description: 'ok', content: json({ type: 'array', items: ref('Admin') }) } },
        },
      },
    },
    components: {
      schemas: {
        User: {
          type: 'object',
          required: ['id', 'name', 'password', 'profile'],
          properties: {
            id: { type: 'string', readOnly: true },
            name: { type: 'string' },
            password: { type: 'string', writeOnly: true },
            // Nested, inline.
            profile: {
              type: 'object',
              required: ['createdAt', 'nick'],
              properties: { createdAt: { type: 'string', readOnly: true }, nick: { type: 'string' } },
            },
            // An array of a referenced schema.
            tags: { type: 'array', items: ref('Tag') },
            // Recursion.
            friends: { type: 'array', items: ref('User') },
          },
        },
        Tag: { type: 'object', required: ['tagId', 'label'], properties: { tagId: { type: 'integer', readOnly: true }, label: { type: 'string' } } },
        // allOf over a schema with a readOnly member.
        Admin: { allOf: [ref('User'), { type: 'object', required: ['level'], properties: { level: { type: 'integer' } } }] },
        Plain: { type: 'object', required: ['x'], properties: { x: { type: 'string' } } },
        ...extra,
      },
    },
  };
}

function built(doc: Record<string, unknown>, options: DirectionOptions = {}): BuiltIR {
  const b = buildIR({ source: 'directions.yaml', document: doc, diagnostics: [] });
  expect(b.api.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([]);
  return applyDirections(b, options);
}

function schema(b: BuiltIR, name: string): NamedSchema {
  const found = b.api.schemas.find((s) => s.name === name);
  if (!found) throw new Error(`no schema ${name}`);
  return found;
}

function object(node: SchemaNode): ObjectNode {
  if (node.kind !== 'object') throw new Error(`expected an object, got ${node.kind}`);
  return node;
}

/** `name: required` for every member, with `never` for a member refused. */
function members(node: SchemaNode): Record<string, string> {
  return Object.fromEntries(object(node).properties.map((p) => [p.name, p.schema.kind === 'never' ? 'refused' : p.required ? 'required' : 'optional']));
}

describe.each(['3.0.3', '3.1.0'])('readOnly and writeOnly by direction (OpenAPI %s)', (openapi) => {
  const b = built(document(openapi));

  it('keeps every component schema as written', () => {
    expect(members(schema(b, 'User').schema)).toStrictEqual({ id: 'required', name: 'required', password: 'required', profile: 'required', tags: 'optional', friends: 'optional' });
    expect(members(schema(b, 'Tag').schema)).toStrictEqual({ tagId: 'required', label: 'required' });
  });

  it('makes readOnly members optional in the request variants, nested and through references, arrays, allOf and recursion', () => {
    const user = schema(b, 'User@request');
    expect(user.variantOf).toStrictEqual({ name: 'User', direction: 'request' });
    expect(members(user.schema)).toStrictEqual({ id: 'optional', name: 'required', password: 'required', profile: 'required', tags: 'optional', friends: 'optional' });
    const properties = object(user.schema).properties;
    expect(members(properties.find((p) => p.name === 'profile')!.schema)).toStrictEqual({ createdAt: 'optional', nick: 'required' });
    expect(properties.find((p) => p.name === 'tags')!.schema).toMatchObject({ kind: 'array', items: { kind: 'ref', name: 'Tag@request' } });
    expect(properties.find((p) => p.name === 'friends')!.schema).toMatchObject({ kind: 'array', items: { kind: 'ref', name: 'User@request' } });
    expect(user.recursive).toBe(true);
    expect(members(schema(b, 'Tag@request').schema)).toStrictEqual({ tagId: 'optional', label: 'required' });
    expect(members(schema(b, 'Admin@request').schema)).toMatchObject({ id: 'optional', password: 'required', level: 'required' });
  });

  it('refuses writeOnly members in the response variants (by default), and leaves readOnly ones required', () => {
    expect(members(schema(b, 'User@response').schema)).toStrictEqual({ id: 'required', name: 'required', password: 'refused', profile: 'required', tags: 'optional', friends: 'optional' });
    expect(members(schema(b, 'Admin@response').schema)).toMatchObject({ id: 'required', password: 'refused', level: 'required' });
    // Tag has no writeOnly member: responses use it as written.
    expect(b.api.schemas.some((s) => s.name === 'Tag@response')).toBe(false);
    expect(b.api.schemas.some((s) => s.name.startsWith('Plain@'))).toBe(false);
  });

  it('has operations use the variant of their direction', () => {
    const create = b.api.operations.find((o) => o.operationId === 'createUser')!;
    expect(create.requestBody!.content[0]!.schema).toMatchObject({ kind: 'ref', name: 'User@request' });
    expect(create.responses[0]!.content[0]!.schema).toMatchObject({ kind: 'ref', name: 'User@response' });
    const admins = b.api.operations.find((o) => o.operationId === 'putAdmins')!;
    expect(admins.requestBody!.content[0]!.schema).toMatchObject({ kind: 'array', items: { kind: 'ref', name: 'Admin@request' } });
    expect(admins.responses[0]!.content[0]!.schema).toMatchObject({ kind: 'array', items: { kind: 'ref', name: 'Admin@response' } });
  });

  it('with writeOnlyInResponse: accept, writeOnly members are only optional in responses; readOnlyInRequest: refuse refuses them in requests', () => {
    const c = built(document(openapi), { writeOnlyInResponse: 'accept', readOnlyInRequest: 'refuse' });
    expect(members(schema(c, 'User@response').schema)).toMatchObject({ id: 'required', password: 'optional' });
    expect(members(schema(c, 'User@request').schema)).toMatchObject({ id: 'refused', password: 'required' });
    // Tag's readOnly member is refused in requests though it was required.
    expect(members(schema(c, 'Tag@request').schema)).toStrictEqual({ tagId: 'refused', label: 'required' });
  });

  it('exports the variants as <Name>Request and <Name>Response, and keeps the component schemas exported as written', () => {
    const out = Object.fromEntries(emitValidators(b.api).map((f) => [f.path, f.contents]));
    const schemas = out['validators/schemas.gen.ts']!;
    expect(schemas).toMatch(/export type User = \{\n {2}id: string;\n {2}name: string;\n {2}password: string;/);
    expect(schemas).toMatch(/export type UserRequest = \{\n {2}id\?: string \| undefined;\n {2}name: string;\n {2}password: string;/);
    expect(schemas).toMatch(/export type UserResponse = \{\n {2}id: string;\n {2}name: string;\n(?: {2}\/\*\*.*\*\/\n)? {2}password\?: never \| undefined;/);
    for (const id of ['TagRequest', 'AdminRequest', 'AdminResponse']) expect(schemas).toContain(`export const ${id} =`);
    expect(schemas).not.toContain('TagResponse');
    const ops = out['validators/operations.gen.ts']!;
    expect(ops).toMatch(/UserRequest\b/);
    expect(ops).toMatch(/UserResponse\b/);
    // The map of component schemas holds the schemas of the file only.
    expect(out['validators/index.ts']).not.toContain('UserRequest');
  });

  it('a variant whose name a component schema holds gets another name, with a note', () => {
    const c = built(document(openapi, { UserRequest: { type: 'string' } }));
    const schemas = Object.fromEntries(emitValidators(c.api).map((f) => [f.path, f.contents]))['validators/schemas.gen.ts']!;
    expect(schemas).toContain('export type UserRequest = string;');
    expect(schemas).toContain('Exported as UserRequest_2: UserRequest is the schema UserRequest.');
    expect(schemas).toContain('export const UserRequest_2 =');
  });
});

describe('plain JSON Schema reading', () => {
  it('with readWrite: json-schema, a 3.1 file gets no variants', () => {
    const b = built(document('3.1.0'), { readWrite: 'json-schema' });
    expect(b.api.schemas.map((s) => s.name)).toStrictEqual(['User', 'Tag', 'Admin', 'Plain']);
    expect(b.api.operations[0]!.requestBody!.content[0]!.schema).toMatchObject({ kind: 'ref', name: 'User' });
  });

  it('a 3.0 file always follows the rule', () => {
    const b = built(document('3.0.3'), { readWrite: 'json-schema' });
    expect(b.api.schemas.some((s) => s.name === 'User@request')).toBe(true);
  });

  it('a file without readOnly or writeOnly is left as it is', () => {
    const doc = document('3.0.3');
    const plain = buildIR({ source: 'p.yaml', document: { ...doc, paths: {}, components: { schemas: { Plain: { type: 'object', properties: { a: { type: 'string' } } } } } }, diagnostics: [] });
    expect(applyDirections(plain)).toBe(plain);
  });
});

describe('examples by direction (verify)', () => {
  it('checks body examples against the variant of their direction, and component examples against either', async () => {
    const doc = document('3.0.3') as { paths: Record<string, Record<string, Record<string, unknown>>>; components: { schemas: Record<string, Record<string, unknown>> } };
    const create = doc.paths['/users']!['post']!;
    const user = { name: 'Ada', password: 'secret', profile: { nick: 'a' } };
    create['requestBody'] = { required: true, content: { 'application/json': { schema: ref('User'), example: user } } };
    create['responses'] = {
      '201': { description: 'created', content: { 'application/json': { schema: ref('User'), example: { id: 'u-1', name: 'Ada', profile: { createdAt: 'now', nick: 'a' } } } } },
      '202': { description: 'leaks', content: { 'application/json': { schema: ref('User'), example: { id: 'u-1', name: 'Ada', password: 'x', profile: { createdAt: 'now', nick: 'a' } } } } },
    };
    doc.components.schemas['User']!['example'] = user;
    const report = await verify({ spec: await writeSpec(doc), keepDir: await scratchDir(), targets: ['validators'] });
    expect(report.typeErrors).toStrictEqual([]);
    // Only the response example that carries the writeOnly password fails.
    expect(report.exampleFailures.map((f) => f.pointer)).toStrictEqual(['#/paths/~1users/post/responses/202/content/application~1json/example']);
    expect(report.examplesChecked).toBe(4);
  }, 120_000);
});

describe('check functions of the variants', () => {
  it('answer as their zod schemas do', async () => {
    const loaded = await loadValidators({
      openapi: '3.0.3',
      info: { title: 'Checks', version: '1' },
      paths: {},
      components: {
        schemas: {
          Secret: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'pw', 'inner'],
            properties: {
              id: { type: 'string', readOnly: true },
              pw: { type: 'string', writeOnly: true },
              inner: { type: 'array', items: { type: 'object', required: ['at'], properties: { at: { type: 'integer', readOnly: true } } } },
            },
          },
        },
      },
    });
    const values = [
      { id: 'a', pw: 'b', inner: [{ at: 1 }] },
      { pw: 'b', inner: [{}] },
      { id: 'a', inner: [{ at: 1 }] },
      { id: 'a', pw: 'b', inner: [{}] },
      { id: 'a', inner: [] },
      { pw: 'b', inner: [], extra: 1 },
      { id: 1, pw: 'b', inner: [] },
      { id: 'a', pw: undefined, inner: [] },
      [],
      null,
    ];
    const answers: Record<string, boolean[]> = {};
    for (const name of ['Secret', 'SecretRequest', 'SecretResponse']) {
      const schema = loaded[name] as { safeParse(v: unknown): { success: boolean } };
      const check = loaded[`is${name}`] as (v: unknown) => boolean;
      expect(typeof check).toBe('function');
      answers[name] = values.map((v) => schema.safeParse(v).success);
      expect(values.map((v) => check(v))).toStrictEqual(answers[name]);
    }
    expect(answers).toStrictEqual({
      Secret: [true, false, false, false, false, false, false, false, false, false],
      SecretRequest: [true, true, false, true, false, false, false, false, false, false],
      SecretResponse: [false, false, true, false, true, false, false, true, false, false],
    });
  });
});

describe('a discriminated union whose variants change by direction', () => {
  it('validates each direction by its variants, the mapping following them', async () => {
    const loaded = await loadValidators({
      openapi: '3.0.3',
      info: { title: 'Pets', version: '1' },
      paths: {
        '/pets': {
          post: {
            operationId: 'addPet',
            requestBody: { required: true, content: { 'application/json': { schema: ref('Pet') } } },
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref('Pet') } } } },
          },
        },
      },
      components: {
        schemas: {
          Pet: { oneOf: [ref('Cat'), ref('Dog')], discriminator: { propertyName: 'petType', mapping: { cat: '#/components/schemas/Cat' } } },
          Cat: {
            type: 'object',
            required: ['petType', 'id', 'lives'],
            properties: { petType: { type: 'string', enum: ['cat'] }, id: { type: 'string', readOnly: true }, lives: { type: 'integer' } },
          },
          Dog: {
            type: 'object',
            required: ['petType', 'name', 'token'],
            properties: { petType: { type: 'string', enum: ['Dog'] }, name: { type: 'string' }, token: { type: 'string', writeOnly: true } },
          },
        },
      },
    });
    type Parse = { safeParse(v: unknown): { success: boolean } };
    const op = loaded.operations['addPet'] as { request: { body: { content: Record<string, Parse> } }; responses: Record<string, { content: Record<string, Parse> }> };
    const request = op.request.body.content['application/json']!;
    const response = op.responses['200']!.content['application/json']!;
    const pet = loaded['Pet'] as Parse;
    const cat = { petType: 'cat', lives: 9 };
    const dog = { petType: 'Dog', name: 'Rex' };
    expect([pet.safeParse(cat).success, request.safeParse(cat).success, response.safeParse(cat).success]).toStrictEqual([false, true, false]);
    expect([pet.safeParse(dog).success, request.safeParse(dog).success, response.safeParse(dog).success]).toStrictEqual([false, false, true]);
    expect(response.safeParse({ ...dog, token: 't' }).success).toBe(false);
    expect(request.safeParse({ ...dog, token: 't' }).success).toBe(true);
    expect(response.safeParse({ ...cat, id: 'c' }).success).toBe(true);
  });
});

describe('a union whose tag is proven to select, with variants that change by direction', () => {
  const pets = (tagReadOnly: boolean) => ({
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1' },
    paths: {
      '/pets': {
        post: {
          operationId: 'addPet',
          requestBody: { required: true, content: json(ref('Pet')) },
          responses: { '200': { description: 'ok', content: json(ref('Pet')) } },
        },
      },
    },
    components: {
      schemas: {
        Pet: { oneOf: [ref('Cat'), ref('Dog')], discriminator: { propertyName: 'kind' } },
        Cat: {
          type: 'object',
          required: ['kind', 'id'],
          properties: { kind: { type: 'string', enum: ['Cat'], ...(tagReadOnly ? { readOnly: true } : {}) }, id: { type: 'string', readOnly: true } },
        },
        Dog: { type: 'object', required: ['kind', 'id'], properties: { kind: { type: 'string', enum: ['Dog'] }, id: { type: 'string', readOnly: true } } },
      },
    },
  });
  const requestPet = (tagReadOnly: boolean) =>
    built(pets(tagReadOnly)).api.schemas.find((s) => s.name === 'Pet@request')!.schema as Extract<SchemaNode, { kind: 'union' }>;

  it('keeps the dispatch on the tag when another member is hidden, and drops it when the tag is', () => {
    expect(requestPet(false).discriminator?.selects).toStrictEqual({ Cat: 0, Dog: 1 });
    expect(requestPet(true).discriminator?.selects).toBeUndefined();
  });
});
