/**
 * Resuming an event stream (`resume`) when the reconnection is answered in another of the
 * operation's declared content types: what comes back is not the rest of the stream, so the
 * iteration fails with a `ResponseValidationError` ("the answer to a reconnection") after the
 * events already handed out, no further reconnection is tried, and an answer that is itself a
 * stream (JSON Lines) is let go of unread rather than left holding its connection.
 *
 * The operation declares all three types, so the decoder accepts each answer on its own and
 * only the check that a resumed stream keeps its format stands between them and the caller.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, ResponseValidationError, type CallOptions, type ClientEvent, type ClientOptions } from '../src/runtime/index.js';
import { generateInto, importClient, packageRoot, type GeneratedOutput } from './helpers/generated-client.js';
import { collect, TRANSPORTS, type FeedResult } from './helpers/market-feed.js';
import { startStreamServer, waitUntil, writeInPieces, type SeenRequest, type StreamServer } from './helpers/stream-server.js';

const TICKS_SPEC = `
openapi: 3.2.0
info: { title: Ticks, version: 1.0.0 }
servers: [{ url: /feed }]
paths:
  /ticks:
    get:
      operationId: streamTicks
      responses:
        '200':
          description: Ticks as events, as JSON Lines, or as one JSON array.
          content:
            text/event-stream:
              itemSchema:
                type: object
                required: [data]
                properties:
                  id: { type: string }
                  event: { type: string }
                  retry: { type: integer }
                  data: { type: string }
            application/jsonl:
              itemSchema:
                type: object
                required: [n]
                properties: { n: { type: integer } }
            application/json:
              schema:
                type: array
                items:
                  type: object
                  required: [n]
                  properties: { n: { type: integer } }
`;

type TicksClient = { streamTicks: (params?: Record<string, unknown>, options?: CallOptions) => Promise<FeedResult> };

const specDir = path.join(packageRoot, '.test-output', 'stream-resume-content-type-spec');
let output: GeneratedOutput;
let createClient: (options: ClientOptions) => TicksClient;
let server: StreamServer;

beforeAll(async () => {
  await mkdir(specDir, { recursive: true });
  await writeFile(path.join(specDir, 'ticks.yaml'), TICKS_SPEC);
  output = await generateInto(path.join(specDir, 'ticks.yaml'), 'stream-resume-content-type');
  ({ createClient } = await importClient<{ createClient: typeof createClient }>(output));
  server = await startStreamServer();
});

afterAll(async () => {
  await server?.close();
  await output?.remove();
  await rm(specDir, { recursive: true, force: true });
});

const block = (n: number): string => `id: ${n}\nevent: tick\ndata: {"n":${n}}\n\n`;
const event = (n: number) => ({ id: String(n), event: 'tick', data: `{"n":${n}}` });

/** The first connection: `retry: 7`, events 1 and 2, half of event 3, then the connection breaks. */
async function breakAfterTwo(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  await writeInPieces(res, `retry: 7\n\n${block(1)}${block(2)}${block(3).slice(0, 10)}`, 7);
  res.destroy();
}

for (const transport of TRANSPORTS) {
  describe(`a resumed event stream answered in another content type, through ${transport.name}`, () => {
    function client() {
      const events: ClientEvent[] = [];
      const waits: number[] = [];
      const created = createClient({
        baseUrl: `${server.origin}/feed`,
        retry: false,
        // Reconnections left over: stopping is the content type's doing, not the limit's.
        resume: { maxReconnects: 3, delayMs: 1000 },
        onEvent: (e) => events.push(e),
        sleep: async (ms) => void waits.push(ms),
        ...transport.options,
      });
      return { client: created, events, waits };
    }

    it('fails the iteration when the reconnection answers with a JSON body, after the events that came', async () => {
      server.handle(async (req, res) => {
        if (req.headers['last-event-id'] === undefined) return await breakAfterTwo(res);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('[{"n":3}]');
      });
      const before = server.requests.length;
      const { client: c, events, waits } = client();
      const result = await c.streamTicks();
      const delivered: unknown[] = [];
      const error = await collect(result.body, delivered).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error).not.toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ status: 200, operationId: 'streamTicks', issues: ['application/json is not the text/event-stream of the stream it resumes'] });
      expect((error as Error).message).toBe('streamTicks: the answer to a reconnection of HTTP 200 does not match the contract: application/json is not the text/event-stream of the stream it resumes');
      expect(delivered).toEqual([event(1), event(2)]);
      // One reconnection, after the stream's retry, with its last event ID: then no more.
      expect(server.requests.slice(before).map((r) => r.headers['last-event-id'])).toEqual([undefined, '2']);
      expect(waits).toEqual([7]);
      expect(events.filter((e) => e.type === 'reconnect')).toHaveLength(1);
    });

    it('closes a reconnection answered as JSON Lines unread, and fails the iteration', async () => {
      let resumed: SeenRequest | undefined;
      let resumedClosed = false;
      server.handle(async (req, res, seen) => {
        if (req.headers['last-event-id'] === undefined) return await breakAfterTwo(res);
        resumed = seen;
        void seen.closed.then(() => (resumedClosed = true));
        res.writeHead(200, { 'content-type': 'application/jsonl' });
        res.write('{"n":3}\n');
        // Held open, so that only the client letting go of it ends the exchange in time; the
        // late end bounds a client that would read it instead (and shows as ended()).
        const late = setTimeout(() => res.end(), 2_000);
        void seen.closed.then(() => clearTimeout(late));
      });
      const before = server.requests.length;
      const { client: c } = client();
      const result = await c.streamTicks();
      const delivered: unknown[] = [];
      const error = await collect(result.body, delivered).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error).toMatchObject({ status: 200, issues: ['application/jsonl is not the text/event-stream of the stream it resumes'] });
      expect(delivered).toEqual([event(1), event(2)]);
      expect(server.requests.length - before).toBe(2);
      await waitUntil(() => resumedClosed);
      expect(resumed!.ended()).toBe(false);
    });
  });
}
