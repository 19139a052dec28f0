/**
 * Listening on loopback before the application exists, so that the application can be
 * built with its own public URL (links, the signing issuer) and never trusts `Host`.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The only interface the sandbox listens on. */
export const LOOPBACK = '127.0.0.1';

/** A listening server that answers once `serve` has given it an application. */
export interface Listener {
  readonly server: Server;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Hands requests to `app` from now on. */
  serve(app: RequestListener): void;
  /** Stops listening and ends every open connection (keep-alive ones included). */
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1:`port` (0: a free port chosen by the system).
 *
 * @example
 * const hub = await listenOnLoopback(0);
 * hub.serve(createHubApp({ ..., publicUrl: hub.url }));
 */
export function listenOnLoopback(port: number): Promise<Listener> {
  const server = createServer();
  // Requests that arrive before `serve` are refused rather than left hanging.
  let app: RequestListener = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  server.on('request', (req, res) => app(req, res));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK, () => {
      server.off('error', reject);
      const { port: actual } = server.address() as AddressInfo;
      resolve({
        server,
        url: `http://${LOOPBACK}:${actual}`,
        port: actual,
        serve: (next) => {
          app = next;
        },
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}
