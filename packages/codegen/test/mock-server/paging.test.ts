/**
 * Paging is switched on by the shape of the answer (Links and Meta.TotalPages), whatever the
 * API is called: here a small file of its own that declares `page` and a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/index.js';
import { writeSpec } from '../helpers/generated.js';
import { expectDeclared, send } from './support.js';

const link = { type: 'string', format: 'uri' };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Paged things', version: '1' },
  servers: [{ url: 'https://example.com/things-api/v1' }],
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        parameters: [{ name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } }],
        responses: {
          '200': {
            description: 'A page',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['Data', 'Links', 'Meta'],
                  properties: {
                    Data: { type: 'array', items: { type: 'string' } },
                    Links: { type: 'object', required: ['Self'], properties: { Self: link, First: link, Prev: link, Next: link, Last: link }, additionalProperties: false },
                    Meta: { type: 'object', required: ['TotalPages'], properties: { TotalPages: { type: 'integer', minimum: 0 } } },
                  },
                },
              },
            },
          },
          '404': { description: 'No such page', content: { 'application/json': { schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } } } },
          '400': { description: 'Bad request', content: { 'application/json': { schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } } } },
        },
      },
    },
    '/plain': { get: { operationId: 'plain', responses: { '200': { description: 'Not paged', content: { 'application/json': { schema: { type: 'object', properties: { Data: { type: 'string' } } } } } } } } },
  },
};

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ spec: await writeSpec(SPEC), port: 0, dynamic: true });
});

afterAll(async () => {
  await server?.close();
});

describe('paging by shape', () => {
  const page = (query: string) => send(server, { method: 'GET', target: `/things${query}`, headers: {} });
  const pageOf = (url: string | undefined) => (url === undefined ? undefined : new URL(url).searchParams.get('page'));

  it('serves under the server path of the file and links every page of three', async () => {
    expect(server.url).toMatch(/\/things-api\/v1$/);
    const pages = await Promise.all([page(''), page('?page=2'), page('?page=3')]);
    const links = pages.map((p) => {
      expectDeclared(server, 'listThings', p);
      const body = p.json as { Links: Record<string, string>; Meta: { TotalPages: number } };
      expect(body.Meta.TotalPages).toBe(3);
      return ['Self', 'First', 'Prev', 'Next', 'Last'].map((m) => pageOf(body.Links[m]));
    });
    expect(links).toStrictEqual([
      [null, '1', undefined, '2', '3'],
      ['2', '1', '1', '3', '3'],
      ['3', '1', '2', undefined, '3'],
    ]);
  });

  it('answers a page beyond the last with the declared 404, and a malformed one with the router 400', async () => {
    const beyond = await page('?page=4');
    expect(beyond.status).toBe(404);
    expectDeclared(server, 'listThings', beyond);
    expect((beyond.json as { message: string }).message).toContain('beyond the last page');
    const zero = await page('?page=0');
    expect(zero.status).toBe(400);
    expectDeclared(server, 'listThings', zero);
  });

  it('leaves answers of another shape alone', async () => {
    const plain = await send(server, { method: 'GET', target: '/plain?page=9', headers: {} });
    expect(plain.status).toBe(200);
    expect(plain.json).not.toHaveProperty('Links');
  });
});
