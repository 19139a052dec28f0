/**
 * The LFI side of the hub-to-LFI contract (section 4.7), as handlers of the generated LFI
 * stub, answered from the in-memory LFI store.
 */
import { ApiError, type HandlerRequest, type OperationSchemas } from '@bank-data-sharing/server-stubs/runtime';
import type { Handlers as LfiHandlers } from '@bank-data-sharing/server-stubs/v2.2/lfi';
import type { LfiPageMeta as LfiMeta } from '@bank-data-sharing/validators/v2.2/lfi';
import type { SpecVersion } from '../data/types.js';
import { LfiStoreError } from '../lfi/errors.js';
import type { LfiFilters } from '../lfi/filters.js';
import type { LfiPage } from '../lfi/paging.js';
import type { LfiResource } from '../lfi/resources.js';
import type { LfiStore } from '../lfi/store.js';
import { readContext, type ConsentContext } from './consent-context.js';

/** What every LFI list request carries, whatever its operation. */
type ListRequest = HandlerRequest<OperationSchemas> & {
  readonly path: { readonly AccountId?: string };
  readonly query: { readonly page: number; readonly 'page-size': number } & LfiFilters;
};

/** A 200 answer whose record type is taken from the operation the handler serves. */
interface PageAnswer<R> {
  status: 200;
  body: { data: R[]; meta: LfiMeta };
}

/**
 * The store's page as the answer of the operation at hand. The record type comes from the
 * handler's declared result: the store's records were generated for this spec version
 * (`validateSandboxData` checks them), and the router validates every answer it sends.
 */
function answer<R>(page: { data: readonly unknown[]; meta: LfiMeta }): PageAnswer<R> {
  return { status: 200, body: { data: page.data as R[], meta: page.meta } };
}

/** A store refusal as the LFI's error answer (`{ errorCode, errorMessage }`). */
function refusal(error: unknown): unknown {
  return error instanceof LfiStoreError ? new ApiError(error.status, error.errorCode, error.message) : error;
}

/** Refuses an account the consent does not cover, as if it did not exist. */
function checkAccount(context: ConsentContext, accountId: string): void {
  if (context.accountIds !== undefined && !context.accountIds.includes(accountId)) {
    throw new ApiError(404, 'Resource.NotFound', `no account with id ${accountId}`);
  }
}

/**
 * Handlers of the generated LFI stub over `store`.
 *
 * A page number beyond the last is answered with no records and the counts of the set
 * (a paginated set) or with the whole set (an unpaginated one), so that the hub can tell
 * the TPP its page does not exist instead of failing.
 *
 * The handler types are those of v2.2; a v2.1 store serves the v2.1 stub with the same
 * code (the v2.1 records are a relaxed form of the v2.2 ones), and each router validates
 * what it sends against its own version.
 */
export function createLfiHandlers(store: LfiStore<SpecVersion>): LfiHandlers {
  const list = (resource: LfiResource, request: ListRequest): { data: readonly unknown[]; meta: LfiMeta } => {
    const context = readContext(request.raw.req);
    const accountId = request.path.AccountId;
    if (accountId !== undefined) checkAccount(context, accountId);
    const query = {
      accountId,
      customerId: context.customerId,
      accountIds: resource === 'accounts' ? context.accountIds : undefined,
      pageSize: request.query['page-size'],
      filters: request.query,
    };
    let page: LfiPage<unknown>;
    try {
      page = store.list(resource, { ...query, page: request.query.page });
    } catch (error) {
      if (!(error instanceof LfiStoreError) || error.reason !== 'PageOutOfRange') throw refusal(error);
      const first = store.list(resource, { ...query, page: 1 });
      page = first.meta.paginated ? { data: [], meta: first.meta } : first;
    }
    // Transactions carry the account's full history span (Meta.First/LastAvailableDateTime).
    const bounds = resource === 'transactions' && accountId !== undefined ? store.transactionBounds(accountId) : undefined;
    const meta: LfiMeta = {
      ...page.meta,
      ...(bounds === undefined ? {} : { firstAvailableDateTime: bounds.FirstAvailableDateTime, lastAvailableDateTime: bounds.LastAvailableDateTime }),
    };
    return { data: page.data, meta };
  };

  return {
    LfiGetAccounts: (request) => answer(list('accounts', request)),
    LfiGetAccountsAccountId: (request) => {
      checkAccount(readContext(request.raw.req), request.path.AccountId);
      try {
        return { status: 200, body: { data: store.getAccount(request.path.AccountId) } };
      } catch (error) {
        throw refusal(error);
      }
    },
    LfiGetAccountsAccountIdBalances: (request) => answer(list('balances', request)),
    LfiGetAccountsAccountIdBeneficiaries: (request) => answer(list('beneficiaries', request)),
    LfiGetAccountsAccountIdDirectDebits: (request) => answer(list('direct-debits', request)),
    LfiGetAccountsAccountIdProduct: (request) => answer(list('product', request)),
    LfiGetScheduledPayments: (request) => answer(list('scheduled-payments', request)),
    LfiGetAccountsAccountIdStandingOrders: (request) => answer(list('standing-orders', request)),
    LfiGetAccountsAccountIdTransactions: (request) => answer(list('transactions', request)),
    LfiPartiesByAccountId_read: (request) => answer(list('account-parties', request)),
    LfiParties_read: (request) => answer(list('parties', request)),
    LfiGetAccountAccountIdStatements: (request) => answer(list('statements', request)),
  };
}
