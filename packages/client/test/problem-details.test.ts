/**
 * Problem details (RFC 9457) on an error answer: read from `application/problem+json`, and from
 * a declared JSON type whose schema is problem details (what the server runtime sends for such
 * a contract), never from a body whose contract is something else.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ApiError, createClientCore, type OperationSpec } from '../src/runtime/index.js';

const none = z.looseObject({});
const api = { title: 'T', version: '1', pathPrefix: '', servers: ['http://api.test'] };
const problemSchema = z.looseObject({ type: z.string(), title: z.string(), status: z.int(), detail: z.string() });
const otherSchema = z.looseObject({ code: z.int(), message: z.string() });

function operation(errorSchema: z.ZodType): OperationSpec {
  return {
    operationId: 'getThing',
    method: 'get',
    path: '/thing',
    request: { path: none, query: none, headers: none, cookies: none, body: undefined },
    responses: {
      '200': { headers: none, content: { 'application/json': z.unknown() } },
      default: { headers: none, content: { 'application/json': errorSchema } },
    },
  };
}

/** A server answering every call 404 with `body` as `application/json`. */
function answering(body: unknown) {
  return async (): Promise<Response> => new Response(JSON.stringify(body), { status: 404, headers: { 'content-type': 'application/json' } });
}

async function failure(errorSchema: z.ZodType, body: unknown): Promise<ApiError> {
  const core = createClientCore(api, { fetch: answering(body), retry: false });
  const error = await core.operation(operation(errorSchema), { security: [] })().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('problem details of an application/problem+json answer', () => {
  it('exposes the problem details members, the content type and the body', async () => {
    const problem = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no such thing' };
    const declared: OperationSpec = {
      ...operation(otherSchema),
      responses: { '404': { headers: none, content: { 'application/problem+json': z.looseObject({ title: z.string(), status: z.int() }) } } },
    };
    const fetch = async (): Promise<Response> => new Response(JSON.stringify(problem), { status: 404, headers: { 'content-type': 'application/problem+json' } });
    const error = await createClientCore(api, { fetch, retry: false }).operation(declared, { security: [] })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.contentType).toBe('application/problem+json');
    expect(apiError.problem).toEqual(problem);
    expect(apiError.body).toEqual(apiError.problem);
    expect(apiError.message).toBe('getThing failed with HTTP 404: Not Found: no such thing');
  });
});

describe('problem details under a declared JSON type', () => {
  it('reads them when the declared schema is problem details', async () => {
    const problem = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no thing 7' };
    const error = await failure(problemSchema, problem);
    expect(error.contentType).toBe('application/json');
    expect(error.problem).toEqual(problem);
    expect(error.message).toBe('getThing failed with HTTP 404: Not Found: no thing 7');
  });

  it('does not read them when the declared schema is another error contract', async () => {
    const error = await failure(otherSchema, { code: 404, message: 'no thing 7', title: 'Not Found', detail: 'x' });
    expect(error.problem).toBeUndefined();
    expect(error.body).toEqual({ code: 404, message: 'no thing 7', title: 'Not Found', detail: 'x' });
  });
});

describe('the message of an ApiError carrying problem details', () => {
  const init = { status: 404, operationId: 'getThing', url: 'http://api.test/thing', errors: [], interactionId: undefined, retryAfter: undefined, body: {} };

  it('ends at the status when the problem has neither title nor detail', () => {
    expect(new ApiError({ ...init, problem: { type: 'about:blank', status: 404 } }).message).toBe('getThing failed with HTTP 404');
  });

  it('cuts a long title or detail, as it cuts a long message member', () => {
    const message = new ApiError({ ...init, problem: { title: 'Not Found', detail: 'x'.repeat(10_000) } }).message;
    expect(message.startsWith('getThing failed with HTTP 404: Not Found: xxx')).toBe(true);
    expect(message.length).toBeLessThan(400);
  });
});
