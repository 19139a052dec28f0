/**
 * One name per operation: an operationId that is not an identifier (`find pet by id` in the
 * public petstore-expanded example) is one identifier in the server's `Handlers`, the client's
 * methods and the validators' `operations`, and a call through the client reaches the handler
 * of that name over loopback. Collisions and reserved words get the same name on both sides.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '@bank-data-sharing/codegen';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWith, clientOf, generateApi, listen, oasExample, routerFactory, type GeneratedApi, type Running } from './support/harness.js';

type AnyFn = (...args: unknown[]) => unknown;
type Reply = { status: number; body: unknown };

function createClient(api: GeneratedApi, origin: string): Record<string, AnyFn> {
  return clientOf<AnyFn>(api, { baseUrl: origin });
}

function createRouter(api: GeneratedApi, handlers: object) {
  return routerFactory(api)(handlers, { onError: () => undefined, onMissingHandlers: () => undefined });
}

describe('petstore-expanded: "find pet by id" has one name', () => {
  let api: GeneratedApi;
  let running: Running;
  let client: Record<string, AnyFn>;
  const seen: string[] = [];

  beforeAll(async () => {
    api = await generateApi(oasExample('3.0', 'petstore-expanded'), 'operation-names-petstore');
    const handlers = {
      findPetById: ({ path, operationId }: { path: { id: number }; operationId: string }) => {
        seen.push(operationId);
        return { status: 200, body: { id: path.id, name: 'Rex' } };
      },
    };
    running = await listen(appWith(createRouter(api, handlers)));
    client = createClient(api, `${running.origin}/api`);
  });
  afterAll(() => running?.close());

  it('is the Handlers key, the client method and the validators entry', async () => {
    const handlersFile = await readFile(path.join(api.dir, 'server/handlers.gen.ts'), 'utf8');
    expect(handlersFile).toMatch(/^ {2}findPetById\(/m);
    expect(handlersFile).not.toContain('"find pet by id"');
    expect(typeof client['findPetById']).toBe('function');
    const operations = api.validators['operations'] as Record<string, { operationId: string }>;
    expect(Object.keys(operations).sort()).toStrictEqual(['addPet', 'deletePet', 'findPetById', 'findPets']);
    // The operationId as written stays available as data.
    expect(operations['findPetById']!.operationId).toBe('find pet by id');
  });

  it('calls the handler of that name through the client method of that name', async () => {
    const result = (await client['findPetById']!({ path: { id: 7 } })) as Reply;
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ id: 7, name: 'Rex' });
    expect(seen).toStrictEqual(['find pet by id']);
  });
});

/** A file of our own whose operationIds collide once made identifiers, or are reserved words. */
const CLASHING = {
  openapi: '3.0.3',
  info: { title: 'Clashing names', version: '1' },
  paths: Object.fromEntries(
    (
      [
        ['/a', 'list items'],
        ['/b', 'list-items'],
        ['/c', 'listItems'],
        ['/d', 'delete'],
        ['/e', undefined],
      ] as const
    ).map(([route, operationId]) => [
      route,
      {
        get: {
          ...(operationId === undefined ? {} : { operationId }),
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'string' } } } } },
        },
      },
    ]),
  ),
};

describe('operations whose names clash', () => {
  let api: GeneratedApi;
  let running: Running;
  let client: Record<string, AnyFn>;
  let spec: string;

  beforeAll(async () => {
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../.generated/operation-names-clashing-spec');
    await mkdir(dir, { recursive: true });
    spec = path.join(dir, 'clashing.json');
    await writeFile(spec, JSON.stringify(CLASHING));
    api = await generateApi(spec, 'operation-names-clashing');
    // Each handler answers with its own name, so a call reaching the wrong one is seen.
    const names = ['listItems', 'listItems_2', 'listItems_3', 'delete_', 'getE'];
    const handlers = Object.fromEntries(names.map((name) => [name, () => ({ status: 200, body: name })]));
    running = await listen(appWith(createRouter(api, handlers)));
    client = createClient(api, running.origin);
  });
  afterAll(() => running?.close());

  it('warns once per renamed operation, naming both operations', async () => {
    const { diagnostics } = await generate({ spec, targets: ['validators'] });
    const clashes = diagnostics.filter((d) => d.code === 'operation-name-collision');
    expect(clashes.map((d) => [d.severity, d.pointer])).toStrictEqual([
      ['warning', '#/paths/~1a/get'],
      ['warning', '#/paths/~1b/get'],
    ]);
    expect(clashes[0]!.message).toContain('"list items" (GET /a)');
    expect(clashes[0]!.message).toContain('"listItems" (GET /c)');
  });

  it('reaches, through each client method, the handler of the same name', async () => {
    for (const [method, route] of [
      ['listItems_2', '/a'],
      ['listItems_3', '/b'],
      ['delete_', '/d'],
      ['getE', '/e'],
    ] as const) {
      const result = (await client[method]!({})) as Reply;
      expect(result, `${method} (GET ${route})`).toMatchObject({ status: 200, body: method });
    }
  });

  it('keeps the exact name of an operationId that already is an identifier, on both sides', async () => {
    const result = (await client['listItems']!({})) as Reply;
    expect(result).toMatchObject({ status: 200, body: 'listItems' });
  });
});
