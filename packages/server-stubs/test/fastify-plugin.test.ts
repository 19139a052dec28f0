/**
 * The Fastify plugin beside an application's own Fastify routes: operations are native routes,
 * the application keeps its other paths, and request targets Fastify refuses before routing
 * are the router's only below its prefix.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../src/generated/v2.2/index.js';
import { fastifyFrameworkErrors, fastifyPlugin } from '../src/runtime/index.js';
import { authorize, PREFIX } from './helpers/apps.js';
import { handlers22, newState } from './helpers/handlers.js';
import { send } from './helpers/http.js';
import { testKeys, type TestKeys } from './helpers/keys.js';

const BASE = PREFIX['v2.2'];
let keys: TestKeys;
let app: FastifyInstance | undefined;
beforeAll(async () => {
  keys = await testKeys();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(withFrameworkErrors: boolean): Promise<string> {
  const router = createRouter(handlers22(newState()), { authorize, verification: keys.verification, onError: () => undefined });
  app = Fastify({ forceCloseConnections: true, ...(withFrameworkErrors ? { frameworkErrors: fastifyFrameworkErrors(router) } : {}) });
  app.get('/health', async () => ({ ok: true }));
  await app.register(fastifyPlugin(router));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

describe('fastifyPlugin', () => {
  it('registers each operation as a native route, HEAD beside GET, and a catch-all below the prefix', async () => {
    await start(false);
    expect(app!.hasRoute({ method: 'GET', url: `${BASE}/accounts/:AccountId/transactions` })).toBe(true);
    expect(app!.hasRoute({ method: 'HEAD', url: `${BASE}/accounts/:AccountId/transactions` })).toBe(true);
    expect(app!.hasRoute({ method: 'PATCH', url: `${BASE}/account-access-consents/:ConsentId` })).toBe(true);
    expect(app!.hasRoute({ method: 'DELETE', url: `${BASE}/*` })).toBe(true);
  });

  it("leaves the application's routes and the paths outside its prefix to Fastify", async () => {
    const origin = await start(false);
    expect((await send(`${origin}/health`)).json()).toEqual({ ok: true });
    const outside = await send(`${origin}/elsewhere`);
    expect(outside.status).toBe(404);
    expect((outside.json() as { message: string }).message).toMatch(/^Route GET:\/elsewhere not found$/);
  });

  it('without fastifyFrameworkErrors, Fastify answers a broken percent-encoding itself', async () => {
    const origin = await start(false);
    const reply = await send(`${origin}${BASE}/accounts/acc%E0%A4%A`, { headers: { authorization: 'Bearer user' } });
    expect(reply.status).toBe(400);
    expect((reply.json() as { code: string }).code).toBe('FST_ERR_BAD_URL');
  });

  it('with fastifyFrameworkErrors, the router answers it below its prefix, and Fastify elsewhere', async () => {
    const origin = await start(true);
    const ours = await send(`${origin}${BASE}/accounts/acc%E0%A4%A`, { headers: { authorization: 'Bearer user' } });
    expect(ours.status).toBe(400);
    expect(ours.json()).toEqual({ Errors: [expect.objectContaining({ Code: 'Resource.InvalidFormat', Path: 'AccountId' })] });
    const theirs = await send(`${origin}/elsewhere/%E0%A4%A`);
    expect(theirs.status).toBe(400);
    expect((theirs.json() as { code: string }).code).toBe('FST_ERR_BAD_URL');
  });
});

describe('fastifyPlugin, refused at registration', () => {
  it('refuses a router prefix Fastify would read as route syntax', async () => {
    const { verification } = await testKeys();
    const router = createRouter(handlers22(newState()), { authorize, verification, prefix: '/bank:1' });
    const fastify = Fastify();
    await expect(fastify.register(fastifyPlugin(router)).ready()).rejects.toThrow('holds characters Fastify reads as route syntax');
    await fastify.close();
  });
});
