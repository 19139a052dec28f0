/**
 * The public petstore-expanded example (OpenAPI 3.0), generated, served and called through
 * its own client over loopback. Its error contract is its own: `default: Error {code: int32,
 * message: string}`, and it declares no `x-fapi-interaction-id`.
 */
import { ApiError as ClientApiError } from '@bank-data-sharing/client/runtime';
import { ApiError } from '@bank-data-sharing/server-stubs/runtime';
import express from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOf, generateApi, listen, oasExample, routerFactory, schemaOf, type Checkable, type Running } from './support/harness.js';

interface Pet {
  id: number;
  name: string;
  tag?: string;
}

type AnyFn = (...args: unknown[]) => unknown;

describe('petstore-expanded (3.0)', () => {
  let running: Running;
  let client: Record<string, AnyFn>;
  let errorSchema: Checkable;
  const received: IncomingHttpHeaders[] = [];
  const reported: unknown[] = [];
  const pets: Pet[] = [
    { id: 1, name: 'Rex', tag: 'dog' },
    { id: 2, name: 'Tom', tag: 'cat' },
  ];

  beforeAll(async () => {
    const api = await generateApi(oasExample('3.0', 'petstore-expanded'), 'petstore-expanded');
    errorSchema = schemaOf(api, 'Error');
    const handlers = {
      findPets: ({ query }: { query: { tags?: string[]; limit?: number } }) => ({
        status: 200,
        body: pets.filter((p) => !query.tags || query.tags.includes(p.tag ?? '')).slice(0, query.limit ?? pets.length),
      }),
      addPet: ({ body }: { body: { name: string; tag?: string } }) => ({ status: 200, body: { id: 3, ...body } }),
      // deletePet has no handler: 501.
      findPetById: ({ path }: { path: { id: number } }) => {
        if (path.id === 500) throw new TypeError('the pet database is gone');
        const pet = pets.find((p) => p.id === path.id);
        if (!pet) throw new ApiError(404, 'Pet.NotFound', `No pet has id ${path.id}`);
        return { status: 200, body: pet };
      },
    };
    const app = express();
    app.use((req, _res, next) => {
      received.push(req.headers);
      next();
    });
    app.use(routerFactory(api)(handlers, { onError: (error: unknown) => reported.push(error), onMissingHandlers: () => undefined }));
    running = await listen(app);
    client = clientOf<AnyFn>(api, { baseUrl: `${running.origin}/api`, retry: false });
  });
  afterAll(() => running?.close());

  it('lists pets, decoding an array and an integer query parameter', async () => {
    const result = (await client['findPets']!({ query: { tags: ['cat'], limit: 5 } })) as { status: number; body: Pet[] };
    expect(result.status).toBe(200);
    expect(result.body).toEqual([{ id: 2, name: 'Tom', tag: 'cat' }]);
  });

  it('adds a pet with a JSON body', async () => {
    const result = (await client['addPet']!({ body: { name: 'Kit', tag: 'cat' } })) as { status: number; body: Pet };
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ id: 3, name: 'Kit', tag: 'cat' });
  });

  /** Sends a request and checks the answer is the file's own `Error`, without undeclared headers. */
  async function errorAnswer(path: string, method = 'GET'): Promise<{ status: number; body: { code: number; message: string } }> {
    const response = await fetch(`${running.origin}${path}`, { method });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.has('x-fapi-interaction-id')).toBe(false);
    const body = (await response.json()) as { code: number; message: string };
    expect(errorSchema.safeParse(body).success).toBe(true);
    return { status: response.status, body };
  }

  it('answers a bad query with 400 in the file’s Error schema, naming the parameter', async () => {
    const { status, body } = await errorAnswer('/api/pets?limit=abc');
    expect(status).toBe(400);
    expect(body).toEqual({ code: 400, message: expect.stringMatching(/^query parameter limit: /) });
  });

  it('answers an unknown path with 404 in the Error schema all its operations declare', async () => {
    expect(await errorAnswer('/api/owners')).toEqual({ status: 404, body: { code: 404, message: 'No resource at this path' } });
  });

  it('answers an ApiError a handler throws in the Error schema', async () => {
    expect(await errorAnswer('/api/pets/9')).toEqual({ status: 404, body: { code: 404, message: 'No pet has id 9' } });
  });

  it('answers a crashing handler with 500 in the Error schema, without its details', async () => {
    expect(await errorAnswer('/api/pets/500')).toEqual({ status: 500, body: { code: 500, message: 'The server failed to handle the request' } });
    expect(reported).toContainEqual(new TypeError('the pet database is gone'));
  });

  it('answers an operation without a handler with 501 in the Error schema', async () => {
    const { status, body } = await errorAnswer('/api/pets/1', 'DELETE');
    expect(status).toBe(501);
    expect(body).toEqual({ code: 501, message: expect.stringContaining('deletePet') });
  });

  it('answers a method the path does not have with 405 in the Error schema', async () => {
    const { status, body } = await errorAnswer('/api/pets/1', 'PATCH');
    expect(status).toBe(405);
    expect(body.code).toBe(405);
  });

  it('gives the client the declared error body, and sends no interaction id the file does not declare', async () => {
    received.length = 0;
    const failure = await Promise.resolve(client['findPetById']!({ path: { id: 9 } })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ClientApiError);
    const apiError = failure as ClientApiError;
    expect(apiError.status).toBe(404);
    expect(apiError.body).toEqual({ code: 404, message: 'No pet has id 9' });
    expect(apiError.problem).toBeUndefined();
    expect(apiError.message).toContain('No pet has id 9');
    expect(received).toHaveLength(1);
    expect(received[0]!['x-fapi-interaction-id']).toBeUndefined();
  });
});
