/**
 * The hub paging adapter end to end: a TPP pages through the hub (generated v2.2 router),
 * which asks the LFI (generated hub-to-LFI router) for one page per call, over loopback.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_ID, statement, transaction, transactions } from './helpers/fixtures.js';
import { send } from './helpers/http.js';
import { newLfiData, startHubAndLfi, type HubAndLfi } from './helpers/hub.js';
import { testKeys } from './helpers/keys.js';

interface TransactionsPage {
  Data: { AccountId: string; Transaction: Array<{ TransactionId: string; BookingDateTime: string }> };
  Links: { Self: string; First?: string; Prev?: string; Next?: string; Last?: string };
  Meta: { TotalPages: number };
}

const data = newLfiData();
let env: HubAndLfi;
const headers = { authorization: 'Bearer user' };

beforeAll(async () => {
  env = await startHubAndLfi(data, await testKeys());
});
afterAll(() => env.close());
beforeEach(() => {
  data.transactions = [];
  data.statements = [];
  data.order = 'instant';
  data.requests = [];
});

/** Follows `Links.Next` from `first` until it is absent (at most `cap` pages). */
async function followAll(first: string, cap: number): Promise<TransactionsPage[]> {
  const pages: TransactionsPage[] = [];
  let url: string | undefined = first;
  while (url !== undefined) {
    if (pages.length >= cap) throw new Error(`more than ${cap} pages`);
    const reply = await send(url, { headers });
    expect(reply.status, reply.text).toBe(200);
    const page = reply.json() as TransactionsPage;
    expect(page.Links.Self).toBe(url);
    pages.push(page);
    url = page.Links.Next;
  }
  return pages;
}

describe.each([0, 1, 100, 101, 1000])('%i transactions', (count) => {
  it('pages through all of them in order, one LFI request per page, with links as section 4.7 derives them', async () => {
    data.transactions = transactions(count);
    const first = `${env.base}/accounts/${ACCOUNT_ID}/transactions`;
    const expectedPages = Math.ceil(count / 100);
    const pages = await followAll(first, expectedPages + 1);

    expect(pages.length).toBe(Math.max(expectedPages, 1));
    expect(data.requests.length).toBe(pages.length);
    const ids = pages.flatMap((p) => p.Data.Transaction.map((t) => t.TransactionId));
    expect(ids).toEqual(transactions(count).map((t) => t.TransactionId));

    if (count === 0) {
      // The empty shape: 200, empty list, TotalPages 0, Self only (never 404).
      expect(pages[0]).toEqual({ Data: { AccountId: ACCOUNT_ID, Transaction: [] }, Links: { Self: first }, Meta: { TotalPages: 0 } });
      return;
    }
    pages.forEach((page, i) => {
      const n = i + 1;
      expect(page.Meta).toEqual({ TotalPages: expectedPages });
      expect(page.Data.Transaction.length).toBe(n < expectedPages ? 100 : count - (expectedPages - 1) * 100);
      expect(Object.keys(page.Links).sort()).toEqual(
        ['Self', 'First', 'Last', ...(n > 1 ? ['Prev'] : []), ...(n < expectedPages ? ['Next'] : [])].sort(),
      );
      expect(page.Links.First).toBe(`${first}?page=1`);
      expect(page.Links.Last).toBe(`${first}?page=${expectedPages}`);
      if (n > 1) expect(page.Links.Prev).toBe(`${first}?page=${n - 1}`);
    });
    expect(data.requests).toEqual(pages.map((_, i) => `?page=${i + 1}&page-size=100`));
  });
});

it('keeps the filters in every link, and sends them to the LFI with each page', async () => {
  data.transactions = transactions(250);
  // Keeps the 150 newest (one an hour back from 2025-03-14T12:00Z): booked at or after 2025-03-08T07:00:00Z, given in +04:00.
  const from = '2025-03-08T11:00:00+04:00';
  const first = `${env.base}/accounts/${ACCOUNT_ID}/transactions?fromBookingDateTime=${encodeURIComponent(from)}`;
  const pages = await followAll(first, 5);
  expect(pages.map((p) => p.Data.Transaction.length)).toEqual([100, 50]);
  expect(pages[0]!.Links.Next).toBe(`${first}&page=2`);
  expect(pages[1]!.Links.Prev).toBe(`${first}&page=1`);
  expect(data.requests).toEqual([
    `?fromBookingDateTime=${encodeURIComponent(from)}&page=1&page-size=100`,
    `?fromBookingDateTime=${encodeURIComponent(from)}&page=2&page-size=100`,
  ]);
  const oldest = pages[1]!.Data.Transaction.at(-1)!;
  expect(oldest.BookingDateTime).toBe('2025-03-08T07:00:00Z');
});

it('sorts mixed offset encodings by instant and accepts them', async () => {
  data.transactions = [
    transaction('a', '2025-01-01T03:30:00+04:00'), // 2024-12-31T23:30Z
    transaction('b', '2024-12-31T23:45:00Z'),
    transaction('c', '2025-01-01T01:00:00+04:00'), // 2024-12-31T21:00Z
    transaction('d', '2025-01-01T00:00:00Z'),
    transaction('e', '2025-01-01T04:00:00+04:00'), // the same instant as d
    transaction('f', '2024-12-31T23:45:00.5Z'),
  ];
  const [page] = await followAll(`${env.base}/accounts/${ACCOUNT_ID}/transactions`, 2);
  expect(page!.Data.Transaction.map((t) => t.TransactionId)).toEqual(['e', 'd', 'f', 'b', 'a', 'c']);
});

it('refuses an LFI page ordered by text instead of by instant, with a clear error', async () => {
  data.order = 'text';
  data.transactions = [transaction('a', '2025-01-01T03:30:00+04:00'), transaction('b', '2024-12-31T23:45:00Z')];
  const reply = await send(`${env.base}/accounts/${ACCOUNT_ID}/transactions`, { headers });
  expect(reply.status).toBe(500);
  expect(reply.json()).toEqual({
    Errors: [
      {
        Code: 'GenericError',
        Message:
          "The institution's answer breaks the paging contract: record 1: BookingDateTime 2024-12-31T23:45:00Z is later than 2025-01-01T03:30:00+04:00 before it (newest first is required)",
      },
    ],
  });
});

it('answers a page beyond the last, or a page that is not a positive integer, with 400', async () => {
  data.transactions = transactions(250);
  const base = `${env.base}/accounts/${ACCOUNT_ID}/transactions`;
  const beyond = await send(`${base}?page=4`, { headers });
  expect(beyond.status).toBe(400);
  expect(beyond.json()).toEqual({ Errors: [{ Code: 'Resource.InvalidFormat', Message: 'page 4 is beyond the last page (3)', Path: 'page' }] });
  for (const bad of ['abc', '0', '1.5', '-1', '99999999999']) {
    const reply = await send(`${base}?page=${bad}`, { headers });
    expect(reply.status).toBe(400);
    expect((reply.json() as { Errors: Array<{ Path: string }> }).Errors[0]!.Path).toBe('page');
  }
  expect((await send(`${base}?page=1&page=2`, { headers })).status).toBe(400);
});

it('pages statements by OpeningDate, newest first', async () => {
  data.statements = Array.from({ length: 101 }, (_, i) => statement(`s${String(i).padStart(3, '0')}`, new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10)));
  const first = `${env.base}/accounts/${ACCOUNT_ID}/statements`;
  const replies: Array<{ Data: { Statements: Array<{ StatementId: string }> }; Links: { Next?: string }; Meta: { TotalPages: number } }> = [];
  let url: string | undefined = first;
  for (let i = 0; url !== undefined && i < 5; i++) {
    const reply = await send(url, { headers });
    expect(reply.status, reply.text).toBe(200);
    const page = reply.json() as (typeof replies)[number];
    replies.push(page);
    url = page.Links.Next;
  }
  expect(replies.map((r) => r.Data.Statements.length)).toEqual([100, 1]);
  expect(replies[0]!.Meta.TotalPages).toBe(2);
  expect(replies[0]!.Data.Statements[0]!.StatementId).toBe('s100');
  expect(replies[1]!.Data.Statements[0]!.StatementId).toBe('s000');
});
