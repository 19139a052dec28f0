/**
 * A raw `node:http` server on 127.0.0.1 for the stream tests: each test sets how it answers
 * (writing Server-Sent Events, JSON Lines or JSON text sequences by hand, in awkward pieces),
 * and every request is recorded with when its exchange closed, so a test can tell that the
 * client let go of a connection. `close()` ends every connection still open.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The request body as far as it came (a streamed upload fills it as it arrives). */
  body: string;
  /** Resolves when the whole request body has arrived. */
  received: Promise<void>;
  /** True once the whole request body has arrived (false for an upload the client cut short). */
  complete: boolean;
  /** Resolves when the exchange is over: the answer ended, or the connection closed. */
  closed: Promise<void>;
  /** True when the answer was ended by the server (not cut off by either side). */
  ended(): boolean;
}

export type StreamHandler = (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => void | Promise<void>;

export interface StreamServer {
  origin: string;
  requests: SeenRequest[];
  /** How the next requests are answered. */
  handle(handler: StreamHandler): void;
  close(): Promise<void>;
}

/** The next turn of the event loop: written pieces then tend to leave as separate packets. */
export const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Waits, a turn of the event loop at a time, until `done` (at most 100 000 turns). */
export async function waitUntil(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 100_000 && !done(); turn++) await tick();
  if (!done()) throw new Error('the condition never came true');
}

/**
 * Writes `text` in pieces of `size` bytes (cutting UTF-8 characters, CRLF pairs and lines
 * wherever they fall), a turn of the event loop apart.
 */
export async function writeInPieces(res: ServerResponse, text: string, size = 5): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += size) {
    if (res.destroyed) return;
    res.write(bytes.subarray(at, at + size));
    await tick();
  }
}

export async function startStreamServer(): Promise<StreamServer> {
  const requests: SeenRequest[] = [];
  let handler: StreamHandler = (_req, res) => {
    res.writeHead(500);
    res.end();
  };
  const server = createServer((req, res) => {
    let complete = false;
    const seen: SeenRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: '',
      received: new Promise((resolve) => req.on('end', resolve)),
      get complete() {
        return complete;
      },
      closed: new Promise((resolve) => res.on('close', resolve)),
      ended: () => res.writableFinished,
    };
    req.setEncoding('utf8');
    req.on('data', (text: string) => (seen.body += text));
    req.on('end', () => (complete = true));
    // A client that cuts its upload short resets the connection: expected here.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    requests.push(seen);
    Promise.resolve(handler(req, res, seen)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
