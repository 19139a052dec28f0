import { describe, expect, it } from 'vitest';
import { formatInstant, requireInstant } from '../src/data/datetime.js';
import { LfiStoreError } from '../src/lfi/errors.js';
import { createLfiStore } from '../src/lfi/store.js';
import type { TransactionOf } from '../src/data/types.js';
import { platformMs, smallData, withAccount } from './fixtures.js';

describe('filters (section 4.4), applied before paging', () => {
  const data = smallData('v2.2');
  const store = createLfiStore(data);
  const entry = data.customers[0]!.accounts[0]!;
  const accountId = entry.account.AccountId;
  const all = entry.transactions;

  /** Every matching transaction id, over all pages. */
  const ids = (filters: Record<string, string>, pageSize = 50) => {
    const first = store.list('transactions', { accountId, filters, pageSize });
    const data = [...first.data];
    for (let page = 2; page <= first.meta.totalPages; page++) data.push(...store.list('transactions', { accountId, filters, page, pageSize }).data);
    return { ids: data.map((t) => t.TransactionId), meta: first.meta };
  };

  it('narrows transactions to an inclusive booking window, compared as instants in any encoding', () => {
    const sorted = [...all].sort((a, b) => platformMs(a.BookingDateTime) - platformMs(b.BookingDateTime));
    const lo = sorted[Math.floor(sorted.length / 3)]!;
    const hi = sorted[Math.floor((2 * sorted.length) / 3)]!;
    // Re-encode the bounds in offsets other than the records use: only the instant counts.
    const loMs = platformMs(lo.BookingDateTime);
    const hiMs = platformMs(hi.BookingDateTime);
    const from = formatInstant(loMs, '-05:00', loMs % 1000 === 0 ? 0 : 3);
    const to = formatInstant(hiMs, '+04:00', hiMs % 1000 === 0 ? 0 : 6);
    const expected = all.filter((t) => platformMs(t.BookingDateTime) >= loMs && platformMs(t.BookingDateTime) <= hiMs).map((t) => t.TransactionId);
    const result = ids({ fromBookingDateTime: from, toBookingDateTime: to });
    expect(result.ids.sort()).toEqual(expected.sort());
    expect(result.ids).toContain(lo.TransactionId);
    expect(result.ids).toContain(hi.TransactionId);
    expect(result.meta.totalRecords).toBe(expected.length);
    expect(result.meta.totalPages).toBe(Math.ceil(expected.length / 50));
    expect(expected.length).toBeLessThan(all.length);
  });

  it('compares bounds to the fraction of a second, whatever the offsets', () => {
    const template = all[0]!;
    const make = (id: string, booking: string): TransactionOf<'v2.2'> => ({ ...template, TransactionId: id, BookingDateTime: booking });
    const crafted = withAccount(data, () => ({
      transactions: [
        make('txn-1', '2025-03-01T10:00:00.1Z'),
        make('txn-2', '2025-03-01T14:00:00.500+04:00'), // 10:00:00.5Z
        make('txn-3', '2025-03-01T05:00:00.900000-05:00'), // 10:00:00.9Z
        make('txn-4', '2025-03-01T10:00:01+00:00'),
      ],
    }));
    const craftedStore = createLfiStore(crafted);
    const pick = (filters: Record<string, string>) =>
      craftedStore.list('transactions', { accountId, filters }).data.map((t) => t.TransactionId);
    expect(pick({ fromBookingDateTime: '2025-03-01T10:00:00.5Z' })).toEqual(['txn-4', 'txn-3', 'txn-2']);
    expect(pick({ fromBookingDateTime: '2025-03-01T10:00:00.500001Z' })).toEqual(['txn-4', 'txn-3']);
    expect(pick({ toBookingDateTime: '2025-03-01T14:00:00.9+04:00' })).toEqual(['txn-3', 'txn-2', 'txn-1']);
    expect(pick({ fromBookingDateTime: '2025-03-01T06:00:00.2-04:00', toBookingDateTime: '2025-03-01T10:00:00.95Z' })).toEqual(['txn-3', 'txn-2']);
  });

  it('accepts open-ended windows', () => {
    const mid = all[Math.floor(all.length / 2)]!.BookingDateTime;
    const midMs = platformMs(mid);
    expect(ids({ fromBookingDateTime: mid }).ids.length).toBe(all.filter((t) => platformMs(t.BookingDateTime) >= midMs).length);
    expect(ids({ toBookingDateTime: mid }).ids.length).toBe(all.filter((t) => platformMs(t.BookingDateTime) <= midMs).length);
  });

  it('answers a window with no transactions as an empty set, not an error', () => {
    expect(store.list('transactions', { accountId, filters: { toBookingDateTime: '2001-01-01T00:00:00Z' } })).toEqual({
      data: [],
      meta: { paginated: true, totalPages: 0, totalRecords: 0 },
    });
    // A window whose bounds are crossed is empty as well.
    expect(store.list('transactions', { accountId, filters: { fromBookingDateTime: data.asOf, toBookingDateTime: '2020-01-01T00:00:00+04:00' } }).meta.totalRecords).toBe(0);
  });

  it('narrows statements on OpeningDate, inclusive', () => {
    const statements = entry.statements;
    expect(statements.length).toBeGreaterThanOrEqual(3);
    const second = statements[1]!.OpeningDate;
    const third = statements[2]!.OpeningDate;
    const page = store.list('statements', { accountId, filters: { fromStatementDate: second, toStatementDate: third } });
    expect(page.data.map((s) => s.OpeningDate)).toEqual([third, second]);
    expect(page.meta).toEqual({ paginated: true, totalPages: 1, totalRecords: 2 });
    expect(store.list('statements', { accountId, filters: { fromStatementDate: '2099-01-01' } }).meta.totalPages).toBe(0);
  });

  it('refuses malformed filter values with InvalidFilter (400)', () => {
    for (const filters of [{ fromBookingDateTime: 'yesterday' }, { toBookingDateTime: '2025-01-01T00:00:00' }, { fromStatementDate: '2025-02-30' }]) {
      try {
        store.list(filters.fromStatementDate === undefined ? 'transactions' : 'statements', { accountId, filters });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(LfiStoreError);
        expect((error as LfiStoreError).reason).toBe('InvalidFilter');
        expect((error as LfiStoreError).status).toBe(400);
      }
    }
  });

  it('ignores filters that belong to another resource', () => {
    expect(store.list('beneficiaries', { accountId, filters: { fromBookingDateTime: '2099-01-01T00:00:00Z' } }).meta.totalRecords).toBe(entry.beneficiaries.length);
  });

  it('keeps the order of section 4.5 inside a filtered set', () => {
    const page = store.list('transactions', { accountId, pageSize: 1000, filters: { fromBookingDateTime: all[10]!.BookingDateTime } });
    const instants = page.data.map((t) => requireInstant(t.BookingDateTime).seconds);
    expect(instants).toEqual([...instants].sort((a, b) => b - a));
  });
});
