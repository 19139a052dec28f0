/**
 * The client of the OpenAPI 3.2 test document (codegen's fixture: Server-Sent Events, JSON
 * Lines and JSON text sequences), generated per test file, and what its streams carry.
 */
import path from 'node:path';
import type { CallOptions, ClientOptions } from '../../src/runtime/index.js';
import { generateInto, importClient, repoRoot, type GeneratedOutput } from './generated-client.js';

export const MARKET_FEED_SPEC = path.join(repoRoot, 'packages/codegen/test/fixtures/openapi-3.2.yaml');

export interface Quote {
  symbol: string;
  price: number;
  at: string;
  [key: string]: unknown;
}

/** A result as the tests read it (the types are checked in stream-types.test.ts). */
export interface FeedResult {
  status: number;
  contentType: string | undefined;
  body: any;
  headers: Record<string, unknown>;
}

type Method = (params?: Record<string, unknown>, options?: CallOptions) => Promise<FeedResult>;

export interface MarketFeedClient {
  streamQuotes: Method;
  quoteHistory: Method;
  importQuotes: Method;
}

export interface MarketFeed {
  output: GeneratedOutput;
  createClient(options: ClientOptions): MarketFeedClient;
}

/** Generates the client under `.test-output/<name>` and loads it; `output.remove()` cleans up. */
export async function loadMarketFeed(name: string): Promise<MarketFeed> {
  const output = await generateInto(MARKET_FEED_SPEC, name);
  const module = await importClient<{ createClient(options: ClientOptions): MarketFeedClient }>(output);
  return { output, createClient: module.createClient };
}

export function quote(n: number, extra: Record<string, unknown> = {}): Quote {
  return { symbol: 'ACME', price: 100 + n, at: `2026-01-01T00:00:0${n % 10}Z`, ...extra };
}

/** The two transports a client can send through: the built-in one, and a caller's `fetch`. */
export const TRANSPORTS: ReadonlyArray<{ name: string; options: ClientOptions }> = [
  { name: 'undici', options: {} },
  { name: 'fetch', options: { fetch: (input, init) => fetch(input, init) } },
];

/** Every item of a stream, into an array (the stream's own end bounds the loop). */
export async function collect(items: AsyncIterable<unknown>, into: unknown[] = []): Promise<unknown[]> {
  for await (const item of items) into.push(item);
  return into;
}
