/** Plain HTTP over loopback with full control of what is sent (no implicit headers). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json(): unknown;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * Sends one request and collects the whole answer.
 *
 * @example
 * const reply = await send(`${base}/accounts`, { headers: { authorization: 'Bearer t' } });
 */
export function send(url: string, options: SendOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as unknown });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export interface Running {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/** Listens on an ephemeral loopback port. */
export function listen(handler: http.RequestListener): Promise<Running> {
  const server = http.createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
