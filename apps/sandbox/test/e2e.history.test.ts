/**
 * Two years of history through the whole chain: client → hub (paging adapter) → LFI over
 * HTTP. Every record arrives exactly once and in the order of section 4.5; the filters of
 * section 4.4 narrow the set, bounds included, down to the empty result.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pages, readAll } from '@bank-data-sharing/client/runtime';
import type { Transaction } from '@bank-data-sharing/validators/v2.2';
import { expectApiError, startE2E, type E2E } from './e2e.fixtures.js';

let e2e: E2E;
beforeAll(async () => {
  // The default history (2 years, ~3 entries a day), for one customer to keep the run short.
  e2e = await startE2E({ data: { seed: 11, customers: 1, years: 2, perDay: 3 } });
});
afterAll(async () => {
  await e2e?.close();
});
afterEach(() => e2e.expectWireClean());

/**
 * Microseconds since the epoch of an RFC 3339 date-time: the test's own reading, so that the
 * expected order does not come from the code under test.
 */
function epochMicros(text: string): number {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (match === null) throw new Error(`not a date-time the test can read: ${text}`);
  const [, whole, fraction = '', offset] = match;
  return Date.parse(`${whole}${offset === 'Z' ? 'Z' : offset}`) * 1000 + Number(fraction.padEnd(6, '0'));
}

/** The account's transactions, newest first, ties by TransactionId descending (section 4.5). */
function expectedOrder(records: readonly Transaction[]): Transaction[] {
  return [...records].sort(
    (a, b) => epochMicros(b.BookingDateTime) - epochMicros(a.BookingDateTime) || (a.TransactionId < b.TransactionId ? 1 : a.TransactionId > b.TransactionId ? -1 : 0),
  );
}

function firstAccount() {
  const data = e2e.sandbox.stores['v2.2'];
  const accountId = e2e.sandbox.seeded.consent.accountIds[0]!;
  const records = data.list('transactions', { accountId, pageSize: 1_000_000 }).data;
  return { accountId, records };
}

describe('a two-year transaction history through the hub', () => {
  it('arrives exactly once, in order, page by page with correct links', async () => {
    const { accountId, records } = firstAccount();
    const expected = expectedOrder(records);
    const oldest = expected.at(-1)!.BookingDateTime;
    const newest = expected[0]!.BookingDateTime;
    // At least two years between the oldest and the newest record (section 8, limit 3).
    expect(epochMicros(newest) - epochMicros(oldest)).toBeGreaterThanOrEqual(2 * 365 * 86_400 * 1e6 - 31 * 86_400 * 1e6);

    const client = e2e.clients()['v2.2'];
    const received: Transaction[] = [];
    let count = 0;
    const totalPages = Math.ceil(expected.length / 100);
    for await (const page of pages(client.GetAccountsAccountIdTransactions, { path: { AccountId: accountId } })) {
      count += 1;
      const { Links, Meta, Data } = page.result.body;
      expect(Data.AccountId).toBe(accountId);
      expect(Meta).toEqual({ TotalPages: totalPages, FirstAvailableDateTime: oldest, LastAvailableDateTime: newest });
      expect(Links.First).toBeDefined();
      expect(Links.Last).toBeDefined();
      expect(Links.Prev === undefined).toBe(count === 1);
      expect(Links.Next === undefined).toBe(count === totalPages);
      received.push(...Data.Transaction);
    }
    expect(count).toBe(totalPages);
    expect(received.length).toBe(expected.length);
    expect(new Set(received.map((t) => t.TransactionId)).size).toBe(expected.length);
    expect(received.map((t) => t.TransactionId)).toEqual(expected.map((t) => t.TransactionId));
    expect(received).toEqual(expected);
  });

  it('fromBookingDateTime and toBookingDateTime narrow the set, both bounds included, whatever the offset', async () => {
    const { accountId, records } = firstAccount();
    const expected = expectedOrder(records);
    const client = e2e.clients()['v2.2'];
    const read = (query: { fromBookingDateTime?: string; toBookingDateTime?: string }) =>
      readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: accountId }, query });
    const within = (from?: string, to?: string) =>
      expected.filter((t) => {
        const at = epochMicros(t.BookingDateTime);
        return (from === undefined || at >= epochMicros(from)) && (to === undefined || at <= epochMicros(to));
      });

    // Bounds equal to records' own times: both records are in the result.
    const from = expected[900]!.BookingDateTime;
    const to = expected[150]!.BookingDateTime;
    const both = await read({ fromBookingDateTime: from, toBookingDateTime: to });
    expect(both).toEqual(within(from, to));
    expect(both[0]?.TransactionId).toBe(expected[150]!.TransactionId);
    expect(both.at(-1)?.TransactionId).toBe(expected[900]!.TransactionId);

    // One instant written with another offset selects the same records.
    const midnightDubai = '2024-07-01T04:00:00+04:00';
    expect(await read({ fromBookingDateTime: midnightDubai })).toEqual(within('2024-07-01T00:00:00Z'));
    expect(await read({ toBookingDateTime: '2024-01-31T19:00:00-05:00' })).toEqual(within(undefined, '2024-02-01T00:00:00Z'));
  });

  it('an empty result is 200 with no records, TotalPages 0 and Self only', async () => {
    const { accountId } = firstAccount();
    const client = e2e.clients()['v2.2'];
    for (const query of [{ fromBookingDateTime: '2031-01-01T00:00:00Z' }, { fromBookingDateTime: '2024-06-01T00:00:00Z', toBookingDateTime: '2024-05-01T00:00:00Z' }]) {
      const { status, body } = await client.GetAccountsAccountIdTransactions({ path: { AccountId: accountId }, query });
      expect(status).toBe(200);
      expect(body.Data.Transaction).toEqual([]);
      expect(body.Meta.TotalPages).toBe(0);
      expect(Object.keys(body.Links)).toEqual(['Self']);
    }
  });

  it('fromStatementDate and toStatementDate narrow statements on OpeningDate, newest first', async () => {
    const { accountId } = firstAccount();
    const client = e2e.clients()['v2.1'];
    const all = e2e.sandbox.stores['v2.1'].list('statements', { accountId, pageSize: 1_000_000 }).data;
    expect(all.length).toBeGreaterThanOrEqual(24);
    const read = (query: { fromStatementDate?: string; toStatementDate?: string }) =>
      readAll(client.GetAccountAccountIdStatements, { path: { AccountId: accountId }, query }, { records: (body) => body.Data.Statements });

    const everything = await read({});
    expect(everything.map((s) => s.OpeningDate)).toEqual(all.map((s) => s.OpeningDate).sort().reverse());
    const from = all[10]!.OpeningDate;
    const to = all[3]!.OpeningDate;
    const narrowed = await read({ fromStatementDate: from, toStatementDate: to });
    expect(narrowed.map((s) => s.StatementId)).toEqual(everything.filter((s) => s.OpeningDate >= from && s.OpeningDate <= to).map((s) => s.StatementId));
    expect(narrowed.length).toBe(8);
    expect(await read({ fromStatementDate: '2031-01-01' })).toEqual([]);
    const empty = await client.GetAccountAccountIdStatements({ path: { AccountId: accountId }, query: { toStatementDate: '2001-01-01' } });
    expect(empty.body.Meta.TotalPages).toBe(0);
    expect(Object.keys(empty.body.Links)).toEqual(['Self']);
  });

  it('refuses a malformed filter and a page that does not exist', async () => {
    const { accountId } = firstAccount();
    const url = `${e2e.sandbox.baseUrls['v2.2']}/accounts/${accountId}/transactions`;
    const headers = { authorization: `Bearer ${e2e.sandbox.seeded.token.accessToken}` };
    const bad = await e2e.wire.fetch(`${url}?fromBookingDateTime=yesterday`, { headers });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { Errors: { Code: string }[] }).Errors[0]?.Code).toBe('Resource.InvalidFormat');
    const beyond = await e2e.wire.fetch(`${url}?page=999`, { headers });
    expect(beyond.status).toBe(400);
    await expectApiError(
      e2e.clients()['v2.2'].GetAccountsAccountIdTransactions.follow(`${url}?page=0`),
      400,
      'Resource.InvalidFormat',
    );
  });
});
