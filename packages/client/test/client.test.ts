import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../src/generated/v2.2/index.js';
import {
  ApiError,
  InteractionIdMismatchError,
  isInteractionId,
  NetworkError,
  RequestError,
  ResponseValidationError,
  staticToken,
  type ClientEvent,
} from '../src/runtime/index.js';
import { transaction, transactionsPage } from './helpers/fixtures.js';
import { PREFIX } from './helpers/paging-server.js';
import { recordingSleep, startServer, type Handler, type TestServer } from './helpers/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: Handler) {
  server = await startServer(handler);
  return server;
}

const accountsBody = (origin: string) => ({
  Data: { Account: [{ AccountId: 'acc-1', Currency: 'AED' }] },
  Links: { Self: `${origin}${PREFIX}/accounts` },
  Meta: { TotalPages: 1 },
});

describe('requests', () => {
  it('carries the common headers of section 4.1 and a new RFC 4122 interaction id per request', async () => {
    const s = await serve(() => ({ body: accountsBody(server!.origin) }));
    const client = createClient({
      origin: s.origin,
      tokens: staticToken('token-abc'),
      customer: { authDate: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), ipAddress: '198.51.100.7', userAgent: 'test-agent/1.0' },
    });
    await client.GetAccounts();
    await client.GetAccounts();
    const [first, second] = s.requests;
    expect(first!.url).toBe(`${PREFIX}/accounts`);
    expect(first!.headers['authorization']).toBe('Bearer token-abc');
    expect(first!.headers['x-fapi-auth-date']).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
    expect(first!.headers['x-fapi-customer-ip-address']).toBe('198.51.100.7');
    expect(first!.headers['x-customer-user-agent']).toBe('test-agent/1.0');
    expect(first!.headers['accept']).toBe('application/json');
    const id1 = first!.headers['x-fapi-interaction-id'] as string;
    const id2 = second!.headers['x-fapi-interaction-id'] as string;
    expect(isInteractionId(id1)).toBe(true);
    expect(isInteractionId(id2)).toBe(true);
    expect(id1).not.toBe(id2);
  });

  it('sends a caller-given interaction id and returns the echoed one', async () => {
    const s = await serve(() => ({ body: accountsBody(server!.origin) }));
    const client = createClient({ origin: s.origin });
    const id = '6f1e6c1a-3b7d-4f0e-9a51-2c4d8e0b7a19';
    const result = await client.GetAccounts(undefined, { interactionId: id });
    expect(s.requests[0]!.headers['x-fapi-interaction-id']).toBe(id);
    expect(result.interactionId).toBe(id);
    expect(result.status).toBe(200);
    expect(result.body.Data.Account[0]!.AccountId).toBe('acc-1');
  });

  it('refuses a response whose interaction id is not the request’s', async () => {
    const s = await serve(() => ({ headers: { 'x-fapi-interaction-id': '11111111-1111-4111-8111-111111111111' }, body: accountsBody(server!.origin) }));
    const client = createClient({ origin: s.origin });
    await expect(client.GetAccounts()).rejects.toBeInstanceOf(InteractionIdMismatchError);
  });

  it('fills path parameters (encoded) and query parameters, and uses baseUrl as given', async () => {
    const s = await serve((r) => ({
      body: transactionsPage('a/b c', [], { Self: `${server!.origin}${r.url}` }, 0),
    }));
    const client = createClient({ baseUrl: `${s.origin}${PREFIX}/` });
    await client.GetAccountsAccountIdTransactions({
      path: { AccountId: 'a/b c' },
      query: { fromBookingDateTime: '2025-01-01T00:00:00Z', toBookingDateTime: '2025-12-31T23:59:59+04:00' },
    });
    expect(s.requests[0]!.url).toBe(
      `${PREFIX}/accounts/a%2Fb%20c/transactions?fromBookingDateTime=2025-01-01T00%3A00%3A00Z&toBookingDateTime=2025-12-31T23%3A59%3A59%2B04%3A00`,
    );
  });

  it('needs baseUrl or origin when the spec gives only a path', () => {
    expect(() => createClient()).toThrow(RequestError);
  });

  it('sends a JSON body with its content type (PATCH consent, 204 no body)', async () => {
    const s = await serve(() => ({ status: 204 }));
    const client = createClient({ origin: s.origin, tokens: staticToken('t') });
    const result = await client.PatchAccountAccessConsentsConsentId({
      path: { ConsentId: 'c-1' },
      body: { Subscription: { Webhook: { Url: 'https://tpp.example/hook', IsActive: true } } },
    });
    expect(result.status).toBe(204);
    expect(result.body).toBeUndefined();
    expect(s.requests[0]!.method).toBe('PATCH');
    expect(s.requests[0]!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(s.requests[0]!.body)).toEqual({ Subscription: { Webhook: { Url: 'https://tpp.example/hook', IsActive: true } } });
  });
});

describe('response validation', () => {
  it('is on by default: a success that breaks the contract fails with the problems listed', async () => {
    const s = await serve(() => ({ body: { Data: { Account: [{ Currency: 'AED' }] }, Links: { Self: 'x' }, Meta: { TotalPages: 1 } } }));
    const client = createClient({ origin: s.origin });
    const error = await client.GetAccounts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual(expect.arrayContaining([expect.stringMatching(/^Data\.Account\.0\.AccountId: /), expect.stringMatching(/^Links\.Self: /)]));
  });

  it('can be switched off per client or per call', async () => {
    const bad = { Data: { Account: [{ Currency: 'AED' }] }, Links: { Self: 'x' }, Meta: { TotalPages: 1 } };
    const s = await serve(() => ({ body: bad }));
    const off = createClient({ origin: s.origin, validate: false });
    expect((await off.GetAccounts()).body).toEqual(bad);
    const on = createClient({ origin: s.origin });
    expect((await on.GetAccounts(undefined, { validate: false })).body).toEqual(bad);
  });

  it('refuses an undeclared content type for a success', async () => {
    const s = await serve(() => ({ headers: { 'content-type': 'text/html' }, body: '<html></html>' }));
    const client = createClient({ origin: s.origin });
    await expect(client.GetAccounts()).rejects.toThrow(/text\/html is not one of/);
  });

  it('matches a content type whatever its case and spacing', async () => {
    const s = await serve(() => ({ headers: { 'content-type': 'Application/JSON;Charset=UTF-8' }, body: JSON.stringify(accountsBody(server!.origin)) }));
    const client = createClient({ origin: s.origin });
    expect((await client.GetAccounts()).contentType).toBe('application/json; charset=utf-8');
  });
});

describe('typed errors', () => {
  it('gives the status, the Errors array and the interaction id', async () => {
    const s = await serve(() => ({
      status: 403,
      body: { Errors: [{ Code: 'Consent.AccountTemporarilyBlocked', Message: 'Blocked for now' }] },
    }));
    const client = createClient({ origin: s.origin });
    const error = await client.GetAccountsAccountId({ path: { AccountId: 'a' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(403);
    expect(apiError.errors).toEqual([{ Code: 'Consent.AccountTemporarilyBlocked', Message: 'Blocked for now' }]);
    expect(apiError.interactionId).toBe(s.requests[0]!.headers['x-fapi-interaction-id']);
    expect(apiError.operationId).toBe('GetAccountsAccountId');
    expect(apiError.retryAfter).toBeUndefined();
    expect(apiError.message).toBe('GetAccountsAccountId failed with HTTP 403: Consent.AccountTemporarilyBlocked Blocked for now');
  });

  it('keeps an error body that breaks its schema, without hiding the status', async () => {
    const s = await serve(() => ({ status: 400, body: { Errors: [{ Code: 'Not a code!', Message: 'x' }] } }));
    const client = createClient({ origin: s.origin });
    const error = (await client.GetAccounts().catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(400);
    expect(error.errors).toEqual([{ Code: 'Not a code!', Message: 'x' }]);
  });

  it('gives Retry-After of a 429 it will not wait for', async () => {
    const s = await serve(() => ({ status: 429, headers: { 'retry-after': '120' } }));
    const client = createClient({ origin: s.origin, retry: { maxRetryAfterSeconds: 60 } });
    const error = (await client.GetAccounts().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBe(120);
    expect(s.requests).toHaveLength(1);
  });

  it('reports a connection failure as NetworkError', async () => {
    const s = await serve(() => ({ destroy: true }));
    const { sleep } = recordingSleep();
    const client = createClient({ origin: s.origin, sleep, retry: { maxRetries: 1 } });
    await expect(client.GetAccounts()).rejects.toBeInstanceOf(NetworkError);
    expect(s.requests).toHaveLength(2);
  });
});

describe('events', () => {
  it('reports requests and responses', async () => {
    const s = await serve(() => ({ body: transactionsPage('a', [transaction('t1', new Date(0))], { Self: `${server!.origin}/x` }, 1) }));
    const events: ClientEvent[] = [];
    const client = createClient({ origin: s.origin, onEvent: (e) => events.push(e) });
    await client.GetAccountsAccountIdTransactions({ path: { AccountId: 'a' } });
    expect(events.map((e) => e.type)).toEqual(['request', 'response']);
  });
});

describe('time limits', () => {
  it('clears the time limit of every attempt as soon as the attempt is over', async () => {
    const s = await serve(() => ({ body: accountsBody(server!.origin) }));
    const client = createClient({ origin: s.origin, timeoutMs: 45_000 });
    const started = vi.spyOn(globalThis, 'setTimeout');
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    try {
      for (let i = 0; i < 5; i++) await client.GetAccounts();
      // One timer per attempt, each cleared: a long read does not leave thousands pending.
      const limits = started.mock.results.filter((_, i) => started.mock.calls[i]![1] === 45_000).map((r) => r.value as unknown);
      expect(limits).toHaveLength(5);
      const clearedTimers = new Set(cleared.mock.calls.map((c) => c[0] as unknown));
      expect(limits.every((t) => clearedTimers.has(t))).toBe(true);
    } finally {
      started.mockRestore();
      cleared.mockRestore();
    }
  });
});
