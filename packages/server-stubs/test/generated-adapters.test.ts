/** The generated entry's `createNodeListener` and `createFastifyPlugin`: the same router, served without Express. */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createFastifyPlugin, createNodeListener } from '../src/generated/v2.2/index.js';
import { authorize, PREFIX } from './helpers/apps.js';
import { handlers22, newState } from './helpers/handlers.js';
import { listen, send } from './helpers/http.js';
import { testKeys } from './helpers/keys.js';

const ACCOUNTS = `${PREFIX['v2.2']}/accounts`;

describe('the generated adapters', () => {
  it('createNodeListener serves the API on node:http', async () => {
    const { verification } = await testKeys();
    const running = await listen(createNodeListener(handlers22(newState()), { authorize, verification }));
    try {
      const reply = await send(`${running.origin}${ACCOUNTS}`, { headers: { authorization: 'Bearer user' } });
      expect(reply.status).toBe(200);
      expect((reply.json() as { Links: { Self: string } }).Links.Self).toBe(`${running.origin}${ACCOUNTS}`);
    } finally {
      await running.close();
    }
  });

  it('createFastifyPlugin serves the API in Fastify', async () => {
    const { verification } = await testKeys();
    const app = Fastify({ forceCloseConnections: true });
    await app.register(createFastifyPlugin(handlers22(newState()), { authorize, verification }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const reply = await send(`${origin}${ACCOUNTS}`, { headers: { authorization: 'Bearer user' } });
      expect(reply.status).toBe(200);
      expect((reply.json() as { Links: { Self: string } }).Links.Self).toBe(`${origin}${ACCOUNTS}`);
    } finally {
      await app.close();
    }
  });
});
