/**
 * A webhook receiver (which leaves other paths to the application) served by the adapters:
 * as a Fastify plugin its paths are native routes and other paths stay Fastify's; as a
 * node:http listener, where nothing else could answer, other paths get the router's 404.
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createApiWebhookRouter, fastifyPlugin, toNodeListener, type WebhookDefinition } from '../src/runtime/index.js';
import { listen, send } from './helpers/http.js';

const noParams = z.looseObject({});
const definition: WebhookDefinition = {
  api: { title: 'Pets', version: '1', pathPrefix: '', servers: [] },
  webhooks: {
    newPet: {
      webhook: 'newPet',
      method: 'post',
      request: { path: noParams, query: noParams, headers: noParams, cookies: noParams, body: { required: true, content: { 'application/json': z.strictObject({ id: z.string() }) } } },
      responses: { '200': { headers: noParams, content: { 'application/json': z.strictObject({ got: z.string() }) } } },
    },
  },
  meta: { newPet: { security: [] } },
  securitySchemes: {},
};
const handlers = { newPet: (request: { body: { id: string } }) => ({ status: 200, body: { got: request.body.id } }) };
const receiver = () => createApiWebhookRouter(definition, handlers, { paths: { newPet: '/hooks/new-pet' }, onError: () => undefined });
const delivery = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"p1"}' };

describe('a webhook receiver as a Fastify plugin', () => {
  it('receives at its path, answers 405 there, and leaves other paths to Fastify', async () => {
    const app = Fastify({ forceCloseConnections: true });
    app.get('/other', async () => 'other route');
    await app.register(fastifyPlugin(receiver()));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      expect((await send(`${origin}/hooks/new-pet`, delivery)).json()).toEqual({ got: 'p1' });
      const wrongMethod = await send(`${origin}/hooks/new-pet`);
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.allow).toBe('POST');
      expect((await send(`${origin}/other`)).text).toBe('other route');
      const elsewhere = await send(`${origin}/nothing`);
      expect(elsewhere.status).toBe(404);
      expect((elsewhere.json() as { message: string }).message).toBe('Route GET:/nothing not found');
    } finally {
      await app.close();
    }
  });

  it('refuses, when registered, a receiver path Fastify cannot express', async () => {
    const app = Fastify();
    const odd = createApiWebhookRouter(definition, handlers, { paths: { newPet: '/hooks/{kind}.json' }, onError: () => undefined });
    await expect(app.register(fastifyPlugin(odd)).ready()).rejects.toThrow('cannot be a Fastify route');
    await app.close();
  });
});

describe('a webhook receiver as a node:http listener', () => {
  it('receives at its path and answers other paths with its 404', async () => {
    const running = await listen(toNodeListener(receiver()));
    try {
      expect((await send(`${running.origin}/hooks/new-pet`, delivery)).json()).toEqual({ got: 'p1' });
      const elsewhere = await send(`${running.origin}/nothing`);
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.headers['content-type']).toBe('application/problem+json');
    } finally {
      await running.close();
    }
  });
});
