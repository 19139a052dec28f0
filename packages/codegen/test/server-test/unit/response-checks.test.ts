/** The checks on one answer, against declared responses whose checks are small zod schemas. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Checkable, OperationSchemas } from '../../../src/mock/loaded-modules.js';
import type { Exchange } from '../../../src/server-test/http.js';
import { checkAnswer, checkRefusal, declaredKey, declaresErrors } from '../../../src/server-test/response-checks.js';

type Responses = OperationSchemas['responses'];
type Response = Responses[string];

const anyHeaders: Checkable = z.looseObject({});
const pass: Checkable = z.any();

function response(content: Record<string, Checkable> = {}, headers: Checkable = anyHeaders): Response {
  return { headers, content };
}

function schemas(responses: Responses): OperationSchemas {
  return {
    operationId: 'getItem',
    method: 'get',
    path: '/items/{id}',
    request: { path: pass, query: pass, headers: pass, cookies: pass, body: undefined },
    responses,
  };
}

function exchange(status: number, text = '', headers: Record<string, string> = text === '' ? {} : { 'content-type': 'application/json' }, truncated = false): Exchange {
  return { request: { method: 'GET', url: 'http://api.example.test/items/1', headers: {} }, status, headers, text, truncated };
}

const Item = z.object({ a: z.array(z.object({ b: z.number() })) });
const Problem = z.object({ code: z.string(), message: z.string() });

const item = schemas({
  '200': response({ 'application/json': Item }),
  '204': response(),
  '404': response({ 'application/json': Problem }),
});

describe('declaredKey', () => {
  const ranged = schemas({ '200': response(), '404': response(), '4XX': response(), default: response() });

  it('prefers the exact status, then its range, then default', () => {
    expect(declaredKey(ranged, 404)).toBe('404');
    expect(declaredKey(ranged, 409)).toBe('4XX');
    expect(declaredKey(ranged, 302)).toBe('default');
    expect(declaredKey(ranged, 200)).toBe('200');
  });

  it('reads a range in either case, and nothing without a match', () => {
    expect(declaredKey(schemas({ '2xx': response() }), 201)).toBe('2xx');
    expect(declaredKey(schemas({ '200': response() }), 201)).toBeUndefined();
    expect(declaredKey(schemas({ '4XX': response() }), 500)).toBeUndefined();
  });

  it('knows which operations declare refusals', () => {
    expect(declaresErrors(ranged)).toBe(true);
    expect(declaresErrors(schemas({ '200': response(), default: response() }))).toBe(true);
    expect(declaresErrors(schemas({ '200': response(), '500': response() }))).toBe(false);
  });
});

describe('checkAnswer', () => {
  it('finds nothing in a declared answer that keeps its schema', () => {
    expect(checkAnswer(item, exchange(200, '{"a":[{"b":1}]}'))).toEqual([]);
    expect(checkAnswer(item, exchange(200, '{"a":[]}', { 'content-type': 'application/json; charset=utf-8' }))).toEqual([]);
    expect(checkAnswer(item, exchange(204))).toEqual([]);
  });

  it('reports a 5xx as a server error and nothing else', () => {
    expect(checkAnswer(item, exchange(500, '<html>oops</html>', { 'content-type': 'text/html' }))).toEqual([{ check: 'server-error', message: 'HTTP 500' }]);
    expect(checkAnswer(schemas({}), exchange(503))).toEqual([{ check: 'server-error', message: 'HTTP 503' }]);
    expect(checkAnswer(schemas({ default: response() }), exchange(500))).toEqual([{ check: 'server-error', message: 'HTTP 500' }]);
  });

  it('checks a 5xx as declared when 5xx is all the operation can answer', () => {
    const only = schemas({ '503': response({ 'application/json': Problem }) });
    expect(checkAnswer(only, exchange(503, '{"code":"busy","message":"later"}'))).toEqual([]);
    expect(checkAnswer(only, exchange(503, '{"code":1}')).map((f) => f.check)).toEqual(['response-body']);
    expect(checkAnswer(schemas({ '5XX': response() }), exchange(502))).toEqual([]);
  });

  it('reports a status the operation does not declare', () => {
    expect(checkAnswer(item, exchange(201))).toEqual([{ check: 'undeclared-status', message: 'HTTP 201 is not declared; declared: 200, 204, 404' }]);
  });

  it('finds nothing to check for an operation that declares no response', () => {
    expect(checkAnswer(schemas({}), exchange(201, 'anything', { 'content-type': 'text/plain' }))).toEqual([]);
  });

  it('checks a status covered by a range or default by that response', () => {
    const ranged = schemas({ '200': response({ 'application/json': Item }), '4XX': response({ 'application/json': Problem }), default: response({ 'application/problem+json': Problem }) });
    expect(checkAnswer(ranged, exchange(418, '{"code":"teapot","message":"no"}'))).toEqual([]);
    expect(checkAnswer(ranged, exchange(418, '{"code":"teapot"}'))).toEqual([expect.objectContaining({ check: 'response-body', pointer: '/message' })]);
    expect(checkAnswer(ranged, exchange(302, '{"code":"x","message":"y"}', { 'content-type': 'application/problem+json' }))).toEqual([]);
    expect(checkAnswer(ranged, exchange(302, '{"code":"x","message":"y"}'))).toEqual([
      { check: 'undeclared-content-type', message: 'application/json is not declared for HTTP default; declared: application/problem+json' },
    ]);
  });

  it('reports a Content-Type not declared for the status, or none', () => {
    expect(checkAnswer(item, exchange(200, '<p>hi</p>', { 'content-type': 'text/html' }))).toEqual([
      { check: 'undeclared-content-type', message: 'text/html is not declared for HTTP 200; declared: application/json' },
    ]);
    expect(checkAnswer(item, exchange(200, '{"a":[]}', {}))).toEqual([{ check: 'undeclared-content-type', message: 'no Content-Type is not declared for HTTP 200; declared: application/json' }]);
  });

  it('reports an invalid JSON body with the pointer and the rule', () => {
    const findings = checkAnswer(item, exchange(200, '{"a":[{"b":"x"}]}'));
    expect(findings).toHaveLength(1);
    const [finding] = findings;
    expect(finding).toMatchObject({ check: 'response-body', pointer: '/a/0/b' });
    expect(finding!.rule).toMatch(/number/);
    expect(finding!.message).toContain('/a/0/b');
    expect(finding!.message).toContain('200');
  });

  it('escapes member names in the pointer', () => {
    const odd = schemas({ '200': response({ 'application/json': z.object({ 'x/y': z.object({ 'p~q': z.string() }) }) }) });
    expect(checkAnswer(odd, exchange(200, '{"x/y":{"p~q":5}}'))[0]).toMatchObject({ check: 'response-body', pointer: '/x~1y/p~0q' });
  });

  it('names the whole body when the root is wrong', () => {
    const [finding] = checkAnswer(item, exchange(200, '[1]'));
    expect(finding).toMatchObject({ check: 'response-body', pointer: '' });
    expect(finding!.rule).toEqual(expect.any(String));
    expect(finding!.message).not.toMatch(/undefined|\bat $/);
  });

  it('reports a body declared JSON that is not JSON', () => {
    const findings = checkAnswer(item, exchange(200, '{"a": [', { 'content-type': 'application/json' }));
    expect(findings).toEqual([expect.objectContaining({ check: 'response-body', rule: 'JSON' })]);
    expect(findings[0]!.message.startsWith('the body is not JSON: ')).toBe(true);
  });

  it('does not judge a JSON body cut short', () => {
    expect(checkAnswer(item, exchange(200, '{"a": [', { 'content-type': 'application/json' }, true))).toEqual([]);
  });

  it('reports a body on a status that declares none', () => {
    expect(checkAnswer(item, exchange(204, '{}', { 'content-type': 'application/json' }))).toEqual([
      { check: 'undeclared-content-type', message: 'HTTP 204 declares no body, but one came (application/json)' },
    ]);
  });

  it('reports a declared body that did not come', () => {
    expect(checkAnswer(item, exchange(200, '', { 'content-type': 'application/json' }))).toEqual([{ check: 'response-body', message: 'the body is empty; HTTP 200 declares application/json' }]);
    expect(checkAnswer(item, exchange(404))).toEqual([{ check: 'response-body', message: 'the body is empty; HTTP 404 declares application/json' }]);
  });

  describe('a signed (JWS) body', () => {
    const signed = schemas({ '200': response({ 'application/jwt': z.object({ sub: z.string(), n: z.number() }) }) });
    const jws = (claims: unknown) => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;
    const answer = (text: string) => exchange(200, text, { 'content-type': 'application/jwt' });

    it('checks the claims', () => {
      expect(checkAnswer(signed, answer(jws({ sub: 'me', n: 1 })))).toEqual([]);
      expect(checkAnswer(signed, answer(jws({ sub: 'me', n: 'one' })))).toEqual([expect.objectContaining({ check: 'response-body', pointer: '/n' })]);
    });

    it('reports a body that is not a compact JWS with JSON claims', () => {
      expect(checkAnswer(signed, answer('not-a-jws'))).toEqual([expect.objectContaining({ check: 'response-body', rule: 'JWS' })]);
      expect(checkAnswer(signed, answer(`eyJ9.${Buffer.from('not json').toString('base64url')}.x`))).toEqual([expect.objectContaining({ check: 'response-body', rule: 'JWS' })]);
    });
  });

  it('does not check text bodies against their schema', () => {
    const text = schemas({ '200': response({ 'text/plain': z.number() }) });
    expect(checkAnswer(text, exchange(200, 'hello', { 'content-type': 'text/plain' }))).toEqual([]);
  });

  it('reports a declared response header missing, beside the body', () => {
    const withHeader = schemas({ '200': response({ 'application/json': Item }, z.looseObject({ 'x-rate-limit': z.string() })) });
    expect(checkAnswer(withHeader, exchange(200, '{"a":[]}', { 'content-type': 'application/json', 'x-rate-limit': '10' }))).toEqual([]);
    const findings = checkAnswer(withHeader, exchange(200, '{"a":[{"b":"x"}]}'));
    expect(findings.map((f) => f.check)).toEqual(['response-headers', 'response-body']);
    expect(findings[0]).toMatchObject({ pointer: '/headers/x-rate-limit' });
    expect(findings[0]!.message).toContain('x-rate-limit');
    expect(findings[0]!.rule).toEqual(expect.any(String));
  });
});

describe('checkRefusal', () => {
  it('reports a refused request answered 2xx or 3xx under the check it is given', () => {
    expect(checkRefusal(item, exchange(200, '{"a":[]}'), 'security-not-enforced')).toEqual([{ check: 'security-not-enforced', message: 'HTTP 200: the request was not refused' }]);
    expect(checkRefusal(item, exchange(302), 'invalid-request-accepted')).toEqual([{ check: 'invalid-request-accepted', message: 'HTTP 302: the request was not refused' }]);
  });

  it('reports a 5xx as a server error', () => {
    expect(checkRefusal(item, exchange(500), 'invalid-request-accepted')).toEqual([{ check: 'server-error', message: 'HTTP 500 for a request that should have been refused with 4xx' }]);
  });

  it('accepts a 4xx the operation does not declare', () => {
    expect(checkRefusal(item, exchange(400, 'bad', { 'content-type': 'text/plain' }), 'invalid-request-accepted')).toEqual([]);
    expect(checkRefusal(item, exchange(401), 'security-not-enforced')).toEqual([]);
  });

  it('accepts a declared 4xx that keeps its contract', () => {
    expect(checkRefusal(item, exchange(404, '{"code":"gone","message":"no such item"}'), 'invalid-request-accepted')).toEqual([]);
  });

  it('reports a declared 4xx that breaks its contract as error-contract', () => {
    const findings = checkRefusal(item, exchange(404, '{"code":404}'), 'invalid-request-accepted');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ check: 'error-contract', pointer: '/code' });
    expect(findings[0]!.message.startsWith('refusal HTTP 404: ')).toBe(true);
    expect(findings[0]!.message).toContain('/code');
    expect(checkRefusal(item, exchange(404, '<h1>Not found</h1>', { 'content-type': 'text/html' }), 'invalid-request-accepted')).toEqual([
      { check: 'error-contract', message: 'refusal HTTP 404: text/html is not declared for HTTP 404; declared: application/json' },
    ]);
  });

  it('keeps a header finding on a refusal as a header finding', () => {
    const withHeader = schemas({ '401': response({}, z.looseObject({ 'www-authenticate': z.string() })) });
    expect(checkRefusal(withHeader, exchange(401), 'security-not-enforced')).toEqual([expect.objectContaining({ check: 'response-headers', pointer: '/headers/www-authenticate' })]);
  });
});

describe('checkAnswer on a sequence (OpenAPI 3.2 itemSchema)', () => {
  /** What the validators' `seq.sequence(item)` is to the checks: an iterable check carrying its item schema. */
  const sequenceOf = (itemSchema: Checkable): Checkable => {
    const schema = z.custom<unknown>((v) => typeof v === 'object' && v !== null && Symbol.iterator in v);
    schema._zod.bag['bdsSequenceItem'] = itemSchema;
    return schema;
  };
  const Event = z.object({ data: z.string(), event: z.enum(['quote']).optional() });
  const live = schemas({ '200': response({ 'text/event-stream': sequenceOf(Event), 'application/jsonl': sequenceOf(z.object({ n: z.number() })) }) });

  it('checks every event, naming the first that breaks the item schema', () => {
    expect(checkAnswer(live, exchange(200, 'event: quote\ndata: a\n\n: comment\ndata: b\n\n', { 'content-type': 'text/event-stream' }))).toEqual([]);
    expect(checkAnswer(live, exchange(200, 'data: a\n\nevent: trade\ndata: b\n\n', { 'content-type': 'text/event-stream' }))).toEqual([
      { check: 'response-body', message: 'item 2 of the HTTP 200 body (text/event-stream) breaks its item schema at /event', pointer: '/1/event', rule: expect.any(String) },
    ]);
  });

  it('checks every JSON line, and names a stream that is not one', () => {
    expect(checkAnswer(live, exchange(200, '{"n":1}\n{"n":2}\n', { 'content-type': 'application/jsonl' }))).toEqual([]);
    expect(checkAnswer(live, exchange(200, '{"n":1}\n{"n":"2"}\n', { 'content-type': 'application/jsonl' }))[0]?.message).toBe('item 2 of the HTTP 200 body (application/jsonl) breaks its item schema at /n');
    expect(checkAnswer(live, exchange(200, '{"n":1}\n{oops\n', { 'content-type': 'application/jsonl' }))[0]?.message).toMatch(/^the HTTP 200 body is not a valid application\/jsonl stream: line 2/);
  });
});
