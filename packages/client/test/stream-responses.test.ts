/**
 * Sequence answers (OpenAPI 3.2 `itemSchema`) read item by item, through both transports:
 * JSON Lines, JSON text sequences and Server-Sent Events written by hand in awkward pieces;
 * items checked one by one; early exit, abort and a cut-off body letting go of the connection.
 */
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InteractionIdMismatchError, NetworkError, ResponseValidationError } from '../src/runtime/index.js';
import { collect, loadMarketFeed, quote, TRANSPORTS, type MarketFeed } from './helpers/market-feed.js';
import { startStreamServer, tick, waitUntil, writeInPieces, type StreamServer } from './helpers/stream-server.js';

let feed: MarketFeed;
let server: StreamServer;

beforeAll(async () => {
  [feed, server] = await Promise.all([loadMarketFeed('stream-responses'), startStreamServer()]);
});

afterAll(async () => {
  await server?.close();
  await feed?.output.remove();
});

const jsonLines = (quotes: unknown[]): string => quotes.map((q) => JSON.stringify(q)).join('\n') + '\n';

/** Answers with `text` in pieces and ends the answer, or leaves it open (`end: false`). */
function answerWith(contentType: string, text: string, options: { end?: boolean; size?: number; headers?: Record<string, string> } = {}) {
  server.handle(async (_req, res) => {
    res.writeHead(200, { 'content-type': contentType, ...options.headers });
    await writeInPieces(res, text, options.size);
    if (options.end !== false) res.end();
  });
}

for (const transport of TRANSPORTS) {
  describe(`sequence answers through ${transport.name}`, () => {
    const client = () => feed.createClient({ baseUrl: `${server.origin}/feed`, retry: false, ...transport.options });

    it('reads JSON Lines item by item: typed, validated, UTF-8 and CRLF cut anywhere', async () => {
      const quotes = [quote(1, { note: 'café 10 €' }), quote(2, { note: '𝄞' }), quote(3)];
      // A BOM, CRLF line ends and a blank line, in pieces of 3 bytes.
      answerWith('application/jsonl; charset=utf-8', '\ufeff' + jsonLines(quotes).replace(/\n/g, '\r\n').replace('\r\n', '\r\n\r\n'), { size: 3 });
      const result = await client().quoteHistory({ query: { symbol: 'ACME' } });
      expect(result.status).toBe(200);
      expect(result.contentType).toBe('application/jsonl');
      expect(await collect(result.body)).toEqual(quotes);
    });

    it('reads JSON text sequences', async () => {
      const quotes = [quote(1), quote(2, { tags: ['a', 'b'] })];
      answerWith('application/json-seq', quotes.map((q) => `\u001e${JSON.stringify(q, null, 1)}\n`).join(''), { size: 4 });
      const result = await client().quoteHistory({ query: { symbol: 'ACME' } });
      expect(result.contentType).toBe('application/json-seq');
      expect(await collect(result.body)).toEqual(quotes);
    });

    it('reads Server-Sent Events: multi-line data, ids, retry, comments and event types', async () => {
      const text = [
        ': a comment before the first event',
        'event: quote',
        'id: 1',
        `data: ${JSON.stringify(quote(1))}`,
        '',
        'event: heartbeat',
        'data: first line',
        'data: second line',
        ': a comment inside an event',
        'retry: 2500',
        '',
        'id: 3',
        'data:no space after the colon',
        '',
        '',
      ].join('\r\n');
      answerWith('text/event-stream', text, { size: 7 });
      const result = await client().streamQuotes();
      expect(result.contentType).toBe('text/event-stream');
      expect(await collect(result.body)).toEqual([
        { event: 'quote', id: '1', data: JSON.stringify(quote(1)) },
        { event: 'heartbeat', data: 'first line\nsecond line', retry: 2500 },
        { id: '3', data: 'no space after the colon' },
      ]);
    });

    for (const [coding, compress] of [
      ['gzip', zlib.gzipSync],
      ['deflate', zlib.deflateSync],
      ['br', zlib.brotliCompressSync],
    ] as const) {
      it(`decompresses a ${coding} stream as it comes`, async () => {
        const quotes = [quote(1), quote(2), quote(3)];
        server.handle(async (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/jsonl', 'content-encoding': coding });
          const packed = compress(Buffer.from(jsonLines(quotes)));
          for (let at = 0; at < packed.length; at += 9) {
            res.write(packed.subarray(at, at + 9));
            await tick();
          }
          res.end();
        });
        const result = await client().quoteHistory({ query: { symbol: 'ACME' } });
        expect(await collect(result.body)).toEqual(quotes);
      });
    }

    it('refuses an invalid item by its index after handing out those before it, and lets go of the connection', async () => {
      const lines = jsonLines([quote(1), quote(2), { ...quote(3), price: -5 }, quote(4)]);
      answerWith('application/jsonl', lines, { end: false });
      const result = await client().quoteHistory({ query: { symbol: 'ACME' } });
      const delivered: unknown[] = [];
      const error = await collect(result.body, delivered).catch((e: unknown) => e);
      expect(delivered).toEqual([quote(1), quote(2)]);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).issues).toHaveLength(1);
      expect((error as ResponseValidationError).issues[0]).toMatch(/^item 3: price: /);
      expect((error as Error).message).toContain('quoteHistory: the body of HTTP 200 does not match the contract: item 3: price');
      // The server never ended the answer: the client closed it.
      await server.requests.at(-1)!.closed;
      expect(server.requests.at(-1)!.ended()).toBe(false);
    });

    it('refuses a malformed item (not JSON) as a validation error naming it', async () => {
      answerWith('application/jsonl', `${JSON.stringify(quote(1))}\n{"symbol": "ACME", \n`);
      const result = await client().quoteHistory({ query: { symbol: 'ACME' } });
      const delivered: unknown[] = [];
      const error = await collect(result.body, delivered).catch((e: unknown) => e);
      expect(delivered).toEqual([quote(1)]);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).issues[0]).toMatch(/^item 2: line 2: /);
    });

    it('hands items out unchecked with validate: false', async () => {
      const invalid = { ...quote(1), price: -1 };
      answerWith('application/jsonl', jsonLines([invalid]));
      const result = await client().quoteHistory({ query: { symbol: 'ACME' } }, { validate: false });
      expect(await collect(result.body)).toEqual([invalid]);
    });

    it('closes the connection when the caller leaves the loop early', async () => {
      // An endless stream: the server writes two events and waits.
      answerWith('text/event-stream', 'id: 1\ndata: a\n\nid: 2\ndata: b\n\n', { end: false });
      const result = await client().streamQuotes();
      const seen: unknown[] = [];
      for await (const event of result.body) {
        seen.push(event);
        if (seen.length === 1) break;
      }
      expect(seen).toEqual([{ id: '1', data: 'a' }]);
      await server.requests.at(-1)!.closed;
      expect(server.requests.at(-1)!.ended()).toBe(false);
    });

    it('closes the connection when the caller\'s loop body throws', async () => {
      answerWith('text/event-stream', 'data: a\n\n', { end: false });
      const result = await client().streamQuotes();
      const failure = new Error('the caller gave up');
      const error = await (async () => {
        for await (const _event of result.body) throw failure;
      })().catch((e: unknown) => e);
      expect(error).toBe(failure);
      await server.requests.at(-1)!.closed;
      expect(server.requests.at(-1)!.ended()).toBe(false);
    });

    it('closes a stream nobody reads when its iterator is returned, and reads a stream once', async () => {
      answerWith('text/event-stream', 'data: a\n\n', { end: false });
      const result = await client().streamQuotes();
      const iterator = (result.body as AsyncIterable<unknown>)[Symbol.asyncIterator]();
      expect(() => (result.body as AsyncIterable<unknown>)[Symbol.asyncIterator]()).toThrow(/can be read once/);
      await iterator.return!();
      await server.requests.at(-1)!.closed;
      expect(server.requests.at(-1)!.ended()).toBe(false);
    });

    it('stops at the caller\'s abort, mid-stream and before the first read', async () => {
      answerWith('text/event-stream', 'data: a\n\n', { end: false });
      const controller = new AbortController();
      const result = await client().streamQuotes({}, { signal: controller.signal });
      const delivered: unknown[] = [];
      const reading = collect(result.body, delivered).catch((e: unknown) => e);
      // Aborted once the first event is in, while the next read waits on the open stream.
      await waitUntil(() => delivered.length === 1);
      controller.abort(new Error('stop reading'));
      const error = await reading;
      expect(error).toEqual(new Error('stop reading'));
      expect(delivered).toEqual([{ data: 'a' }]);
      await server.requests.at(-1)!.closed;

      answerWith('text/event-stream', 'data: a\n\n', { end: false });
      const second = new AbortController();
      await client().streamQuotes({}, { signal: second.signal });
      second.abort();
      await server.requests.at(-1)!.closed;
      expect(server.requests.at(-1)!.ended()).toBe(false);
    });

    it('fails with NetworkError (phase body) when the body breaks off, after the items before the break', async () => {
      server.handle(async (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/jsonl' });
        await writeInPieces(res, jsonLines([quote(1), quote(2)]) + '{"symbol":"AC');
        res.destroy();
      });
      const result = await client().quoteHistory({ query: { symbol: 'ACME' } });
      const delivered: unknown[] = [];
      const error = await collect(result.body, delivered).catch((e: unknown) => e);
      expect(delivered).toEqual([quote(1), quote(2)]);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).phase).toBe('body');
    });

    it('refuses a stream answering another request (x-fapi-interaction-id) and closes it unread', async () => {
      server.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-fapi-interaction-id': '00000000-0000-4000-8000-000000000000' });
        res.write('data: a\n\n');
      });
      const error = await feed
        .createClient({ baseUrl: `${server.origin}/feed`, fapiInteractionId: true, ...transport.options })
        .streamQuotes()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InteractionIdMismatchError);
      await server.requests.at(-1)!.closed;
      expect(server.requests.at(-1)!.ended()).toBe(false);
    });

    it('checks the headers before handing out the body, and reads an error answer whole', async () => {
      server.handle((_req, res) => {
        res.writeHead(400, { 'content-type': 'application/problem+json' });
        res.end(JSON.stringify({ title: 'Bad symbol', status: 400 }));
      });
      const error = await client().quoteHistory({ query: { symbol: 'ACME' } }).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 400, body: { title: 'Bad symbol', status: 400 } });

      // A content type the contract does not declare: read whole, as any body, and refused.
      answerWith('application/x-ndjson', jsonLines([quote(1)]));
      const refused = await client().quoteHistory({ query: { symbol: 'ACME' } }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ResponseValidationError);
    });
  });
}
