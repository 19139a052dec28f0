/**
 * Request bodies of a sequential media type sent from the caller's items (`importQuotes`: JSON
 * Lines), through both transports: encoded as they are sent, each checked first; an invalid
 * item aborts the request and names itself; such a call is never repeated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, RequestError, RequestValidationError, type ClientEvent, type ClientOptions } from '../src/runtime/index.js';
import { loadMarketFeed, quote, TRANSPORTS, type MarketFeed, type Quote } from './helpers/market-feed.js';
import { startStreamServer, waitUntil, type SeenRequest, type StreamServer } from './helpers/stream-server.js';

let feed: MarketFeed;
let server: StreamServer;

beforeAll(async () => {
  [feed, server] = await Promise.all([loadMarketFeed('stream-requests'), startStreamServer()]);
});

afterAll(async () => {
  await server?.close();
  await feed?.output.remove();
});

/** Counts the lines of the upload once it is complete; a cut-off upload gets no answer. */
function countingServer(): void {
  server.handle(async (_req, res, seen) => {
    await seen.received;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ count: seen.body.split('\n').filter((line) => line !== '').length }));
  });
}

let tags = 0;

/**
 * A client whose every request carries a tag of its own (`x-test`), so that the requests of a
 * test are told from late ones of an earlier test; and what it reported.
 */
function tagged(options: ClientOptions = {}) {
  const tag = `t${++tags}`;
  const events: ClientEvent[] = [];
  const client = feed.createClient({ baseUrl: `${server.origin}/feed`, headers: { 'x-test': tag }, onEvent: (e) => events.push(e), ...options });
  return {
    client,
    requests: (): SeenRequest[] => server.requests.filter((r) => r.headers['x-test'] === tag),
    sent: (): number => events.filter((e) => e.type === 'request').length,
    retried: (): boolean => events.some((e) => e.type === 'retry'),
  };
}

for (const transport of TRANSPORTS) {
  describe(`streamed request bodies through ${transport.name}`, () => {
    const client = () => feed.createClient({ baseUrl: `${server.origin}/feed`, ...transport.options });

    it('sends the items of an async iterable as JSON Lines, encoded as they are pulled', async () => {
      countingServer();
      const quotes = Array.from({ length: 50 }, (_, n) => quote(n, { note: n % 7 === 0 ? 'é €' : undefined }));
      let pulled = 0;
      async function* items(): AsyncGenerator<Quote> {
        for (const q of quotes) {
          pulled++;
          yield q;
        }
      }
      const result = await client().importQuotes({ body: items() });
      expect(result.body).toEqual({ count: 50 });
      const seen = server.requests.at(-1)!;
      expect(seen.headers['content-type']).toBe('application/jsonl');
      // Sent as it was produced: no length known beforehand.
      expect(seen.headers['content-length']).toBeUndefined();
      expect(seen.body).toBe(quotes.map((q) => JSON.stringify(q) + '\n').join(''));
      expect(pulled).toBe(50);
    });

    it('sends an array as well', async () => {
      countingServer();
      const result = await client().importQuotes({ body: [quote(1), quote(2)] });
      expect(result.body).toEqual({ count: 2 });
      expect(server.requests.at(-1)!.body).toBe(`${JSON.stringify(quote(1))}\n${JSON.stringify(quote(2))}\n`);
    });

    it('refuses an invalid item while sending: the request is cut short, the call names the item, nothing is repeated', async () => {
      countingServer();
      const { client: c, requests, sent, retried } = tagged({ retry: { safeMethods: ['post'] }, ...transport.options });
      const twoLines = `${JSON.stringify(quote(1))}\n${JSON.stringify(quote(2))}\n`;
      let finished = false;
      async function* items(): AsyncGenerator<Quote> {
        try {
          yield quote(1);
          yield quote(2);
          // The invalid item comes once the server has the two before it.
          await waitUntil(() => requests()[0]?.body === twoLines);
          yield { ...quote(3), price: 0 };
          yield quote(4);
        } finally {
          finished = true;
        }
      }
      const error = await c.importQuotes({ body: items() }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toBeInstanceOf(RequestError);
      expect((error as RequestValidationError).issues).toHaveLength(1);
      expect((error as RequestValidationError).issues[0]).toMatch(/^item 3: price: /);
      expect((error as Error).message).toContain('importQuotes: the request body does not match the contract: item 3: price');
      expect(finished).toBe(true);
      expect([sent(), retried()]).toEqual([1, false]);
      const [seen] = requests();
      await seen!.closed;
      // The server never got the whole body, nor the invalid item.
      expect(seen!.complete).toBe(false);
      expect(seen!.body).toBe(twoLines);
    });

    it('refuses an invalid first item before the request goes out', async () => {
      countingServer();
      const { client: c, sent } = tagged(transport.options);
      const error = await c.importQuotes({ body: [{ symbol: 'lower', price: 1, at: '2026-01-01T00:00:00Z' }, quote(2)] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]).toMatch(/^item 1: symbol: /);
      expect(sent()).toBe(0);
    });

    it('sends items unchecked with validate: false, and refuses an item JSON cannot carry', async () => {
      countingServer();
      const result = await client().importQuotes({ body: [{ ...quote(1), price: -1 }] }, { validate: false });
      expect(result.body).toEqual({ count: 1 });

      const error = await client().importQuotes({ body: [quote(1), { ...quote(2), big: 1n }] }, { validate: false }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestError);
      expect((error as Error).message).toMatch(/importQuotes: item 2 of the request body cannot be sent as json-lines/);
    });

    it('rejects with the caller\'s own error when its items fail, and does not repeat the request', async () => {
      countingServer();
      const { client: c, sent, retried } = tagged({ retry: { safeMethods: ['post'] }, ...transport.options });
      const failure = new Error('the source of quotes failed');
      async function* items(): AsyncGenerator<Quote> {
        yield quote(1);
        throw failure;
      }
      await expect(c.importQuotes({ body: items() })).rejects.toBe(failure);
      expect([sent(), retried()]).toEqual([1, false]);
    });

    it('lets go of the caller\'s items when no connection can be made, and does not try again', async () => {
      const closed = await startStreamServer();
      await closed.close();
      let finished = false;
      async function* items(): AsyncGenerator<Quote> {
        try {
          for (let n = 1; n <= 1000; n++) yield quote(n);
        } finally {
          finished = true;
        }
      }
      const events: ClientEvent[] = [];
      const c = feed.createClient({ baseUrl: `${closed.origin}/feed`, retry: { safeMethods: ['post'], baseDelayMs: 1 }, onEvent: (e) => events.push(e), ...transport.options });
      const error = await c.importQuotes({ body: items() }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect(events.map((e) => e.type)).toEqual(['request']);
      await waitUntil(() => finished);
    });

    it('does not repeat a streamed upload on a server failure, even where retries are allowed', async () => {
      server.handle(async (_req, res, seen) => {
        await seen.received;
        res.writeHead(503, { 'content-type': 'application/problem+json' });
        res.end(JSON.stringify({ title: 'busy', status: 503 }));
      });
      const { client: c, requests, sent, retried } = tagged({ retry: { maxRetries: 3, baseDelayMs: 1, safeMethods: ['post'] }, ...transport.options });
      const error = await c.importQuotes({ body: [quote(1)] }).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 503 });
      expect([sent(), retried()]).toEqual([1, false]);
      expect(requests()).toHaveLength(1);
    });
  });
}
