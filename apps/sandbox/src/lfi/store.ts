/**
 * An in-memory LFI over a sandbox data set, answering the hub-to-LFI paging contract
 * (section 4.7): filter, order deterministically (section 4.5), then cut a page.
 */
import type { Account, ProductOf, SandboxAccount, SandboxCustomer, SandboxData, SpecVersion, TransactionOf } from '../data/types.js';
import { LfiStoreError } from './errors.js';
import { bookingFilter, statementDateFilter, type LfiFilters } from './filters.js';
import { byId, compareStatements, compareTransactions, withBookingInstants, type Booked } from './ordering.js';
import { DEFAULT_PAGE_SIZE, paginate, type LfiPage } from './paging.js';
import { isLfiResource, LFI_RESOURCES, type LfiRecords, type LfiResource } from './resources.js';

/** What the hub asks for: the account (for per-account lists), the page, and the filters. */
export interface LfiListQuery {
  /** Required for per-account lists (everything except `accounts` and `parties`). */
  readonly accountId?: string | undefined;
  /** `accounts` and `parties`: only this customer's records. */
  readonly customerId?: string | undefined;
  /** `accounts`: only these accounts, e.g. those of a consent (unknown ids are an error). */
  readonly accountIds?: readonly string[] | undefined;
  /** 1-based page number. Default 1. */
  readonly page?: number | undefined;
  /** Records per page. Default 100. */
  readonly pageSize?: number | undefined;
  /** Filters of section 4.4; those that do not apply to the resource are ignored. */
  readonly filters?: LfiFilters | undefined;
}

/** First and last booking of an account's history (for `Meta.First/LastAvailableDateTime`). */
export interface HistoryBounds {
  readonly FirstAvailableDateTime: string;
  readonly LastAvailableDateTime: string;
}

/** The LFI data store; see `createLfiStore`. */
export interface LfiStore<V extends SpecVersion = SpecVersion> {
  readonly version: V;
  /** One page of a list resource. Throws `LfiStoreError` on an unknown account or a page beyond the last. */
  list<R extends LfiResource>(resource: R, query?: LfiListQuery): LfiPage<LfiRecords<V>[R]>;
  /** One account (GET /accounts/{AccountId}). */
  getAccount(accountId: string): Account;
  /** The product of an account. */
  getProduct(accountId: string): ProductOf<V>;
  /** Customers with their party and account ids, e.g. to set up consents. */
  customers(): { customerId: string; partyId: string; accountIds: string[] }[];
  /** Customer that owns an account. */
  customerOf(accountId: string): string;
  /** Oldest and newest booking of an account; undefined when it has no transactions. */
  transactionBounds(accountId: string): HistoryBounds | undefined;
}

interface Indexed<V extends SpecVersion> {
  readonly entry: SandboxAccount<V>;
  /** Transactions in the order of section 4.5, computed on first use. */
  sortedTransactions?: Booked<TransactionOf<V>>[];
}

/**
 * Builds the store. Records are shared with `data`, not copied: callers must treat what
 * they get as read-only (a server serialises it anyway).
 */
export function createLfiStore<V extends SpecVersion>(data: SandboxData<V>): LfiStore<V> {
  const accounts = new Map<string, Indexed<V>>();
  const customers = new Map<string, SandboxCustomer<V>>();
  for (const customer of data.customers) {
    customers.set(customer.customerId, customer);
    for (const entry of customer.accounts) accounts.set(entry.account.AccountId, { entry });
  }
  const allAccountIds = [...accounts.keys()].sort(byId((id: string) => id));

  const indexed = (accountId: string | undefined): Indexed<V> => {
    if (accountId === undefined || accountId === '') throw new LfiStoreError('MissingAccountId', 'this list needs an account id');
    const found = accounts.get(accountId);
    if (found === undefined) throw new LfiStoreError('UnknownAccount', `no account with id ${accountId}`);
    return found;
  };
  const customer = (customerId: string): SandboxCustomer<V> => {
    const found = customers.get(customerId);
    if (found === undefined) throw new LfiStoreError('UnknownCustomer', `no customer with id ${customerId}`);
    return found;
  };
  const sortedTransactions = (item: Indexed<V>): Booked<TransactionOf<V>>[] =>
    (item.sortedTransactions ??= withBookingInstants(item.entry.transactions).sort(compareTransactions));

  /** The filtered, ordered set of a resource, before paging. */
  const records = (resource: LfiResource, query: LfiListQuery): readonly unknown[] => {
    switch (resource) {
      case 'accounts': {
        let ids = query.customerId === undefined ? allAccountIds : customer(query.customerId).accounts.map((a) => a.account.AccountId).sort();
        if (query.accountIds !== undefined) {
          for (const id of query.accountIds) indexed(id);
          const wanted = new Set(query.accountIds);
          ids = ids.filter((id) => wanted.has(id));
        }
        return ids.map((id) => indexed(id).entry.account);
      }
      case 'parties': {
        const chosen = query.customerId === undefined ? [...customers.values()] : [customer(query.customerId)];
        return chosen.map((c) => c.party).sort(byId((p) => p.PartyId));
      }
      case 'transactions': {
        const keep = bookingFilter(query.filters);
        return sortedTransactions(indexed(query.accountId)).filter((t) => keep(t.booking)).map((t) => t.record);
      }
      case 'statements': {
        const item = indexed(query.accountId);
        const keep = statementDateFilter(query.filters);
        return item.entry.statements.filter((s) => keep(s.OpeningDate)).sort(compareStatements);
      }
      // Balances keep the generator's order (closing, then interim figures): it is fixed per data set.
      case 'balances':
        return indexed(query.accountId).entry.balances;
      case 'beneficiaries':
        return [...indexed(query.accountId).entry.beneficiaries].sort(byId((b) => b.BeneficiaryId));
      case 'direct-debits':
        return [...indexed(query.accountId).entry.directDebits].sort(byId((d) => d.DirectDebitId));
      case 'scheduled-payments':
        return [...indexed(query.accountId).entry.scheduledPayments].sort(byId((s) => s.ScheduledPaymentId));
      case 'standing-orders':
        return [...indexed(query.accountId).entry.standingOrders].sort(byId((s) => s.StandingOrderId));
      case 'account-parties':
        return [...indexed(query.accountId).entry.parties].sort(byId((p) => p.PartyId));
      case 'product':
        return [indexed(query.accountId).entry.product];
    }
  };

  return {
    version: data.version,
    list<R extends LfiResource>(resource: R, query: LfiListQuery = {}): LfiPage<LfiRecords<V>[R]> {
      if (!isLfiResource(resource)) throw new LfiStoreError('UnknownResource', `no list named ${String(resource)}`);
      const { paging } = LFI_RESOURCES[resource];
      const set = records(resource, query) as readonly LfiRecords<V>[R][];
      return paginate(set, query.page ?? 1, query.pageSize ?? DEFAULT_PAGE_SIZE, paging);
    },
    getAccount: (accountId) => indexed(accountId).entry.account,
    getProduct: (accountId) => indexed(accountId).entry.product,
    customers: () =>
      [...customers.values()].map((c) => ({
        customerId: c.customerId,
        partyId: c.party.PartyId,
        accountIds: c.accounts.map((a) => a.account.AccountId),
      })),
    customerOf: (accountId) => indexed(accountId).entry.customerId,
    transactionBounds(accountId) {
      const sorted = sortedTransactions(indexed(accountId));
      const newest = sorted[0];
      const oldest = sorted[sorted.length - 1];
      if (newest === undefined || oldest === undefined) return undefined;
      return { FirstAvailableDateTime: oldest.record.BookingDateTime, LastAvailableDateTime: newest.record.BookingDateTime };
    },
  };
}
