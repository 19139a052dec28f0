import * as L21 from '@bank-data-sharing/validators/v2.1/lfi';
import * as L22 from '@bank-data-sharing/validators/v2.2/lfi';
import { describe, expect, it } from 'vitest';
import { LfiStoreError } from '../src/lfi/errors.js';
import { LFI_RESOURCES, type LfiResource } from '../src/lfi/resources.js';
import { createLfiStore } from '../src/lfi/store.js';
import { allAccounts, smallData } from './fixtures.js';

/** The LFI page schema of each resource, by name in the generated hub-to-LFI validators. */
const PAGE_SCHEMAS: Readonly<Record<LfiResource, string>> = {
  accounts: 'LfiAccountsPage',
  balances: 'LfiBalancesPage',
  beneficiaries: 'LfiBeneficiariesPage',
  'direct-debits': 'LfiDirectDebitsPage',
  product: 'LfiProductPage',
  'scheduled-payments': 'LfiScheduledPaymentsPage',
  'standing-orders': 'LfiStandingOrdersPage',
  transactions: 'LfiTransactionsPage',
  'account-parties': 'LfiAccountPartiesPage',
  parties: 'LfiPartiesPage',
  statements: 'LfiStatementsPage',
};

describe.each([
  ['v2.1', L21.schemas],
  ['v2.2', L22.schemas],
] as const)('LFI store over %s data', (version, schemas) => {
  const data = smallData(version);
  const store = createLfiStore(data);
  const accountIds = allAccounts(data).map((e) => e.account.AccountId);

  it('answers every resource of every account with a page valid against the hub-to-LFI schema', () => {
    const lookup = schemas as Record<string, { safeParse(v: unknown): { success: boolean; error?: unknown } }>;
    for (const resource of Object.keys(LFI_RESOURCES) as LfiResource[]) {
      const schema = lookup[PAGE_SCHEMAS[resource]];
      expect(schema, PAGE_SCHEMAS[resource]).toBeDefined();
      const targets = LFI_RESOURCES[resource].perAccount ? accountIds : [undefined];
      for (const accountId of targets) {
        const page = store.list(resource, { accountId });
        const result = schema!.safeParse(page);
        expect(result.success, `${resource} ${accountId}: ${String(result.error)}`).toBe(true);
      }
    }
  });

  it('returns small optional lists unpaginated, transactions and statements always paginated', () => {
    const accountId = accountIds[0]!;
    expect(store.list('accounts').meta).toEqual({ paginated: false, totalPages: 1, totalRecords: accountIds.length });
    expect(store.list('balances', { accountId }).meta.paginated).toBe(false);
    expect(store.list('product', { accountId }).meta).toEqual({ paginated: false, totalPages: 1, totalRecords: 1 });
    expect(store.list('transactions', { accountId }).meta.paginated).toBe(true);
    expect(store.list('statements', { accountId }).meta.paginated).toBe(true);
    // An optional list longer than a page is paginated after all.
    const page = store.list('accounts', { pageSize: 2 });
    expect(page.meta).toEqual({ paginated: true, totalPages: Math.ceil(accountIds.length / 2), totalRecords: accountIds.length });
  });

  it('answers empty lists as an empty, paginated set of 0 pages', () => {
    const empty = allAccounts(data).find((e) => e.beneficiaries.length === 0)!;
    expect(store.list('beneficiaries', { accountId: empty.account.AccountId })).toEqual({
      data: [],
      meta: { paginated: true, totalPages: 0, totalRecords: 0 },
    });
  });

  it('reads single records and scopes lists to a customer or a consent', () => {
    const [customer] = store.customers();
    const accountId = customer!.accountIds[0]!;
    expect(store.getAccount(accountId).AccountId).toBe(accountId);
    expect(store.getProduct(accountId)).toEqual(store.list('product', { accountId }).data[0]);
    expect(store.customerOf(accountId)).toBe(customer!.customerId);
    expect(store.list('accounts', { customerId: customer!.customerId }).data.map((a) => a.AccountId).sort()).toEqual([...customer!.accountIds].sort());
    expect(store.list('accounts', { accountIds: [accountId] }).data.map((a) => a.AccountId)).toEqual([accountId]);
    expect(store.list('parties', { customerId: customer!.customerId }).data.map((p) => p.PartyId)).toEqual([customer!.partyId]);
    const bounds = store.transactionBounds(accountId)!;
    expect(Date.parse(bounds.FirstAvailableDateTime)).toBeLessThan(Date.parse(bounds.LastAvailableDateTime));
  });

  it('gives clear errors for unknown accounts, customers and resources, and a missing account id', () => {
    const expectError = (run: () => unknown, reason: string, status: number) => {
      try {
        run();
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(LfiStoreError);
        expect((error as LfiStoreError).reason).toBe(reason);
        expect((error as LfiStoreError).status).toBe(status);
        expect(L22.LfiError.safeParse((error as LfiStoreError).toLfiError()).success).toBe(true);
      }
    };
    expectError(() => store.list('transactions', { accountId: 'acc-nope' }), 'UnknownAccount', 404);
    expectError(() => store.getAccount('acc-nope'), 'UnknownAccount', 404);
    expectError(() => store.getProduct('acc-nope'), 'UnknownAccount', 404);
    expectError(() => store.list('accounts', { accountIds: ['acc-nope'] }), 'UnknownAccount', 404);
    expectError(() => store.list('parties', { customerId: 'cus-nope' }), 'UnknownCustomer', 404);
    expectError(() => store.list('balances'), 'MissingAccountId', 400);
    expectError(() => store.list('loans' as LfiResource), 'UnknownResource', 404);
  });
});
