/**
 * `router.core`, what the adapters wrap: its operations, `handle` leaving what is not the
 * router's untouched, and `handleOperation` deferring to routing when the operation it is
 * given is not the one the router would choose.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter } from '../src/generated/v2.2/index.js';
import { authorize, PREFIX } from './helpers/apps.js';
import { handlers22, newState } from './helpers/handlers.js';
import { listen, send, type Running } from './helpers/http.js';
import { testKeys } from './helpers/keys.js';

const BASE = PREFIX['v2.2'];
const user = { authorization: 'Bearer user' };
let running: Running | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function core() {
  const { verification } = await testKeys();
  return createRouter(handlers22(newState()), { authorize, verification, onError: () => undefined }).core;
}

describe('router.core', () => {
  it('lists every operation with its method and template', async () => {
    const operations = (await core()).operations();
    expect(operations).toHaveLength(17);
    expect(operations).toContainEqual({ name: 'GetAccountsAccountId', operationId: 'GetAccountsAccountId', method: 'GET', path: '/accounts/{AccountId}' });
    expect(operations).toContainEqual({ name: 'PatchAccountAccessConsentsConsentId', operationId: 'PatchAccountAccessConsentsConsentId', method: 'PATCH', path: '/account-access-consents/{ConsentId}' });
  });

  it('handle says false, writing nothing, outside its prefix; takes the url below a mount point', async () => {
    const router = await core();
    const outcomes: boolean[] = [];
    running = await listen((req, res) => {
      const below = req.url!.startsWith('/mount') ? req.url!.slice('/mount'.length) : req.url!;
      void router.handle(req, res, below).then((handled) => {
        outcomes.push(handled);
        if (!handled) res.writeHead(299).end();
      });
    });
    const outside = await send(`${running.origin}/elsewhere`, { headers: user });
    expect(outside.status).toBe(299);
    expect(outside.headers['x-fapi-interaction-id']).toBeUndefined();
    const mounted = await send(`${running.origin}/mount${BASE}/accounts`, { headers: user });
    expect(mounted.status).toBe(200);
    expect((mounted.json() as { Links: { Self: string } }).Links.Self).toBe(`${running.origin}/mount${BASE}/accounts`);
    expect(outcomes).toEqual([false, true]);
  });

  it('handleOperation answers as the named operation, or as routing decides when that is not the one', async () => {
    const router = await core();
    running = await listen((req, res) => void router.handleOperation(req, res, 'GetAccounts'));
    expect((await send(`${running.origin}${BASE}/accounts`, { headers: user })).status).toBe(200);
    // Another path, another method, a path outside the prefix: each as the router itself answers it.
    const other = await send(`${running.origin}${BASE}/accounts/acc-9`, { headers: user });
    expect((other.json() as { Data: { AccountId: string } }).Data.AccountId).toBe('acc-9');
    const wrongMethod = await send(`${running.origin}${BASE}/accounts`, { method: 'DELETE', headers: user });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
  });

  it('handleOperation of a name that is no operation routes the request', async () => {
    const router = await core();
    running = await listen((req, res) => void router.handleOperation(req, res, 'toString'));
    expect((await send(`${running.origin}${BASE}/accounts`, { headers: user })).status).toBe(200);
    expect((await send(`${running.origin}${BASE}/nothing`, { headers: user })).status).toBe(404);
  });

  it('notFound answers 404 in the error shape, echoing the interaction id', async () => {
    const router = await core();
    running = await listen((req, res) => void router.notFound(req, res));
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const reply = await send(`${running.origin}/anything`, { headers: { 'x-fapi-interaction-id': id } });
    expect(reply.status).toBe(404);
    expect(reply.headers['x-fapi-interaction-id']).toBe(id);
  });
});
