import { describe, expect, it } from 'vitest';
import {
  InvalidPageError,
  LfiContractError,
  createPagingAdapter,
  lfiPage,
  transactionOrder,
  type LfiPageQuery,
  type OrderViolation,
} from '../../src/runtime/index.js';

const URL_ = 'https://hub.example.com/v2.2/accounts/a1/transactions?fromBookingDateTime=2025-01-01T00%3A00%3A00Z';
const wrap = (records: unknown[]) => ({ Transaction: records });
const tx = (id: string, at: string) => ({ TransactionId: id, BookingDateTime: at });

/** A fetchPage that answers `body` and remembers the query. */
function answering(body: unknown) {
  const queries: LfiPageQuery[] = [];
  return { queries, fetchPage: async (query: LfiPageQuery) => (queries.push(query), body) };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('createPagingAdapter', () => {
  const paging = createPagingAdapter();

  it('sends page, page-size and the filters, without the hub page parameter', async () => {
    const lfi = answering({ data: [], meta: { paginated: true, totalPages: 0, totalRecords: 0 } });
    await paging.page({ url: URL_, fetchPage: lfi.fetchPage, wrap });
    expect(lfi.queries[0]!.search.toString()).toBe('fromBookingDateTime=2025-01-01T00%3A00%3A00Z&page=1&page-size=100');
    const lfi2 = answering({ data: [], meta: { paginated: true, totalPages: 0, totalRecords: 0 } });
    await failure(paging.page({ url: `${URL_}&page=2&page-size=5`, fetchPage: lfi2.fetchPage, wrap }));
    expect(lfi2.queries[0]!.filters).toEqual([['fromBookingDateTime', '2025-01-01T00:00:00Z']]);
    expect(lfi2.queries[0]!.page).toBe(2);
    expect(lfi2.queries[0]!.pageSize).toBe(100);
  });

  it('builds the unpaginated shape when meta.paginated is absent or false', async () => {
    for (const meta of [{ totalPages: 1, totalRecords: 2 }, { paginated: false, totalPages: 1, totalRecords: 2 }, { paginated: false }]) {
      const lfi = answering({ data: [tx('2', '2025-01-02T00:00:00Z'), tx('1', '2025-01-01T00:00:00Z')], meta });
      const page = await paging.page({ url: URL_, fetchPage: lfi.fetchPage, wrap, order: transactionOrder });
      expect(page).toEqual({ Data: { Transaction: [tx('2', '2025-01-02T00:00:00Z'), tx('1', '2025-01-01T00:00:00Z')] }, Links: { Self: URL_ }, Meta: { TotalPages: 1 } });
    }
  });

  it('builds the empty shape (never an error) for an empty set, paginated or not', async () => {
    for (const meta of [{ paginated: true, totalPages: 0, totalRecords: 0 }, { paginated: false, totalPages: 0, totalRecords: 0 }, {}]) {
      const page = await paging.page({ url: URL_, fetchPage: answering({ data: [], meta }).fetchPage, wrap });
      expect(page).toEqual({ Data: { Transaction: [] }, Links: { Self: URL_ }, Meta: { TotalPages: 0 } });
    }
  });

  it('encodes Self of an unpaginated answer as the other links are encoded', async () => {
    const raw = 'https://hub.example.com/v2.2/accounts/a1/transactions?fromBookingDateTime=2025-01-01T00:00:00Z';
    const page = await paging.page({ url: raw, fetchPage: answering({ data: [], meta: {} }).fetchPage, wrap });
    expect(page.Links).toEqual({ Self: URL_ });
  });

  it('derives First/Prev/Next/Last from the page number and totalPages', async () => {
    const records = Array.from({ length: 250 }, (_, i) => tx(String(1000 - i), new Date(Date.UTC(2025, 0, 1) - i * 1000).toISOString()));
    const middle = `${URL_}&page=2`;
    const page = await paging.page({ url: middle, fetchPage: async (q) => lfiPage(records, q), wrap, order: transactionOrder });
    expect(page.Links).toEqual({ Self: middle, First: `${URL_}&page=1`, Prev: `${URL_}&page=1`, Next: `${URL_}&page=3`, Last: `${URL_}&page=3` });
    expect(page.Meta).toEqual({ TotalPages: 3 });
  });

  it('follows 4.7 literally for a paginated single page: First and Last, no Prev or Next', async () => {
    const page = await paging.page({ url: URL_, fetchPage: answering({ data: [tx('1', '2025-01-01T00:00:00Z')], meta: { paginated: true, totalPages: 1, totalRecords: 1 } }).fetchPage, wrap });
    expect(page.Links).toEqual({ Self: URL_, First: `${URL_}&page=1`, Last: `${URL_}&page=1` });
    expect(page.Meta.TotalPages).toBe(1);
  });

  it('carries FirstAvailableDateTime and LastAvailableDateTime through', async () => {
    const meta = { paginated: false, firstAvailableDateTime: '2023-01-01T00:00:00Z', lastAvailableDateTime: '2025-03-14T09:30:00+04:00' };
    const page = await paging.page({ url: URL_, fetchPage: answering({ data: [], meta }).fetchPage, wrap });
    expect(page.Meta).toEqual({ TotalPages: 0, FirstAvailableDateTime: '2023-01-01T00:00:00Z', LastAvailableDateTime: '2025-03-14T09:30:00+04:00' });
  });

  it('maps records through the hook after checking them', async () => {
    const renaming = createPagingAdapter({ mapRecord: (r, i) => ({ Id: (r as { TransactionId: string }).TransactionId, Position: i }) });
    const page = await renaming.page({ url: URL_, fetchPage: answering({ data: [tx('9', '2025-01-02T00:00:00Z'), tx('8', '2025-01-01T00:00:00Z')], meta: { paginated: false } }).fetchPage, wrap, order: transactionOrder });
    expect(page.Data).toEqual({ Transaction: [{ Id: '9', Position: 0 }, { Id: '8', Position: 1 }] });
  });

  it.each([
    [{ data: [] }, 'meta is missing'],
    [{ meta: { paginated: true, totalPages: 0, totalRecords: 0 } }, 'data is not an array'],
    ['nope', 'the answer is not a JSON object'],
    [{ data: [], meta: { paginated: true, totalRecords: 0 } }, 'meta.totalPages is missing'],
    [{ data: [], meta: { paginated: 'yes', totalPages: 0, totalRecords: 0 } }, 'meta.paginated must be a boolean, got "yes"'],
    [{ data: [], meta: { paginated: true, totalPages: 2, totalRecords: 250 } }, 'meta.totalPages is 2 but ceil(totalRecords 250 / page-size 100) is 3'],
    [{ data: [], meta: { paginated: true, totalPages: 1, totalRecords: 1.5 } }, 'meta.totalRecords must be a non-negative integer, got 1.5'],
    [{ data: [tx('1', '2025-01-01T00:00:00Z')], meta: { paginated: true, totalPages: 3, totalRecords: 250 } }, 'page 1 of 3 must hold 100 records (totalRecords 250, page-size 100) but holds 1'],
    [{ data: [tx('1', '2025-01-01T00:00:00Z')], meta: { paginated: false, totalRecords: 3 } }, 'meta.totalRecords is 3 but the unpaginated answer holds 1 records'],
    [{ data: [], meta: { paginated: false, firstAvailableDateTime: '2023-01-01' } }, 'meta.FirstAvailableDateTime must be a date-time, got "2023-01-01"'],
  ])('refuses an LFI answer that breaks the contract: %j', async (body, problem) => {
    const error = await failure(paging.page({ url: URL_, fetchPage: answering(body).fetchPage, wrap }));
    expect(error).toBeInstanceOf(LfiContractError);
    expect((error as LfiContractError).status).toBe(500);
    expect((error as LfiContractError).errors[0]!.code).toBe('GenericError');
    expect((error as LfiContractError).problems).toContain(problem);
  });

  it('refuses records out of order, and reports tie-break problems without failing', async () => {
    const seen: OrderViolation[][] = [];
    const watching = createPagingAdapter({ onOrderViolation: (v) => seen.push([...v]) });
    const tieBroken = answering({ data: [tx('1', '2025-01-01T04:00:00+04:00'), tx('2', '2025-01-01T00:00:00Z')], meta: { paginated: false } });
    const page = await watching.page({ url: URL_, fetchPage: tieBroken.fetchPage, wrap, order: transactionOrder });
    expect(page.Data.Transaction.length).toBe(2);
    expect(seen.flat().map((v) => v.level)).toEqual(['should']);

    const strict = createPagingAdapter({ strictTieBreak: true });
    await expect(strict.page({ url: URL_, fetchPage: tieBroken.fetchPage, wrap, order: transactionOrder })).rejects.toBeInstanceOf(LfiContractError);

    const wrongOrder = answering({ data: [tx('1', '2025-01-01T00:00:00Z'), tx('2', '2025-01-02T00:00:00Z')], meta: { paginated: false } });
    const error = await failure(paging.page({ url: URL_, fetchPage: wrongOrder.fetchPage, wrap, order: transactionOrder }));
    expect((error as LfiContractError).violations.map((v) => v.level)).toEqual(['must']);
  });

  it.each([
    ['page=0', 'page must be a positive integer, got "0"'],
    ['page=2.0', 'page must be a positive integer, got "2.0"'],
    ['page=x', 'page must be a positive integer, got "x"'],
    ['page=1&page=2', 'page is given 2 times'],
  ])('refuses %s before asking the LFI', async (query, message) => {
    const lfi = answering({ data: [], meta: {} });
    const error = await failure(paging.page({ url: `${URL_}&${query}`, fetchPage: lfi.fetchPage, wrap }));
    expect(error).toBeInstanceOf(InvalidPageError);
    expect((error as InvalidPageError).errors).toEqual([{ code: 'Resource.InvalidFormat', message, path: 'page' }]);
    expect(lfi.queries).toEqual([]);
  });

  it('refuses a page beyond the last as the client error it is', async () => {
    const error = await failure(paging.page({ url: `${URL_}&page=5`, fetchPage: answering({ data: [], meta: { paginated: true, totalPages: 3, totalRecords: 300 } }).fetchPage, wrap }));
    expect(error).toBeInstanceOf(InvalidPageError);
    expect(error.message).toBe('page 5 is beyond the last page (3)');
    const unpaginated = await failure(paging.page({ url: `${URL_}&page=2`, fetchPage: answering({ data: [1], meta: {} }).fetchPage, wrap }));
    expect(unpaginated.message).toBe('page 2 is beyond the last page (1)');
    const empty = await failure(paging.page({ url: `${URL_}&page=2`, fetchPage: answering({ data: [], meta: { paginated: true, totalPages: 0, totalRecords: 0 } }).fetchPage, wrap }));
    expect(empty.message).toBe('page 2 is beyond the last page (0)');
  });

  it('uses the configured page size and page parameter name', async () => {
    const small = createPagingAdapter({ pageSize: 2, pageParam: 'p' });
    const records = [tx('3', '2025-01-03T00:00:00Z'), tx('2', '2025-01-02T00:00:00Z'), tx('1', '2025-01-01T00:00:00Z')];
    const page = await small.page({ url: `${URL_}&p=2`, fetchPage: async (q) => lfiPage(records, q), wrap, order: transactionOrder });
    expect(page.Data.Transaction).toEqual([records[2]]);
    expect(page.Links).toEqual({ Self: `${URL_}&p=2`, First: `${URL_}&p=1`, Prev: `${URL_}&p=1`, Last: `${URL_}&p=2` });
    expect(() => createPagingAdapter({ pageSize: 0 })).toThrow(RangeError);
  });
});

describe('LFI error statuses seen by the TPP', () => {
  it('carries 400, 403, 404 and 429 over, makes gateway failures recoverable and the rest a 500', async () => {
    const { LfiResponseError } = await import('../../src/runtime/paging/errors.js');
    const answer = (status: number, retryAfter?: number) => {
      const error = new LfiResponseError(status, undefined, retryAfter);
      return [error.status, error.errors[0]!.code, error.retryAfter];
    };
    expect(answer(400)).toStrictEqual([400, 'Resource.InvalidFormat', undefined]);
    expect(answer(403)).toStrictEqual([403, 'Consent.PermanentAccountAccessFailure', undefined]);
    expect(answer(404)).toStrictEqual([404, 'Resource.NotFound', undefined]);
    expect(answer(429, 7)).toStrictEqual([429, 'Request.TooManyRequests', 7]);
    expect(answer(503)).toStrictEqual([500, 'GenericRecoverableError', undefined]);
    expect(answer(418)).toStrictEqual([500, 'GenericError', undefined]);
  });
});
