/**
 * A hub and an LFI, each a real Express app on loopback: the LFI serves the generated
 * hub-to-LFI stub from an in-memory record set, the hub serves the generated v2.2 TPP API
 * and pages through the LFI with the adapter over HTTP.
 */
import express from 'express';
import { createRouter as createLfiRouter, type Handlers as LfiHandlers } from '../../src/generated/v2.2/lfi/index.js';
import { createRouter as createHubRouter } from '../../src/generated/v2.2/index.js';
import {
  ApiError,
  compareInstants,
  createPagingAdapter,
  httpPageSource,
  lfiPage,
  parseInstant,
  sortRecords,
  statementOrder,
  transactionOrder,
  type OrderRule,
} from '../../src/runtime/index.js';
import type { Statement, Transaction } from '@bank-data-sharing/validators/v2.2';
import { authorize } from './apps.js';
import { handlers22, newState } from './handlers.js';
import { listen, type Running } from './http.js';
import type { TestKeys } from './keys.js';

export interface LfiData {
  transactions: Transaction[];
  statements: Statement[];
  /** `instant`: newest first by instant (correct); `text`: by the text of the date (wrong with mixed offsets). */
  order: 'instant' | 'text';
  /** When set, the LFI answers this instead of a page (its response validation is off). */
  raw: unknown;
  /** Query strings the LFI received, in order. */
  requests: string[];
}

export function newLfiData(): LfiData {
  return { transactions: [], statements: [], order: 'instant', raw: undefined, requests: [] };
}

function inRange(value: string, from: string | undefined, to: string | undefined): boolean {
  const at = parseInstant(value)!;
  if (from !== undefined && compareInstants(at, parseInstant(from)!) < 0) return false;
  if (to !== undefined && compareInstants(at, parseInstant(to)!) > 0) return false;
  return true;
}

function ordered<R>(records: R[], rule: OrderRule, mode: LfiData['order']): R[] {
  if (mode === 'instant') return sortRecords(records, rule);
  return [...records].sort((a, b) => String(rule.key(b)).localeCompare(String(rule.key(a))));
}

function unused(): never {
  throw new ApiError(500, 'GenericError', 'not used');
}

function lfiHandlers(data: LfiData): LfiHandlers {
  return {
    LfiGetAccounts: unused,
    LfiGetAccountsAccountId: unused,
    LfiGetAccountsAccountIdBalances: unused,
    LfiGetAccountsAccountIdBeneficiaries: unused,
    LfiGetAccountsAccountIdDirectDebits: unused,
    LfiGetAccountsAccountIdProduct: unused,
    LfiGetScheduledPayments: unused,
    LfiGetAccountsAccountIdStandingOrders: unused,
    LfiGetAccountsAccountIdTransactions: (req) => {
      data.requests.push(new URL(req.url).search);
      if (data.raw !== undefined) return { status: 200, body: data.raw as never };
      const { fromBookingDateTime: from, toBookingDateTime: to, page, 'page-size': pageSize } = req.query;
      const matching = data.transactions.filter((t) => inRange(t.BookingDateTime, from, to));
      const all = ordered(matching, transactionOrder, data.order);
      const start = (page - 1) * pageSize;
      return {
        status: 200,
        body: { data: all.slice(start, start + pageSize), meta: { paginated: true, totalPages: Math.ceil(all.length / pageSize), totalRecords: all.length } },
      };
    },
    LfiPartiesByAccountId_read: unused,
    LfiParties_read: unused,
    LfiGetAccountAccountIdStatements: (req) => {
      data.requests.push(new URL(req.url).search);
      const { page, 'page-size': pageSize } = req.query;
      return { status: 200, body: lfiPage(data.statements, { page, pageSize, order: statementOrder }) };
    },
  };
}

export interface HubAndLfi {
  hub: Running;
  lfi: Running;
  /** Base URL of the hub's TPP-facing v2.2 API. */
  base: string;
  close(): Promise<void>;
}

/** Starts the LFI, then the hub pointing at it. */
export async function startHubAndLfi(data: LfiData, keys: TestKeys): Promise<HubAndLfi> {
  const lfiApp = express();
  lfiApp.use(
    createLfiRouter(lfiHandlers(data), {
      authorize: ({ credential }) => (credential === 'hub-secret' ? { scopes: [] } : undefined),
      // A misbehaving LFI must be able to send what its contract forbids.
      validateResponses: data.raw === undefined,
      onError: () => undefined,
    }),
  );
  const lfi = await listen(lfiApp);
  const lfiBase = `${lfi.origin}/lfi/v2.2`;
  const paging = createPagingAdapter();
  const lfiHeaders = { authorization: 'Bearer hub-secret' };

  const tpp = handlers22(newState());
  const hubApp = express();
  hubApp.use(
    createHubRouter(
      {
        ...tpp,
        GetAccountsAccountIdTransactions: async (req) => {
          const { AccountId } = req.path;
          const body = await paging.page({
            url: req.url,
            fetchPage: httpPageSource(`/accounts/${encodeURIComponent(AccountId)}/transactions`, { baseUrl: lfiBase, headers: lfiHeaders }),
            wrap: (records) => ({ AccountId, Transaction: records as Transaction[] }),
            order: transactionOrder,
          });
          return { status: 200, body };
        },
        GetAccountAccountIdStatements: async (req) => {
          const { AccountId } = req.path;
          const body = await paging.page({
            url: req.url,
            fetchPage: httpPageSource(`/accounts/${encodeURIComponent(AccountId)}/statements`, { baseUrl: lfiBase, headers: lfiHeaders }),
            wrap: (records) => ({ AccountId, AccountSubType: 'CurrentAccount' as const, Statements: records as Statement[] }),
            order: statementOrder,
          });
          return { status: 200, body };
        },
      },
      { authorize, signing: keys.signing, verification: keys.verification, onError: () => undefined },
    ),
  );
  const hub = await listen(hubApp);
  return {
    hub,
    lfi,
    base: `${hub.origin}/open-finance/account-information/v2.2`,
    close: async () => {
      await hub.close();
      await lfi.close();
    },
  };
}
