/**
 * What the IR reads of an OpenAPI 3.2 document: the `query` method and `additionalOperations`,
 * `$self` as the base of references, Media Type Objects in `components/mediaTypes`,
 * `itemSchema`, the `querystring` parameter's rules, and the new annotations (response
 * `summary`, tag `parent`/`kind`, server `name`, a scheme's `deprecated` and device flow).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIR, type BuiltIR } from '../../src/ir/build-ir.js';
import { loadSpec } from '../../src/load/load-spec.js';
import type { Diagnostic } from '../../src/ir/types.js';

const OK = { '200': { description: 'ok' } };
const QUOTE = { type: 'object', required: ['symbol'], properties: { symbol: { type: 'string' } } };

function built(document: Record<string, unknown>, openapi = '3.2.0'): BuiltIR {
  return buildIR({ source: 'api.yaml', document: { openapi, info: { title: 'T', version: '1' }, ...document }, diagnostics: [] });
}

const errors = (b: BuiltIR): Diagnostic[] => b.api.diagnostics.filter((d) => d.severity === 'error');

const scratch: string[] = [];
afterAll(() => Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true }))));

async function loaded(document: Record<string, unknown>): Promise<BuiltIR> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'oas32-'));
  scratch.push(dir);
  const file = path.join(dir, 'api.json');
  await writeFile(file, JSON.stringify(document));
  return buildIR(await loadSpec(file));
}

describe('methods', () => {
  it('reads `query` as an operation with a request body, and additionalOperations under their own method name', () => {
    const b = built({
      paths: {
        '/search': {
          query: { operationId: 'search', requestBody: { content: { 'application/json': { schema: QUOTE } } }, responses: OK },
          additionalOperations: { COPY: { operationId: 'copy', responses: OK }, PURGE: { responses: OK } },
        },
      },
    });
    expect(errors(b)).toEqual([]);
    expect(b.api.operations.map((op) => [op.name, op.method, op.pointer])).toEqual([
      ['search', 'query', '#/paths/~1search/query'],
      ['copy', 'COPY', '#/paths/~1search/additionalOperations/COPY'],
      ['purgeSearch', 'PURGE', '#/paths/~1search/additionalOperations/PURGE'],
    ]);
    expect(b.api.operations[0]!.requestBody?.content[0]?.schema?.kind).toBe('object');
  });

  it('refuses an additional operation for a method with its own field, a method in lower case, or a name that is not a token', () => {
    const b = built({ paths: { '/x': { additionalOperations: { POST: { responses: OK }, query: { responses: OK }, purge: { responses: OK }, 'NOT A METHOD': { responses: OK } } } } });
    expect(b.api.operations).toEqual([]);
    expect(errors(b).map((d) => [d.pointer, d.message])).toEqual([
      ['#/paths/~1x/additionalOperations/POST', 'POST has its own field: write the operation under "post", not in "additionalOperations"'],
      ['#/paths/~1x/additionalOperations/query', 'query has its own field: write the operation under "query", not in "additionalOperations"'],
      ['#/paths/~1x/additionalOperations/purge', 'method "purge" is not in upper case: the generated client and router send and route methods in upper case (write "PURGE")'],
      ['#/paths/~1x/additionalOperations/NOT A METHOD', expect.stringContaining('is not an HTTP method name')],
    ]);
  });

  it('warns that a method Node cannot receive is sent by the client only', () => {
    const b = built({ paths: { '/x': { additionalOperations: { FROBNICATE: { operationId: 'frob', responses: OK } } } } });
    expect(b.api.operations.map((op) => op.method)).toEqual(['FROBNICATE']);
    expect(b.api.diagnostics.find((d) => d.code === 'method-not-routable')?.message).toContain('does not accept the method FROBNICATE');
  });

  it('reads query and additional operations of webhooks', () => {
    const b = built({ webhooks: { tick: { query: { responses: OK }, additionalOperations: { NOTIFY: { responses: OK } } } } });
    expect(b.api.webhooks?.map((hook) => [hook.key, hook.method])).toEqual([
      ['tick.query', 'query'],
      ['tick.NOTIFY', 'NOTIFY'],
    ]);
    expect(b.api.diagnostics.filter((d) => d.code === 'unsupported-webhook-member')).toEqual([]);
  });

  it('names a 3.2 method in a 3.1 file as an error with its pointer', () => {
    const b = built({ paths: { '/x': { query: { responses: OK } } } }, '3.1.1');
    expect(errors(b).map((d) => [d.code, d.pointer])).toEqual([['openapi-3.2-field', '#/paths/~1x/query']]);
  });
});

describe('documents', () => {
  it('resolves references through $self, absolute and relative, to the document itself', async () => {
    const b = await loaded({
      openapi: '3.2.0',
      $self: 'https://api.example.test/specs/feed.json',
      info: { title: 'T', version: '1' },
      paths: {
        '/q': {
          get: {
            parameters: [{ $ref: 'https://api.example.test/specs/feed.json#/components/parameters/Symbol' }],
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: 'feed.json#/components/schemas/Quote' } } } } },
          },
        },
      },
      components: {
        parameters: { Symbol: { name: 'symbol', in: 'query', schema: { type: 'string' } } },
        schemas: { Quote: QUOTE, Alias: { $ref: '/specs/feed.json#/components/schemas/Quote' } },
      },
    });
    expect(errors(b)).toEqual([]);
    const op = b.api.operations[0]!;
    expect(op.parameters.map((p) => p.name)).toEqual(['symbol']);
    expect(op.responses[0]!.content[0]!.schema).toMatchObject({ kind: 'ref', name: 'Quote' });
    expect(b.api.schemas.find((s) => s.name === 'Alias')!.schema).toMatchObject({ kind: 'ref', name: 'Quote' });
  });

  it('refuses a reference through $self to a resource the document does not hold as remote', async () => {
    await expect(
      loaded({
        openapi: '3.2.0',
        $self: 'https://api.example.test/specs/feed.json',
        info: { title: 'T', version: '1' },
        paths: {},
        components: { schemas: { Other: { $ref: 'https://api.example.test/specs/other.json#/components/schemas/X' } } },
      }),
    ).rejects.toThrow(/remote reference/);
  });

  it('reads Media Type Objects from components/mediaTypes, and itemSchema', () => {
    const b = built({
      paths: { '/live': { get: { responses: { '200': { description: 'events', content: { 'text/event-stream': { $ref: '#/components/mediaTypes/Events' }, 'application/jsonl': { itemSchema: QUOTE } } } } } } },
      components: { mediaTypes: { Events: { itemSchema: { type: 'object', required: ['data'], properties: { data: { type: 'string' } } } } } },
    });
    expect(errors(b)).toEqual([]);
    const [events, lines] = b.api.operations[0]!.responses[0]!.content;
    expect(events).toMatchObject({ contentType: 'text/event-stream', itemSchema: { kind: 'object', pointer: '#/components/mediaTypes/Events/itemSchema' } });
    expect(events!.schema).toBeUndefined();
    expect(lines).toMatchObject({ contentType: 'application/jsonl', itemSchema: { kind: 'object' } });
  });

  it('keeps response summary, tags with parent and kind, server name, scheme deprecation and the device flow', () => {
    const b = built({
      servers: [{ url: 'https://x.test/v1', name: 'prod' }],
      tags: [{ name: 'a', summary: 'A' }, { name: 'b', parent: 'a', kind: 'nav', description: 'B' }],
      paths: { '/x': { get: { responses: { '200': { summary: 'Fine', description: 'ok' } } } } },
      components: {
        securitySchemes: {
          device: { type: 'oauth2', deprecated: true, oauth2MetadataUrl: 'https://auth.test/meta', flows: { deviceAuthorization: { deviceAuthorizationUrl: 'https://auth.test/device', tokenUrl: 'https://auth.test/token', scopes: { read: 'r' } } } },
        },
      },
    });
    expect(b.api.servers[0]).toMatchObject({ name: 'prod', pathPrefix: '/v1' });
    expect(b.api.tags).toEqual([{ name: 'a', summary: 'A' }, { name: 'b', parent: 'a', kind: 'nav', description: 'B' }]);
    expect(b.api.operations[0]!.responses[0]).toMatchObject({ summary: 'Fine', description: 'ok' });
    expect(b.api.securitySchemes[0]).toEqual({
      name: 'device',
      type: 'oauth2',
      deprecated: true,
      oauth2MetadataUrl: 'https://auth.test/meta',
      flows: { deviceAuthorization: { scopes: ['read'], deviceAuthorizationUrl: 'https://auth.test/device', tokenUrl: 'https://auth.test/token' } },
    });
  });
});

describe('the querystring parameter', () => {
  const querystring = (extra: Record<string, unknown> = {}) => ({ name: 'filter', in: 'querystring', content: { 'application/x-www-form-urlencoded': { schema: QUOTE } }, ...extra });

  it('in form encoding, is the query parameters of its object schema (encoding entries applied)', () => {
    const filter = {
      name: 'filter',
      in: 'querystring',
      content: {
        'application/x-www-form-urlencoded': {
          schema: { type: 'object', required: ['symbol'], properties: { symbol: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } },
          encoding: { tags: { style: 'pipeDelimited', explode: false } },
        },
      },
    };
    const b = built({ paths: { '/x': { get: { parameters: [filter], responses: OK } } } });
    expect(errors(b)).toEqual([]);
    expect(b.api.operations[0]!.parameters.map((p) => [p.name, p.in, p.required, p.style, p.explode, p.fromQuerystring])).toEqual([
      ['symbol', 'query', true, 'form', true, 'filter'],
      ['tags', 'query', false, 'pipeDelimited', false, 'filter'],
    ]);
  });

  it('in JSON, stays one parameter, its value the whole query string', () => {
    const b = built({ paths: { '/x': { get: { parameters: [{ name: 'q', in: 'querystring', required: true, content: { 'application/json': { schema: QUOTE } } }], responses: OK } } } });
    expect(errors(b)).toEqual([]);
    expect(b.api.operations[0]!.parameters).toMatchObject([{ name: 'q', in: 'querystring', required: true, style: 'content', explode: false, contentType: 'application/json', schema: { kind: 'object' } }]);
  });

  it('is refused, by name, in another media type or with a schema that is not an object', () => {
    const b = built({
      paths: {
        '/x': { get: { parameters: [{ name: 'raw', in: 'querystring', content: { 'text/plain': { schema: { type: 'string' } } } }], responses: OK } },
        '/y': { get: { parameters: [{ name: 'list', in: 'querystring', content: { 'application/json': { schema: { type: 'array' } } } }], responses: OK } },
      },
    });
    expect(errors(b).map((d) => [d.code, d.message])).toEqual([
      ['querystring-not-generated', 'the "in: querystring" parameter "raw" is not generated: its media type text/plain is neither form encoding nor JSON'],
      ['querystring-not-generated', 'the "in: querystring" parameter "list" is not generated: its schema is not an object (the query is typed as an object of members)'],
    ]);
  });

  it('names schema, style, explode and allowReserved on it, and content that is not one media type', () => {
    const b = built({ paths: { '/x': { get: { parameters: [querystring({ schema: QUOTE, style: 'form', explode: true, allowReserved: true, content: {} })], responses: OK } } } });
    expect(errors(b).map((d) => d.message)).toEqual([
      '"schema" is not allowed on an "in: querystring" parameter (its "content" describes the whole query string)',
      '"style" is not allowed on an "in: querystring" parameter (its "content" describes the whole query string)',
      '"explode" is not allowed on an "in: querystring" parameter (its "content" describes the whole query string)',
      '"allowReserved" is not allowed on an "in: querystring" parameter (its "content" describes the whole query string)',
      'an "in: querystring" parameter needs "content" with exactly one media type (found 0)',
    ]);
  });

  it('stands alone: no second one, and no query parameter beside it (path-level ones included)', () => {
    const b = built({
      paths: {
        '/x': {
          parameters: [{ name: 'page', in: 'query', schema: { type: 'integer' } }],
          get: { parameters: [querystring(), querystring({ name: 'other' })], responses: OK },
        },
      },
    });
    const messages = errors(b).filter((d) => d.code === 'invalid-querystring-parameter').map((d) => d.message);
    expect(messages).toEqual([
      'an operation has at most one "in: querystring" parameter (found "filter", "other")',
      '"in: query" parameters ("page") cannot stand beside the "in: querystring" parameter "filter", which is the whole query string',
    ]);
  });
});

describe('examples', () => {
  it('checks an Example Object\'s dataValue against its schema, as it checks value', () => {
    const b = built({
      paths: {
        '/x': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: QUOTE, examples: { good: { dataValue: { symbol: 'ABC' } }, bad: { dataValue: { price: 1 }, serializedValue: '{"price":1}' } } } },
              },
            },
          },
        },
      },
    });
    expect(b.examples.map((e) => e.pointer)).toEqual([
      '#/paths/~1x/get/responses/200/content/application~1json/examples/good/dataValue',
      '#/paths/~1x/get/responses/200/content/application~1json/examples/bad/dataValue',
      '#/paths/~1x/get/responses/200/content/application~1json/examples/bad/serializedValue',
    ]);
    expect(b.api.diagnostics.filter((d) => d.code === 'example-mismatch').map((d) => d.pointer)).toEqual([
      '#/paths/~1x/get/responses/200/content/application~1json/examples/bad/dataValue',
      '#/paths/~1x/get/responses/200/content/application~1json/examples/bad/serializedValue',
    ]);
  });
});

describe('the cookie style', () => {
  it('explodes by default, and belongs to cookies alone', () => {
    const b = built({
      paths: {
        '/x': {
          get: {
            parameters: [
              { name: 'prefs', in: 'cookie', style: 'cookie', schema: { type: 'array', items: { type: 'string' } } },
              { name: 'q', in: 'query', style: 'cookie', schema: { type: 'string' } },
            ],
            responses: OK,
          },
        },
      },
    });
    expect(b.api.operations[0]!.parameters.map((p) => [p.name, p.style, p.explode])).toEqual([['prefs', 'cookie', true]]);
    expect(errors(b).map((d) => d.message)).toEqual(['style cookie is for "in: cookie" parameters, not "in: query"']);
  });
});

describe('serializedValue', () => {
  const withExamples = (examples: Record<string, unknown>, contentType = 'application/json') =>
    built({ paths: { '/x': { get: { responses: { '200': { description: 'ok', content: { [contentType]: { schema: QUOTE, examples } } } } } } } });

  it('reads JSON text back and checks the value against the schema', () => {
    const b = withExamples({ good: { serializedValue: '{"symbol":"ABC"}' }, bad: { serializedValue: '{"price":1}' }, broken: { serializedValue: '{oops' } });
    expect(b.examples.map((e) => [e.pointer.split('/examples/')[1], e.value])).toEqual([
      ['good/serializedValue', { symbol: 'ABC' }],
      ['bad/serializedValue', { price: 1 }],
    ]);
    const warnings = b.api.diagnostics.filter((d) => d.code === 'example-mismatch').map((d) => [d.pointer.split('/examples/')[1], d.message]);
    expect(warnings).toEqual([
      ['broken/serializedValue', expect.stringMatching(/^serializedValue cannot be read: it is not JSON .*, as application\/json requires$/)],
      ['bad/serializedValue', expect.stringContaining('example does not fit its schema')],
    ]);
  });

  it('names a serializedValue that does not carry its dataValue (members in any order are the same value)', () => {
    const b = withExamples({ same: { dataValue: { symbol: 'A', n: [1] }, serializedValue: '{"n":[1],"symbol":"A"}' }, other: { dataValue: { symbol: 'A' }, serializedValue: '{"symbol":"B"}' } });
    expect(b.api.diagnostics.filter((d) => d.code === 'example-mismatch').map((d) => [d.pointer.split('/examples/')[1], d.message])).toEqual([['other/serializedValue', 'serializedValue does not carry the value dataValue gives']]);
  });
});

describe('serializedValue of a parameter', () => {
  const parameter = (extra: Record<string, unknown>, examples: Record<string, unknown>) =>
    built({ paths: { '/x/{id}': { get: { parameters: [{ ...extra, examples }], responses: OK } } } });
  const fits = (b: BuiltIR) => b.api.diagnostics.filter((d) => d.code === 'example-mismatch').map((d) => [d.pointer.split('/examples/')[1], d.message]);
  const values = (b: BuiltIR) => b.examples.map((e) => e.value);

  it('reads it in the parameter\'s place and style, typed by its schema', () => {
    const query = parameter({ name: 'n', in: 'query', schema: { type: 'array', items: { type: 'integer', maximum: 5 } } }, { ok: { serializedValue: 'n=1&n=2' }, big: { serializedValue: 'n=3&n=9' } });
    expect(values(query)).toEqual([[1, 2], [3, 9]]);
    expect(fits(query)).toEqual([['big/serializedValue', expect.stringContaining('example does not fit its schema')]]);
    const label = parameter({ name: 'id', in: 'path', required: true, style: 'label', explode: true, schema: { type: 'array', items: { type: 'string' } } }, { two: { serializedValue: '.a.b', dataValue: ['a', 'b'] } });
    expect(values(label)).toEqual([['a', 'b'], ['a', 'b']]);
    expect(fits(label)).toEqual([]);
    const cookie = parameter({ name: 'c', in: 'cookie', style: 'cookie', schema: { type: 'object', properties: { R: { type: 'integer' } } } }, { rgb: { serializedValue: 'R=100' } });
    expect(values(cookie)).toEqual([{ R: 100 }]);
  });

  it('reads it by the shape of a schema the JSON Schema runtime validates', () => {
    // `contains` makes the schema a runtime node: its shape (an array of integers) still says how it travels.
    const query = parameter({ name: 'n', in: 'query', schema: { type: 'array', items: { type: 'integer' }, contains: { maximum: 2 } } }, { ok: { serializedValue: 'n=1&n=5', dataValue: [1, 5] } });
    expect(query.api.operations[0]!.parameters[0]!.schema.kind).toBe('json');
    expect(values(query)).toEqual([[1, 5], [1, 5]]);
    expect(fits(query)).toEqual([]);
    const deep = parameter({ name: 'f', in: 'query', style: 'deepObject', schema: { type: 'object', properties: { a: { type: 'integer' } }, dependentRequired: { a: ['b'] } } }, { one: { serializedValue: 'f[a]=1&f[b]=x' } });
    expect(values(deep)).toEqual([{ a: 1, b: 'x' }]);
  });

  it('names one that is not in the style, or carries another value than its dataValue', () => {
    const b = parameter({ name: 'id', in: 'path', required: true, style: 'label', schema: { type: 'string' } }, { plain: { serializedValue: 'abc' }, other: { serializedValue: '.x', dataValue: 'y' } });
    expect(fits(b)).toEqual([
      ['plain/serializedValue', 'serializedValue cannot be read: path parameter "id": style label starts with "."'],
      ['other/serializedValue', 'serializedValue does not carry the value dataValue gives'],
    ]);
  });

  it('reads a JSON query string percent-encoded', () => {
    const b = built({ paths: { '/x': { get: { parameters: [{ name: 'q', in: 'querystring', content: { 'application/json': { schema: QUOTE } }, examples: { one: { serializedValue: encodeURIComponent('{"symbol":"ABC"}') } } }], responses: OK } } } });
    expect(errors(b)).toEqual([]);
    expect(b.examples.map((e) => e.value)).toEqual([{ symbol: 'ABC' }]);
  });
});
