import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/generated/v2.2/index.js';
import { pages, paginate, PaginationError, readAll } from '../src/runtime/index.js';
import { transaction, twoYearHistory } from './helpers/fixtures.js';
import { cursor, PREFIX, transactionsHandler, type PagingOptions } from './helpers/paging-server.js';
import { startServer, type TestServer } from './helpers/server.js';

const ACCOUNT = 'acc-001';
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: Omit<PagingOptions, 'origin' | 'accountId'>) {
  let origin = '';
  server = await startServer(transactionsHandler({ ...options, accountId: ACCOUNT, origin: () => origin }));
  origin = server.origin;
  const client = createClient({ origin, retry: false });
  return { client, server };
}

const records = (n: number) => Array.from({ length: n }, (_, i) => transaction(`t-${String(n - i).padStart(4, '0')}`, new Date(Date.UTC(2025, 0, 1) - i * 60_000)));
const ids = (list: Array<{ TransactionId: string }>) => list.map((t) => t.TransactionId);

describe('paginate over the three shapes of section 4.6', () => {
  it('follows Links.Next until it is absent (paginated: 7 pages of 10, last one short)', async () => {
    const all = records(65);
    const { client, server } = await serve({ records: all, pageSize: 10 });
    const got = await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } });
    expect(ids(got)).toEqual(ids(all));
    expect(server.requests).toHaveLength(7);
    // The first request carries the parameters; later ones are the links exactly as given.
    expect(server.requests[0]!.url).toBe(`${PREFIX}/accounts/${ACCOUNT}/transactions`);
    expect(server.requests.slice(1).map((r) => r.url)).toEqual([2, 3, 4, 5, 6, 7].map((p) => `${PREFIX}/accounts/${ACCOUNT}/transactions?cursor=${cursor(p)}`));
  });

  it('ends after one request for an unpaginated answer (TotalPages 1, Links.Self only)', async () => {
    const all = records(12);
    const { client, server } = await serve({ records: all, pageSize: 5, shape: 'unpaginated' });
    const got = await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } });
    expect(ids(got)).toEqual(ids(all));
    expect(server.requests).toHaveLength(1);
  });

  it('yields nothing for the empty shape (TotalPages 0, empty array) and makes one request', async () => {
    const { client, server } = await serve({ records: [], pageSize: 100 });
    const got = await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } });
    expect(got).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('pages() yields each page with its number and URL', async () => {
    const { client } = await serve({ records: records(25), pageSize: 10 });
    const seen: Array<[number, number, number]> = [];
    for await (const page of pages(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } })) {
      seen.push([page.number, page.result.body.Data.Transaction.length, page.result.body.Meta.TotalPages]);
    }
    expect(seen).toEqual([
      [1, 10, 3],
      [2, 10, 3],
      [3, 5, 3],
    ]);
  });

  it('resolves a relative Next against the URL of the page that gave it', async () => {
    const all = records(30);
    const { client, server } = await serve({ records: all, pageSize: 10, relativeLinks: true });
    // Relative links break the `uri` format of Links, so validation is off for this read.
    const got = await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } }, { call: { validate: false } });
    expect(ids(got)).toEqual(ids(all));
    expect(server.requests[2]!.url).toBe(`${PREFIX}/accounts/${ACCOUNT}/transactions?cursor=${cursor(3)}`);
  });
});

describe('paginate never loops', () => {
  it('refuses a Next that points to a page already read', async () => {
    // Page 3 points back to page 2.
    const { client, server } = await serve({
      records: records(50),
      pageSize: 10,
      next: (page, next) => (page === 3 ? `${server!.origin}${PREFIX}/accounts/${ACCOUNT}/transactions?cursor=${cursor(2)}` : next),
    });
    const got: string[] = [];
    const error = await (async () => {
      for await (const t of paginate(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } })) got.push(t.TransactionId);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as PaginationError).reason).toBe('loop');
    expect((error as PaginationError).pagesRead).toBe(3);
    expect(got).toHaveLength(30);
    expect(server.requests).toHaveLength(3);
  });

  it('refuses a Next equal to the page itself (Links.Self)', async () => {
    const { client, server } = await serve({
      records: records(20),
      pageSize: 10,
      next: (page) => (page === 1 ? `${server!.origin}${PREFIX}/accounts/${ACCOUNT}/transactions` : undefined),
    });
    await expect(readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } })).rejects.toMatchObject({ reason: 'loop' });
    expect(server.requests).toHaveLength(1);
  });

  it('stops at the page cap with a clear error', async () => {
    const { client, server } = await serve({ records: records(100), pageSize: 10 });
    const error = await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } }, { maxPages: 4 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as PaginationError).reason).toBe('page-cap');
    expect((error as Error).message).toMatch(/read 4 pages and Links.Next is still present; stopping at maxPages \(4\)/);
    expect(server.requests).toHaveLength(4);
  });

  it('refuses to follow a Next to another origin (the token would go with it)', async () => {
    const { client, server } = await serve({ records: records(20), pageSize: 10, next: (page, next) => (page === 1 ? 'https://elsewhere.example/steal?x=1' : next) });
    await expect(readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } })).rejects.toMatchObject({ reason: 'cross-origin' });
    expect(server.requests).toHaveLength(1);
  });
});

describe('reading the full history of an account', () => {
  it('returns two years of transactions exactly once each, in the order the API gives', async () => {
    const history = twoYearHistory(new Date(Date.UTC(2026, 5, 30, 12)), 3);
    expect(history).toHaveLength(2190);
    const { client, server } = await serve({ records: history, pageSize: 100 });
    const got = await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } });
    expect(got).toHaveLength(history.length);
    expect(ids(got)).toEqual(ids(history));
    expect(new Set(ids(got)).size).toBe(history.length);
    expect(server.requests).toHaveLength(22);
    // Every page request carried the headers of section 4.1 the client adds itself.
    for (const request of server.requests) expect(request.headers['x-fapi-interaction-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('readAll gives exactly what paginate yields, with a records selector and uniqueBy too', async () => {
    const all = records(30);
    const shifted = [...all.slice(0, 10), all[9]!, ...all.slice(10, 29)];
    const { client } = await serve({ records: shifted, pageSize: 10 });
    const method = client.GetAccountsAccountIdTransactions;
    const params = { path: { AccountId: ACCOUNT } };
    for (const options of [{}, { uniqueBy: (t: { TransactionId: string }) => t.TransactionId }, { records: (b: { Data: { Transaction: Array<{ TransactionId: string }> } }) => b.Data.Transaction.slice(0, 3) }]) {
      const streamed: unknown[] = [];
      for await (const record of paginate(method, params, options as never)) streamed.push(record);
      expect(await readAll(method, params, options as never)).toEqual(streamed);
    }
  });

  it('uniqueBy drops a record repeated across a page boundary (a list that shifted while read)', async () => {
    const all = records(30);
    // Page 2 repeats the last record of page 1, as a newest-first list does when a record is added mid-read.
    const shifted = [...all.slice(0, 10), all[9]!, ...all.slice(10, 29)];
    const { client } = await serve({ records: shifted, pageSize: 10 });
    const plain = await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } });
    expect(plain).toHaveLength(30);
    const unique = await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } }, { uniqueBy: (t) => t.TransactionId });
    expect(ids(unique)).toEqual(ids(all.slice(0, 29)));
  });
});
