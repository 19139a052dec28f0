/**
 * The router as a Fastify plugin: each operation is a native Fastify route (Fastify's router
 * finds it), and a catch-all route below the router's prefix answers what no operation has
 * (404, 405 with `Allow`) as the router does under Express.
 *
 * The router answers in the route's `preParsing` phase, after `reply.hijack()`: Fastify has
 * neither read the body (the router reads and limits it itself: 413, signed bodies, sequences)
 * nor judged its `Content-Type` (the router answers 415 in the spec's shape). `onRequest` and
 * `preParsing` hooks of the application run first; later hooks and `onSend` do not, as the
 * router writes the answer itself.
 *
 * Fastify is not imported: the types below are the part of its API the plugin uses, so the
 * runtime does not depend on it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRouter, RouterCore } from '../types.js';
import { nativeRoutes, fastifyPath } from './fastify-routes.js';

/** The part of a Fastify request the plugin reads. */
export interface FastifyRequestLike {
  readonly raw: IncomingMessage;
}

/** The part of a Fastify reply the plugin uses. */
export interface FastifyReplyLike {
  readonly raw: ServerResponse;
  hijack(): unknown;
}

type Answer = (request: FastifyRequestLike, reply: FastifyReplyLike) => void;

/** The part of a Fastify instance the plugin uses. */
export interface FastifyInstanceLike {
  /** The prefix the plugin was registered under (`register(plugin, { prefix })`). */
  readonly prefix: string;
  readonly supportedMethods?: readonly string[];
  route(options: {
    method: string | string[];
    url: string;
    exposeHeadRoutes: boolean;
    preParsing: (request: FastifyRequestLike, reply: FastifyReplyLike, payload: unknown, done: (error?: Error | null) => void) => void;
    handler: Answer;
  }): unknown;
}

/** A Fastify plugin (callback style): `app.register(plugin)` or `app.register(plugin, { prefix })`. */
export type FastifyRouterPlugin = (instance: FastifyInstanceLike, options: unknown, done: (error?: Error) => void) => void;

/** Fastify 5's methods, for an instance that does not list its own. */
const FASTIFY_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'];

/** The request target below the plugin's mount point, as the router expects it (Express strips its mount path the same way). */
export function belowMount(url: string, mount: string): string {
  if (mount === '' || !url.startsWith(mount)) return url;
  const rest = url.slice(mount.length);
  return rest === '' ? '/' : rest.charCodeAt(0) === 47 /* / */ ? rest : `/${rest}`;
}

/** Runs `serve` instead of Fastify's body parsing and handler; the router writes the answer. */
function answering(core: RouterCore, mount: string, serve: (req: IncomingMessage, res: ServerResponse, url: string) => Promise<boolean>): Answer {
  return (request, reply) => {
    reply.hijack();
    const { raw: req } = request;
    const res = reply.raw;
    // Neither call rejects: the core answers its own failures with the contract's 500.
    void serve(req, res, belowMount(req.url ?? '/', mount)).then((handled) => (handled ? undefined : core.notFound(req, res)));
  };
}

/**
 * @example
 * import Fastify from 'fastify';
 * const app = Fastify();
 * await app.register(fastifyPlugin(createRouter(handlers, { authorize })));
 */
export function fastifyPlugin(router: ApiRouter): FastifyRouterPlugin {
  const { core } = router;
  return (instance, _options, done) => {
    try {
      if (core.prefix !== '' && fastifyPath(core.prefix) !== core.prefix) {
        throw new TypeError(`fastifyPlugin: the router's prefix ${JSON.stringify(core.prefix)} holds characters Fastify reads as route syntax; mount it with register(plugin, { prefix }) instead`);
      }
      const mount = instance.prefix;
      const supported = new Set(instance.supportedMethods ?? FASTIFY_METHODS);
      const route = (method: string | string[], url: string, answer: Answer) =>
        instance.route({
          method,
          url,
          exposeHeadRoutes: false,
          preParsing: (request, reply, _payload, next) => {
            answer(request, reply);
            next();
          },
          // Not reached: the hook has hijacked the reply, and Fastify runs nothing after that.
          handler: answer,
        });
      const operations = core.operations();
      for (const { url, methods, name } of nativeRoutes(operations, core.prefix, supported)) {
        route([...methods], url, answering(core, mount, (req, res, target) => core.handleOperation(req, res, name, target)));
      }
      const routed = answering(core, mount, (req, res, target) => core.handle(req, res, target));
      if (core.passUnmatched) {
        // A webhook receiver leaves other paths to the application: its catch-alls are its own paths, for the methods they lack (405).
        for (const path of new Set(operations.map((op) => op.path))) {
          const url = fastifyPath(path);
          if (url === undefined) throw new TypeError(`fastifyPlugin: the receiver's path ${JSON.stringify(path)} cannot be a Fastify route; choose one whose parameters are whole segments`);
          const taken = new Set(operations.filter((op) => op.path === path).flatMap((op) => (op.method === 'GET' ? ['GET', 'HEAD'] : [op.method])));
          const others = [...supported].filter((method) => !taken.has(method));
          if (others.length > 0) route(others, `${core.prefix}${url}`, routed);
        }
      } else {
        // Everything else below the prefix: the router's own 404, 405 with Allow, or an operation Fastify could not route.
        const methods = [...supported];
        route(methods, `${core.prefix}/*`, routed);
        if (core.prefix !== '') route(methods, core.prefix, routed);
      }
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  };
}
