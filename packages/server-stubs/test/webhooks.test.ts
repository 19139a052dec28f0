/**
 * End to end over loopback: the webhook receiver generated from a small OpenAPI 3.1 file
 * (codegen's fixture, with a webhook behind `components.pathItems`) mounted in a real Express
 * application. A valid delivery reaches its typed handler; an invalid one gets 400 in the
 * spec's error shape; the handler's reply is validated; other paths go on to other routes.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, writeFiles } from '@bank-data-sharing/codegen';
import { ApiError, type ApiRouter, type ErrorContext, type WebhookRouterOptions } from '../src/runtime/index.js';
import { listen, send, type Running } from './helpers/http.js';

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = path.resolve(PACKAGE_ROOT, '../codegen/test/fixtures/webhooks-3.1.yaml');
const OUTPUT = path.join(PACKAGE_ROOT, '.test-output', 'webhooks');

type CreateWebhookRouter = (handlers: object, options?: WebhookRouterOptions) => ApiRouter;
let createWebhookRouter: CreateWebhookRouter;

beforeAll(async () => {
  await mkdir(OUTPUT, { recursive: true });
  const result = await generate({ spec: FIXTURE, targets: ['validators', 'server'] });
  await writeFiles(OUTPUT, result.files, { check: false });
  ({ createWebhookRouter } = (await import(/* @vite-ignore */ path.join(OUTPUT, 'server/index.ts'))) as { createWebhookRouter: CreateWebhookRouter });
});
afterAll(() => rm(OUTPUT, { recursive: true, force: true }));

const SIGNATURE = { 'x-signature': 'sha256=0123456789abcdef' };
const JSON_TYPE = { 'content-type': 'application/json' };
// Node's client frames a DELETE body only when told its length.
const ID_BODY = { headers: { ...JSON_TYPE, 'content-length': '11' }, body: '{"id":"p1"}' };

interface Delivery {
  webhook: string;
  headers: Record<string, unknown>;
  body: unknown;
}

/** An application with the receiver and one route of its own; every delivery a handler sees is recorded. */
async function app(reply: (delivery: Delivery) => unknown, options: WebhookRouterOptions = {}): Promise<{ running: Running; seen: Delivery[]; errors: ErrorContext[] }> {
  const seen: Delivery[] = [];
  const errors: ErrorContext[] = [];
  const record = (request: { operationId: string; headers: Record<string, unknown>; body: unknown }) => {
    const delivery = { webhook: request.operationId, headers: request.headers, body: request.body };
    seen.push(delivery);
    return reply(delivery);
  };
  const application = express();
  application.use(
    createWebhookRouter(
      { newPet: record, petRemoved: record, 'pet.archived': record },
      {
        paths: { newPet: '/hooks/new-pet' },
        authorize: ({ credential }) => (credential === 'secret' ? { scopes: [] } : undefined),
        onError: (_error, context) => errors.push(context),
        ...options,
      },
    ),
  );
  application.get('/other', (_req, res) => {
    res.status(200).send('other route');
  });
  return { running: await listen(application), seen, errors };
}

describe('generated webhook receiver', () => {
  let running: Running | undefined;
  afterAll(() => running?.close());

  it('hands a valid delivery to the typed handler and sends its validated reply', async () => {
    const started = await app(() => ({ status: 200, body: { received: true } }));
    running = started.running;
    const reply = await send(`${running.origin}/hooks/new-pet`, {
      method: 'POST',
      headers: { ...JSON_TYPE, ...SIGNATURE },
      body: JSON.stringify({ id: 'p1', name: 'Rex', tags: ['good'] }),
    });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ received: true });
    expect(started.seen).toHaveLength(1);
    expect(started.seen[0]).toMatchObject({ webhook: 'newPet', headers: SIGNATURE, body: { id: 'p1', name: 'Rex', tags: ['good'] } });
    await running.close();
    running = undefined;
  });

  it("answers an invalid body or header with 400 in the spec's error shape, without calling the handler", async () => {
    const started = await app(() => ({ status: 204 }));
    running = started.running;
    const post = (headers: Record<string, string>, body: unknown) =>
      send(`${running!.origin}/hooks/new-pet`, { method: 'POST', headers: { ...JSON_TYPE, ...headers }, body: JSON.stringify(body) });

    const extra = await post(SIGNATURE, { id: 'p1', name: 'Rex', colour: 'brown' }); // PetEvent is closed
    expect(extra.status).toBe(400);
    const problem = extra.json() as { Errors: Array<{ Code: string; Message: string; Path?: string }> };
    expect(problem.Errors.length).toBeGreaterThan(0);
    expect(problem.Errors[0]).toEqual(expect.objectContaining({ Code: expect.any(String), Message: expect.any(String) }));

    expect((await post(SIGNATURE, { id: '', name: 'Rex' })).status).toBe(400);
    const unsigned = await post({}, { id: 'p1', name: 'Rex' });
    expect(unsigned.status).toBe(400);
    expect(JSON.stringify(unsigned.json())).toContain('x-signature');
    expect((await post({ 'x-signature': 'md5=1' }, { id: 'p1', name: 'Rex' })).status).toBe(400);
    const noBody = await send(`${running.origin}/hooks/new-pet`, { method: 'POST', headers: SIGNATURE });
    expect(noBody.status).toBe(400);
    const text = await send(`${running.origin}/hooks/new-pet`, { method: 'POST', headers: { 'content-type': 'text/plain', ...SIGNATURE }, body: 'hello' });
    expect(text.status).toBe(400);
    expect(started.seen).toEqual([]);
    await running.close();
    running = undefined;
  });

  it("validates the handler's reply: a status or body the spec does not allow becomes 500 and is reported", async () => {
    let answer: unknown = { status: 200, body: { received: 'yes' } };
    const started = await app(() => answer);
    running = started.running;
    const deliver = () =>
      send(`${running!.origin}/hooks/new-pet`, { method: 'POST', headers: { ...JSON_TYPE, ...SIGNATURE }, body: JSON.stringify({ id: 'p1', name: 'Rex' }) });
    expect((await deliver()).status).toBe(500);
    answer = { status: 201 };
    expect((await deliver()).status).toBe(500);
    expect(started.errors.map((e) => [e.phase, e.operationId])).toEqual([
      ['response', 'newPet'],
      ['response', 'newPet'],
    ]);
    answer = { status: 204 };
    expect((await deliver()).status).toBe(204);
    await running.close();
    running = undefined;
  });

  it('receives a webhook behind components.pathItems at its default path and method, and passes other paths on', async () => {
    const started = await app(() => ({ status: 204 }));
    running = started.running;
    const removed = await send(`${running.origin}/petRemoved`, { method: 'DELETE', headers: { ...ID_BODY.headers, 'x-reason': 'sold' }, body: ID_BODY.body });
    expect(removed.status).toBe(204);
    expect(started.seen[0]).toMatchObject({ webhook: 'petRemoved', headers: { 'x-reason': 'sold' }, body: { id: 'p1' } });
    const badReason = await send(`${running.origin}/petRemoved`, { method: 'DELETE', headers: { ...ID_BODY.headers, 'x-reason': 'eaten' }, body: ID_BODY.body });
    expect(badReason.status).toBe(400);
    // A method the webhook does not have: 405 with Allow; another path: the application's own route.
    const wrongMethod = await send(`${running.origin}/petRemoved`, { method: 'POST', headers: JSON_TYPE, body: '{"id":"p1"}' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('DELETE');
    const other = await send(`${running.origin}/other`);
    expect(other.status).toBe(200);
    expect(other.text).toBe('other route');
    // The default path of newPet is not served: it was moved to /hooks/new-pet.
    expect((await send(`${running.origin}/newPet`, { method: 'POST', headers: { ...JSON_TYPE, ...SIGNATURE }, body: '{}' })).status).toBe(404);
    await running.close();
    running = undefined;
  });

  it('leaves an interaction id set by earlier middleware alone on a path it passes on', async () => {
    const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    const application = express();
    application.use((_req, res, next) => {
      res.setHeader('x-fapi-interaction-id', id);
      next();
    });
    application.use(createWebhookRouter({}, { authorize: () => undefined, onMissingHandlers: () => undefined }));
    application.get('/other', (_req, res) => {
      res.status(200).send('other route');
    });
    running = await listen(application);
    const other = await send(`${running.origin}/other`, { headers: { 'x-fapi-interaction-id': '93bac548-d2de-4546-b106-880a5018460d' } });
    expect(other.status).toBe(200);
    expect(other.headers['x-fapi-interaction-id']).toBe(id);
    await running.close();
    running = undefined;
  });

  it("checks a webhook's own security, with the authorize hook", async () => {
    const started = await app(() => ({ status: 202 }));
    running = started.running;
    const url = `${running.origin}/pet.archived`;
    expect((await send(url, { method: 'POST', headers: JSON_TYPE, body: '{"id":"p1"}' })).status).toBe(401);
    expect((await send(url, { method: 'POST', headers: { ...JSON_TYPE, 'x-hook-key': 'wrong' }, body: '{"id":"p1"}' })).status).toBe(401);
    expect((await send(url, { method: 'POST', headers: { ...JSON_TYPE, 'x-hook-key': 'secret' }, body: '{"id":"p1"}' })).status).toBe(202);
    // The body is optional for this webhook.
    expect((await send(url, { method: 'POST', headers: { 'x-hook-key': 'secret' } })).status).toBe(202);
    expect(started.seen.map((d) => d.body)).toEqual([{ id: 'p1' }, undefined]);
    await running.close();
    running = undefined;
  });

  it('answers 501 for a webhook without a handler, and lets a handler answer with ApiError', async () => {
    const application = express();
    const missing: string[] = [];
    application.use(
      createWebhookRouter(
        {
          newPet: () => {
            throw new ApiError(400, 'Pet.Unknown', 'unknown pet');
          },
        },
        { authorize: () => ({ scopes: [] }), onMissingHandlers: (ops) => missing.push(...ops.map((op) => `${op.operationId} ${op.method} ${op.path}`)) },
      ),
    );
    running = await listen(application);
    expect(missing).toEqual(['petRemoved delete /petRemoved', 'pet.archived post /pet.archived']);
    const thrown = await send(`${running.origin}/newPet`, { method: 'POST', headers: { ...JSON_TYPE, ...SIGNATURE }, body: '{"id":"p1","name":"Rex"}' });
    expect(thrown.status).toBe(400);
    expect(thrown.json()).toMatchObject({ Errors: [{ Code: 'Pet.Unknown', Message: 'unknown pet' }] });
    const none = await send(`${running.origin}/petRemoved`, { method: 'DELETE', ...ID_BODY });
    expect(none.status).toBe(501);
    await running.close();
    running = undefined;
  });

  it('refuses options that cannot serve the webhooks, when the router is created', () => {
    expect(() => createWebhookRouter({}, { paths: { nope: '/x' }, onMissingHandlers: () => undefined })).toThrow(/"nope", which is not a webhook/);
    expect(() => createWebhookRouter({}, { paths: { newPet: 'no-slash' }, authorize: () => undefined, onMissingHandlers: () => undefined })).toThrow(/must start with "\/"/);
    expect(() => createWebhookRouter({}, { paths: { newPet: '/same', 'pet.archived': '/same' }, authorize: () => undefined, onMissingHandlers: () => undefined })).toThrow(
      /both received at POST \/same/,
    );
    // pet.archived requires HookKey: without authorize, no receiver.
    expect(() => createWebhookRouter({}, { onMissingHandlers: () => undefined })).toThrow(/createWebhookRouter: pet\.archived .*pass options\.authorize/);
  });
});
