/**
 * `x-fapi-interaction-id` is sent, and its echo required, only for operations that declare it
 * (a request header parameter or a response header), unless a call gives one or the client's
 * `fapiInteractionId` option says otherwise.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createClientCore, InteractionIdMismatchError, type OperationSpec } from '../src/runtime/index.js';

const none = z.looseObject({});
const api = { title: 'T', version: '1', pathPrefix: '', servers: ['http://api.test'] };

function operation(operationId: string, requestHeaders: z.ZodType, responseHeaders: z.ZodType): OperationSpec {
  return {
    operationId,
    method: 'get',
    path: `/${operationId}`,
    request: { path: none, query: none, headers: requestHeaders, cookies: none, body: undefined },
    responses: {
      '200': { headers: responseHeaders, content: { 'application/json': z.unknown() } },
    },
  };
}

const undeclared = operation('plain', none, none);
const inRequest = operation('asked', z.looseObject({ 'x-fapi-interaction-id': z.string().optional() }), none);
const inResponse = operation('echoed', none, z.looseObject({ 'x-fapi-interaction-id': z.string() }));

/** A server answering 200 with `echo` as interaction id (default: the request's). */
function server(sent: Array<Record<string, string>>, echo?: string) {
  return async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      request[name] = value;
    });
    sent.push(request);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const id = echo ?? request['x-fapi-interaction-id'];
    if (id !== undefined) headers['x-fapi-interaction-id'] = id;
    return new Response('{}', { status: 200, headers });
  };
}

describe('x-fapi-interaction-id where declared', () => {
  it('sends it for an operation that declares it in its request or its responses, not for one that does not', async () => {
    const sent: Array<Record<string, string>> = [];
    const core = createClientCore(api, { fetch: server(sent), retry: false });
    await core.operation(undeclared, { security: [] })();
    await core.operation(inRequest, { security: [] })();
    await core.operation(inResponse, { security: [] })();
    expect(sent.map((h) => h['x-fapi-interaction-id'] !== undefined)).toEqual([false, true, true]);
  });

  it('ignores an interaction id on the answer of an operation that sent none, and checks one it sent', async () => {
    const other = '11111111-1111-4111-8111-111111111111';
    const core = createClientCore(api, { fetch: server([], other), retry: false });
    await expect(core.operation(undeclared, { security: [] })()).resolves.toMatchObject({ status: 200 });
    await expect(core.operation(inRequest, { security: [] })()).rejects.toBeInstanceOf(InteractionIdMismatchError);
  });

  it('sends one a call gives, and follows the fapiInteractionId option', async () => {
    const sent: Array<Record<string, string>> = [];
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    await createClientCore(api, { fetch: server(sent), retry: false }).operation(undeclared, { security: [] })(undefined, { interactionId: id });
    await createClientCore(api, { fetch: server(sent), retry: false, fapiInteractionId: true }).operation(undeclared, { security: [] })();
    await createClientCore(api, { fetch: server(sent), retry: false, fapiInteractionId: false }).operation(inRequest, { security: [] })();
    expect(sent[0]!['x-fapi-interaction-id']).toBe(id);
    expect(sent[1]!['x-fapi-interaction-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[2]!['x-fapi-interaction-id']).toBeUndefined();
  });
});
