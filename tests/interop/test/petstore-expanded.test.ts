/**
 * The public petstore-expanded example (OpenAPI 3.0), generated, served and called through
 * its own client over loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWith, generateApi, listen, oasExample, type Running } from './support/harness.js';

interface Pet {
  id: number;
  name: string;
  tag?: string;
}

type AnyFn = (...args: unknown[]) => unknown;

describe('petstore-expanded (3.0)', () => {
  let running: Running;
  let client: Record<string, AnyFn>;
  const pets: Pet[] = [
    { id: 1, name: 'Rex', tag: 'dog' },
    { id: 2, name: 'Tom', tag: 'cat' },
  ];

  beforeAll(async () => {
    const api = await generateApi(oasExample('3.0', 'petstore-expanded'), 'petstore-expanded');
    const createRouter = api.server['createRouter'] as (handlers: object, options?: object) => never;
    const handlers = {
      findPets: ({ query }: { query: { tags?: string[]; limit?: number } }) => ({
        status: 200,
        body: pets.filter((p) => !query.tags || query.tags.includes(p.tag ?? '')).slice(0, query.limit ?? pets.length),
      }),
      addPet: ({ body }: { body: { name: string; tag?: string } }) => ({ status: 200, body: { id: 3, ...body } }),
    };
    running = await listen(appWith(createRouter(handlers, { onError: () => undefined, onMissingHandlers: () => undefined })));
    client = (api.client['createClient'] as (o: object) => Record<string, AnyFn>)({ baseUrl: `${running.origin}/api` });
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
});
