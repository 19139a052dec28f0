/**
 * The router as a plain node:http request listener: no framework, no `next`. Whatever the
 * router does not take (a path outside its prefix, or no webhook's path) is answered with the
 * router's own 404 in the spec's error shape, so no request is left hanging.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ApiRouter } from '../types.js';

/**
 * @example
 * import http from 'node:http';
 * http.createServer(toNodeListener(createRouter(handlers, { authorize }))).listen(8080);
 */
export function toNodeListener(router: ApiRouter): RequestListener {
  const { core } = router;
  return (req: IncomingMessage, res: ServerResponse): void => {
    // Neither call rejects: the core answers its own failures with the contract's 500.
    void core.handle(req, res).then((handled) => (handled ? undefined : core.notFound(req, res)));
  };
}
