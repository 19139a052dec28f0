/**
 * One table of requests, answered the same on the wire by every way of serving the generated
 * v2.2 router (Express 5, Express 4, node:http, Fastify): status, the headers the contract
 * sets, and the body. Each answer is checked against the table, and against Express 5's.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../src/generated/v2.2/index.js';
import { toNodeListener, type RouterOptions } from '../src/runtime/index.js';
import { authorize, PREFIX } from './helpers/apps.js';
import { attestation } from './helpers/fixtures.js';
import { describeTable, ID, UUID, type Case } from './helpers/conformance.js';
import { handlers22, newState } from './helpers/handlers.js';
import { listen, send, type Running } from './helpers/http.js';
import { testKeys, type TestKeys } from './helpers/keys.js';
import { SERVINGS } from './helpers/servings.js';

const BASE = PREFIX['v2.2'];
/** One handler state per table run: a case sets the behaviour before its request. */
const state = newState();

let keys: TestKeys;
beforeAll(async () => {
  keys = await testKeys();
});

async function signBody(message: unknown): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ message: message as Record<string, unknown> }).setProtectedHeader({ alg: 'ES256' }).setIssuer('tpp-test').setIssuedAt(now).setNotBefore(now - 10).setExpirationTime(now + 300).sign(keys.tppPrivate);
}

const user = { authorization: 'Bearer user', 'x-fapi-interaction-id': ID };
const tpp = { authorization: 'Bearer tpp', 'x-fapi-interaction-id': ID };

const patchJson = JSON.stringify({ Data: { Status: 'Revoked', RevokedBy: 'TPP' } });

const CASES: readonly Case[] = [
  { name: '200 GET with a query', path: '/accounts/acc-001/transactions?fromBookingDateTime=2025-01-01T00:00:00Z', headers: user, status: 200, expectHeaders: { 'content-type': 'application/json; charset=utf-8', 'x-fapi-interaction-id': ID } },
  { name: '200 with a fresh interaction id', path: '/accounts', headers: { authorization: 'Bearer user' }, status: 200, expectHeaders: { 'x-fapi-interaction-id': UUID } },
  { name: 'HEAD like GET without the body', method: 'HEAD', path: '/accounts', headers: user, status: 200, codes: [], expectHeaders: { 'content-type': 'application/json; charset=utf-8' } },
  { name: 'a trailing slash', path: '/accounts/', headers: user, status: 200 },
  { name: 'percent-encoded path parameter', path: '/accounts/acc%20007', headers: user, status: 200 },
  { name: '404 at an unknown path', path: '/no-such-thing', headers: user, status: 404, codes: [], expectHeaders: { 'x-fapi-interaction-id': ID } },
  { name: '404 at the prefix itself', path: '', headers: user, status: 404, codes: [] },
  { name: '405 with Allow', method: 'DELETE', path: '/accounts', headers: user, status: 405, codes: [], expectHeaders: { allow: 'GET, HEAD' } },
  { name: '405 with a body sent', method: 'PUT', path: '/accounts/acc-001', headers: { ...user, 'content-type': 'application/json' }, body: () => '{}', status: 405, expectHeaders: { allow: 'GET, HEAD' } },
  { name: '406', path: '/accounts', headers: { ...user, accept: 'text/html' }, status: 406, codes: [] },
  { name: '415 for another Content-Type', method: 'PATCH', path: '/account-access-consents/c1', headers: { ...tpp, 'content-type': 'text/plain' }, body: () => 'revoke', status: 415, codes: [] },
  // Fastify itself refuses this Content-Type (415); the router reads it as JSON: the router decides.
  { name: 'a Content-Type only the router accepts', method: 'PATCH', path: '/account-access-consents/c1', headers: { ...tpp, 'content-type': 'application/json;;; ==' }, body: () => patchJson, status: 204, codes: [] },
  { name: '415 for a body without Content-Type', method: 'PATCH', path: '/account-access-consents/c1', headers: tpp, body: () => patchJson, status: 415, codes: [] },
  { name: '401 with a challenge', path: '/accounts', headers: { 'x-fapi-interaction-id': ID }, status: 401, codes: [], expectHeaders: { 'www-authenticate': 'Bearer' } },
  { name: '403 without the scope', path: '/accounts', headers: { ...user, authorization: 'Bearer openid-only' }, status: 403, codes: ['AccessToken.InvalidScope'] },
  { name: '400 for a bad path parameter', path: `/accounts/${'x'.repeat(41)}`, headers: user, status: 400, codes: ['Resource.InvalidFormat'] },
  // Fastify refuses these targets before routing; `fastifyFrameworkErrors` hands them to the router.
  { name: '400 for a broken percent-encoding in a parameter', path: '/accounts/acc%E0%A4%A', headers: user, status: 400, codes: ['Resource.InvalidFormat'] },
  { name: '400 for a parameter longer than Fastify allows', path: `/accounts/${'x'.repeat(150)}`, headers: user, status: 400, codes: ['Resource.InvalidFormat'] },
  { name: '400 for a bad query parameter', path: '/accounts/acc-001/transactions?fromBookingDateTime=yesterday', headers: user, status: 400, codes: ['Resource.InvalidFormat'] },
  { name: '204 for a JSON body (streamed, chunked)', method: 'PATCH', path: '/account-access-consents/c1', headers: { ...tpp, 'content-type': 'application/json' }, body: () => patchJson, status: 204, codes: [] },
  { name: '204 for a JSON body with Content-Length', method: 'PATCH', path: '/account-access-consents/c1', headers: { ...tpp, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(patchJson)) }, body: () => patchJson, status: 204, codes: [] },
  { name: '201 for a signed body, answered signed', method: 'POST', path: '/account-access-consents/c1/attestations', headers: { ...tpp, 'content-type': 'application/jwt' }, body: () => signBody({ Data: attestation }), status: 201, expectHeaders: { 'content-type': 'application/jwt' } },
  { name: 'an oversized body (400 here: the spec defines no 413) closing the connection', method: 'PATCH', path: '/account-access-consents/c1', headers: { ...tpp, 'content-type': 'application/json' }, body: () => Buffer.alloc(300 * 1024, 0x20), status: 400, codes: ['Body.InvalidFormat'], expectHeaders: { connection: 'close' } },
  { name: 'a handler ApiError', path: '/accounts', headers: user, behaviour: 'api-error', status: 403, codes: ['Consent.Invalid'] },
  { name: 'a handler ApiError with Retry-After', path: '/accounts', headers: user, behaviour: 'forbidden', status: 429, expectHeaders: { 'retry-after': '7' } },
  { name: 'a result that breaks the contract (500)', path: '/accounts', headers: user, behaviour: 'invalid-body', status: 500 },
  { name: 'a handler that throws (500)', path: '/accounts', headers: user, behaviour: 'throws', status: 500 },
];

function routerOptions(extra: Partial<RouterOptions> = {}): RouterOptions {
  return { authorize, signing: keys.signing, verification: keys.verification, onError: () => undefined, ...extra };
}

describeTable('the generated v2.2 router', CASES, {
  base: BASE,
  state,
  start: (serving) => serving.start(createRouter(handlers22(state), routerOptions()), ''),
  serverPublic: () => keys.serverPublic,
});

describe.each(SERVINGS.filter((s) => s.name !== 'node:http'))('the router mounted below a path on $name', (serving) => {
  let running: Running;
  beforeAll(async () => {
    running = await serving.start(createRouter(handlers22(newState()), routerOptions({ prefix: '/bank' })), '/api');
  });
  afterAll(() => running.close());

  it('answers below mount point and prefix, with Links.Self as called', async () => {
    const reply = await send(`${running.origin}/api/bank/accounts?page=1`, { headers: user });
    expect(reply.status).toBe(200);
    expect((reply.json() as { Links: { Self: string } }).Links.Self).toBe(`${running.origin}/api/bank/accounts?page=1`);
  });

  it('answers 404 and 405 below the prefix in the spec shape', async () => {
    expect((await send(`${running.origin}/api/bank/nothing`, { headers: user })).status).toBe(404);
    const reply = await send(`${running.origin}/api/bank/accounts`, { method: 'POST', headers: user });
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('GET, HEAD');
  });
});

describe('the node:http listener', () => {
  let running: Running;
  beforeAll(async () => {
    running = await listen(toNodeListener(createRouter(handlers22(newState()), routerOptions())));
  });
  afterAll(() => running.close());

  it('answers a path outside the prefix with the router 404, echoing the interaction id', async () => {
    const reply = await send(`${running.origin}/elsewhere`, { headers: user });
    expect(reply.status).toBe(404);
    expect(reply.headers['x-fapi-interaction-id']).toBe(ID);
    expect(reply.text).toBe('');
  });
});
