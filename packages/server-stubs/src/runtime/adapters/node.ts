/**
 * The router as a plain node:http request listener: no framework, no `next`. Whatever the
 * router does not take (a path outside its prefix, or no webhook's path) is answered with the
 * router's own 404 in the spec's error shape, so no request is left hanging.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRouter } from '../types.js';

/** A node:http request listener (`http.createServer(listener)`, also `https` and `http2`'s compatibility API). */
export type NodeRequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * @example
 * import http from 'node:http';
 * http.createServer(toNodeListener(createRouter(handlers, { authorize }))).listen(8080);
 */
export function toNodeListener(router: ApiRouter): NodeRequestListener {
  const { core } = router;
  return (req: IncomingMessage, res: ServerResponse): void => {
    // Neither call rejects: the core answers its own failures with the contract's 500.
    void core.handle(req, res).then((handled) => (handled ? undefined : core.notFound(req, res)));
  };
}
