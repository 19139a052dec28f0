/**
 * An object parameter whose members travel under names of their own (query `form` with
 * `explode`, exploded cookies) takes only names nothing else claims: an API key sent in the
 * query or a cookie is the security scheme's, never a member of that object.
 */
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiRouter, type ApiDefinition } from '../../src/runtime/index.js';
import { listen, send, type Running } from '../helpers/http.js';

const none = z.looseObject({});
const filter = z.strictObject({ colour: z.string().optional(), size: z.string().optional() });

const definition: ApiDefinition = {
  api: { title: 'Keys', version: '1', pathPrefix: '', servers: [] },
  operations: {
    search: {
      operationId: 'search',
      method: 'get',
      path: '/search',
      request: {
        path: none,
        query: z.looseObject({ filter: filter.optional() }),
        headers: none,
        cookies: z.looseObject({ prefs: filter.optional() }),
        body: undefined,
        parameters: [
          { name: 'filter', in: 'query', style: 'form', explode: true, shape: 'object' },
          { name: 'prefs', in: 'cookie', style: 'form', explode: true, shape: 'object' },
        ],
      },
      responses: { '200': { headers: none, content: { 'application/json': z.unknown() } } },
    },
  },
  meta: { search: { security: [{ QueryKey: [] }, { CookieKey: [] }] } },
  securitySchemes: { QueryKey: { type: 'apiKey', in: 'query', name: 'api_key' }, CookieKey: { type: 'apiKey', in: 'cookie', name: 'session' } },
};

let running: Running | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('API keys beside form-exploded objects', () => {
  it('leaves the query and cookie API keys out of the objects the handler receives', async () => {
    const received: unknown[] = [];
    const handlers = { search: (req: { query: unknown; cookies: unknown }) => (received.push({ query: req.query, cookies: req.cookies }), { status: 200, body: {} }) };
    const router = createApiRouter(definition, handlers, { authorize: ({ credential }) => (credential === 'secret' ? { scopes: [] } : undefined), onError: () => undefined });
    running = await listen((req, res) => router(req, res));

    const byQuery = await send(`${running.origin}/search?colour=red&api_key=secret`);
    expect(byQuery.status).toBe(200);
    expect((received.at(-1) as { query: { filter: unknown } }).query.filter).toEqual({ colour: 'red' });

    const byCookie = await send(`${running.origin}/search`, { headers: { cookie: 'size=L; session=secret' } });
    expect(byCookie.status).toBe(200);
    expect((received.at(-1) as { cookies: { prefs: unknown } }).cookies.prefs).toEqual({ size: 'L' });
  });
});
