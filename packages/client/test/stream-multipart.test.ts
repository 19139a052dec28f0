/**
 * `multipart/mixed` sequences (OpenAPI 3.2 `itemSchema` with `prefixEncoding` / `itemEncoding`),
 * through both transports: an answer's parts read as items as they arrive (written by hand in
 * awkward pieces, preamble and epilogue around them), each checked by the item schema and its
 * part's declared type; a request body sent part by part from the caller's items.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSequenceText } from '@bank-data-sharing/wire';
import { RequestError, RequestValidationError, ResponseValidationError, type ClientOptions } from '../src/runtime/index.js';
import { generateInto, importClient, packageRoot, type GeneratedOutput } from './helpers/generated-client.js';
import { collect, loadMarketFeed, quote, TRANSPORTS, type FeedResult, type MarketFeed } from './helpers/market-feed.js';
import { startStreamServer, writeInPieces, type StreamServer } from './helpers/stream-server.js';

type Method = (params?: Record<string, unknown>) => Promise<FeedResult>;

const NOTES_SPEC = `
openapi: 3.2.0
info: { title: Notes, version: 1.0.0 }
servers: [{ url: /feed }]
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
`;

let feed: MarketFeed;
let notes: { output: GeneratedOutput; createClient(options: ClientOptions): { uploadNotes: Method } };
let server: StreamServer;

beforeAll(async () => {
  const specDir = path.join(packageRoot, '.test-output', 'stream-multipart-spec');
  await mkdir(specDir, { recursive: true });
  await writeFile(path.join(specDir, 'notes.yaml'), NOTES_SPEC);
  const notesOutput = await generateInto(path.join(specDir, 'notes.yaml'), 'stream-multipart-notes');
  const notesModule = await importClient<{ createClient(options: ClientOptions): { uploadNotes: Method } }>(notesOutput);
  notes = { output: notesOutput, createClient: notesModule.createClient };
  [feed, server] = await Promise.all([loadMarketFeed('stream-multipart'), startStreamServer()]);
});

afterAll(async () => {
  await server?.close();
  await feed?.output.remove();
  await notes?.output.remove();
});

/** A report body: each part with its Content-Type (none when undefined), a preamble and an epilogue. */
function report(parts: Array<[string | undefined, string]>, boundary = 'rep-ort:1'): string {
  const body = parts.map(([type, content]) => `--${boundary}\r\n${type === undefined ? '' : `Content-Type: ${type}\r\n`}\r\n${content}\r\n`).join('');
  return `Preamble, ignored.\r\n${body}--${boundary}--\r\nEpilogue, ignored.`;
}

function answerWith(text: string, contentType = 'multipart/mixed; boundary="rep-ort:1"', size = 3): void {
  server.handle(async (_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    await writeInPieces(res, text, size);
    res.end();
  });
}

for (const transport of TRANSPORTS) {
  describe(`multipart/mixed through ${transport.name}`, () => {
    const reportOf = () => (feed.createClient({ baseUrl: `${server.origin}/feed`, retry: false, ...transport.options }) as unknown as { quoteReport: Method }).quoteReport();

    it('reads the parts of an answer as items: the first JSON, the rest text, UTF-8 cut anywhere', async () => {
      answerWith(report([['application/json', JSON.stringify(quote(1))], ['text/plain; charset=utf-8', 'note, café €'], [undefined, 'no type: text/plain']]));
      const result = await reportOf();
      expect(result.status).toBe(200);
      expect(result.contentType).toBe('multipart/mixed');
      expect(await collect(result.body)).toEqual([quote(1), 'note, café €', 'no type: text/plain']);
    });

    it('refuses a part whose Content-Type is not the one its position declares, naming the item', async () => {
      answerWith(report([['application/json', JSON.stringify(quote(1))], ['application/json', '"json, not text"']]));
      const seen: unknown[] = [];
      const result = await reportOf();
      const failure = await collect(result.body, seen).then(() => undefined, (error: unknown) => error);
      expect(failure).toBeInstanceOf(ResponseValidationError);
      expect((failure as ResponseValidationError).issues).toEqual(['item 2: part 2: Content-Type application/json is not the text/plain its encoding declares']);
      expect(seen).toEqual([quote(1)]);
    });

    it('checks each item with the item schema', async () => {
      answerWith(report([['application/json', JSON.stringify({ symbol: 'abc' })]]));
      const failure = await collect((await reportOf()).body).then(() => undefined, (error: unknown) => error);
      expect(failure).toBeInstanceOf(ResponseValidationError);
      expect((failure as ResponseValidationError).issues[0]).toMatch(/^item 1: /);
    });

    it('refuses a body cut short, and one whose Content-Type names no boundary', async () => {
      answerWith(report([['application/json', JSON.stringify(quote(1))]]).slice(0, -40));
      const cut = await collect((await reportOf()).body).then(() => undefined, (error: unknown) => error);
      expect((cut as ResponseValidationError).issues).toEqual(['item 1: part 1: the body ended before its close delimiter']);
      answerWith(report([['application/json', JSON.stringify(quote(1))]]), 'multipart/mixed');
      const unbounded = await collect((await reportOf()).body).then(() => undefined, (error: unknown) => error);
      expect((unbounded as ResponseValidationError).issues[0]).toContain('names no boundary');
    });

    it('sends a request body part by part from the caller\'s items, each checked first', async () => {
      server.handle(async (_req, res, seen) => {
        await seen.received;
        const items = decodeSequenceText('multipart-mixed', seen.body, { contentType: String(seen.headers['content-type']) });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ count: items.length }));
      });
      const client = notes.createClient({ baseUrl: `${server.origin}/feed`, retry: false, ...transport.options });
      async function* items() {
        yield { title: 'Q1' };
        yield 'first note';
        yield 'second, é';
      }
      const result = await client.uploadNotes({ body: items() });
      expect(result.body).toEqual({ count: 3 });
      const sent = server.requests.at(-1)!;
      const contentType = String(sent.headers['content-type']);
      expect(contentType).toMatch(/^multipart\/mixed; boundary=bds-[0-9A-Za-z]{28}$/);
      expect(sent.headers['content-length']).toBeUndefined();
      expect(decodeSequenceText('multipart-mixed', sent.body, { contentType })).toEqual([{ title: 'Q1' }, 'first note', 'second, é']);
      expect(sent.body.match(/Content-Type: [^\r]+/g)).toEqual(['Content-Type: application/json', 'Content-Type: text/plain; charset=utf-8', 'Content-Type: text/plain; charset=utf-8']);
      // A new boundary for every body.
      await client.uploadNotes({ body: [{ title: 'Q2' }] });
      expect(server.requests.at(-1)!.headers['content-type']).not.toBe(contentType);
    });

    it('refuses an item its part cannot carry, and one that breaks the item schema, before sending it', async () => {
      server.handle(async (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"count":0}');
      });
      const client = notes.createClient({ baseUrl: `${server.origin}/feed`, retry: false, ...transport.options });
      await expect(client.uploadNotes({ body: [{ title: '' }] })).rejects.toBeInstanceOf(RequestValidationError);
      const unfit = await client.uploadNotes({ body: [{ title: 'Q1' }, { title: 'not text' }] }).then(() => undefined, (error: unknown) => error);
      expect(unfit).toBeInstanceOf(RequestError);
      expect(String((unfit as Error).message)).toContain('item 2 of the request body cannot be sent as multipart-mixed: a text/plain part carries a string, not an object');
    });
  });
}
