import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/generated/v2.2/index.js';
import { ApiError, backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, readAll, sleep, type ClientEvent } from '../src/runtime/index.js';
import { transaction } from './helpers/fixtures.js';
import { PREFIX, transactionsHandler } from './helpers/paging-server.js';
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

const accounts = () => ({ Data: { Account: [{ AccountId: 'acc-1' }] }, Links: { Self: `${server!.origin}${PREFIX}/accounts` }, Meta: { TotalPages: 1 } });
const recoverable = { status: 500, body: { Errors: [{ Code: 'GenericRecoverableError', Message: 'try again' }] } };

describe('429 Too Many Requests', () => {
  it('waits Retry-After seconds, then repeats the call', async () => {
    const s = await serve((_, i) => (i < 2 ? { status: 429, headers: { 'retry-after': String(i + 1) } } : { body: accounts() }));
    const { waits, sleep } = recordingSleep();
    const client = createClient({ origin: s.origin, sleep });
    const result = await client.GetAccounts();
    expect(result.status).toBe(200);
    expect(waits).toEqual([1000, 2000]);
    expect(s.requests).toHaveLength(3);
  });

  it('gives up after a bounded number of 429s with the last ApiError', async () => {
    const s = await serve(() => ({ status: 429, headers: { 'retry-after': '1' } }));
    const { waits, sleep } = recordingSleep();
    const client = createClient({ origin: s.origin, sleep, retry: { maxRateLimitRetries: 2 } });
    const error = (await client.GetAccounts().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBe(1);
    expect(waits).toEqual([1000, 1000]);
    expect(s.requests).toHaveLength(3);
  });

  it('retries a 429 of a POST too: the server did not process it', async () => {
    const s = await serve((_, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '0' } } : { status: 204 }));
    const { sleep } = recordingSleep();
    const client = createClient({ origin: s.origin, sleep });
    const result = await client.PatchAccountAccessConsentsConsentId({ path: { ConsentId: 'c' }, body: {} });
    expect(result.status).toBe(204);
    expect(s.requests).toHaveLength(2);
  });

  it('honours the abort signal while waiting (real sleep, long Retry-After)', async () => {
    const s = await serve(() => ({ status: 429, headers: { 'retry-after': '30' } }));
    const controller = new AbortController();
    // Abort just after the client starts its 30 s wait.
    const onEvent = (e: ClientEvent) => {
      if (e.type === 'retry') setTimeout(() => controller.abort(new Error('caller gave up')), 0);
    };
    const client = createClient({ origin: s.origin, onEvent });
    await expect(client.GetAccounts(undefined, { signal: controller.signal })).rejects.toThrow('caller gave up');
    expect(s.requests).toHaveLength(1);
  });

  it('waits a backoff when a 429 has no Retry-After', async () => {
    const s = await serve((_, i) => (i === 0 ? { status: 429 } : { body: accounts() }));
    const { waits, sleep } = recordingSleep();
    const client = createClient({ origin: s.origin, sleep, random: () => 0.5 });
    await client.GetAccounts();
    expect(waits).toEqual([188]);
  });
});

describe('other retryable failures', () => {
  it('retries a GET after 500 GenericRecoverableError, with backoff', async () => {
    const s = await serve((_, i) => (i < 2 ? recoverable : { body: accounts() }));
    const { waits, sleep } = recordingSleep();
    const client = createClient({ origin: s.origin, sleep, random: () => 1 });
    expect((await client.GetAccounts()).status).toBe(200);
    expect(waits).toEqual([250, 500]);
  });

  it('does not retry 500 GenericError (not recoverable)', async () => {
    const s = await serve(() => ({ status: 500, body: { Errors: [{ Code: 'GenericError', Message: 'no' }] } }));
    const { sleep } = recordingSleep();
    const client = createClient({ origin: s.origin, sleep });
    await expect(client.GetAccounts()).rejects.toMatchObject({ status: 500, errors: [{ Code: 'GenericError', Message: 'no' }] });
    expect(s.requests).toHaveLength(1);
  });

  it('never repeats a PATCH after a 500, even a recoverable one (not safe to repeat)', async () => {
    const s = await serve(() => recoverable);
    const { sleep } = recordingSleep();
    const client = createClient({ origin: s.origin, sleep });
    await expect(client.PatchAccountAccessConsentsConsentId({ path: { ConsentId: 'c' }, body: {} })).rejects.toMatchObject({ status: 500 });
    expect(s.requests).toHaveLength(1);
  });

  it('retries a GET after a network failure, a bounded number of times', async () => {
    const s = await serve(() => ({ destroy: true }));
    const { waits, sleep } = recordingSleep();
    const client = createClient({ origin: s.origin, sleep, retry: { maxRetries: 3 }, random: () => 0 });
    await expect(client.GetAccounts()).rejects.toThrow(/request to .* failed/);
    expect(s.requests).toHaveLength(4);
    expect(waits).toEqual([125, 250, 500]);
  });

  it('a retried page keeps the paged read exact', async () => {
    const all = Array.from({ length: 30 }, (_, i) => transaction(`t${30 - i}`, new Date(Date.UTC(2025, 0, 1) - i * 1000)));
    let origin = '';
    let failedOnce = false;
    const s = await serve(
      transactionsHandler({
        origin: () => origin,
        accountId: 'a',
        records: all,
        pageSize: 10,
        before: (r) => {
          if (r.url.includes('cursor') && !failedOnce) {
            failedOnce = true;
            return recoverable;
          }
          return undefined;
        },
      }),
    );
    origin = s.origin;
    const { sleep } = recordingSleep();
    const client = createClient({ origin, sleep });
    const got = await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: 'a' } });
    expect(got.map((t) => t.TransactionId)).toEqual(all.map((t) => t.TransactionId));
    expect(s.requests).toHaveLength(4);
  });
});

describe('retry arithmetic', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('7', 0)).toBe(7);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:30 GMT', 10_000)).toBe(20);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    // Date.parse reads these as dates in 2001, which read as "retry now".
    for (const garbage of ['soon 7', '-5', '1 2', 'Infinity']) expect(parseRetryAfter(garbage, Date.now()), garbage).toBeUndefined();
    expect(String(parseRetryAfter('99999999999999999999999', 0))).toMatch(/^\d+$/);
    expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', Date.UTC(1994, 10, 6, 8, 49, 7))).toBe(30);
    expect(parseRetryAfter('Sun Nov  6 08:49:37 1994', Date.UTC(1994, 10, 6, 8, 49, 7))).toBe(30);
    expect(parseRetryAfter(null, 0)).toBeUndefined();
  });

  it('caps the backoff and keeps jitter inside [ceiling/2, ceiling]', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(1, policy, () => 0)).toBe(50);
    expect(backoffDelay(1, policy, () => 1)).toBe(100);
    expect(backoffDelay(3, policy, () => 1)).toBe(400);
    expect(backoffDelay(10, policy, () => 1)).toBe(1000);
    expect(backoffDelay(10, policy, () => 0)).toBe(500);
  });

  it('sleep rejects at once on an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(sleep(10_000, controller.signal)).rejects.toThrow('stop');
  });
});
