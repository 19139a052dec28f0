/**
 * `maxResponseBytes`: the client reads no answer body whole past its limit, whatever the server
 * declares or sends: a declared length over it, a chunked body that goes on, a small compressed
 * body that decodes to much more. Both transports, over 127.0.0.1; the call fails once, with
 * `ResponseTooLargeError`, and is not retried.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/generated/v2.2/index.js';
import { ResponseTooLargeError } from '../src/runtime/index.js';

const LIMIT = 64 * 1024;
/** A JSON body of about `bytes` bytes. */
const jsonOf = (bytes: number): string => JSON.stringify({ Data: { Account: [] }, Links: { Self: '/x' }, Meta: { Filler: 'x'.repeat(bytes) } });

const hits = new Map<string, number>();
const routes: Record<string, (res: ServerResponse) => void> = {
  // Declares its length: refused before the body is read.
  '/declared/accounts': (res) => {
    const body = Buffer.from(jsonOf(4 * LIMIT));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    res.end(body);
  },
  // No length: chunks until the client lets go (bounded here, so that the test ends either way).
  '/endless/accounts': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    let sent = 0;
    const more = (): void => {
      if (res.destroyed || sent > 64 * LIMIT) {
        res.end();
        return;
      }
      sent += 16 * 1024;
      res.write('x'.repeat(16 * 1024), () => setImmediate(more));
    };
    res.write('{"Data":"');
    more();
  },
  // 2 MiB of JSON in a few kilobytes of gzip.
  '/bomb/accounts': (res) => {
    const body = zlib.gzipSync(Buffer.from(jsonOf(32 * LIMIT)));
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) });
    res.end(body);
  },
  // Within the limit, compressed or not.
  '/small/accounts': (res) => {
    const body = Buffer.from(jsonOf(LIMIT / 2));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    res.end(body);
  },
  '/small-gzip/accounts': (res) => {
    const body = zlib.gzipSync(Buffer.from(jsonOf(LIMIT / 2)));
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(body);
  },
};

let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route) route(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const transports = [
  ['the built-in transport', {}],
  ['a given fetch', { fetch: (input: string, init: RequestInit) => fetch(input, init) }],
] as const;

describe.each(transports)('maxResponseBytes with %s', (_name, extra) => {
  const client = (base: string) => createClient({ baseUrl: `${origin}/${base}`, maxResponseBytes: LIMIT, validate: false, timeoutMs: 10_000, ...extra });

  it.each(['declared', 'endless', 'bomb'])('refuses the %s body once, without a retry', async (base) => {
    hits.delete(`/${base}/accounts`);
    const error = await client(base)
      .GetAccounts()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ code: 'response-too-large', limit: LIMIT });
    expect((error as Error).message).toBe(`GetAccounts: answer (HTTP 200) from ${origin}/${base}/accounts: the answer's body is larger than ${LIMIT} bytes (maxResponseBytes)`);
    // GET is retried on network failures by default: a body too large is not one.
    expect(hits.get(`/${base}/accounts`)).toBe(1);
  });

  it.each(['small', 'small-gzip'])('reads the %s body within the limit', async (base) => {
    const answer = (await client(base).GetAccounts()) as unknown as { body: { Meta: { Filler: string } } };
    expect(answer.body.Meta.Filler).toHaveLength(LIMIT / 2);
  });
});

describe('the default limit', () => {
  it('is 32 MiB', async () => {
    const { DEFAULT_MAX_RESPONSE_BYTES } = await import('../src/runtime/index.js');
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(32 * 1024 * 1024);
  });
});
