/**
 * The built-in transport (undici's `request` API) answers as the platform `fetch` does: the
 * same status, headers and text for the same bytes on the wire, compressed or not. Each case
 * is asked of both over 127.0.0.1 and the answers compared.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/generated/v2.2/index.js';
import {
  fetchTransport,
  InteractionIdMismatchError,
  readAll,
  staticToken,
  undiciTransport,
  type FetchLike,
  type HttpAnswer,
  type HttpRequest,
} from '../src/runtime/index.js';

const JSON_TEXT = JSON.stringify({ Data: { note: 'café, 10 €, 𝄞' }, Links: { Self: '/x' } });

type Route = (req: IncomingMessage, res: ServerResponse) => void;

function sendBytes(res: ServerResponse, bytes: Uint8Array, headers: Record<string, string | string[]> = {}, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers });
  res.end(bytes);
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** What the server sends, by path: each a case both transports are asked. */
const routes: Record<string, Route> = {
  '/plain': (_req, res) => sendBytes(res, utf8(JSON_TEXT)),
  '/bom': (_req, res) => sendBytes(res, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(JSON_TEXT)])),
  '/invalid-utf8': (_req, res) => sendBytes(res, Buffer.concat([utf8('{"a":"'), Buffer.from([0xff, 0xc3]), utf8('"}')])),
  '/gzip': (_req, res) => sendBytes(res, zlib.gzipSync(utf8(JSON_TEXT)), { 'content-encoding': 'gzip' }),
  '/gzip-upper': (_req, res) => sendBytes(res, zlib.gzipSync(utf8(JSON_TEXT)), { 'content-encoding': 'GZIP' }),
  '/deflate': (_req, res) => sendBytes(res, zlib.deflateSync(utf8(JSON_TEXT)), { 'content-encoding': 'deflate' }),
  '/br': (_req, res) => sendBytes(res, zlib.brotliCompressSync(utf8(JSON_TEXT)), { 'content-encoding': 'br' }),
  // Applied in the order listed: gzip first, then br.
  '/gzip-then-br': (_req, res) => sendBytes(res, zlib.brotliCompressSync(zlib.gzipSync(utf8(JSON_TEXT))), { 'content-encoding': 'gzip, br' }),
  '/identity': (_req, res) => sendBytes(res, utf8(JSON_TEXT), { 'content-encoding': 'identity' }),
  '/unknown-coding': (_req, res) => sendBytes(res, utf8('not really compressed'), { 'content-encoding': 'x-unknown' }),
  '/repeated-headers': (_req, res) => sendBytes(res, utf8('{}'), { 'x-custom': ['one', 'two'], vary: ['accept', 'origin'] }),
  '/redirect': (_req, res) => sendBytes(res, utf8('{"moved":true}'), { location: '/plain' }, 302),
  '/no-content': (_req, res) => {
    res.writeHead(204, { 'x-fapi-interaction-id': 'abc' });
    res.end();
  },
  '/error': (_req, res) => sendBytes(res, utf8('{"Errors":[]}'), {}, 503),
  '/chunked': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(JSON_TEXT.slice(0, 10));
    setTimeout(() => res.end(JSON_TEXT.slice(10)), 5);
  },
};

/** Request headers as received, for the cases that look at them. */
const received: Array<{ path: string; headers: IncomingMessage['headers']; body: string }> = [];

let server: Server;
let origin = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const route = routes[path];
      if (route) route(req, res);
      else sendBytes(res, utf8('{}'), {}, 404);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const platformFetch: FetchLike = (input, init) => fetch(input, init);
const GET: HttpRequest = { method: 'GET', headers: { accept: 'application/json' }, body: undefined, signal: undefined };

/** What a caller of a transport can observe of an answer. */
async function observe(answer: HttpAnswer) {
  const headers = answer.headers();
  // Hop-by-hop and framing headers are the connection's business, not the answer's.
  for (const name of ['connection', 'keep-alive', 'transfer-encoding', 'date']) delete headers[name];
  return {
    status: answer.status,
    contentType: answer.header('content-type'),
    custom: answer.header('x-custom'),
    absent: answer.header('x-not-sent'),
    headers,
    text: await answer.text(),
  };
}

describe('built-in transport', () => {
  const undici = undiciTransport({ fallback: platformFetch });
  const viaFetch = fetchTransport(platformFetch);

  for (const path of Object.keys(routes)) {
    it(`answers ${path} as fetch does`, async () => {
      const mine = await observe(await undici(`${origin}${path}`, GET));
      const theirs = await observe(await viaFetch(`${origin}${path}`, GET));
      expect(mine).toEqual(theirs);
    });
  }

  it('decodes what it asked for, and hands a coding it does not know on as it came', async () => {
    expect((await (await undici(`${origin}/br`, GET)).text())).toBe(JSON_TEXT);
    expect((await (await undici(`${origin}/gzip-then-br`, GET)).text())).toBe(JSON_TEXT);
    expect((await (await undici(`${origin}/unknown-coding`, GET)).text())).toBe('not really compressed');
    expect((await (await undici(`${origin}/invalid-utf8`, GET)).text())).toBe('{"a":"\ufffd\ufffd"}');
    expect((await (await undici(`${origin}/repeated-headers`, GET)).header('x-custom'))).toBe('one, two');
  });

  it('asks for compressed answers unless the caller chose an Accept-Encoding', async () => {
    received.length = 0;
    await (await undici(`${origin}/plain`, GET)).text();
    await (await undici(`${origin}/plain`, { ...GET, headers: { 'accept-encoding': 'identity' } })).text();
    expect(received.map((r) => r.headers['accept-encoding'])).toEqual(['gzip, deflate, br', 'identity']);
  });

  it('sends text and byte bodies itself and leaves Blob and FormData bodies to fetch', async () => {
    const fallbackCalls: string[] = [];
    const transport = undiciTransport({
      fallback: (input, init) => {
        fallbackCalls.push(String(init.body?.constructor.name));
        return fetch(input, init);
      },
    });
    received.length = 0;
    const post = (body: HttpRequest['body']) => transport(`${origin}/plain`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body, signal: undefined });
    await (await post('as text')).text();
    await (await post(new TextEncoder().encode('as bytes'))).text();
    await (await post(new Blob(['as a blob']))).text();
    const form = new FormData();
    form.set('field', 'as a form');
    await (await post(form)).text();
    expect(fallbackCalls).toEqual(['Blob', 'FormData']);
    expect(received.map((r) => r.body.includes('as a form') ? 'form' : r.body)).toEqual(['as text', 'as bytes', 'as a blob', 'form']);
  });

  it('lets go of an unread body and serves the next request on the same pool', async () => {
    const answer = await undici(`${origin}/plain`, GET);
    await answer.discard();
    await answer.discard();
    expect(await (await undici(`${origin}/plain`, GET)).text()).toBe(JSON_TEXT);
  });
});

describe('client options', () => {
  /** A dispatcher that records the paths it sends. */
  function recordingDispatcher(): { dispatcher: Dispatcher; agent: Agent; paths: string[] } {
    const agent = new Agent();
    const paths: string[] = [];
    const dispatcher = agent.compose((dispatch) => (opts, handler) => {
      paths.push(opts.path);
      return dispatch(opts, handler);
    });
    return { dispatcher, agent, paths };
  }

  it('sends through the dispatcher it is given', async () => {
    const { dispatcher, agent, paths } = recordingDispatcher();
    try {
      const client = createClient({ baseUrl: `${origin}/v`, dispatcher, retry: false, validate: false });
      const error = await client.GetAccounts().catch((e: unknown) => e);
      // The test server knows no such path: what matters is which dispatcher carried the request.
      expect(error).toMatchObject({ status: 404 });
      expect(paths).toEqual(['/v/accounts']);
    } finally {
      await agent.close();
    }
  });

  it('uses the fetch it is given instead of the built-in transport', async () => {
    const { dispatcher, agent, paths } = recordingDispatcher();
    const fetched: string[] = [];
    try {
      const client = createClient({
        baseUrl: `${origin}/v`,
        dispatcher,
        fetch: (input, init) => {
          fetched.push(input);
          return fetch(input, init);
        },
        retry: false,
      });
      await client.GetAccounts().catch(() => undefined);
      expect(fetched).toEqual([`${origin}/v/accounts`]);
      expect(paths).toEqual([]);
    } finally {
      await agent.close();
    }
  });
});

describe('an answer the client refuses before reading its body', () => {
  it('lets go of the body, so that its connection does not stay taken', async () => {
    // 8 MB: far more than the socket buffers hold, so the server's write only finishes (or its
    // connection only closes) when the client reads or lets go.
    const big = Buffer.alloc(8 * 1024 * 1024, 0x20);
    let released: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (released = resolve));
    const server = createServer((_req, res) => {
      res.on('close', () => released());
      res.writeHead(200, { 'content-type': 'application/json', 'x-fapi-interaction-id': 'not-the-one-sent', 'content-length': String(big.length) });
      res.end(big);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = createClient({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, retry: false });
      await expect(client.GetAccounts()).rejects.toBeInstanceOf(InteractionIdMismatchError);
      // Bounded: without the release, the connection would wait for undici's 300 s body timeout.
      const outcome = await Promise.race([done.then(() => 'released'), new Promise((resolve) => setTimeout(resolve, 3000, 'still taken'))]);
      expect(outcome).toBe('released');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a gzip-compressed paging server', () => {
  it('reads every record once through readAll', async () => {
    const pageCount = 3;
    let compressedPages = 0;
    const compressing = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const page = Number(url.searchParams.get('page') ?? '1');
      const records = Array.from({ length: 2 }, (_, i) => transaction(`tx-${page}-${i}`));
      const self = `http://${req.headers.host}${url.pathname}`;
      const next = page < pageCount ? `${self}?page=${page + 1}` : undefined;
      const body = JSON.stringify({ Data: { AccountId: 'acc-1', Transaction: records }, Links: { Self: `${self}?page=${page}`, ...(next ? { Next: next } : {}) }, Meta: { TotalPages: pageCount } });
      const gzipped = /\bgzip\b/.test(String(req.headers['accept-encoding']));
      if (gzipped) compressedPages++;
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-fapi-interaction-id': String(req.headers['x-fapi-interaction-id']),
        ...(gzipped ? { 'content-encoding': 'gzip' } : {}),
      });
      res.end(gzipped ? zlib.gzipSync(body) : body);
    });
    await new Promise<void>((resolve) => compressing.listen(0, '127.0.0.1', resolve));
    try {
      const client = createClient({ origin: `http://127.0.0.1:${(compressing.address() as AddressInfo).port}`, tokens: staticToken('t'), retry: false });
      const records = await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: 'acc-1' } });
      expect(records.map((r) => r.TransactionId)).toEqual(['tx-1-0', 'tx-1-1', 'tx-2-0', 'tx-2-1', 'tx-3-0', 'tx-3-1']);
      expect(compressedPages).toBe(pageCount);
    } finally {
      compressing.closeAllConnections();
      await new Promise((resolve) => compressing.close(resolve));
    }
  });
});

function transaction(id: string) {
  return {
    TransactionId: id,
    TransactionDateTime: '2025-03-14T12:00:00Z',
    TransactionType: 'POS',
    SubTransactionType: 'Purchase',
    CreditDebitIndicator: 'Debit',
    Status: 'Booked',
    BookingDateTime: '2025-03-14T12:00:00Z',
    TransactionInformation: 'Card purchase',
    Amount: { Amount: '10.00', Currency: 'AED' },
  };
}
