import { describe, expect, it } from 'vitest';
import { buildIR } from '../../src/ir/build-ir.js';
import type { ObjectNode, SchemaNode } from '../../src/ir/types.js';

function irOf(schemas: Record<string, unknown>, openapi = '3.0.3') {
  const document = { openapi, info: { title: 'T', version: '1' }, paths: {}, components: { schemas } };
  return buildIR({ source: 'fixture.yaml', document, diagnostics: [] }).api;
}

function schemaOf(schemas: Record<string, unknown>, name: string, openapi?: string): SchemaNode {
  return irOf(schemas, openapi).schemas.find((s) => s.name === name)!.schema;
}

const P = '#/components/schemas';

describe('schema to IR', () => {
  it('reads a string with every constraint', () => {
    expect(schemaOf({ A: { type: 'string', minLength: 1, maxLength: 35, pattern: '^x', format: 'date', description: 'd' } }, 'A')).toStrictEqual({
      kind: 'string',
      pointer: `${P}/A`,
      description: 'd',
      minLength: 1,
      maxLength: 35,
      patterns: ['^x'],
      format: 'date',
    });
  });

  it('reads 3.0 boolean exclusive bounds and 3.1 numeric ones alike', () => {
    const v30 = schemaOf({ A: { type: 'integer', format: 'int32', minimum: 0, exclusiveMinimum: true } }, 'A');
    const v31 = schemaOf({ A: { type: 'integer', format: 'int32', exclusiveMinimum: 0 } }, 'A', '3.1.0');
    const expected = { kind: 'number', integer: true, format: 'int32', exclusiveMinimum: 0, pointer: `${P}/A` };
    expect(v30).toStrictEqual(expected);
    expect(v31).toStrictEqual(expected);
  });

  it('reads nullable (3.0) and a null in a type array (3.1) as the same flag', () => {
    expect(schemaOf({ A: { type: 'string', nullable: true } }, 'A')).toStrictEqual({ kind: 'string', nullable: true, pointer: `${P}/A` });
    expect(schemaOf({ A: { type: ['string', 'null'] } }, 'A', '3.1.0')).toStrictEqual({ kind: 'string', nullable: true, pointer: `${P}/A` });
  });

  it('reads an object with required members, a closed shape and references', () => {
    const node = schemaOf(
      {
        B: { type: 'string' },
        A: { type: 'object', required: ['b'], additionalProperties: false, properties: { b: { $ref: `${P}/B` }, c: { type: 'boolean' } } },
      },
      'A',
    );
    expect(node).toStrictEqual({
      kind: 'object',
      pointer: `${P}/A`,
      additional: 'forbid',
      properties: [
        { name: 'b', required: true, schema: { kind: 'ref', name: 'B', pointer: `${P}/A/properties/b` } },
        { name: 'c', required: false, schema: { kind: 'boolean', pointer: `${P}/A/properties/c` } },
      ],
    });
  });

  it('merges an allOf of objects into one object, closed if any branch is closed', () => {
    const node = schemaOf(
      {
        Base: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        A: { allOf: [{ $ref: `${P}/Base` }, { type: 'object', additionalProperties: false, properties: { n: { type: 'number' } } }] },
      },
      'A',
    );
    expect(node.kind).toBe('object');
    if (node.kind !== 'object') return;
    expect(node.additional).toBe('forbid');
    expect(node.properties.map((p) => [p.name, p.required])).toStrictEqual([
      ['id', true],
      ['n', false],
    ]);
  });

  it('keeps a single-branch allOf as the reference it wraps', () => {
    expect(schemaOf({ B: { type: 'string' }, A: { allOf: [{ $ref: `${P}/B` }], description: 'why' } }, 'A')).toStrictEqual({
      kind: 'ref',
      name: 'B',
      pointer: `${P}/A/allOf/0`,
      description: 'why',
    });
  });

  it('proves oneOf variants disjoint by enum-valued members and closed shapes', () => {
    const schemas = {
      X: { type: 'object', required: ['t'], properties: { t: { type: 'string', enum: ['x'] } } },
      Y: { type: 'object', required: ['t'], properties: { t: { type: 'string', enum: ['y'] } } },
      Open1: { type: 'object', properties: { a: { type: 'string' } } },
      Open2: { type: 'object', properties: { b: { type: 'string' } } },
      Tagged: { oneOf: [{ $ref: `${P}/X` }, { $ref: `${P}/Y` }] },
      Loose: { oneOf: [{ $ref: `${P}/Open1` }, { $ref: `${P}/Open2` }] },
      Kinds: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    };
    const exclusive = (name: string) => {
      const node = schemaOf(schemas, name);
      return node.kind === 'union' ? node.exclusive : undefined;
    };
    expect(exclusive('Tagged')).toBe(true);
    expect(exclusive('Loose')).toBe(false);
    expect(exclusive('Kinds')).toBe(true);
  });

  it('marks schemas in a reference cycle as recursive, and only those', () => {
    const api = irOf({
      A: { type: 'object', properties: { b: { $ref: `${P}/B` } } },
      B: { type: 'object', properties: { a: { $ref: `${P}/A` } } },
      C: { type: 'object', properties: { a: { $ref: `${P}/A` } } },
    });
    expect(api.schemas.map((s) => [s.name, s.recursive])).toStrictEqual([
      ['A', true],
      ['B', true],
      ['C', false],
    ]);
  });

  it('reports what it cannot represent, naming the pointer and the keyword', () => {
    const api = irOf({ A: { type: 'object', properties: { x: { $dynamicRef: '#meta' } } } });
    expect(api.diagnostics).toContainEqual({
      severity: 'error',
      code: 'unsupported-keyword',
      pointer: `${P}/A/properties/x/$dynamicRef`,
      message: 'the keyword "$dynamicRef" is not supported; the validator would accept values the schema rejects',
    });
  });

  it('leaves what zod builders cannot say to the JSON Schema runtime, with a type at least as wide', () => {
    const api = irOf({ A: { type: 'object', required: ['x'], properties: { x: { type: 'string', not: { const: 'no' } } } } });
    const x = (api.schemas[0]!.schema as ObjectNode).properties[0]!;
    expect(x.schema).toMatchObject({ kind: 'json', pointer: `${P}/A/properties/x`, shape: { kind: 'string' } });
    expect(x.required).toBe(true);
    expect(api.diagnostics).toStrictEqual([]);
  });

  it('reports an invalid pattern instead of emitting it', () => {
    const api = irOf({ A: { type: 'string', pattern: '([a-z' } });
    expect(api.diagnostics.map((d) => [d.code, d.pointer])).toStrictEqual([['invalid-pattern', `${P}/A/pattern`]]);
  });

  it('refuses a reference to an $id that two schemas declare, naming the reference (which of them is meant is unknown)', () => {
    const same = 'https://example.com/same';
    const api = irOf({ A: { $id: same, type: 'string' }, B: { $id: same, type: 'integer' }, C: { $ref: same } }, '3.1.0');
    expect(api.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.pointer])).toStrictEqual([['duplicate-id', `${P}/C/$ref`]]);
    // One $id alone resolves.
    expect(irOf({ A: { $id: same, type: 'string' }, C: { $ref: same } }, '3.1.0').diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([]);
  });
});

describe('operations to IR', () => {
  const document = {
    openapi: '3.0.3',
    info: { title: 'T', version: 'v9' },
    servers: [{ url: 'https://{host}/open-finance/x/v9', variables: { host: { default: 'example.com' } } }],
    security: [{ Default: ['a'] }],
    paths: {
      '/items/{ItemId}': {
        parameters: [{ name: 'ItemId', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          operationId: 'GetItem',
          tags: ['Items'],
          'x-permissions': ['ReadItems'],
          parameters: [
            { $ref: '#/components/parameters/Page' },
            { name: 'x-trace', in: 'header', schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'ok',
              headers: { 'x-trace': { schema: { type: 'string' }, required: true } },
              content: { 'application/json': { schema: { type: 'object' } }, 'application/jwt': { schema: { type: 'string' } } },
            },
            '404': { $ref: '#/components/responses/NotFound' },
          },
        },
        patch: {
          operationId: 'PatchItem',
          security: [],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
          responses: { '204': { description: 'done' } },
        },
      },
    },
    components: {
      parameters: { Page: { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } } },
      responses: { NotFound: { description: 'missing' } },
      securitySchemes: { Default: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://example.com/token', scopes: { a: 'read' } } } } },
    },
  };
  const api = buildIR({ source: 'fixture.yaml', document, diagnostics: [] }).api;

  it('reads servers into a path prefix', () => {
    expect(api.servers).toStrictEqual([{ url: 'https://{host}/open-finance/x/v9', pathPrefix: '/open-finance/x/v9' }]);
    expect(api.version).toBe('v9');
  });

  it('reads each operation with parameters by location, responses by status and security', () => {
    const get = api.operations.find((o) => o.operationId === 'GetItem')!;
    expect(get.method).toBe('get');
    expect(get.path).toBe('/items/{ItemId}');
    expect(get.tags).toStrictEqual(['Items']);
    expect(get.extensions).toStrictEqual({ 'x-permissions': ['ReadItems'] });
    expect(get.parameters.map((p) => [p.in, p.name, p.required, p.style, p.explode])).toStrictEqual([
      ['path', 'ItemId', true, 'simple', false],
      ['query', 'page', false, 'form', true],
      ['header', 'x-trace', false, 'simple', false],
    ]);
    expect(get.responses.map((r) => [r.status, r.content.map((c) => c.contentType), r.headers.map((h) => [h.name, h.required])])).toStrictEqual([
      ['200', ['application/json', 'application/jwt'], [['x-trace', true]]],
      ['404', [], []],
    ]);
    expect(get.security).toStrictEqual([{ Default: ['a'] }]);
  });

  it('lets an operation override the document security, including with none', () => {
    const patch = api.operations.find((o) => o.operationId === 'PatchItem')!;
    expect(patch.security).toStrictEqual([]);
    expect(patch.requestBody?.required).toBe(true);
    expect(patch.requestBody?.content.map((c) => c.contentType)).toStrictEqual(['application/json']);
  });
});
