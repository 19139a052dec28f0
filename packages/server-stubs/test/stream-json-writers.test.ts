/**
 * The router's `jsonWriters` option reaches streamed answers (OpenAPI 3.2 `itemSchema`) as it
 * reaches whole JSON bodies: with it on, each JSON Lines line, JSON text sequence record and
 * JSON part of a `multipart/mixed` body is written by the item schema's compiled writer; with it
 * off, by JSON.stringify; left unset, by whichever `jsonWritersPayOff` picks for this engine.
 *
 * The two writers are told apart by member order: a compiled writer follows the schema's order,
 * JSON.stringify the order the handler built the object in, so the handler builds each item in
 * the reverse of the schema's order.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, writeFiles } from '@bank-data-sharing/codegen';
import { decodeSequence } from '@bank-data-sharing/wire';
import { jsonWritersPayOff, type ApiRouter, type ErrorContext, type RouterOptions } from '../src/runtime/index.js';
import { listen, send, type Running } from './helpers/http.js';

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = path.join(PACKAGE_ROOT, '.test-output', 'stream-json-writers');

const SPEC = {
  openapi: '3.2.0',
  info: { title: 'Quote streams', version: '1' },
  paths: {
    '/quotes': {
      get: {
        operationId: 'streamQuotes',
        responses: {
          '200': {
            description: 'Quotes, one item each.',
            content: {
              'application/jsonl': { itemSchema: { $ref: '#/components/schemas/Quote' } },
              'application/json-seq': { itemSchema: { $ref: '#/components/schemas/Quote' } },
              'multipart/mixed': { itemSchema: { $ref: '#/components/schemas/Quote' }, itemEncoding: { contentType: 'application/json' } },
            },
          },
        },
      },
    },
    // A whole JSON body beside the streams: the yardstick the streams are held to.
    '/quote': {
      get: {
        operationId: 'latestQuote',
        responses: { '200': { description: 'One quote.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Quote' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Quote: {
        type: 'object',
        required: ['symbol', 'price'],
        properties: { symbol: { type: 'string' }, price: { type: 'number' } },
      },
    },
  },
} as const;

type CreateRouter = (handlers: object, options?: RouterOptions<unknown>) => ApiRouter;
let createRouter: CreateRouter;

beforeAll(async () => {
  await mkdir(OUTPUT, { recursive: true });
  const file = path.join(OUTPUT, 'quotes.json');
  await writeFile(file, JSON.stringify(SPEC));
  const result = await generate({ spec: file, targets: ['validators', 'server'] });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  await writeFiles(path.join(OUTPUT, 'out'), result.files, { check: false });
  ({ createRouter } = (await import(/* @vite-ignore */ path.join(OUTPUT, 'out/server/index.ts'))) as { createRouter: CreateRouter });
});
afterAll(() => rm(OUTPUT, { recursive: true, force: true }));

// Built price first: the reverse of the schema's `symbol, price`.
const handlerItems = () => [
  { price: 1.5, symbol: 'ABC' },
  { price: 2, symbol: 'XY' },
];
const SCHEMA_ORDER = ['{"symbol":"ABC","price":1.5}', '{"symbol":"XY","price":2}'];
const HANDLER_ORDER = ['{"price":1.5,"symbol":"ABC"}', '{"price":2,"symbol":"XY"}'];

async function app(jsonWriters: boolean | undefined): Promise<{ running: Running; errors: ErrorContext[] }> {
  const errors: ErrorContext[] = [];
  const application = express();
  application.use(
    createRouter(
      {
        // A generator, so the items reach the router one pull at a time, as a real stream's would.
        streamQuotes: () => ({
          status: 200,
          body: (function* () {
            yield* handlerItems();
          })(),
        }),
        latestQuote: () => ({ status: 200, body: handlerItems()[0] }),
      },
      { onError: (_error: unknown, context: ErrorContext) => void errors.push(context), ...(jsonWriters === undefined ? {} : { jsonWriters }) },
    ),
  );
  return { running: await listen(application), errors };
}

/** The raw text of a streamed answer, and its items as a reader of its format decodes them. */
async function streamed(url: string, accept: string, format: 'json-lines' | 'json-seq' | 'multipart-mixed'): Promise<{ status: number; contentType: string; text: string; items: unknown[] }> {
  const reply = await send(url, { headers: { accept } });
  const contentType = String(reply.headers['content-type']);
  async function* chunks(): AsyncGenerator<string> {
    yield reply.text;
  }
  const items: unknown[] = [];
  for await (const item of decodeSequence(format, chunks(), { contentType })) items.push(item);
  return { status: reply.status, contentType, text: reply.text, items };
}

/** The JSON text of each item as written, in the order written, whatever framed it. */
function writtenItems(text: string): string[] {
  return [...text.matchAll(/\{[^{}]*\}/g)].map((m) => m[0]);
}

const FORMATS = [
  ['JSON Lines', 'application/jsonl', 'json-lines'],
  ['JSON text sequences', 'application/json-seq', 'json-seq'],
  ['multipart/mixed JSON parts', 'multipart/mixed', 'multipart-mixed'],
] as const;

describe.each(FORMATS)('jsonWriters and streamed items: %s', (_name, accept, format) => {
  it('with jsonWriters on, each item is written by its schema\'s compiled writer (schema member order)', async () => {
    const { running, errors } = await app(true);
    try {
      const answer = await streamed(`${running.origin}/quotes`, accept, format);
      expect(answer.status).toBe(200);
      expect(answer.contentType.startsWith(accept)).toBe(true);
      expect(writtenItems(answer.text)).toEqual(SCHEMA_ORDER);
      // Same values either way: only the writer differs.
      expect(answer.items).toEqual(handlerItems());
      expect(errors).toEqual([]);
    } finally {
      await running.close();
    }
  });

  it('with jsonWriters off, each item is written by JSON.stringify (the handler\'s member order)', async () => {
    const { running, errors } = await app(false);
    try {
      const answer = await streamed(`${running.origin}/quotes`, accept, format);
      expect(answer.status).toBe(200);
      expect(writtenItems(answer.text)).toEqual(HANDLER_ORDER);
      expect(answer.items).toEqual(handlerItems());
      expect(errors).toEqual([]);
    } finally {
      await running.close();
    }
  });

  it('with jsonWriters unset, items follow the engine default (jsonWritersPayOff), as a whole JSON body does', async () => {
    const { running, errors } = await app(undefined);
    try {
      const expected = jsonWritersPayOff ? SCHEMA_ORDER : HANDLER_ORDER;
      const answer = await streamed(`${running.origin}/quotes`, accept, format);
      expect(answer.status).toBe(200);
      expect(writtenItems(answer.text)).toEqual(expected);
      // The whole body and the stream's items must not disagree on which writer the default picks.
      const whole = await send(`${running.origin}/quote`, { headers: { accept: 'application/json' } });
      expect(whole.status).toBe(200);
      expect(whole.text).toBe(expected[0]);
      expect(errors).toEqual([]);
    } finally {
      await running.close();
    }
  });
});
