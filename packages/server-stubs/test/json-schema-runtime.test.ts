/**
 * End to end over loopback: an OpenAPI 3.1 API whose request body and answer use keywords
 * only the generated JSON Schema runtime validates (`unevaluatedProperties` over `allOf`,
 * `if`/`then`, `prefixItems`). A valid request reaches the handler; an invalid body is
 * refused with 400 naming the member and the keyword; a reply the spec does not allow is 500.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, writeFiles } from '@bank-data-sharing/codegen';
import type { ApiRouter, RouterOptions } from '../src/runtime/index.js';
import { listen, send, type Running } from './helpers/http.js';

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = path.join(PACKAGE_ROOT, '.test-output', 'json-schema-runtime');

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Orders', version: '1' },
  servers: [{ url: 'http://localhost/orders/v1' }],
  paths: {
    '/orders': {
      post: {
        operationId: 'CreateOrder',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } },
        responses: {
          '200': { description: 'placed', content: { 'application/json': { schema: { $ref: '#/components/schemas/Placed' } } } },
          '400': { description: 'refused', content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Item: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } } },
      Order: {
        allOf: [{ $ref: '#/components/schemas/Item' }],
        properties: { gift: { type: 'boolean' }, note: { type: 'string' } },
        if: { properties: { gift: { const: true } }, required: ['gift'] },
        then: { required: ['note'] },
        unevaluatedProperties: false,
      },
      Placed: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false, minItems: 2 },
      Problem: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    },
  },
};

type CreateRouter = (handlers: object, options?: RouterOptions) => ApiRouter;
let createRouter: CreateRouter;

beforeAll(async () => {
  await mkdir(OUTPUT, { recursive: true });
  const spec = path.join(OUTPUT, 'orders.json');
  await writeFile(spec, JSON.stringify(SPEC));
  const result = await generate({ spec, targets: ['validators', 'server'] });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([]);
  await writeFiles(path.join(OUTPUT, 'out'), result.files, { check: false });
  ({ createRouter } = (await import(/* @vite-ignore */ path.join(OUTPUT, 'out/server/index.ts'))) as { createRouter: CreateRouter });
});
afterAll(() => rm(OUTPUT, { recursive: true, force: true }));

describe('a router whose schemas the JSON Schema runtime validates', () => {
  let running: Running;
  const bodies: unknown[] = [];
  let reply: unknown = ['o-1', 3];
  beforeAll(async () => {
    const app = express();
    app.use(
      createRouter(
        {
          CreateOrder: ({ body }: { body: unknown }) => {
            bodies.push(body);
            return { status: 200, body: reply };
          },
        },
        { onError: () => undefined },
      ),
    );
    running = await listen(app);
  });
  afterAll(() => running.close());

  const post = (body: unknown) =>
    send(`${running.origin}/orders/v1/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('hands a valid body to the handler and sends the validated answer', async () => {
    const answer = await post({ sku: 'a', qty: 2, gift: true, note: 'for you' });
    expect([answer.status, answer.json()]).toStrictEqual([200, ['o-1', 3]]);
    expect(bodies.at(-1)).toStrictEqual({ sku: 'a', qty: 2, gift: true, note: 'for you' });
  });

  it('refuses an invalid body with 400, naming the member and the keyword', async () => {
    const before = bodies.length;
    const extra = await post({ sku: 'a', colour: 'red' });
    expect(extra.status).toBe(400);
    expect(extra.text).toContain('colour');
    expect(extra.text).toContain('unevaluatedProperties');
    const giftWithoutNote = await post({ sku: 'a', gift: true });
    expect(giftWithoutNote.status).toBe(400);
    expect(giftWithoutNote.text).toContain('note');
    expect(bodies.length).toBe(before);
  });

  it('answers 500 when the handler replies what the spec does not allow', async () => {
    reply = ['o-1', 'three'];
    expect((await post({ sku: 'a' })).status).toBe(500);
    reply = ['o-1', 3];
  });
});
