/**
 * The router generated from an OpenAPI 3.2 document (codegen's fixture), over loopback in a
 * real Express application: the QUERY method with a body, an additional method (COPY), and
 * sequences item by item: Server-Sent Events and JSON Lines / JSON text sequences answers,
 * each item checked before it is written, and a JSON Lines request body read as the handler
 * iterates, with a bad item answered in the spec's error shape.
 */
import http from 'node:http';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, writeFiles } from '@bank-data-sharing/codegen';
import { decodeSequence, type ServerSentEvent } from '@bank-data-sharing/wire';
import type { ApiRouter, ErrorContext, RouterOptions } from '../src/runtime/index.js';
import { listen, send, type Running } from './helpers/http.js';

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = path.resolve(PACKAGE_ROOT, '../codegen/test/fixtures/openapi-3.2.yaml');
const OUTPUT = path.join(PACKAGE_ROOT, '.test-output', 'openapi-3.2');

type CreateRouter = (handlers: object, options?: RouterOptions<unknown>) => ApiRouter;
let createRouter: CreateRouter;

beforeAll(async () => {
  await mkdir(OUTPUT, { recursive: true });
  const result = await generate({ spec: FIXTURE, targets: ['validators', 'server'] });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  await writeFiles(OUTPUT, result.files, { check: false });
  ({ createRouter } = (await import(/* @vite-ignore */ path.join(OUTPUT, 'server/index.ts'))) as { createRouter: CreateRouter });
});
afterAll(() => rm(OUTPUT, { recursive: true, force: true }));

const AUTH = { authorization: 'Bearer t' };
const quote = (symbol: string, price: number, n = 0) => ({ symbol, price, at: `2026-01-0${1 + (n % 9)}T10:00:00Z` });

interface Probe {
  /** Items the handler's generator was asked for, and whether its `finally` ran. */
  pulled: number;
  finished: boolean;
}

/** What each handler does is steered by the test through `steer`. */
const steer: { events: () => AsyncIterable<unknown> | Iterable<unknown>; history: () => Iterable<unknown>; probe: Probe } = {
  events: () => [],
  history: () => [],
  probe: { pulled: 0, finished: false },
};

async function app(): Promise<{ running: Running; errors: Array<{ error: unknown; context: ErrorContext }>; imported: unknown[][] }> {
  const errors: Array<{ error: unknown; context: ErrorContext }> = [];
  const imported: unknown[][] = [];
  const application = express();
  application.use(
    createRouter(
      {
        searchQuotes: ({ body }: { body: { symbols: string[] } }) => ({ status: 200, body: body.symbols.map((s, i) => quote(s, 10 + i)) }),
        copyQuote: ({ path: p, headers }: { path: { symbol: string }; headers: { destination: string } }) => ({ status: 201, body: { ...quote(p.symbol, 5), symbol: headers.destination } }),
        searchQuotesByJson: ({ query }: { query: { symbols: string[] } }) => ({ status: 200, body: query.symbols.map((s, i) => quote(s, 20 + i)) }),
        filterQuotes: ({ query }: { query: { symbol: string; limit?: number; venues?: string[] } }) => {
          filtered.push(query);
          return { status: 200, body: [quote(query.symbol, query.limit ?? 1)] };
        },
        streamQuotes: () => ({ status: 200, body: steer.events() }),
        quoteHistory: () => ({ status: 200, body: steer.history() }),
        importQuotes: async ({ body }: { body: AsyncIterable<unknown> }) => {
          const seen: unknown[] = [];
          imported.push(seen);
          for await (const item of body) seen.push(item);
          return { status: 200, body: { count: seen.length } };
        },
      },
      {
        authorize: ({ credential }: { credential?: string }) => (credential === 't' ? { scopes: [] } : undefined),
        onError: (error: unknown, context: ErrorContext) => errors.push({ error, context }),
      } as RouterOptions<unknown>,
    ),
  );
  return { running: await listen(application), errors, imported };
}

let server: Awaited<ReturnType<typeof app>>;
const filtered: unknown[] = [];
beforeAll(async () => {
  server = await app();
});
afterAll(() => server.running.close());

/** Reads a streamed answer item by item, as it arrives. */
async function streamed(url: string, headers: Record<string, string>, format: 'event-stream' | 'json-lines' | 'json-seq'): Promise<{ status: number; contentType: string | undefined; items: unknown[]; error?: unknown }> {
  return await new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, async (res) => {
        const items: unknown[] = [];
        try {
          for await (const item of decodeSequence(format, res)) items.push(item);
          resolve({ status: res.statusCode!, contentType: res.headers['content-type'], items });
        } catch (error) {
          resolve({ status: res.statusCode!, contentType: res.headers['content-type'], items, error });
        }
      })
      .on('error', reject);
  });
}

describe('methods of OpenAPI 3.2', () => {
  it('routes QUERY with a validated request body', async () => {
    const reply = await send(`${server.running.origin}/feed/quotes`, { method: 'QUERY', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ symbols: ['ABC', 'XY'] }) });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual([quote('ABC', 10), quote('XY', 11)]);
    const bad = await send(`${server.running.origin}/feed/quotes`, { method: 'QUERY', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ symbols: [] }) });
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(bad.text).toContain('symbols');
  });

  it('routes an additional operation (COPY) and lists it in Allow', async () => {
    const reply = await send(`${server.running.origin}/feed/quotes/ABC`, { method: 'COPY', headers: { ...AUTH, destination: 'XYZ' } });
    expect(reply.status).toBe(201);
    expect(reply.json()).toMatchObject({ symbol: 'XYZ', price: 5 });
    const other = await send(`${server.running.origin}/feed/quotes/ABC`, { method: 'PUT', headers: AUTH });
    expect(other.status).toBe(405);
    expect(other.headers.allow).toBe('COPY');
  });
});

describe('the query string as one value (in: querystring)', () => {
  it('reads JSON text from the whole query string, checked by its schema', async () => {
    const search = encodeURIComponent(JSON.stringify({ symbols: ['ABC'] }));
    const reply = await send(`${server.running.origin}/feed/quotes/search?${search}`, { headers: AUTH });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual([quote('ABC', 20)]);
    for (const [query, expected] of [
      [encodeURIComponent(JSON.stringify({ symbols: [] })), 'symbols'],
      ['%7Bnot-json', 'not valid JSON (content application/json)'],
      ['', 'query'],
    ] as const) {
      const bad = await send(`${server.running.origin}/feed/quotes/search${query ? `?${query}` : ''}`, { headers: AUTH });
      expect(bad.status, query).toBe(400);
      expect(bad.text, query).toContain(expected);
    }
  });

  it('reads a form-encoded query string as the members of its schema, each in its encoding', async () => {
    const reply = await send(`${server.running.origin}/feed/quotes/filter?symbol=ABC&limit=3&venues=XLON|XPAR`, { headers: AUTH });
    expect(reply.status).toBe(200);
    expect(filtered.at(-1)).toEqual({ symbol: 'ABC', limit: 3, venues: ['XLON', 'XPAR'] });
    const bad = await send(`${server.running.origin}/feed/quotes/filter?symbol=ABC&limit=11`, { headers: AUTH });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('limit');
    expect((await send(`${server.running.origin}/feed/quotes/filter?limit=2`, { headers: AUTH })).status).toBe(400);
  });
});

describe('sequences answered item by item', () => {
  const event = (n: number, extra: Record<string, unknown> = {}) => ({ id: String(n), event: 'quote', data: JSON.stringify(quote('ABC', n, n)), ...extra });

  it('writes Server-Sent Events the reader gets back field for field, with no-cache', async () => {
    steer.events = async function* () {
      yield event(1, { retry: 1500 });
      yield { data: 'line one\nline two', event: 'heartbeat' };
      yield event(3);
    };
    const answer = await streamed(`${server.running.origin}/feed/quotes/live`, AUTH, 'event-stream');
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('text/event-stream');
    expect(answer.error).toBeUndefined();
    expect(answer.items as ServerSentEvent[]).toEqual([event(1, { retry: 1500 }), { data: 'line one\nline two', event: 'heartbeat' }, event(3)]);
  });

  it('answers 500 (nothing streamed) when the first item breaks the item schema', async () => {
    steer.events = () => [{ event: 'not-declared', data: 'x' }];
    const before = server.errors.length;
    const reply = await send(`${server.running.origin}/feed/quotes/live`, { headers: AUTH });
    expect(reply.status).toBe(500);
    const reported = server.errors.slice(before);
    expect(reported.map((r) => r.context.phase)).toEqual(['response']);
    expect(String((reported[0]!.error as Error).message)).toContain('item 1 of the event-stream stream does not match the item schema');
    expect(reported[0]!.context.issues?.join('\n')).toContain('event');
  });

  it('cuts the stream off (never a clean end) at a later bad item; the items before it arrived', async () => {
    steer.events = async function* () {
      yield event(1);
      yield event(2);
      yield { data: 42 };
      yield event(4);
    };
    const answer = await streamed(`${server.running.origin}/feed/quotes/live`, AUTH, 'event-stream');
    expect(answer.status).toBe(200);
    expect(answer.items).toEqual([event(1), event(2)]);
    expect(answer.error).toBeDefined();
    expect(server.errors.at(-1)!.context.issues?.join('\n')).toMatch(/data/);
  });

  it('stops pulling items when the client goes away, and runs the handler generator\'s finally', async () => {
    const probe: Probe = { pulled: 0, finished: false };
    steer.events = async function* () {
      try {
        // Bounded: far more than a socket buffers, so the writer must wait for the reader.
        for (let n = 1; n <= 200_000; n++) {
          probe.pulled = n;
          yield event(n, { data: 'x'.repeat(512) });
        }
      } finally {
        probe.finished = true;
      }
    };
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${server.running.origin}/feed/quotes/live`, { headers: AUTH, agent: false }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      setTimeout(() => reject(new Error('no first chunk')), 10_000).unref();
    });
    for (let i = 0; i < 200 && !probe.finished; i++) await new Promise((r) => setTimeout(r, 10));
    expect(probe.finished).toBe(true);
    expect(probe.pulled).toBeLessThan(200_000);
  });

  it('writes JSON Lines or JSON text sequences as Accept asks, every item checked', async () => {
    steer.history = () => [quote('ABC', 1, 1), quote('ABC', 2, 2)];
    const lines = await streamed(`${server.running.origin}/feed/quotes/history?symbol=ABC`, { ...AUTH, accept: 'application/jsonl' }, 'json-lines');
    expect(lines).toMatchObject({ status: 200, contentType: 'application/jsonl', items: [quote('ABC', 1, 1), quote('ABC', 2, 2)] });
    const records = await streamed(`${server.running.origin}/feed/quotes/history?symbol=ABC`, { ...AUTH, accept: 'application/json-seq' }, 'json-seq');
    expect(records).toMatchObject({ status: 200, contentType: 'application/json-seq', items: [quote('ABC', 1, 1), quote('ABC', 2, 2)] });
    const raw = await send(`${server.running.origin}/feed/quotes/history?symbol=ABC`, { headers: { ...AUTH, accept: 'application/json-seq' } });
    expect(raw.text).toBe(`\u001e${JSON.stringify(quote('ABC', 1, 1))}\n\u001e${JSON.stringify(quote('ABC', 2, 2))}\n`);
  });

  it('refuses a body that is not an iterable with 500', async () => {
    steer.history = () => ({ not: 'iterable' }) as unknown as Iterable<unknown>;
    const reply = await send(`${server.running.origin}/feed/quotes/history?symbol=ABC`, { headers: { ...AUTH, accept: 'application/jsonl' } });
    expect(reply.status).toBe(500);
  });
});

describe('a streamed request body', () => {
  const jsonl = (...values: unknown[]) => values.map((v) => JSON.stringify(v)).join('\n') + '\n';

  it('hands the handler the items, checked, as it iterates', async () => {
    const reply = await send(`${server.running.origin}/feed/quotes/import`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/jsonl' }, body: jsonl(quote('ABC', 1), quote('XY', 2)) });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ count: 2 });
    expect(server.imported.at(-1)).toEqual([quote('ABC', 1), quote('XY', 2)]);
  });

  it('answers 400 in the spec\'s error shape naming the item that breaks the schema, and the one that is not JSON', async () => {
    const invalid = await send(`${server.running.origin}/feed/quotes/import`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/jsonl' }, body: jsonl(quote('ABC', 1), { symbol: 'abc', price: -1, at: 'x' }) });
    expect(invalid.status).toBe(400);
    expect(invalid.headers['content-type']).toContain('application/problem+json');
    expect(invalid.text).toContain('body: item 2:');
    expect(invalid.text).toContain('$[1]');
    expect(server.imported.at(-1)).toEqual([quote('ABC', 1)]);
    const broken = await send(`${server.running.origin}/feed/quotes/import`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/jsonl' }, body: `${JSON.stringify(quote('ABC', 1))}\n{oops\n` });
    expect(broken.status).toBe(400);
    expect(broken.text).toContain('body: item 2:');
  });
});
