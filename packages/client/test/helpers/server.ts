/**
 * Small loopback HTTP servers for the tests: 127.0.0.1, an ephemeral port, every request
 * recorded, and the response's x-fapi-interaction-id echoing the request's unless the
 * handler sets one.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer, type ServerOptions as TlsServerOptions } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Subject CN of the client certificate, on a TLS server that asked for one. */
  peerCommonName?: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Close the connection without answering (a network failure for the client). */
  destroy?: boolean;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type Handler = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;

/** Starts a server on 127.0.0.1; with `tls`, an HTTPS one (e.g. asking for client certificates). */
export async function startServer(handler: Handler, options: { tls?: TlsServerOptions } = {}): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      if (options.tls) {
        const peer = (req.socket as TLSSocket).getPeerCertificate?.();
        if (peer && typeof peer.subject?.CN === 'string') recorded.peerCommonName = peer.subject.CN;
      }
      const index = requests.push(recorded) - 1;
      Promise.resolve(handler(recorded, index)).then(
        (reply) => {
          if (reply.destroy) {
            req.socket.destroy();
            return;
          }
          const headers: Record<string, string> = { ...reply.headers };
          const sent = req.headers['x-fapi-interaction-id'];
          if (typeof sent === 'string' && !Object.keys(headers).some((h) => h.toLowerCase() === 'x-fapi-interaction-id')) headers['x-fapi-interaction-id'] = sent;
          let body = '';
          if (reply.body !== undefined) {
            body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
            if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
              headers['content-type'] = typeof reply.body === 'string' ? 'text/plain' : 'application/json; charset=utf-8';
            }
          }
          res.writeHead(reply.status ?? 200, headers);
          res.end(body);
        },
        (error: unknown) => {
          res.writeHead(599, { 'content-type': 'text/plain' });
          res.end(String(error));
        },
      );
    });
  };
  const server: Server = options.tls ? createTlsServer(options.tls, listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A sleep double: records every wait and returns at once (no timed tests). */
export function recordingSleep(): { waits: number[]; sleep: (ms: number, signal?: AbortSignal) => Promise<void> } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      waits.push(ms);
    },
  };
}
