import { describe, expect, it } from 'vitest';
import { compareInstants, requireInstant } from '../src/data/datetime.js';
import type { Statement, TransactionOf } from '../src/data/types.js';
import { createLfiStore } from '../src/lfi/store.js';
import { denseData, platformMs, smallData, withAccount } from './fixtures.js';

describe('ordering (section 4.5)', () => {
  it('lists transactions newest booking first by instant, ties by TransactionId descending, across pages', () => {
    const data = denseData();
    const store = createLfiStore(data);
    const accountId = data.customers[0]!.accounts[0]!.account.AccountId;
    const first = store.list('transactions', { accountId, pageSize: 250 });
    const all = [...first.data];
    for (let page = 2; page <= first.meta.totalPages; page++) all.push(...store.list('transactions', { accountId, page, pageSize: 250 }).data);
    let ties = 0;
    let mixedTies = 0;
    for (let i = 1; i < all.length; i++) {
      const a = all[i - 1]!;
      const b = all[i]!;
      // Oracle: the platform's parser, independent of the store's comparison.
      expect(platformMs(a.BookingDateTime)).toBeGreaterThanOrEqual(platformMs(b.BookingDateTime));
      if (compareInstants(requireInstant(a.BookingDateTime), requireInstant(b.BookingDateTime)) === 0) {
        ties++;
        if (a.BookingDateTime !== b.BookingDateTime) mixedTies++;
        expect(a.TransactionId > b.TransactionId).toBe(true);
      }
    }
    // The data really exercises the rules: equal instants exist, some written differently...
    expect(ties).toBeGreaterThan(0);
    expect(mixedTies).toBeGreaterThan(0);
    // ...and ordering by text would be wrong.
    const byText = [...all].sort((x, y) => (x.BookingDateTime < y.BookingDateTime ? 1 : x.BookingDateTime > y.BookingDateTime ? -1 : 0));
    expect(byText.map((t) => t.TransactionId)).not.toEqual(all.map((t) => t.TransactionId));
  });

  it('puts a later instant first even when its text sorts lower', () => {
    const base = smallData('v2.2');
    const template = base.customers[0]!.accounts[0]!.transactions[0]!;
    const make = (id: string, booking: string): TransactionOf<'v2.2'> => ({ ...template, TransactionId: id, BookingDateTime: booking });
    const data = withAccount(base, () => ({
      transactions: [
        make('txn-a', '2025-01-01T03:00:00+04:00'), // 2024-12-31T23:00:00Z
        make('txn-b', '2024-12-31T23:30:00Z'),
        make('txn-c', '2024-12-31T18:30:00-05:00'), // 23:30Z as well: ties with txn-b
        make('txn-d', '2024-12-31T23:30:00.5+00:00'),
      ],
    }));
    const store = createLfiStore(data);
    const ids = store.list('transactions', { accountId: data.customers[0]!.accounts[0]!.account.AccountId }).data.map((t) => t.TransactionId);
    expect(ids).toEqual(['txn-d', 'txn-c', 'txn-b', 'txn-a']);
  });

  it('lists statements newest OpeningDate first, ties by StatementId descending', () => {
    const base = smallData('v2.2');
    const template = base.customers[0]!.accounts[0]!.statements[0]!;
    const make = (id: string, opening: string): Statement => ({ ...template, StatementId: id, OpeningDate: opening });
    const data = withAccount(base, () => ({
      statements: [make('stm-1', '2025-01-01'), make('stm-3', '2025-02-01'), make('stm-2', '2025-02-01'), make('stm-0', '2024-12-01')],
    }));
    const store = createLfiStore(data);
    const ids = store.list('statements', { accountId: data.customers[0]!.accounts[0]!.account.AccountId }).data.map((s) => s.StatementId);
    expect(ids).toEqual(['stm-3', 'stm-2', 'stm-1', 'stm-0']);
  });

  it('gives the other lists a stable order: the same on every call, by identifier', () => {
    const data = smallData('v2.2');
    const store = createLfiStore(data);
    const entry = data.customers[0]!.accounts[0]!;
    const accountId = entry.account.AccountId;
    const ids = store.list('beneficiaries', { accountId }).data.map((b) => b.BeneficiaryId);
    expect(ids).toEqual([...ids].sort());
    expect(store.list('beneficiaries', { accountId })).toEqual(store.list('beneficiaries', { accountId }));
    expect(store.list('accounts').data.map((a) => a.AccountId)).toEqual(
      data.customers.flatMap((c) => c.accounts.map((a) => a.account.AccountId)).sort(),
    );
  });
});
