/** OpenAPI links: runtime expressions, link targets and the values kept from answers. */
import { describe, expect, it } from 'vitest';
import { evaluate, linkTarget, linkedOperation, type LinkContext } from '../../../src/server-test/links.js';
import { int, operation, param, parts, str } from './fixtures.js';

const ctx: LinkContext = {
  url: 'http://api.example.test/items/42?q=blue',
  method: 'post',
  request: parts({
    path: { id: { value: 42 } },
    query: { q: { value: 'blue' }, raw: { raw: 'as%20sent' } },
    header: { 'X-Id': { value: 'header-id' } },
  }),
  requestBody: { name: 'widget', tags: ['a', 'b'] },
  status: 201,
  responseHeaders: { location: '/items/43', 'x-request-id': 'r-1' },
  responseBody: { id: 43, 'a/b': ['first', 'second'], 'c~d': { e: true }, nested: { list: [{ deep: 'x' }] } },
};

describe('evaluate', () => {
  it('reads the response body by JSON pointer', () => {
    expect(evaluate('$response.body#/id', ctx)).toBe(43);
    expect(evaluate('$response.body#/a~1b/0', ctx)).toBe('first');
    expect(evaluate('$response.body#/a~1b/1', ctx)).toBe('second');
    expect(evaluate('$response.body#/c~0d/e', ctx)).toBe(true);
    expect(evaluate('$response.body#/nested/list/0/deep', ctx)).toBe('x');
    expect(evaluate('$response.body', ctx)).toEqual(ctx.responseBody);
  });

  it('is undefined where the pointer leads nowhere', () => {
    expect(evaluate('$response.body#/missing', ctx)).toBeUndefined();
    expect(evaluate('$response.body#/a~1b/5', ctx)).toBeUndefined();
    expect(evaluate('$response.body#/id/deeper', ctx)).toBeUndefined();
  });

  it('reads response headers whatever the case of the name', () => {
    expect(evaluate('$response.header.Location', ctx)).toBe('/items/43');
    expect(evaluate('$response.header.location', ctx)).toBe('/items/43');
    expect(evaluate('$response.header.X-Request-ID', ctx)).toBe('r-1');
    expect(evaluate('$response.header.Missing', ctx)).toBeUndefined();
  });

  it('reads the request: path, query, header (any case) and body', () => {
    expect(evaluate('$request.path.id', ctx)).toBe(42);
    expect(evaluate('$request.query.q', ctx)).toBe('blue');
    expect(evaluate('$request.query.raw', ctx)).toBe('as%20sent');
    expect(evaluate('$request.header.X-Id', ctx)).toBe('header-id');
    expect(evaluate('$request.header.x-id', ctx)).toBe('header-id');
    expect(evaluate('$request.body#/name', ctx)).toBe('widget');
    expect(evaluate('$request.body#/tags/1', ctx)).toBe('b');
    expect(evaluate('$request.path.other', ctx)).toBeUndefined();
  });

  it('reads $url, $method and $statusCode', () => {
    expect(evaluate('$url', ctx)).toBe(ctx.url);
    expect(evaluate('$method', ctx)).toBe('post');
    expect(evaluate('$statusCode', ctx)).toBe(201);
  });

  it('gives nothing for expressions it does not know', () => {
    expect(evaluate('$response.query.q', ctx)).toBeUndefined();
    expect(evaluate('$response.path.id', ctx)).toBeUndefined();
    expect(evaluate('$request.cookie.c', ctx)).toBeUndefined();
    expect(evaluate('$somewhere', ctx)).toBeUndefined();
  });

  it('fills expressions embedded in text', () => {
    expect(evaluate('/items/{$response.body#/id}', ctx)).toBe('/items/43');
    expect(evaluate('{$request.path.id}-{$statusCode}', ctx)).toBe('42-201');
    expect(evaluate('id={$response.body#/missing}.', ctx)).toBe('id=.');
  });

  it('keeps constants as they are', () => {
    expect(evaluate('plain text', ctx)).toBe('plain text');
    expect(evaluate('{not an expression}', ctx)).toBe('{not an expression}');
    expect(evaluate(7, ctx)).toBe(7);
    expect(evaluate(null, ctx)).toBeNull();
    const constant = { a: 1 };
    expect(evaluate(constant, ctx)).toBe(constant);
  });

  // OpenAPI's runtime expression ABNF: `json-pointer = *( "/" reference-token )`, with
  // `unescaped = %x00-2E / %x30-7D / %x7F-10FFFF`: `#` and `%` are ordinary characters of a
  // member name, not URI-fragment syntax.
  const odd: LinkContext = { ...ctx, responseBody: { 'a#b': 'hash', '100%': 'percent' } };

  it('reads a member whose name holds `#`', () => {
    expect(evaluate('$response.body#/a#b', odd)).toBe('hash');
  });

  it('reads a member whose name holds `%`', () => {
    expect(evaluate('$response.body#/100%', odd)).toBe('percent');
  });
});

describe('linkTarget', () => {
  const target = operation({
    operationId: 'getItem',
    path: '/items/{id}',
    parameters: [param('id', 'query', str()), param('id', 'path', int()), param('X-Trace', 'header', str())],
  });

  it('finds a qualified name in its location', () => {
    expect(linkTarget(target, 'path.id')).toBe(target.parameters[1]);
    expect(linkTarget(target, 'query.id')).toBe(target.parameters[0]);
    expect(linkTarget(target, 'header.X-Trace')).toBe(target.parameters[2]);
  });

  it('finds an unqualified name wherever it is first declared', () => {
    expect(linkTarget(target, 'id')).toBe(target.parameters[0]);
    expect(linkTarget(target, 'X-Trace')).toBe(target.parameters[2]);
  });

  it('finds nothing for a name or a location the target does not have', () => {
    expect(linkTarget(target, 'cookie.id')).toBeUndefined();
    expect(linkTarget(target, 'path.X-Trace')).toBeUndefined();
    expect(linkTarget(target, 'other')).toBeUndefined();
  });
});

describe('linkedOperation', () => {
  const list = operation({ operationId: 'listItems', method: 'get', path: '/items' });
  const get = operation({ operationId: 'getItem', method: 'get', path: '/items/{id}' });
  const remove = operation({ operationId: 'deleteItem', method: 'delete', path: '/items/{id}' });
  const tilde = operation({ operationId: 'getTilde', method: 'get', path: '/a~b/{id}' });
  const operations = [list, get, remove, tilde];

  it('finds the target by operationId', () => {
    expect(linkedOperation(operations, { operationId: 'deleteItem' })).toBe(remove);
    expect(linkedOperation(operations, { operationId: 'nope' })).toBeUndefined();
  });

  it('finds the target by an operationRef into this file', () => {
    expect(linkedOperation(operations, { operationRef: '#/paths/~1items~1{id}/get' })).toBe(get);
    expect(linkedOperation(operations, { operationRef: '#/paths/~1items~1{id}/delete' })).toBe(remove);
    expect(linkedOperation(operations, { operationRef: '#/paths/~1items~1%7Bid%7D/get' })).toBe(get);
    expect(linkedOperation(operations, { operationRef: '#/paths/~1items/get' })).toBe(list);
    expect(linkedOperation(operations, { operationRef: '#/paths/~1a~0b~1{id}/get' })).toBe(tilde);
  });

  it('finds nothing for a reference elsewhere or to no operation', () => {
    expect(linkedOperation(operations, { operationRef: 'other.yaml#/paths/~1items~1{id}/get' })).toBeUndefined();
    expect(linkedOperation(operations, { operationRef: '#/paths/~1items~1{id}/post' })).toBeUndefined();
    expect(linkedOperation(operations, { operationRef: '#/components/links/x' })).toBeUndefined();
    expect(linkedOperation(operations, {})).toBeUndefined();
  });
});
