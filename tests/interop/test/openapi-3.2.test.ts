/**
 * Our OpenAPI 3.2 test document end to end: its generated server on Express over loopback,
 * called through its generated client. QUERY with a body, an additional method (COPY),
 * Server-Sent Events and JSON Lines / JSON text sequences answers checked item by item on both
 * ends, a client that leaves mid-stream, a stream resumed with Last-Event-ID against the
 * router, a JSON Lines upload, and a multipart/mixed report read part by part.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError as ClientApiError, NetworkError, RequestValidationError } from '@bank-data-sharing/client/runtime';
import { clientOf, generateApi, listen, routerFactory, type Running } from './support/harness.js';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/codegen/test/fixtures/openapi-3.2.yaml');

interface Quote {
  symbol: string;
  price: number;
  at: string;
}
interface QuoteEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}
type Call = (params?: object, options?: object) => Promise<{ status: number; body: unknown }>;

const quote = (n: number): Quote => ({ symbol: 'ABC', price: n, at: `2026-01-01T10:00:${String(n % 60).padStart(2, '0')}Z` });
const event = (n: number): QuoteEvent => ({ id: String(n), event: 'quote', data: JSON.stringify(quote(n)) });

async function collect<T>(items: AsyncIterable<T>, limit = 1_000): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}

describe('an OpenAPI 3.2 API, client to server', () => {
  let running: Running;
  let client: Record<string, Call>;
  /** How the live feed behaves: `breakAfter` events per connection, then a cut (a handler error). */
  const feed = { total: 6, breakAfter: Infinity, badAt: 0, finished: 0, lastEventIds: [] as Array<string | undefined> };
  const uploads: Quote[][] = [];

  beforeAll(async () => {
    const api = await generateApi(FIXTURE, 'openapi-3.2');
    const handlers = {
      searchQuotes: ({ body }: { body: { symbols: string[] } }) => ({ status: 200, body: body.symbols.map((symbol, i) => ({ ...quote(i + 1), symbol })) }),
      copyQuote: ({ path: p, headers }: { path: { symbol: string }; headers: { destination: string } }) => ({ status: 201, body: { ...quote(1), symbol: `${headers.destination}` } }),
      getInstrument: ({ cookies }: { cookies: { prefs?: string[] } }) => ({ status: 200, body: cookies.prefs?.includes('bond') ? { kind: 'bond', isin: 'XS0123456789' } : { symbol: 'ABC' } }),
      searchQuotesByJson: ({ query }: { query: { symbols: string[]; since?: string } }) => ({ status: 200, body: query.symbols.map((symbol) => ({ ...quote(1), symbol })) }),
      filterQuotes: ({ query }: { query: { symbol: string; limit?: number; venues?: string[] } }) => ({ status: 200, body: [{ ...quote(query.limit ?? 1), symbol: `${query.symbol}${'V'.repeat(query.venues?.length ?? 0)}` }] }),
      streamQuotes: ({ headers }: { headers: Record<string, string | undefined> }) => {
        feed.lastEventIds.push(headers['last-event-id']);
        const after = Number(headers['last-event-id'] ?? 0);
        return {
          status: 200,
          body: (async function* () {
            try {
              for (let n = after + 1, sent = 0; n <= feed.total; n++, sent++) {
                if (sent === feed.breakAfter) throw new Error('the price source hiccuped');
                yield n === feed.badAt ? { event: 'trade', data: 'x' } : event(n);
              }
            } finally {
              feed.finished++;
            }
          })(),
        };
      },
      quoteHistory: () => ({ status: 200, body: [quote(1), quote(2), quote(3)] }),
      quoteReport: () => ({
        status: 200,
        body: (async function* () {
          yield quote(7);
          yield 'a note, café';
          yield 'another\r\n--note';
        })(),
      }),
      importQuotes: async ({ body }: { body: AsyncIterable<Quote> }) => {
        const seen: Quote[] = [];
        uploads.push(seen);
        for await (const item of body) seen.push(item);
        return { status: 200, body: { count: seen.length } };
      },
    };
    const app = express();
    app.use(routerFactory(api)(handlers, { authorize: ({ credential }: { credential?: string }) => (credential === 't' ? { scopes: ['quotes'] } : undefined), onError: () => undefined }));
    running = await listen(app);
    client = clientOf<Call>(api, { baseUrl: `${running.origin}/feed`, credentials: { bearer: 't' }, retry: false });
  });
  afterAll(() => running?.close());

  it('searches with QUERY and a body, and copies with COPY', async () => {
    expect(await client['searchQuotes']!({ body: { symbols: ['ABC', 'XY'] } })).toMatchObject({ status: 200, body: [{ symbol: 'ABC', price: 1 }, { symbol: 'XY', price: 2 }] });
    expect(await client['copyQuote']!({ path: { symbol: 'ABC' }, headers: { destination: 'XYZ' } })).toMatchObject({ status: 201, body: { symbol: 'XYZ' } });
  });

  it('sends the whole query string as one value: JSON text, or form members in their encoding', async () => {
    const searched = await client['searchQuotesByJson']!({ query: { symbols: ['ABC', 'XY'], since: '2026-01-01T00:00:00Z' } });
    expect(searched).toMatchObject({ status: 200, body: [{ symbol: 'ABC' }, { symbol: 'XY' }] });
    const filtered = await client['filterQuotes']!({ query: { symbol: 'AB', limit: 4, venues: ['XLON', 'XPAR'] } });
    expect(filtered).toMatchObject({ status: 200, body: [{ symbol: 'ABVV', price: 4 }] });
    const refused = await client['searchQuotesByJson']!({ query: { symbols: [] } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ClientApiError);
    expect((refused as ClientApiError).status).toBe(400);
  });

  it('reads a union whose discriminator has a defaultMapping: an answer without the tag is the default variant', async () => {
    expect(await client['getInstrument']!({ path: { symbol: 'ABC' } })).toMatchObject({ status: 200, body: { symbol: 'ABC' } });
    expect(await client['getInstrument']!({ path: { symbol: 'ABC' }, cookies: { prefs: ['bond'] } })).toMatchObject({ status: 200, body: { kind: 'bond', isin: 'XS0123456789' } });
  });

  it('reads Server-Sent Events checked item by item', async () => {
    feed.breakAfter = Infinity;
    const result = await client['streamQuotes']!();
    expect(result.status).toBe(200);
    expect(await collect(result.body as AsyncIterable<QuoteEvent>)).toEqual([1, 2, 3, 4, 5, 6].map(event));
  });

  it('sees a stream the server cut off at a bad item as broken, with the items before it', async () => {
    feed.badAt = 3;
    const seen: QuoteEvent[] = [];
    const result = await client['streamQuotes']!();
    await expect(
      (async () => {
        for await (const item of result.body as AsyncIterable<QuoteEvent>) seen.push(item);
      })(),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(seen).toEqual([event(1), event(2)]);
    feed.badAt = 0;
  });

  it('closes the stream when the caller leaves the loop, and the handler\'s generator finishes', async () => {
    feed.total = 100_000;
    const before = feed.finished;
    const result = await client['streamQuotes']!();
    expect(await collect(result.body as AsyncIterable<QuoteEvent>, 5)).toEqual([1, 2, 3, 4, 5].map(event));
    for (let i = 0; i < 300 && feed.finished === before; i++) await new Promise((r) => setTimeout(r, 10));
    expect(feed.finished).toBe(before + 1);
    feed.total = 6;
  });

  it('resumes with Last-Event-ID when the stream breaks off: every event once, in order', async () => {
    feed.breakAfter = 2;
    feed.lastEventIds = [];
    const result = await client['streamQuotes']!({}, { resume: { maxReconnects: 5, delayMs: 1 } });
    expect(await collect(result.body as AsyncIterable<QuoteEvent>)).toEqual([1, 2, 3, 4, 5, 6].map(event));
    expect(feed.lastEventIds).toEqual([undefined, '2', '4']);
    feed.breakAfter = Infinity;
  });

  it('reads JSON Lines and JSON text sequences', async () => {
    for (const accept of ['application/jsonl', 'application/json-seq']) {
      const result = await client['quoteHistory']!({ query: { symbol: 'ABC' }, headers: { accept } });
      expect(await collect(result.body as AsyncIterable<Quote>)).toEqual([quote(1), quote(2), quote(3)]);
    }
  });

  it('reads a multipart/mixed report: a JSON part, then text parts, each checked', async () => {
    const result = await client['quoteReport']!();
    expect(result).toMatchObject({ status: 200, contentType: 'multipart/mixed' });
    expect(await collect(result.body as AsyncIterable<Quote | string>)).toEqual([quote(7), 'a note, café', 'another\r\n--note']);
  });

  it('uploads JSON Lines from an async generator; a bad item is refused by the client, or by the server with the client\'s check off', async () => {
    async function* quotes(bad?: number) {
      for (let n = 1; n <= 4; n++) yield n === bad ? { symbol: 'lower', price: -1, at: 'x' } : quote(n);
    }
    expect(await client['importQuotes']!({ body: quotes() })).toMatchObject({ status: 200, body: { count: 4 } });
    expect(uploads.at(-1)).toEqual([1, 2, 3, 4].map(quote));
    await expect(client['importQuotes']!({ body: quotes(1) })).rejects.toBeInstanceOf(RequestValidationError);
    const refused = await client['importQuotes']!({ body: quotes(3) }, { validate: false }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ClientApiError);
    expect((refused as ClientApiError).status).toBe(400);
    expect(JSON.stringify((refused as ClientApiError).body)).toContain('body: item 3:');
  });
});
