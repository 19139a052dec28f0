/**
 * Resuming a Server-Sent Events stream that broke off (`resume`): the request goes again with
 * `Last-Event-ID`, after the stream's `retry` or `delayMs`, a bounded number of times, and the
 * items go on from the new answer with none lost or repeated. A clean end is never resumed.
 * Also: the time limit of a streamed answer ends with its headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, type ClientEvent } from '../src/runtime/index.js';
import { collect, loadMarketFeed, TRANSPORTS, type MarketFeed } from './helpers/market-feed.js';
import { startStreamServer, writeInPieces, type StreamServer } from './helpers/stream-server.js';

let feed: MarketFeed;
let server: StreamServer;

beforeAll(async () => {
  [feed, server] = await Promise.all([loadMarketFeed('stream-resume'), startStreamServer()]);
});

afterAll(async () => {
  await server?.close();
  await feed?.output.remove();
});

const TOTAL = 9;

/** Event `n` of the feed, as written and as read. */
const block = (n: number): string => `id: ${n}\nevent: quote\ndata: {"n":${n}}\n\n`;
const event = (n: number) => ({ id: String(n), event: 'quote', data: `{"n":${n}}` });

/**
 * The feed of events 1..TOTAL: it resumes after the request's `Last-Event-ID`, and each
 * connection but the last breaks off after three events and half of a fourth.
 */
function breakingFeed(options: { retry?: number } = {}) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const after = Number(req.headers['last-event-id'] ?? 0);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (options.retry !== undefined && after === 0) res.write(`retry: ${options.retry}\n\n`);
    const last = Math.min(after + 3, TOTAL);
    let text = '';
    for (let n = after + 1; n <= last; n++) text += block(n);
    if (last < TOTAL) text += block(last + 1).slice(0, 12);
    await writeInPieces(res, text, 6);
    if (last < TOTAL) res.destroy();
    else res.end();
  };
}

for (const transport of TRANSPORTS) {
  describe(`resuming an event stream through ${transport.name}`, () => {
    function client(extra: Record<string, unknown> = {}) {
      const events: ClientEvent[] = [];
      const waits: number[] = [];
      const created = feed.createClient({
        baseUrl: `${server.origin}/feed`,
        retry: false,
        onEvent: (e) => events.push(e),
        // Records the wait instead of waiting.
        sleep: async (ms) => void waits.push(ms),
        ...transport.options,
        ...extra,
      });
      return { client: created, events, waits };
    }

    it('reconnects with Last-Event-ID and goes on with no event lost or repeated', async () => {
      server.handle(breakingFeed({ retry: 1234 }));
      const before = server.requests.length;
      const { client: c, events, waits } = client({ resume: { maxReconnects: 5, delayMs: 10 } });
      const result = await c.streamQuotes();
      expect(await collect(result.body)).toEqual(Array.from({ length: TOTAL }, (_, i) => event(i + 1)));
      const seen = server.requests.slice(before);
      expect(seen.map((r) => r.headers['last-event-id'])).toEqual([undefined, '3', '6']);
      // The stream's retry field, not delayMs.
      expect(waits).toEqual([1234, 1234]);
      expect(events.filter((e) => e.type === 'reconnect')).toEqual([
        { type: 'reconnect', operationId: 'streamQuotes', url: `${server.origin}/feed/quotes/live`, reconnect: 1, delayMs: 1234, lastEventId: '3' },
        { type: 'reconnect', operationId: 'streamQuotes', url: `${server.origin}/feed/quotes/live`, reconnect: 2, delayMs: 1234, lastEventId: '6' },
      ]);
    });

    it('waits delayMs when the stream gave no retry, and takes a per-call resume over the client\'s', async () => {
      server.handle(breakingFeed());
      const { client: c, waits } = client({ resume: false });
      const result = await c.streamQuotes({}, { resume: { delayMs: 25 } });
      expect(await collect(result.body)).toHaveLength(TOTAL);
      expect(waits).toEqual([25, 25]);
    });

    it('gives up with NetworkError after maxReconnects, having handed out every event that came', async () => {
      server.handle(breakingFeed());
      const before = server.requests.length;
      const { client: c } = client({ resume: { maxReconnects: 1, delayMs: 0 } });
      const result = await c.streamQuotes();
      const delivered: unknown[] = [];
      const error = await collect(result.body, delivered).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).phase).toBe('body');
      expect(delivered).toEqual([1, 2, 3, 4, 5, 6].map(event));
      expect(server.requests.length - before).toBe(2);
    });

    it('does not resume by default: the break fails the iteration', async () => {
      server.handle(breakingFeed());
      const before = server.requests.length;
      const result = await client().client.streamQuotes();
      await expect(collect(result.body)).rejects.toBeInstanceOf(NetworkError);
      expect(server.requests.length - before).toBe(1);
    });

    it('does not reconnect after a clean end', async () => {
      server.handle(async (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        await writeInPieces(res, block(1) + block(2));
        res.end();
      });
      const before = server.requests.length;
      const { client: c, events } = client({ resume: { maxReconnects: 3, delayMs: 0 } });
      const result = await c.streamQuotes();
      expect(await collect(result.body)).toEqual([event(1), event(2)]);
      expect(server.requests.length - before).toBe(1);
      expect(events.some((e) => e.type === 'reconnect')).toBe(false);
    });

    it('reconnects without Last-Event-ID when the stream gave no id', async () => {
      let calls = 0;
      server.handle(async (_req, res) => {
        calls++;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        await writeInPieces(res, `data: connection ${calls}\n\n`);
        if (calls === 1) res.destroy();
        else res.end();
      });
      const before = server.requests.length;
      const { client: c } = client({ resume: true });
      const result = await c.streamQuotes();
      expect(await collect(result.body)).toEqual([{ data: 'connection 1' }, { data: 'connection 2' }]);
      expect(server.requests.slice(before).map((r) => r.headers['last-event-id'])).toEqual([undefined, undefined]);
    });

    it('counts a reconnection that gets no answer as one more break, and goes on', async () => {
      let calls = 0;
      server.handle(async (req, res) => {
        calls++;
        // The second connection is refused before any answer.
        if (calls === 2) return void req.socket.destroy();
        await breakingFeed()(req, res);
      });
      const before = server.requests.length;
      const { client: c, events } = client({ resume: { maxReconnects: 4, delayMs: 0 } });
      const result = await c.streamQuotes();
      expect(await collect(result.body)).toEqual(Array.from({ length: TOTAL }, (_, i) => event(i + 1)));
      expect(server.requests.slice(before).map((r) => r.headers['last-event-id'])).toEqual([undefined, '3', '3', '6']);
      expect(events.filter((e) => e.type === 'reconnect').map((e) => (e as { lastEventId?: string }).lastEventId)).toEqual(['3', '3', '6']);
    });

    it('ends the stream when the reconnection is answered 204 (the server says: do not reconnect)', async () => {
      let calls = 0;
      server.handle(async (req, res) => {
        calls++;
        if (calls === 1) return await breakingFeed()(req, res);
        res.writeHead(204);
        res.end();
      });
      const { client: c } = client({ resume: { maxReconnects: 3, delayMs: 0 } });
      const result = await c.streamQuotes();
      expect(await collect(result.body)).toEqual([1, 2, 3].map(event));
      expect(calls).toBe(2);
    });

    it('ends the time limit with the headers: a stream may outlast timeoutMs', async () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      server.handle(async (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(block(1));
        // The rest comes only once the client has held the stream past its time limit.
        await released;
        res.end(block(2));
      });
      const result = await client({ timeoutMs: 100 }).client.streamQuotes();
      const delivered: unknown[] = [];
      const reading = collect(result.body, delivered);
      // Past the time limit (a real wait, so the limit would have fired had it still run).
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await reading;
      expect(delivered).toEqual([event(1), event(2)]);
    });
  });
}
