/**
 * Items of a streamed request body are judged as the server reads them: by their JSON text. A
 * `Date` where the item schema wants a date-time string is sent as its string; an invalid
 * `Date` (written as null) is refused, naming the item and the member, and the request is cut.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestValidationError } from '../src/runtime/index.js';
import { loadMarketFeed, quote, type MarketFeed } from './helpers/market-feed.js';
import { startStreamServer, type StreamServer } from './helpers/stream-server.js';

let feed: MarketFeed;
let server: StreamServer;

beforeAll(async () => {
  [feed, server] = await Promise.all([loadMarketFeed('stream-request-item-text'), startStreamServer()]);
  server.handle(async (_req, res, seen) => {
    await seen.received;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ count: seen.body.split('\n').filter((line) => line !== '').length }));
  });
});

afterAll(async () => {
  await server?.close();
  await feed?.output.remove();
});

describe('streamed request items judged by their JSON text', () => {
  it('sends a Date as the date-time string its JSON text holds', async () => {
    const client = feed.createClient({ baseUrl: `${server.origin}/feed`, retry: false });
    const at = new Date(Date.UTC(2026, 0, 1, 12));
    const result = await client.importQuotes({ body: [quote(1), quote(2, { at })] });
    expect(result.status).toBe(200);
    const lines = server.requests.at(-1)!.body.split('\n').filter((line) => line !== '');
    expect(JSON.parse(lines[1]!)).toEqual({ symbol: 'ACME', price: 102, at: '2026-01-01T12:00:00.000Z' });
  });

  it('refuses an item whose JSON text does not fit, naming the item and the member', async () => {
    const client = feed.createClient({ baseUrl: `${server.origin}/feed`, retry: false });
    const refused = await client.importQuotes({ body: [quote(1), quote(2, { at: new Date(Number.NaN) })] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RequestValidationError);
    expect((refused as RequestValidationError).issues).toEqual([expect.stringMatching(/^item 2: at: Invalid input: expected string, received null$/)]);
  });
});
