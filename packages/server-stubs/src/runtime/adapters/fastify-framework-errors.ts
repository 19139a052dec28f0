/**
 * Fastify refuses some request targets before any route runs: a path that is not valid
 * percent-encoding, a parameter longer than its `maxParamLength`. It answers them in its own
 * error shape, unless the application gives it `frameworkErrors`: this one lets the router
 * answer those below its prefix, as it does under Express (400 in the spec's shape, or the
 * operation itself when the router can serve it).
 */
import type { ApiRouter } from '../types.js';
import { belowMount, type FastifyReplyLike, type FastifyRequestLike } from './fastify.js';

/** The part of a Fastify reply used for what the router leaves to Fastify. */
export interface FastifyErrorReplyLike extends FastifyReplyLike {
  code(statusCode: number): unknown;
  send(payload?: unknown): unknown;
}

/** Fastify's `frameworkErrors` option. */
export type FastifyFrameworkErrors = (error: Error & { readonly statusCode?: number }, request: FastifyRequestLike, reply: FastifyErrorReplyLike) => void;

/**
 * @example
 * const router = createRouter(handlers, { authorize });
 * const app = Fastify({ frameworkErrors: fastifyFrameworkErrors(router) });
 * await app.register(fastifyPlugin(router));
 */
export function fastifyFrameworkErrors(router: ApiRouter, options: { readonly prefix?: string } = {}): FastifyFrameworkErrors {
  const { core } = router;
  const mount = options.prefix ?? '';
  return (error, request, reply) => {
    const req = request.raw;
    void core.handle(req, reply.raw, belowMount(req.url ?? '/', mount)).then((handled) => {
      if (handled) return;
      // Not the router's: Fastify's own answer, as without this option.
      reply.code(error.statusCode ?? 400);
      reply.send(error);
    });
  };
}
