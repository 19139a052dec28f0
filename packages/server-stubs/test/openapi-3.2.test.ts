/**
 * The router generated from an OpenAPI 3.2 document (codegen's fixture), over loopback in a
 * real Express application: the QUERY method with a body, an additional method (COPY), and
 * sequences item by item: Server-Sent Events and JSON Lines / JSON text sequences answers,
 * each item checked before it is written, and a JSON Lines request body read as the handler
 * iterates, with a bad item answered in the spec's error shape.
 */
import http from 'node:http';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, writeFiles } from '@bank-data-sharing/codegen';
import { boundaryOf, decodeSequence, MultipartMixedEncoder, type ServerSentEvent } from '@bank-data-sharing/wire';
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
const steer: { events: () => AsyncIterable<unknown> | Iterable<unknown>; history: () => Iterable<unknown>; report: () => AsyncIterable<unknown> | Iterable<unknown>; probe: Probe } = {
  events: () => [],
  history: () => [],
  report: () => [],
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
        quoteReport: () => ({ status: 200, body: steer.report() }),
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
    // Items are counted, not lines: a blank line before the bad one does not move its number.
    const spaced = await send(`${server.running.origin}/feed/quotes/import`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/jsonl' }, body: `${JSON.stringify(quote('ABC', 1))}\n\n{oops\n` });
    expect(spaced.status).toBe(400);
    expect(spaced.text).toContain('body: item 2: line 3');
  });
});

/** The parts of a `multipart/mixed` answer read as items, by the boundary of its Content-Type. */
async function reportParts(url: string): Promise<{ status: number; contentType: string | undefined; items: unknown[]; error?: unknown }> {
  const encoding = { prefixEncoding: [{ contentType: 'application/json' }], itemEncoding: { contentType: 'text/plain' } };
  return await new Promise((resolve, reject) => {
    http
      .get(url, { headers: AUTH, agent: false }, async (res) => {
        const items: unknown[] = [];
        const contentType = res.headers['content-type'];
        try {
          for await (const item of decodeSequence('multipart-mixed', res, { ...(contentType ? { contentType } : {}), encoding })) items.push(item);
          resolve({ status: res.statusCode!, contentType, items });
        } catch (error) {
          resolve({ status: res.statusCode!, contentType, items, error });
        }
      })
      .on('error', reject);
  });
}

describe('multipart/mixed answered part by part', () => {
  it('writes each checked item as a part in its encoding\'s type, the boundary in the Content-Type', async () => {
    steer.report = async function* () {
      yield quote('ABC', 1);
      yield 'first note';
      yield 'second note\r\nwith a line break';
    };
    const answer = await reportParts(`${server.running.origin}/feed/quotes/report`);
    expect(answer.error).toBeUndefined();
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^multipart\/mixed; boundary=bds-[0-9A-Za-z]{28}$/);
    expect(answer.items).toEqual([quote('ABC', 1), 'first note', 'second note\r\nwith a line break']);
    const raw = await send(`${server.running.origin}/feed/quotes/report`, { headers: AUTH });
    const boundary = boundaryOf(raw.headers['content-type'])!;
    expect(boundary).not.toBe(boundaryOf(answer.contentType));
    expect(raw.text).toBe(
      `--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(quote('ABC', 1))}` +
        `\r\n--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nfirst note` +
        `\r\n--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nsecond note\r\nwith a line break` +
        `\r\n--${boundary}--\r\n`,
    );
  });

  it('closes a body of no item with the close delimiter alone', async () => {
    steer.report = () => [];
    const raw = await send(`${server.running.origin}/feed/quotes/report`, { headers: AUTH });
    expect(raw.status).toBe(200);
    expect(raw.text).toBe(`--${boundaryOf(raw.headers['content-type'])}--\r\n`);
  });

  it('answers 500 when the first item breaks the item schema, and cuts off at a later item its part cannot carry', async () => {
    steer.report = () => [{ symbol: 'abc' }];
    const before = server.errors.length;
    expect((await send(`${server.running.origin}/feed/quotes/report`, { headers: AUTH })).status).toBe(500);
    expect(String((server.errors[before]!.error as Error).message)).toContain('item 1 of the multipart-mixed stream does not match the item schema');
    // Valid, but a text/plain part (itemEncoding) carries a string, not a quote.
    steer.report = () => [quote('ABC', 1), 'note', quote('XY', 2)];
    const answer = await reportParts(`${server.running.origin}/feed/quotes/report`);
    expect(answer.status).toBe(200);
    expect(answer.items).toEqual([quote('ABC', 1), 'note']);
    expect(answer.error).toBeDefined();
    expect(String((server.errors.at(-1)!.error as Error).message)).toContain('item 3 of the multipart-mixed stream cannot be written: a text/plain part carries a string, not an object');
  });
});

const NOTES_SPEC = `
openapi: 3.2.0
info: { title: Notes, version: 1.0.0 }
paths:
  /notes:
    post:
      operationId: uploadNotes
      requestBody:
        required: true
        content:
          multipart/mixed:
            itemSchema:
              oneOf:
                - type: object
                  required: [title]
                  properties: { title: { type: string, minLength: 1 } }
                - type: string
                  maxLength: 20
            prefixEncoding:
              - contentType: application/json
            itemEncoding:
              contentType: text/plain
      responses:
        '200':
          description: How many parts were read.
          content:
            application/json:
              schema: { type: object, required: [count], properties: { count: { type: integer } } }
        '400':
          description: A bad request.
          content:
            application/json:
              schema: { type: object }
`;

describe('a streamed multipart/mixed request body', () => {
  let notes: Running;
  const received: unknown[][] = [];

  beforeAll(async () => {
    const dir = path.join(OUTPUT, 'notes');
    await mkdir(dir, { recursive: true });
    const spec = path.join(dir, 'notes.yaml');
    await writeFile(spec, NOTES_SPEC);
    const result = await generate({ spec, targets: ['validators', 'server'] });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    await writeFiles(path.join(dir, 'out'), result.files, { check: false });
    const notesRouter = ((await import(/* @vite-ignore */ path.join(dir, 'out', 'server/index.ts'))) as { createRouter: CreateRouter }).createRouter;
    const application = express();
    application.use(
      notesRouter({
        uploadNotes: async ({ body }: { body: AsyncIterable<unknown> }) => {
          const seen: unknown[] = [];
          received.push(seen);
          for await (const item of body) seen.push(item);
          return { status: 200, body: { count: seen.length } };
        },
      }),
    );
    notes = await listen(application);
  });
  afterAll(() => notes?.close());

  /** A body written part by part, with the given types (a preamble and epilogue around it). */
  function body(parts: Array<[string | undefined, string]>): { contentType: string; text: string } {
    const writer = new MultipartMixedEncoder();
    const decoder = new TextDecoder();
    const text = parts.map(([type, content]) => decoder.decode(writer.part(type === undefined ? {} : { 'Content-Type': type }, new TextEncoder().encode(content)))).join('');
    return { contentType: writer.contentType(), text: `preamble\r\n${text}${decoder.decode(writer.end())}epilogue` };
  }

  const post = (upload: { contentType: string; text: string }) => send(`${notes.origin}/notes`, { method: 'POST', headers: { 'content-type': upload.contentType }, body: upload.text });

  it('hands the handler each part as a checked item, by its type', async () => {
    const reply = await post(body([['application/json', '{"title":"Q1"}'], ['text/plain; charset=utf-8', 'café'], [undefined, 'no type: text/plain']]));
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ count: 3 });
    expect(received.at(-1)).toEqual([{ title: 'Q1' }, 'café', 'no type: text/plain']);
  });

  it('answers 400 naming the part whose type is not its encoding\'s, or whose item breaks the schema', async () => {
    const wrongType = await post(body([['application/json', '{"title":"Q1"}'], ['application/json', '"json, not text"']]));
    expect(wrongType.status).toBe(400);
    expect(wrongType.text).toContain('body: item 2: part 2: Content-Type application/json is not the text/plain its encoding declares');
    expect(received.at(-1)).toEqual([{ title: 'Q1' }]);
    const invalid = await post(body([['application/json', '{"title":""}']]));
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('body: item 1:');
    const truncated = await post({ contentType: 'multipart/mixed; boundary=b1', text: '--b1\r\nContent-Type: application/json\r\n\r\n{"title":"x"}\r\n--b1\r\n\r\nno close' });
    expect(truncated.status).toBe(400);
    expect(truncated.text).toContain('the body ended before its close delimiter');
  });

  it('refuses a multipart/mixed body with no boundary', async () => {
    const reply = await post({ contentType: 'multipart/mixed', text: '--b1--\r\n' });
    expect(reply.status).toBe(400);
    expect(reply.text).toContain('names no boundary');
  });
});
