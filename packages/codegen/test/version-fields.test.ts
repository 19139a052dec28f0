import { describe, expect, it } from 'vitest';
import { fieldsOfLaterVersion } from '../src/ir/version-fields.js';

/** A document using every field only OpenAPI 3.2 defines, with the pointers expected, in document order. */
function everyLaterField(openapi: string): { document: Record<string, unknown>; pointers: string[] } {
  const document = {
    openapi,
    $self: 'https://example.com/api.yaml',
    info: { title: 'T', version: '1' },
    servers: [{ url: 'https://a.example.com', name: 'production' }],
    tags: [{ name: 'accounts', summary: 'Accounts', parent: 'banking', kind: 'nav' }],
    paths: {
      '/accounts': {
        servers: [{ url: 'https://b.example.com', name: 'path-level' }],
        parameters: [{ name: 'filter', in: 'querystring', content: { 'application/json': { schema: { type: 'object' } } } }],
        query: { responses: { '200': { description: 'ok' } } },
        additionalOperations: { COPY: { responses: { '200': { description: 'ok' } } } },
        get: {
          servers: [{ url: 'https://c.example.com', name: 'operation-level' }],
          parameters: [
            { name: 'session', in: 'cookie', style: 'cookie', schema: { type: 'string' } },
            {
              name: 'kind',
              in: 'query',
              schema: { type: 'string' },
              examples: { one: { dataValue: 'a', serializedValue: 'kind=a' } },
            },
          ],
          requestBody: {
            content: {
              'application/jsonl': {
                itemSchema: { type: 'object' },
                itemEncoding: { contentType: 'application/json' },
              },
              'multipart/mixed': {
                prefixEncoding: [{ contentType: 'text/plain' }],
                schema: {
                  type: 'object',
                  properties: {
                    pet: {
                      oneOf: [{ type: 'object' }],
                      discriminator: { propertyName: 'kind', defaultMapping: 'Other' },
                    },
                  },
                },
                encoding: {
                  part: { contentType: 'multipart/mixed', encoding: {}, itemEncoding: {}, prefixEncoding: [] },
                },
              },
            },
          },
          responses: {
            '200': {
              summary: 'Accounts',
              description: 'ok',
              headers: {
                'X-Rate': { schema: { type: 'integer', xml: { nodeType: 'attribute' } } },
              },
              content: {
                'application/json': {
                  schema: { type: 'array', items: { type: 'string' } },
                  examples: { two: { serializedValue: '[]' } },
                },
              },
            },
          },
          callbacks: {
            onEvent: {
              '{$request.body#/url}': { query: { responses: { '200': { description: 'ok' } } } },
            },
          },
        },
      },
    },
    webhooks: {
      created: { additionalOperations: {} },
    },
    components: {
      mediaTypes: { Jsonl: { itemSchema: {} } },
      schemas: {
        Nested: {
          type: 'object',
          properties: {
            deep: {
              allOf: [{ additionalProperties: { xml: { nodeType: 'element' } } }],
            },
          },
          $defs: { Inner: { discriminator: { propertyName: 'k', defaultMapping: 'X' } } },
        },
      },
      responses: { Gone: { summary: 'Gone', description: 'gone' } },
      parameters: { Raw: { name: 'raw', in: 'querystring' } },
      examples: { Ex: { dataValue: {} } },
      requestBodies: { Body: { content: { 'text/csv': { itemSchema: {} } } } },
      headers: { Trace: { content: { 'text/plain': { itemEncoding: {} } } } },
      securitySchemes: {
        Old: { type: 'apiKey', name: 'k', in: 'header', deprecated: true },
        OAuth: {
          type: 'oauth2',
          oauth2MetadataUrl: 'https://auth.example.com/.well-known/oauth-authorization-server',
          flows: { deviceAuthorization: { deviceAuthorizationUrl: 'https://a', tokenUrl: 'https://t', scopes: {} } },
        },
      },
      callbacks: { Hook: { '{$url}': { query: {} } } },
      pathItems: { Shared: { additionalOperations: {} } },
    },
  };
  const pointers = [
    '#/$self',
    '#/servers/0/name',
    '#/tags/0/summary',
    '#/tags/0/parent',
    '#/tags/0/kind',
    '#/paths/~1accounts/servers/0/name',
    '#/paths/~1accounts/parameters/0/in',
    '#/paths/~1accounts/query',
    '#/paths/~1accounts/additionalOperations',
    '#/paths/~1accounts/get/servers/0/name',
    '#/paths/~1accounts/get/parameters/0/style',
    '#/paths/~1accounts/get/parameters/1/examples/one/dataValue',
    '#/paths/~1accounts/get/parameters/1/examples/one/serializedValue',
    '#/paths/~1accounts/get/requestBody/content/application~1jsonl/itemSchema',
    '#/paths/~1accounts/get/requestBody/content/application~1jsonl/itemEncoding',
    '#/paths/~1accounts/get/requestBody/content/multipart~1mixed/prefixEncoding',
    '#/paths/~1accounts/get/requestBody/content/multipart~1mixed/schema/properties/pet/discriminator/defaultMapping',
    '#/paths/~1accounts/get/requestBody/content/multipart~1mixed/encoding/part/encoding',
    '#/paths/~1accounts/get/requestBody/content/multipart~1mixed/encoding/part/itemEncoding',
    '#/paths/~1accounts/get/requestBody/content/multipart~1mixed/encoding/part/prefixEncoding',
    '#/paths/~1accounts/get/responses/200/summary',
    '#/paths/~1accounts/get/responses/200/headers/X-Rate/schema/xml/nodeType',
    '#/paths/~1accounts/get/responses/200/content/application~1json/examples/two/serializedValue',
    '#/paths/~1accounts/get/callbacks/onEvent/{$request.body#~1url}/query',
    '#/webhooks/created/additionalOperations',
    '#/components/mediaTypes',
    '#/components/schemas/Nested/properties/deep/allOf/0/additionalProperties/xml/nodeType',
    '#/components/schemas/Nested/$defs/Inner/discriminator/defaultMapping',
    '#/components/responses/Gone/summary',
    '#/components/parameters/Raw/in',
    '#/components/examples/Ex/dataValue',
    '#/components/requestBodies/Body/content/text~1csv/itemSchema',
    '#/components/headers/Trace/content/text~1plain/itemEncoding',
    '#/components/securitySchemes/Old/deprecated',
    '#/components/securitySchemes/OAuth/oauth2MetadataUrl',
    '#/components/securitySchemes/OAuth/flows/deviceAuthorization',
    '#/components/callbacks/Hook/{$url}/query',
    '#/components/pathItems/Shared/additionalOperations',
  ];
  return { document, pointers };
}

function pointersOf(document: Record<string, unknown>): string[] {
  return fieldsOfLaterVersion(document).map((d) => d.pointer);
}

/** A 3.1 document whose only content is one path's GET operation. */
function withOperation(operation: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { openapi: '3.1.0', info: { title: 'T', version: '1' }, paths: { '/a': { get: operation } }, ...extra };
}

describe('fieldsOfLaterVersion', () => {
  for (const openapi of ['3.1.0', '3.1.1', '3.0.3', '3.0.0']) {
    it(`finds every OpenAPI 3.2 field, in document order, in an openapi ${openapi} file`, () => {
      const { document, pointers } = everyLaterField(openapi);
      expect(pointersOf(document)).toEqual(pointers);
    });
  }

  it('reports errors with the code and a message naming the field and the declared version', () => {
    const { document } = everyLaterField('3.1.0');
    const found = fieldsOfLaterVersion(document);
    expect(found.every((d) => d.severity === 'error' && d.code === 'openapi-3.2-field')).toBe(true);
    const byPointer = new Map(found.map((d) => [d.pointer, d.message]));
    expect(byPointer.get('#/paths/~1accounts/get/requestBody/content/application~1jsonl/itemSchema')).toBe(
      '"itemSchema" is an OpenAPI 3.2 field, but this file says openapi 3.1.0: set openapi: 3.2.0 to use it, or remove it',
    );
    expect(byPointer.get('#/paths/~1accounts/parameters/0/in')).toMatch(/^"in: querystring" is OpenAPI 3\.2.*openapi 3\.1\.0/);
    expect(byPointer.get('#/paths/~1accounts/get/parameters/0/style')).toMatch(/^"style: cookie" is OpenAPI 3\.2/);
    expect(byPointer.get('#/paths/~1accounts/query')).toMatch(/^"query" \(the HTTP QUERY method\) is .*set openapi: 3\.2\.0/);
  });

  it('names the declared 3.0 version in the message', () => {
    const found = fieldsOfLaterVersion({ openapi: '3.0.3', $self: 'x' });
    expect(found).toEqual([
      {
        severity: 'error',
        code: 'openapi-3.2-field',
        pointer: '#/$self',
        message: '"$self" is an OpenAPI 3.2 field, but this file says openapi 3.0.3: set openapi: 3.2.0 to use it, or remove it',
      },
    ]);
  });

  it('reports nothing when the file declares 3.2 (or no 3.0/3.1 version at all)', () => {
    for (const openapi of ['3.2.0', '3.2.1', '2.0', '4.0.0', '3.1', '3']) {
      expect(pointersOf(everyLaterField(openapi).document)).toEqual([]);
    }
    const { document } = everyLaterField('3.1.0');
    expect(pointersOf({ ...document, openapi: 3.1 })).toEqual([]);
    expect(pointersOf({ ...document, openapi: undefined })).toEqual([]);
    expect(pointersOf({ ...document, swagger: '2.0', openapi: undefined })).toEqual([]);
  });

  it('does not report schema property names, map keys or example data that merely spell a 3.2 field', () => {
    const named = {
      type: 'object',
      properties: {
        summary: { type: 'string' },
        query: { type: 'string' },
        itemSchema: { type: 'object' },
        nodeType: { type: 'string' },
        defaultMapping: { type: 'string' },
        discriminator: { type: 'object', properties: { defaultMapping: { type: 'string' } } },
        xml: { type: 'object', properties: { nodeType: { type: 'string' } } },
      },
      required: ['summary', 'query'],
      example: { summary: 's', query: 'q', itemSchema: {}, nodeType: 'n', xml: { nodeType: 'n' } },
      examples: [{ summary: 's', discriminator: { defaultMapping: 'd' } }],
      default: { summary: 's' },
      enum: [{ query: 'q' }],
      const: { itemSchema: {} },
    };
    const document = withOperation(
      {
        parameters: [{ name: 'summary', in: 'query', schema: named, example: { query: 1 } }],
        requestBody: {
          content: {
            'application/json': {
              schema: named,
              example: { itemSchema: 1, summary: 2 },
              examples: { summary: { summary: 'an Example Object may have a summary', value: { dataValue: 1, query: 2 } } },
            },
          },
        },
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: named } } },
        },
      },
      {
        components: {
          schemas: { summary: named, query: named, itemSchema: named, nodeType: named },
          examples: { query: { summary: 'fine', value: { serializedValue: 'data', dataValue: 'data' } } },
          securitySchemes: { deprecated: { type: 'http', scheme: 'bearer' } },
        },
        tags: [{ name: 'summary', description: 'query' }],
        servers: [{ url: 'https://x', description: 'name', variables: { name: { default: 'a' } } }],
      },
    );
    expect(pointersOf(document)).toEqual([]);
  });

  it('skips Reference Objects without following them, and reports at the definition', () => {
    const document = {
      openapi: '3.1.0',
      paths: {
        '/a': {
          $ref: '#/components/pathItems/Shared',
          get: {
            parameters: [{ $ref: '#/components/parameters/Raw', summary: 'a Reference Object may have one' }],
            requestBody: { $ref: '#/components/requestBodies/Body' },
            responses: {
              '200': { $ref: '#/components/responses/Gone', summary: 'a Reference Object may have one' },
              '404': { $ref: '#/components/responses/Gone', description: 'nf' },
            },
            callbacks: { cb: { $ref: '#/components/callbacks/Hook' } },
          },
        },
      },
      components: {
        responses: { Gone: { description: 'gone', summary: 'Gone' } },
        parameters: { Raw: { name: 'raw', in: 'querystring' } },
        requestBodies: { Body: { content: { 'text/csv': { itemSchema: {} } } } },
        callbacks: { Hook: { '{$url}': { $ref: '#/components/pathItems/Shared' } } },
        pathItems: { Shared: { query: {} } },
        schemas: {
          Ref: { $ref: '#/components/schemas/Other' },
          Other: { type: 'object', properties: { a: { $ref: '#/components/schemas/Ref' } } },
        },
      },
    };
    expect(pointersOf(document)).toEqual([
      '#/components/responses/Gone/summary',
      '#/components/parameters/Raw/in',
      '#/components/requestBodies/Body/content/text~1csv/itemSchema',
      '#/components/pathItems/Shared/query',
    ]);
  });

  it('skips the siblings of a schema $ref in 3.0, where they are ignored, but not in 3.1, where they apply', () => {
    const schemas = {
      Pet: { $ref: '#/components/schemas/Base', xml: { nodeType: 'element' } },
      Base: { type: 'object' },
    };
    expect(pointersOf({ openapi: '3.0.3', components: { schemas } })).toEqual([]);
    expect(pointersOf({ openapi: '3.1.0', components: { schemas } })).toEqual(['#/components/schemas/Pet/xml/nodeType']);
  });

  it('skips x- extension members, wherever they are', () => {
    const document = {
      openapi: '3.1.0',
      'x-self': { $self: 'x' },
      'x-tags': [{ summary: 's' }],
      paths: {
        'x-query': { query: {} },
        '/a': {
          'x-query': { query: {} },
          get: {
            'x-responses': { '200': { summary: 's' } },
            responses: {
              'x-200': { summary: 's' },
              '200': {
                description: 'ok',
                'x-summary': 's',
                content: {
                  'application/json': {
                    'x-itemSchema': {},
                    schema: { 'x-xml': { nodeType: 'a' }, properties: { 'x-a': { xml: { nodeType: 'a' } } } },
                  },
                },
              },
            },
          },
        },
      },
      components: {
        'x-mediaTypes': {},
        schemas: { 'x-S': { discriminator: { defaultMapping: 'd' } } },
      },
    };
    expect(pointersOf(document)).toEqual([]);
  });

  it('escapes pointer tokens holding "/" and "~"', () => {
    const document = {
      openapi: '3.1.0',
      paths: { '/a~b/{id}': { get: { responses: { '2XX': { description: 'ok', summary: 's' } } } } },
      components: { schemas: { 'a/b~c': { properties: { 'x/y': { xml: { nodeType: 'text' } } } } } },
    };
    expect(pointersOf(document)).toEqual([
      '#/paths/~1a~0b~1{id}/get/responses/2XX/summary',
      '#/components/schemas/a~1b~0c/properties/x~1y/xml/nodeType',
    ]);
  });

  it('walks every subschema keyword', () => {
    const marked = { xml: { nodeType: 'element' } };
    const schema = {
      properties: { p: marked },
      patternProperties: { '^a': marked },
      additionalProperties: marked,
      items: marked,
      prefixItems: [marked],
      allOf: [marked],
      anyOf: [marked],
      oneOf: [marked],
      not: marked,
      if: marked,
      then: marked,
      else: marked,
      dependentSchemas: { d: marked },
      contains: marked,
      propertyNames: marked,
      unevaluatedProperties: marked,
      unevaluatedItems: marked,
      $defs: { D: marked },
      definitions: { E: marked },
      contentSchema: marked,
    };
    const at = '#/components/schemas/S';
    expect(pointersOf({ openapi: '3.1.0', components: { schemas: { S: schema } } })).toEqual([
      `${at}/properties/p/xml/nodeType`,
      `${at}/patternProperties/^a/xml/nodeType`,
      `${at}/additionalProperties/xml/nodeType`,
      `${at}/items/xml/nodeType`,
      `${at}/prefixItems/0/xml/nodeType`,
      `${at}/allOf/0/xml/nodeType`,
      `${at}/anyOf/0/xml/nodeType`,
      `${at}/oneOf/0/xml/nodeType`,
      `${at}/not/xml/nodeType`,
      `${at}/if/xml/nodeType`,
      `${at}/then/xml/nodeType`,
      `${at}/else/xml/nodeType`,
      `${at}/dependentSchemas/d/xml/nodeType`,
      `${at}/contains/xml/nodeType`,
      `${at}/propertyNames/xml/nodeType`,
      `${at}/unevaluatedProperties/xml/nodeType`,
      `${at}/unevaluatedItems/xml/nodeType`,
      `${at}/$defs/D/xml/nodeType`,
      `${at}/definitions/E/xml/nodeType`,
      `${at}/contentSchema/xml/nodeType`,
    ]);
  });

  it('reports a 3.2 field once, not the 3.2 fields inside it', () => {
    const document = withOperation({
      requestBody: {
        content: { 'application/jsonl': { itemSchema: { xml: { nodeType: 'element' }, discriminator: { defaultMapping: 'x' } } } },
      },
      responses: {},
    });
    const inner = { responses: { '200': { description: 'ok', summary: 's' } } };
    const withQuery = { openapi: '3.1.0', paths: { '/a': { query: inner, additionalOperations: { COPY: inner } } } };
    expect(pointersOf(document)).toEqual(['#/paths/~1a/get/requestBody/content/application~1jsonl/itemSchema']);
    expect(pointersOf(withQuery)).toEqual(['#/paths/~1a/query', '#/paths/~1a/additionalOperations']);
  });

  it('reports the same object at each place it is reached (YAML aliases)', () => {
    const shared = { description: 'ok', summary: 's' };
    const document = withOperation({ responses: { '200': shared, '201': shared } });
    expect(pointersOf(document)).toEqual(['#/paths/~1a/get/responses/200/summary', '#/paths/~1a/get/responses/201/summary']);
  });

  it('never throws on malformed documents', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic['properties'] = { self: cyclic };
    cyclic['items'] = cyclic;
    const cyclicItem: Record<string, unknown> = { summary: 'a Path Item may have one' };
    cyclicItem['get'] = { callbacks: { cb: { '{$url}': cyclicItem } } };
    const cyclicPaths = { '/a': cyclicItem };
    const malformed: unknown[] = [
      null,
      undefined,
      42,
      'openapi',
      [],
      [{ openapi: '3.1.0' }],
      { openapi: '3.1.0', paths: null },
      { openapi: '3.1.0', paths: [], components: [], servers: {}, tags: 'x', webhooks: 7 },
      { openapi: '3.1.0', paths: { '/a': null, '/b': [], '/c': 'x', '/d': { get: [], parameters: {}, servers: 'x' } } },
      {
        openapi: '3.1.0',
        paths: {
          '/a': {
            get: {
              parameters: [null, 1, [], { schema: [] }, { content: [] }, { examples: [null, {}] }],
              requestBody: { content: { 'a/b': null, 'c/d': { schema: true, encoding: [], examples: 'x' } } },
              responses: [{ summary: 1 }],
              callbacks: { cb: null, cb2: [] },
            },
          },
        },
      },
      {
        openapi: '3.1.0',
        components: {
          schemas: {
            A: { properties: [], items: [null, true, { xml: null }], allOf: {}, discriminator: [], xml: 'x' },
            B: false,
            C: null,
            D: { $defs: null, not: 1, prefixItems: 'x' },
          },
          responses: null,
          parameters: [],
          securitySchemes: { S: { flows: [] }, T: null },
          callbacks: { C: null, D: { '{$url}': null } },
          pathItems: 'x',
        },
      },
      { openapi: '3.1.0', components: { schemas: { Cyclic: cyclic } }, paths: cyclicPaths },
    ];
    for (const document of malformed) {
      expect(() => fieldsOfLaterVersion(document as Record<string, unknown>)).not.toThrow();
    }
    expect(fieldsOfLaterVersion(null as unknown as Record<string, unknown>)).toEqual([]);
  });
});
