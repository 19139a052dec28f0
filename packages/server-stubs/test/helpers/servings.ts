/**
 * The ways one router is served, each on a loopback port: Express 5 and Express 4 middleware,
 * a plain node:http listener, a Fastify plugin. `mount` is where the framework puts the router
 * (a node:http listener has no mount point: the router's own `prefix` places it there).
 */
import type { AddressInfo } from 'node:net';
import express5 from 'express';
import express4 from 'express4';
import Fastify from 'fastify';
import { fastifyFrameworkErrors, fastifyPlugin, toNodeListener, type ApiRouter } from '../../src/runtime/index.js';
import { listen, type Running } from './http.js';

export interface Serving {
  readonly name: string;
  /** Serves `router` below `mount` (`''`: at the root). */
  start(router: ApiRouter, mount: string): Promise<Running>;
}

function expressServing(name: string, express: typeof express5): Serving {
  return {
    name,
    start: (router, mount) => {
      const app = express();
      if (mount === '') app.use(router);
      else app.use(mount, router);
      return listen(app);
    },
  };
}

export const SERVINGS: readonly Serving[] = [
  expressServing('Express 5', express5),
  expressServing('Express 4', express4),
  {
    name: 'node:http',
    start: (router, mount) => {
      if (mount !== '') throw new Error('a node:http listener has no mount point; use the router prefix');
      return listen(toNodeListener(router));
    },
  },
  {
    name: 'Fastify 5',
    start: async (router, mount) => {
      // The router answers the request targets Fastify refuses before routing, as under Express.
      const app = Fastify({ forceCloseConnections: true, frameworkErrors: fastifyFrameworkErrors(router, { prefix: mount }) });
      await app.register(fastifyPlugin(router), mount === '' ? {} : { prefix: mount });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      return { origin: `http://127.0.0.1:${port}`, close: () => app.close() };
    },
  },
];
