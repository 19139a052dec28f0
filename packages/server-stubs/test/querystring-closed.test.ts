/**
 * OpenAPI 3.2 `in: querystring` with a form-encoded closed object, over loopback through a
 * generated router: a name the object does not declare is an invalid value, answered 400 in
 * the spec's error shape with a message naming it. The API key the API sends in the query is
 * still a credential, not an unknown member; an object that is not closed keeps ignoring
 * names it does not declare.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, writeFiles } from '@bank-data-sharing/codegen';
import type { ApiRouter, RouterOptions } from '../src/runtime/index.js';
import { listen, send, type Running } from './helpers/http.js';

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = path.join(PACKAGE_ROOT, '.test-output', 'querystring-closed');

const filter = (schema: Record<string, unknown>) => [{ name: 'filter', in: 'querystring', content: { 'application/x-www-form-urlencoded': { schema } } }];
const answers = {
  '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } },
  '400': { description: 'bad', content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } } },
};
const SPEC = {
  openapi: '3.2.0',
  info: { title: 'Closed query strings', version: '1.0.0' },
  security: [{ Key: [] }],
  components: {
    securitySchemes: { Key: { type: 'apiKey', in: 'query', name: 'api_key' } },
    schemas: {
      Problem: {
        type: 'object',
        required: ['errors'],
        additionalProperties: false,
        properties: {
          errors: { type: 'array', items: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' }, path: { type: 'string' } } } },
        },
      },
    },
  },
  paths: {
    '/closed': {
      get: {
        operationId: 'closedFilter',
        parameters: filter({ type: 'object', additionalProperties: false, required: ['symbol'], properties: { symbol: { type: 'string' }, limit: { type: 'integer', maximum: 10 } } }),
        responses: answers,
      },
    },
    '/unevaluated': {
      get: { operationId: 'unevaluatedFilter', parameters: filter({ type: 'object', unevaluatedProperties: false, properties: { symbol: { type: 'string' } } }), responses: answers },
    },
    '/open': {
      get: { operationId: 'openFilter', parameters: filter({ type: 'object', properties: { symbol: { type: 'string' } } }), responses: answers },
    },
  },
};

type CreateRouter = (handlers: object, options?: RouterOptions<unknown>) => ApiRouter;
let running: Running;
const received: unknown[] = [];

beforeAll(async () => {
  await mkdir(OUTPUT, { recursive: true });
  const spec = path.join(OUTPUT, 'api.json');
  await writeFile(spec, JSON.stringify(SPEC));
  const result = await generate({ spec, targets: ['validators', 'server'] });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  await writeFiles(OUTPUT, result.files, { check: false });
  const { createRouter } = (await import(/* @vite-ignore */ path.join(OUTPUT, 'server/index.ts'))) as { createRouter: CreateRouter };
  const handler = ({ query }: { query: unknown }) => {
    received.push(query);
    return { status: 200, body: {} };
  };
  const router = createRouter(
    { closedFilter: handler, unevaluatedFilter: handler, openFilter: handler },
    { authorize: ({ credential }: { credential?: string }) => (credential === 'k' ? { scopes: [] } : undefined) },
  );
  running = await listen((req, res) => router(req as never, res as never));
});
afterAll(async () => {
  await running?.close();
  await rm(OUTPUT, { recursive: true, force: true });
});

const get = (target: string) => send(`${running.origin}${target}`);

describe('a form-encoded closed querystring', () => {
  it('answers a name it does not declare 400, in the spec error shape, naming the name', async () => {
    const reply = await get('/closed?symbol=ABC&api_key=k&colour=red');
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({ errors: [{ code: expect.any(String), message: expect.stringContaining('colour'), path: 'colour' }] });
    expect(reply.text).toContain('not a member of the query string');
  });

  it('answers 400 for unevaluatedProperties: false alone too', async () => {
    const reply = await get('/unevaluated?symbol=ABC&api_key=k&extra=1');
    expect(reply.status).toBe(400);
    expect(reply.json()).toMatchObject({ errors: [{ path: 'extra', message: expect.stringContaining('extra') }] });
  });

  it('takes its own members and the API key the API sends in the query', async () => {
    const reply = await get('/closed?symbol=ABC&limit=3&api_key=k');
    expect(reply.status).toBe(200);
    expect(received.at(-1)).toEqual({ symbol: 'ABC', limit: 3, api_key: 'k' });
    expect((await get('/unevaluated?api_key=k')).status).toBe(200);
  });

  it('still answers a member that breaks its schema by that rule', async () => {
    const reply = await get('/closed?symbol=ABC&limit=11&api_key=k');
    expect(reply.status).toBe(400);
    expect(reply.text).toContain('limit');
  });

  it('leaves an object that is not closed ignoring names it does not declare', async () => {
    const reply = await get('/open?symbol=ABC&api_key=k&colour=red');
    expect(reply.status).toBe(200);
  });
});
