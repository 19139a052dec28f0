/**
 * Data operations of section 4.3, answered by the hub through the paging adapter: one
 * page-based LFI request per TPP call, `Links` and `Meta` derived from the LFI's `meta`.
 */
import {
  ApiError,
  createPagingAdapter,
  LfiContractError,
  statementOrder,
  transactionOrder,
  type HandlerRequest,
  type OperationSchemas,
  type OrderRule,
} from '@bank-data-sharing/server-stubs/runtime';
import type { Handlers } from '@bank-data-sharing/server-stubs/v2.2';
import type {
  Account,
  AccountParty,
  Balance,
  Beneficiary,
  DirectDebit,
  Party,
  Product,
  ScheduledPayment,
  StandingOrder,
  Statement,
  Transaction,
} from '@bank-data-sharing/validators/v2.2';
import type { AuthStore } from '../auth/store.js';
import type { SpecVersion } from '../data/types.js';
import type { ConsentContext } from '../lfi-server/consent-context.js';
import { hubGrant } from './access.js';
import type { LfiAccess } from './lfi-access.js';

/** The data operations (every operation but the consent ones). */
export type DataHandlers = Omit<
  Handlers,
  | 'GetAccountAccessConsentsByBaseConsentId'
  | 'GetAccountAccessConsentsConsentId'
  | 'PatchAccountAccessConsentsConsentId'
  | 'ReadAccountAccessConsentAttestations'
  | 'CreateAccountAccessConsentAttestation'
>;

/** What the data handlers need. */
export interface DataHandlerOptions {
  readonly version: SpecVersion;
  readonly auth: AuthStore;
  readonly lfi: LfiAccess;
  /** Records per LFI page (default 100, section 8). */
  readonly pageSize?: number;
  /** Sees order violations of the LFI (tie-breaks are only reported). */
  readonly onOrderViolation?: (messages: readonly string[]) => void;
}

/**
 * Handlers of the data operations of one API version.
 *
 * Records pass through unchanged (the sandbox LFI already speaks the TPP record shapes);
 * the `as` casts name the record type of each list for the compiler, and the router
 * validates every answer against the version's own schemas before it is sent. The types
 * are v2.2's; v2.1 records are a relaxed form of them, so one set of handlers serves both.
 */
export function createDataHandlers(options: DataHandlerOptions): DataHandlers {
  const { version, auth, lfi } = options;
  const paging = createPagingAdapter({
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
    onOrderViolation: (violations) => options.onOrderViolation?.(violations.map((v) => v.message)),
  });

  /** The consent behind the request, as the LFI needs to know it. */
  const contextOf = (request: HandlerRequest<OperationSchemas>): ConsentContext => {
    const { consentId } = hubGrant(request.auth);
    // checkConsent has already required a live consent for every data operation.
    if (consentId === undefined) throw new ApiError(403, 'Consent.PermanentAccountAccessFailure', 'the token is not bound to a consent');
    const record = auth.consents.get(consentId);
    return { customerId: record.customerId, accountIds: record.accountIds };
  };

  const page = <D>(request: HandlerRequest<OperationSchemas>, path: string, wrap: (records: unknown[]) => D, order?: OrderRule) =>
    paging
      .page({
        url: request.url,
        fetchPage: lfi.pageSource(version, path, request, contextOf(request)),
        wrap,
        ...(order === undefined ? {} : { order }),
      })
      .catch((error: unknown) => {
        // A breach the adapter found in the LFI's answer (order, meta): the hub's log names the
        // LFI and the URL of the page it answered.
        if (error instanceof LfiContractError) lfi.reportFailure(error, request);
        throw error;
      });

  const accountPath = (accountId: string, list: string) => `/accounts/${encodeURIComponent(accountId)}/${list}`;

  /** One account from the LFI (`{ data: Account }`). */
  const account = async (request: HandlerRequest<OperationSchemas>, accountId: string): Promise<Account> => {
    const body = await lfi.getOne(version, `/accounts/${encodeURIComponent(accountId)}`, request, contextOf(request));
    const data = (body as { data?: unknown } | undefined)?.data;
    if (data === null || typeof data !== 'object') {
      const breach = new LfiContractError(['the account answer has no data object']);
      lfi.reportFailure(breach, request, 'one');
      throw breach;
    }
    return data as Account;
  };

  return {
    GetAccounts: async (request) => ({ status: 200, body: await page(request, '/accounts', (records) => ({ Account: records as Account[] })) }),

    GetAccountsAccountId: async (request) => {
      const { AccountId } = request.path;
      // The identifier sits in Data.AccountId; the record itself is the AccountDetail.
      const { AccountId: _id, ...detail } = await account(request, AccountId);
      return { status: 200, body: { Data: { AccountId, Account: detail }, Links: { Self: request.url }, Meta: { TotalPages: 1 } } };
    },

    GetAccountsAccountIdBalances: async (request) => {
      const { AccountId } = request.path;
      const body = await page(request, accountPath(AccountId, 'balances'), (records) => ({ AccountId, Balance: records as Balance[] }));
      return { status: 200, body };
    },

    GetAccountsAccountIdBeneficiaries: async (request) => {
      const { AccountId } = request.path;
      const body = await page(request, accountPath(AccountId, 'beneficiaries'), (records) => ({ AccountId, Beneficiary: records as Beneficiary[] }));
      return { status: 200, body };
    },

    GetAccountsAccountIdDirectDebits: async (request) => {
      const { AccountId } = request.path;
      const body = await page(request, accountPath(AccountId, 'direct-debits'), (records) => ({ AccountId, DirectDebit: records as DirectDebit[] }));
      return { status: 200, body };
    },

    GetAccountsAccountIdProduct: async (request) => {
      const { AccountId } = request.path;
      const body = await page(request, accountPath(AccountId, 'product'), (records) => ({ AccountId, Product: records as Product[] }));
      return { status: 200, body };
    },

    GetScheduledPayments: async (request) => {
      const { AccountId } = request.path;
      const body = await page(request, accountPath(AccountId, 'scheduled-payments'), (records) => ({ AccountId, ScheduledPayment: records as ScheduledPayment[] }));
      return { status: 200, body };
    },

    GetAccountsAccountIdStandingOrders: async (request) => {
      const { AccountId } = request.path;
      const body = await page(request, accountPath(AccountId, 'standing-orders'), (records) => ({ AccountId, StandingOrder: records as StandingOrder[] }));
      return { status: 200, body };
    },

    GetAccountsAccountIdTransactions: async (request) => {
      const { AccountId } = request.path;
      const wrap = (records: unknown[]) => ({ AccountId, Transaction: records as Transaction[] });
      return { status: 200, body: await page(request, accountPath(AccountId, 'transactions'), wrap, transactionOrder) };
    },

    PartiesByAccountId_read: async (request) => {
      const { AccountId } = request.path;
      const body = await page(request, accountPath(AccountId, 'parties'), (records) => ({ AccountId, Party: records as AccountParty[] }));
      return { status: 200, body };
    },

    Parties_read: async (request) => {
      // Without a customer the LFI would list every customer's party: refuse instead.
      if (contextOf(request).customerId === undefined) {
        throw new ApiError(403, 'Consent.PermanentAccountAccessFailure', 'the consent names no customer whose party could be read');
      }
      // The LFI answers the consenting party as a one-record page; the TPP gets the record.
      const body = await page(request, '/parties', (records) => {
        const [party] = records;
        if (party === undefined) throw new LfiContractError(['the parties answer holds no party']);
        return { Party: party as Party };
      });
      return { status: 200, body };
    },

    GetAccountAccountIdStatements: async (request) => {
      const { AccountId } = request.path;
      // Data.AccountSubType is required beside the statements; it comes from the account record.
      const [body, owner] = await Promise.all([
        page(request, accountPath(AccountId, 'statements'), (records) => records as Statement[], statementOrder),
        account(request, AccountId),
      ]);
      if (owner.AccountSubType === undefined) throw new LfiContractError([`account ${AccountId} has no AccountSubType`]);
      return { status: 200, body: { ...body, Data: { AccountId, AccountSubType: owner.AccountSubType, Statements: body.Data } } };
    },
  };
}
