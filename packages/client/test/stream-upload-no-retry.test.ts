/**
 * The two answers the client repeats even for a POST (401: once, with a fresh token; 429: after
 * Retry-After) are not repeated for a request body streamed from items (`importQuotes`, JSON
 * Lines): its items are gone once sent, so the answer is the caller's. Each test first shows the
 * same client setup repeating a non-streamed body (`searchQuotes`, a JSON body), so the only
 * difference is the streamed body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type ClientEvent, type TokenProvider, type TokenRequest } from '../src/runtime/index.js';
import { loadMarketFeed, quote, TRANSPORTS, type FeedResult, type MarketFeed, type Quote } from './helpers/market-feed.js';
import { recordingSleep } from './helpers/server.js';
import { startStreamServer, type SeenRequest, type StreamServer } from './helpers/stream-server.js';

type Method = (params?: Record<string, unknown>) => Promise<FeedResult>;

let feed: MarketFeed;
let server: StreamServer;

beforeAll(async () => {
  [feed, server] = await Promise.all([loadMarketFeed('stream-upload-no-retry'), startStreamServer()]);
});

afterAll(async () => {
  await server?.close();
  await feed?.output.remove();
});

const QUOTES = [quote(1), quote(2), quote(3)];
const LINES = QUOTES.map((q) => `${JSON.stringify(q)}\n`).join('');

/** Answers 200 the way each operation declares it (a JSON array, or the count of lines read). */
function success(seen: SeenRequest): { status: number; body: unknown } {
  if (seen.url.endsWith('/quotes/import')) return { status: 200, body: { count: seen.body.split('\n').filter((line) => line !== '').length } };
  return { status: 200, body: [quote(9)] };
}

let tags = 0;

/**
 * A client of its own (a tag on its requests, numbered tokens from its own provider), retries
 * allowed even for POST, waits recorded rather than slept.
 */
function setup() {
  const tag = `u${++tags}`;
  const tokenRequests: TokenRequest[] = [];
  const tokens: TokenProvider = {
    async getToken(request) {
      tokenRequests.push(request);
      return { accessToken: `${tag}-tok-${tokenRequests.length}`, expiresIn: 600 };
    },
  };
  const events: ClientEvent[] = [];
  const { waits, sleep } = recordingSleep();
  return {
    tag,
    tokenRequests,
    events,
    waits,
    requests: (): SeenRequest[] => server.requests.filter((r) => r.headers['x-test'] === tag),
    options: { baseUrl: `${server.origin}/feed`, headers: { 'x-test': tag }, tokens, sleep, onEvent: (e: ClientEvent) => events.push(e), retry: { safeMethods: ['get', 'post'] } },
  };
}

async function* items(): AsyncGenerator<Quote> {
  yield* QUOTES;
}

for (const transport of TRANSPORTS) {
  describe(`a streamed upload is not repeated through ${transport.name}`, () => {
    it('surfaces a 401 to a streamed upload: no fresh token, no second request', async () => {
      // Only each client's first token is refused.
      server.handle(async (_req, res, seen) => {
        await seen.received;
        const refused = /-tok-1$/.test(String(seen.headers['authorization']));
        const { status, body } = refused ? { status: 401, body: { title: 'token rejected', status: 401 } } : success(seen);
        res.writeHead(status, { 'content-type': refused ? 'application/problem+json' : 'application/json' });
        res.end(JSON.stringify(body));
      });

      const plain = setup();
      const searchQuotes = (feed.createClient({ ...plain.options, ...transport.options }) as unknown as { searchQuotes: Method }).searchQuotes;
      const found = await searchQuotes({ body: { symbols: ['ACME'] } });
      expect(found.status).toBe(200);
      expect(plain.requests().map((r) => r.headers['authorization'])).toEqual([`Bearer ${plain.tag}-tok-1`, `Bearer ${plain.tag}-tok-2`]);
      expect(plain.tokenRequests.map((r) => r.reason)).toEqual(['initial', 'rejected']);

      const streamed = setup();
      const error = await feed.createClient({ ...streamed.options, ...transport.options }).importQuotes({ body: items() }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 401, operationId: 'importQuotes' });
      const seen = streamed.requests();
      expect(seen).toHaveLength(1);
      expect(seen[0]!.headers['authorization']).toBe(`Bearer ${streamed.tag}-tok-1`);
      // The server had the whole upload: the 401 is its answer to it, not a cut-off request.
      expect(seen[0]!.body).toBe(LINES);
      expect(streamed.tokenRequests.map((r) => r.reason)).toEqual(['initial']);
      expect(streamed.events.filter((e) => e.type === 'retry')).toEqual([]);
    });

    it('surfaces a 429 with Retry-After to a streamed upload: no wait, no second request', async () => {
      // Each client's first request is rate limited.
      server.handle(async (_req, res, seen) => {
        await seen.received;
        const tag = seen.headers['x-test'];
        const first = server.requests.find((r) => r.headers['x-test'] === tag) === seen;
        if (first) {
          res.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '2' });
          res.end(JSON.stringify({ title: 'slow down', status: 429 }));
          return;
        }
        const { status, body } = success(seen);
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });

      const plain = setup();
      const searchQuotes = (feed.createClient({ ...plain.options, ...transport.options }) as unknown as { searchQuotes: Method }).searchQuotes;
      const found = await searchQuotes({ body: { symbols: ['ACME'] } });
      expect(found.status).toBe(200);
      expect(plain.requests()).toHaveLength(2);
      expect(plain.waits).toEqual([2000]);

      const streamed = setup();
      const error = await feed.createClient({ ...streamed.options, ...transport.options }).importQuotes({ body: items() }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 429, retryAfter: 2, operationId: 'importQuotes' });
      expect(streamed.requests()).toHaveLength(1);
      expect(streamed.requests()[0]!.body).toBe(LINES);
      expect(streamed.waits).toEqual([]);
      expect(streamed.events.filter((e) => e.type === 'retry')).toEqual([]);
    });
  });
}
