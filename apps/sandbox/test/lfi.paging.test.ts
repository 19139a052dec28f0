import { describe, expect, it } from 'vitest';
import { LfiStoreError } from '../src/lfi/errors.js';
import { paginate, type PagingMode } from '../src/lfi/paging.js';
import { createLfiStore } from '../src/lfi/store.js';
import { denseData, withTransactions } from './fixtures.js';

const SIZES = [0, 1, 100, 101, 1000] as const;

/** Reads every page the way the hub does, and returns the pages. */
function allPages<T>(read: (page: number) => { data: T[]; meta: { paginated: boolean; totalPages: number; totalRecords: number } }) {
  const first = read(1);
  const pages = [first];
  for (let page = 2; page <= first.meta.totalPages; page++) pages.push(read(page));
  return pages;
}

describe.each(['always', 'optional'] as const)('paginate (%s)', (mode: PagingMode) => {
  it.each(SIZES)('covers %i records with page-size 100: right counts, each record once, in order', (n) => {
    const records = Array.from({ length: n }, (_, i) => i);
    const pages = allPages((page) => paginate(records, page, 100, mode));
    const totalPages = Math.ceil(n / 100);
    for (const page of pages) {
      expect(page.meta.totalRecords).toBe(n);
      expect(page.meta.totalPages).toBe(n === 0 ? 0 : totalPages);
    }
    const seen = pages.flatMap((p) => p.data);
    expect(seen).toEqual(records);
    expect(new Set(seen).size).toBe(n);
    if (n === 0) expect(pages[0]).toEqual({ data: [], meta: { paginated: true, totalPages: 0, totalRecords: 0 } });
    const unpaginated = mode === 'optional' && n > 0 && n <= 100;
    expect(pages[0]?.meta.paginated).toBe(!unpaginated);
    pages.slice(0, -1).forEach((p) => expect(p.data).toHaveLength(100));
  });

  it('refuses a page beyond the last and malformed paging values', () => {
    expect(() => paginate([1, 2, 3], 2, 3, mode)).toThrow(LfiStoreError);
    expect(() => paginate([], 2, 100, mode)).toThrow(/beyond the last page/);
    for (const [page, size] of [[0, 10], [1, 0], [1.5, 10], [1, Number.NaN]] as const) {
      try {
        paginate([1], page, size, mode);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(LfiStoreError);
        expect((error as LfiStoreError).reason).toBe('InvalidPaging');
        expect((error as LfiStoreError).status).toBe(400);
      }
    }
  });
});

describe('store transactions across 0, 1, 100, 101 and 1000 records', () => {
  const dense = denseData();

  it('has enough records for the largest case', () => {
    expect(dense.customers[0]?.accounts[0]?.transactions.length).toBeGreaterThanOrEqual(1000);
  });

  it.each(SIZES)('%i transactions: totalPages = ceil(total / page-size), every record exactly once', (n) => {
    const data = withTransactions(dense, n);
    const store = createLfiStore(data);
    const accountId = data.customers[0]!.accounts[0]!.account.AccountId;
    for (const pageSize of [100, 7]) {
      const pages = allPages((page) => store.list('transactions', { accountId, page, pageSize }));
      expect(pages[0]?.meta).toEqual({ paginated: true, totalPages: Math.ceil(n / pageSize), totalRecords: n });
      const ids = pages.flatMap((p) => p.data.map((t) => t.TransactionId));
      expect(ids).toHaveLength(n);
      expect(new Set(ids).size).toBe(n);
      expect([...ids].sort()).toEqual(data.customers[0]!.accounts[0]!.transactions.map((t) => t.TransactionId).sort());
    }
  });

  it('uses page-size 100 by default and answers a page beyond the last with a clear error', () => {
    const data = withTransactions(dense, 250);
    const store = createLfiStore(data);
    const accountId = data.customers[0]!.accounts[0]!.account.AccountId;
    expect(store.list('transactions', { accountId }).data).toHaveLength(100);
    expect(store.list('transactions', { accountId, page: 3 }).data).toHaveLength(50);
    try {
      store.list('transactions', { accountId, page: 4 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(LfiStoreError);
      const e = error as LfiStoreError;
      expect(e.reason).toBe('PageOutOfRange');
      expect(e.status).toBe(400);
      expect(e.toLfiError()).toEqual({ errorCode: 'Paging.PageOutOfRange', errorMessage: e.message });
    }
  });
});
