/**
 * OpenAPI 3.2 `in: querystring` parameters as the client sends them over HTTP (the market
 * feed's `filterQuotes` and `searchQuotesByJson`): a form-encoded one is the query string of
 * its object's members, each written in the style its `encoding` entry gives; a JSON one is
 * the whole query string, one percent-encoded JSON text with no parameter name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientOptions } from '../src/runtime/index.js';
import { generateInto, importClient, type GeneratedOutput } from './helpers/generated-client.js';
import { MARKET_FEED_SPEC, quote, TRANSPORTS, type FeedResult } from './helpers/market-feed.js';
import { startServer, type TestServer } from './helpers/server.js';

type Method = (params?: Record<string, unknown>) => Promise<FeedResult>;

interface QueryClient {
  filterQuotes: Method;
  searchQuotesByJson: Method;
}

let output: GeneratedOutput;
let createClient: (options: ClientOptions) => QueryClient;
let server: TestServer;

beforeAll(async () => {
  output = await generateInto(MARKET_FEED_SPEC, 'querystring');
  ({ createClient } = await importClient<{ createClient: typeof createClient }>(output));
  server = await startServer(() => ({ body: [quote(1)] }));
});

afterAll(async () => {
  await server?.close();
  await output?.remove();
});

/** The part of the last request's target after `?` (undefined when it had no query). */
function lastQuery(): string | undefined {
  const url = server.requests.at(-1)!.url;
  const at = url.indexOf('?');
  return at === -1 ? undefined : url.slice(at + 1);
}

for (const transport of TRANSPORTS) {
  describe(`in: querystring through ${transport.name}`, () => {
    const client = () => createClient({ baseUrl: `${server.origin}/feed`, ...transport.options });

    it('sends a form-encoded querystring as its members, venues in the pipeDelimited style its encoding entry gives', async () => {
      const result = await client().filterQuotes({ query: { symbol: 'ACME', limit: 5, venues: ['XNYS', 'X|LON', 'BATS EU'] } });
      expect(result.status).toBe(200);
      expect(server.requests.at(-1)!.url.split('?')[0]).toBe('/feed/quotes/filter');
      // Not form's default `venues=a&venues=b`: one pair, `|` between items, and a `|` inside an item encoded as data.
      expect(lastQuery()).toBe('symbol=ACME&limit=5&venues=XNYS|X%7CLON|BATS%20EU');
    });

    it('sends a JSON querystring as one percent-encoded JSON text that is the whole query string', async () => {
      const search = { symbols: ['ACME', 'XYZ'], since: '2026-01-01T00:00:00+04:00' };
      const result = await client().searchQuotesByJson({ query: search });
      expect(result.status).toBe(200);
      const sent = lastQuery()!;
      // No `name=`, no `&`: the `+`, `:` and quotes of the JSON text all travel encoded.
      expect(sent).toBe(encodeURIComponent(JSON.stringify(search)));
      expect(sent).not.toMatch(/[&=+:"{}[\]]/);
      expect(JSON.parse(decodeURIComponent(sent))).toEqual(search);
    });
  });
}
