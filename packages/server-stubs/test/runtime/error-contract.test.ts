/**
 * Error answers in a contract that is not this family's, on hand-built definitions: obvious
 * members filled in, the application's `formatError` (checked against the schema), RFC 9457
 * where nothing is declared or nothing fits (reported once), problem details recognised by
 * their members, and `x-fapi-interaction-id` only where declared or asked for.
 */
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createApiRouter, jsonPointer, problemDetails, type ApiDefinition, type RouterOptions } from '../../src/runtime/index.js';
import { listen, send, type Running } from '../helpers/http.js';

const none = z.looseObject({});
const codeMessage = z.object({ code: z.int(), message: z.string() });
/** Nothing the router knows how to fill: `reference` is required and means nothing to it. */
const opaque = z.object({ reference: z.uuid(), message: z.string() });
const problemShaped = z.strictObject({ title: z.string(), status: z.int(), detail: z.string().optional(), type: z.string().optional() });

function operation(operationId: string, path: string, responses: ApiDefinition['operations'][string]['responses'], headers: z.ZodType = none) {
  return { operationId, method: 'get', path, request: { path: none, query: z.looseObject({ n: z.int().optional() }), headers, cookies: none, body: undefined }, responses };
}

const definition: ApiDefinition = {
  api: { title: 'Errors', version: '1', pathPrefix: '', servers: [] },
  operations: {
    plain: operation('plain', '/plain', { '200': { headers: none, content: { 'application/json': z.unknown() } }, default: { headers: none, content: { 'application/json': codeMessage } } }),
    opaque: operation('opaque', '/opaque', { '200': { headers: none, content: { 'application/json': z.unknown() } }, '4XX': { headers: none, content: { 'application/json': opaque } } }),
    bare: operation('bare', '/bare', { '200': { headers: none, content: { 'application/json': z.unknown() } } }),
    problem: operation('problem', '/problem', { '200': { headers: none, content: { 'application/json': z.unknown() } }, '404': { headers: none, content: { 'application/json': problemShaped } } }),
    fapi: operation('fapi', '/fapi', { '200': { headers: z.looseObject({ 'x-fapi-interaction-id': z.string() }), content: { 'application/json': z.unknown() } } }),
  },
  meta: { plain: { security: [] }, opaque: { security: [] }, bare: { security: [] }, problem: { security: [] }, fapi: { security: [] } },
  securitySchemes: {},
};

const handlers = {
  plain: () => {
    throw new ApiError(409, 'Plain.Conflict', 'already there');
  },
  opaque: () => {
    throw new ApiError(404, 'Opaque.Missing', 'gone');
  },
  bare: () => {
    throw new ApiError(404, 'Bare.Missing', 'not here', { path: '$.items[2]' });
  },
  problem: () => {
    throw new ApiError(404, 'Problem.Missing', 'no such problem');
  },
  fapi: () => ({ status: 200, body: { ok: true } }),
};

let running: Running | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(options: RouterOptions<unknown> = {}): Promise<string> {
  const router = createApiRouter(definition, handlers, { onError: () => undefined, ...options });
  running = await listen((req, res) => router(req, res));
  return running.origin;
}

describe('error bodies in the declared contract', () => {
  it('fills code and message of a {code: integer, message: string} schema', async () => {
    const origin = await serve();
    const reply = await send(`${origin}/plain`);
    expect(reply.status).toBe(409);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json()).toEqual({ code: 409, message: 'already there' });
    const bad = await send(`${origin}/plain?n=x`);
    expect(bad.status).toBe(400);
    expect(codeMessage.safeParse(bad.json()).success).toBe(true);
  });

  it('sends what formatError builds when it fits, and a body of its own when it does not', async () => {
    const reported: unknown[] = [];
    const formatError = ({ status, items }: { status: number; items: readonly { code: string }[] }) =>
      status === 409 ? { code: 4090, message: `custom ${items[0]!.code}` } : { code: 'not an integer' };
    const origin = await serve({ formatError, onError: (e) => reported.push(e) });
    expect((await send(`${origin}/plain`)).json()).toEqual({ code: 4090, message: 'custom Plain.Conflict' });
    expect((await send(`${origin}/plain?n=x`)).json()).toEqual({ code: 400, message: expect.stringContaining('query parameter n') });
    expect(reported).toHaveLength(1);
    expect(String(reported[0])).toContain('formatError built a body that does not match the schema declared for HTTP 400');
  });

  it('falls back to RFC 9457 where nothing fits the declared schema, and reports it once', async () => {
    const reported: unknown[] = [];
    const origin = await serve({ onError: (e) => reported.push(e) });
    for (let i = 0; i < 2; i++) {
      const reply = await send(`${origin}/opaque`);
      expect(reply.status).toBe(404);
      expect(reply.headers['content-type']).toBe('application/problem+json');
      expect(reply.json()).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'gone' });
    }
    expect(reported).toHaveLength(1);
    expect(String(reported[0])).toContain('HTTP 404');
  });

  it('answers RFC 9457 where the operation declares nothing for the status, field problems in errors', async () => {
    const origin = await serve();
    const reply = await send(`${origin}/bare`);
    expect(reply.headers['content-type']).toBe('application/problem+json');
    expect(reply.json()).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: '$.items[2]: not here',
      errors: [{ detail: 'not here', pointer: '/items/2' }],
    });
  });

  it('recognises problem details by their members, and leaves out errors a closed schema refuses', async () => {
    const origin = await serve();
    const reply = await send(`${origin}/problem`);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json()).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'no such problem' });
  });

  it('answers 500 RFC 9457, and keeps serving, when formatError builds a body JSON cannot carry', async () => {
    const reported: unknown[] = [];
    const origin = await serve({ validateResponses: false, formatError: () => ({ code: 1n }), onError: (e) => reported.push(e) });
    const reply = await send(`${origin}/plain`);
    expect(reply.status).toBe(500);
    expect(reply.headers['content-type']).toBe('application/problem+json');
    expect(reply.json()).toMatchObject({ status: 500, title: 'Internal Server Error' });
    expect(reported.length).toBeGreaterThan(0);
    expect((await send(`${origin}/fapi`)).status).toBe(200);
  });

  it('sends a body formatError builds even where it does not fit, when validateResponses is off', async () => {
    const origin = await serve({ validateResponses: false, formatError: () => ({ free: 'form' }) });
    expect((await send(`${origin}/plain`)).json()).toEqual({ free: 'form' });
  });
});

describe('statuses the router chooses', () => {
  it('answers an oversized body 413 where `default` or `4XX` declares it, 400 where nothing does', async () => {
    const post = (operationId: string, path: string, responses: ApiDefinition['operations'][string]['responses']) => ({
      ...operation(operationId, path, responses),
      method: 'post',
      request: { path: none, query: none, headers: none, cookies: none, body: { required: true, content: { 'application/json': z.unknown() } } },
    });
    const ok = { headers: none, content: { 'application/json': z.unknown() } };
    const withBodies: ApiDefinition = {
      ...definition,
      operations: {
        byDefault: post('byDefault', '/by-default', { '200': ok, default: { headers: none, content: { 'application/json': codeMessage } } }),
        byRange: post('byRange', '/by-range', { '200': ok, '4XX': { headers: none, content: { 'application/json': codeMessage } } }),
        undeclared: post('undeclared', '/undeclared', { '200': ok, '400': { headers: none, content: { 'application/json': codeMessage } } }),
      },
      meta: { byDefault: { security: [] }, byRange: { security: [] }, undeclared: { security: [] } },
    };
    const reply = () => ({ status: 200, body: {} });
    const router = createApiRouter(withBodies, { byDefault: reply, byRange: reply, undeclared: reply }, { limits: { bodyBytes: 16 }, onError: () => undefined });
    running = await listen((req, res) => router(req, res));
    const big = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'x'.repeat(64) }) };
    for (const path of ['/by-default', '/by-range']) {
      const answer = await send(`${running.origin}${path}`, big);
      expect(answer.status).toBe(413);
      expect(answer.json()).toEqual({ code: 413, message: expect.stringContaining('16 bytes') });
    }
    expect((await send(`${running.origin}/undeclared`, big)).status).toBe(400);
  });
});

describe('x-fapi-interaction-id only where declared', () => {
  it('echoes it for an operation that declares it, and not for the others', async () => {
    const origin = await serve();
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect((await send(`${origin}/fapi`, { headers: { 'x-fapi-interaction-id': id } })).headers['x-fapi-interaction-id']).toBe(id);
    expect((await send(`${origin}/plain`, { headers: { 'x-fapi-interaction-id': id } })).headers['x-fapi-interaction-id']).toBeUndefined();
    // Any operation declares it, so an unknown path answers with one.
    expect((await send(`${origin}/elsewhere`, { headers: { 'x-fapi-interaction-id': id } })).headers['x-fapi-interaction-id']).toBe(id);
  });

  it('echoes it on a 405 where an operation of that path declares it, and not elsewhere', async () => {
    const origin = await serve();
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const declared = await send(`${origin}/fapi`, { method: 'DELETE', headers: { 'x-fapi-interaction-id': id } });
    expect(declared.status).toBe(405);
    expect(declared.headers['x-fapi-interaction-id']).toBe(id);
    const undeclared = await send(`${origin}/plain`, { method: 'DELETE', headers: { 'x-fapi-interaction-id': id } });
    expect(undeclared.status).toBe(405);
    expect(undeclared.headers['x-fapi-interaction-id']).toBeUndefined();
  });

  it('follows fapiInteractionId where the option is given', async () => {
    const on = await serve({ fapiInteractionId: true });
    expect((await send(`${on}/plain`)).headers['x-fapi-interaction-id']).toMatch(/^[0-9a-f-]{36}$/);
    await running!.close();
    running = undefined;
    const off = await serve({ fapiInteractionId: false });
    expect((await send(`${off}/fapi`)).headers['x-fapi-interaction-id']).toBeUndefined();
  });
});

describe('jsonPointer', () => {
  it('turns the router’s JSON paths into RFC 6901 pointers, escaping ~ and /', () => {
    expect(jsonPointer('$')).toBe('');
    expect(jsonPointer('$.Data.Items[12].name')).toBe('/Data/Items/12/name');
    expect(jsonPointer('$["a/b"]["c~d"]')).toBe('/a~1b/c~0d');
  });

  it('never throws on a path a handler wrote by hand: a quoted step that is not JSON text is kept as written', () => {
    expect(jsonPointer('$["a\\q"].b')).toBe('/a\\q/b');
    expect(() => problemDetails(400, [{ code: 'X', message: 'bad', path: '$["\\x"]' }], true)).not.toThrow();
  });
});

describe('problemDetails', () => {
  it('lists at most 20 field problems, each message cut to 500 characters', () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ code: 'Body.InvalidFormat', message: 'x'.repeat(900), path: `$.a[${i}]` }));
    const problem = problemDetails(400, items, true);
    expect(problem.errors).toHaveLength(20);
    expect(problem.errors!.every((e) => e.detail.length === 500)).toBe(true);
    expect(problem.errors![19]!.pointer).toBe('/a/19');
  });

  it('tells a parameter whose name starts with $ (OData\'s $top, $filter) from a body path', () => {
    const items = [
      { code: 'X', message: 'expected number', path: '$top' },
      { code: 'X', message: 'required', path: '$.items[0]' },
      { code: 'X', message: 'expected object', path: '$' },
    ];
    expect(problemDetails(400, items, true).errors).toEqual([
      { detail: 'expected number', parameter: '$top' },
      { detail: 'required', pointer: '/items/0' },
      { detail: 'expected object', pointer: '' },
    ]);
  });

  it('cuts each field path to 500 characters too, so a long member name cannot swell the answer', () => {
    // One 200 KB member name (a record body fits it in the body limit) named by 20 problems.
    const key = 'k'.repeat(200_000);
    const items = Array.from({ length: 20 }, (_, i) => ({ code: 'Body.InvalidFormat', message: 'expected number', path: `$["${key}"].v${i}` }));
    const problem = problemDetails(400, items, true);
    expect(JSON.stringify(problem).length).toBeLessThan(50_000);
    expect(problem.errors!.every((e) => e.detail === 'expected number' && e.pointer!.length <= 500)).toBe(true);
    const parameter = problemDetails(400, [{ code: 'X', message: 'bad', path: 'q'.repeat(5000) }], true);
    expect(parameter.errors![0]!.parameter!.length).toBe(500);
  });
});
