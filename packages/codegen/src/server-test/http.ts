/**
 * Sends one request with node:http(s) and reads the whole answer, bounded: a request that
 * takes longer than the timeout, or an answer larger than the cap, ends as a transport
 * failure or a cut body instead of waiting or filling memory. node:http rather than fetch:
 * every status (407 included) comes back as it was sent, and nothing is decoded on the way.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ReceivedAnswer, SentRequest } from './types.js';

/** Bodies beyond this are cut (the checks then see the part read). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const EXCERPT = 1000;

export interface Exchange {
  readonly request: SentRequest;
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", " (set-cookie with "; "). */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  readonly truncated: boolean;
}

export interface TransportFailure {
  readonly request: SentRequest;
  readonly error: string;
}

export function isTransportFailure(value: Exchange | TransportFailure): value is TransportFailure {
  return 'error' in value;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '; ' : ', ') : value;
  }
  return out;
}

/** Kept-alive connections for one run; `close` ends them. */
export interface Connections {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;
  close(): void;
}

export function openConnections(): Connections {
  const http = new HttpAgent({ keepAlive: true, maxSockets: 4 });
  const https = new HttpsAgent({ keepAlive: true, maxSockets: 4 });
  return {
    http,
    https,
    close: () => {
      http.destroy();
      https.destroy();
    },
  };
}

export function send(request: SentRequest, options: { timeout: number; connections?: Connections }): Promise<Exchange | TransportFailure> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      resolve({ request, error: `not a URL: ${request.url}` });
      return;
    }
    const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
    const headers: Record<string, string> = { ...request.headers };
    if (body !== undefined) headers['content-length'] = String(body.byteLength);
    const make = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (value: Exchange | TransportFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const agent = options.connections ? (url.protocol === 'https:' ? options.connections.https : options.connections.http) : false;
    const req = make(url, { method: request.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        size += chunk.byteLength;
        if (size > MAX_BODY_BYTES) {
          truncated = true;
          chunks.push(chunk.subarray(0, chunk.byteLength - (size - MAX_BODY_BYTES)));
          res.destroy();
          finish({ request, status: res.statusCode ?? 0, headers: flatHeaders(res.headers), text: Buffer.concat(chunks).toString('utf8'), truncated: true });
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => finish({ request, status: res.statusCode ?? 0, headers: flatHeaders(res.headers), text: Buffer.concat(chunks).toString('utf8'), truncated: false }));
      res.on('error', (error) => finish({ request, error: error.message }));
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish({ request, error: `no answer within ${options.timeout} ms` });
    }, options.timeout);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ request, error: error.code ?? error.message }));
    req.end(body);
  });
}

export function answerOf(exchange: Exchange): ReceivedAnswer {
  return { status: exchange.status, headers: exchange.headers, bodyExcerpt: exchange.text.length > EXCERPT ? `${exchange.text.slice(0, EXCERPT)}…` : exchange.text };
}
