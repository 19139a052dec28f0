/**
 * An API whose errors are RFC 9457 problem details (a fixture written here: OpenAPI 3.1,
 * `application/problem+json` for 4XX, 5XX, 404 and `default`): the router's own failures and
 * a handler's `ApiError` go out as problem details, checked on the wire and through the client.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError as ClientApiError } from '@bank-data-sharing/client/runtime';
import { ApiError } from '@bank-data-sharing/server-stubs/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWith, clientOf, generateApi, listen, routerFactory, schemaOf, type Checkable, type Running } from './support/harness.js';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/problem-details.yaml');

type AnyFn = (...args: unknown[]) => unknown;

describe('problem details (3.1 fixture)', () => {
  let running: Running;
  let client: Record<string, AnyFn>;
  let problemSchema: Checkable;

  beforeAll(async () => {
    const api = await generateApi(FIXTURE, 'problem-details');
    problemSchema = schemaOf(api, 'Problem');
    const handlers = {
      listNotes: () => ({ status: 200, body: [{ id: 1, text: 'milk' }] }),
      addNote: ({ body }: { body: { text: string } }) => ({ status: 201, body: { id: 2, ...body } }),
      getNote: ({ path: params }: { path: { id: number } }) => {
        throw new ApiError(404, 'Note.NotFound', `No note has id ${params.id}`);
      },
    };
    running = await listen(appWith(routerFactory(api)(handlers, { onError: () => undefined })));
    client = clientOf<AnyFn>(api, { baseUrl: `${running.origin}/v1`, retry: false });
  });
  afterAll(() => running?.close());

  async function problem(target: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${running.origin}${target}`, init);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.has('x-fapi-interaction-id')).toBe(false);
    const body = (await response.json()) as Record<string, unknown>;
    expect(problemSchema.safeParse(body).success).toBe(true);
    expect(body['status']).toBe(response.status);
    return { status: response.status, body };
  }

  it('answers a bad query parameter with problem details naming it in `errors`', async () => {
    const { status, body } = await problem('/v1/notes?limit=0');
    expect(status).toBe(400);
    expect(body).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: expect.stringMatching(/^query parameter limit: /),
      errors: [{ detail: expect.stringMatching(/^query parameter limit: /), parameter: 'limit' }],
    });
  });

  it('points at the faulty member of a bad body with a JSON Pointer', async () => {
    const { status, body } = await problem('/v1/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":""}' });
    expect(status).toBe(400);
    expect(body['errors']).toEqual([{ detail: expect.stringContaining('body $.text'), pointer: '/text' }]);
  });

  it('answers an unknown path with 404 problem details', async () => {
    const { status, body } = await problem('/v1/folders');
    expect(status).toBe(404);
    expect(body).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'No resource at this path' });
  });

  it('answers a handler’s ApiError with problem details', async () => {
    const { status, body } = await problem('/v1/notes/7');
    expect(status).toBe(404);
    expect(body).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'No note has id 7' });
  });

  it('gives the client the problem details of an error', async () => {
    const failure = await Promise.resolve(client['getNote']!({ path: { id: 7 } })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ClientApiError);
    const apiError = failure as ClientApiError;
    expect(apiError.status).toBe(404);
    expect(apiError.contentType).toBe('application/problem+json');
    expect(apiError.problem).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'No note has id 7' });
    expect(apiError.body).toEqual(apiError.problem);
    expect(apiError.errors).toEqual([]);
    expect(apiError.message).toContain('Not Found: No note has id 7');
  });

  it('gives the client the field problems of a 400', async () => {
    const failure = await Promise.resolve(client['listNotes']!({ query: { limit: 0 } }, { validate: true })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ClientApiError);
    expect((failure as ClientApiError).problem?.['errors']).toEqual([{ detail: expect.any(String), parameter: 'limit' }]);
  });
});
