// The README's example, kept compiling and running: an LFI's whole v2.2 handler set on top
// of its own data access (`Bank`), and the router mounted in Express.
import express from 'express';
import { createRouter, type Handlers } from '../src/generated/v2.2/index.js';
import type { AuthGrant, RouterOptions } from '../src/runtime/index.js';
import type * as V from '@bank-data-sharing/validators/v2.2';

/** The LFI's own data access, whatever it is built on. */
export interface Bank {
  consentsByBase(baseConsentId: string): Promise<V.ConsentData[]>;
  consent(consentId: string): Promise<V.ConsentData>;
  patchConsent(consentId: string, patch: V.ConsentPatch): Promise<void>;
  attestations(consentId: string, lastOnly: boolean): Promise<V.AttestationEvent[]>;
  attest(consentId: string, attestation: V.Attestation): Promise<V.AttestationEvent>;
  accounts(grant: AuthGrant | undefined): Promise<V.Account[]>;
  account(accountId: string): Promise<V.AccountDetail>;
  balances(accountId: string): Promise<[V.Balance, ...V.Balance[]]>;
  beneficiaries(accountId: string): Promise<V.Beneficiary[]>;
  directDebits(accountId: string): Promise<V.DirectDebit[]>;
  products(accountId: string): Promise<V.Product[]>;
  scheduledPayments(accountId: string): Promise<V.ScheduledPayment[]>;
  standingOrders(accountId: string): Promise<V.StandingOrder[]>;
  transactions(accountId: string, from?: string, to?: string): Promise<V.Transaction[]>;
  accountParties(accountId: string): Promise<V.AccountParty[]>;
  party(grant: AuthGrant | undefined): Promise<V.Party>;
  statements(accountId: string, from?: string, to?: string): Promise<{ subType: V.AccountSubType; statements: V.Statement[] }>;
}

// ── README example starts here ──
/** Links and Meta of an answer given whole (section 4.6): Self only; TotalPages 1, or 0 for an empty list. */
const whole = (self: string, list: readonly unknown[] = [self]) => ({ Links: { Self: self }, Meta: { TotalPages: list.length === 0 ? 0 : 1 } });

/** `{ Data: { AccountId, [key]: list }, Links, Meta }` for the per-account lists. */
const accountList = <K extends string, T>(AccountId: string, key: K, list: T[], self: string) =>
  ({ status: 200 as const, body: { Data: { AccountId, [key]: list } as { AccountId: string } & Record<K, T[]>, ...whole(self, list) } });

export function lfiHandlers(bank: Bank): Handlers {
  return {
    GetAccountAccessConsentsByBaseConsentId: async (r) => ({
      status: 200,
      body: (await bank.consentsByBase(r.query.baseConsentId)).map((Data) => ({ Data, Links: { Self: r.url } })),
    }),
    GetAccountAccessConsentsConsentId: async (r) => ({ status: 200, body: { Data: await bank.consent(r.path.ConsentId), Links: { Self: r.url } } }),
    PatchAccountAccessConsentsConsentId: async (r) => (await bank.patchConsent(r.path.ConsentId, r.body), { status: 204 }),
    ReadAccountAccessConsentAttestations: async (r) => {
      const events = await bank.attestations(r.path.ConsentId, r.query.LastSubmitted === true);
      return { status: 200, body: { Data: events, ...whole(r.url, events) } };
    },
    CreateAccountAccessConsentAttestation: async (r) => ({ status: 201, body: { Data: await bank.attest(r.path.ConsentId, r.body.Data), Links: { Self: r.url } } }),
    GetAccounts: async (r) => {
      const Account = await bank.accounts(r.auth);
      return { status: 200, body: { Data: { Account }, ...whole(r.url, Account) } };
    },
    GetAccountsAccountId: async ({ path: { AccountId }, url }) => ({ status: 200, body: { Data: { AccountId, Account: await bank.account(AccountId) }, ...whole(url) } }),
    GetAccountsAccountIdBalances: async ({ path: { AccountId }, url }) => accountList(AccountId, 'Balance', await bank.balances(AccountId), url),
    GetAccountsAccountIdBeneficiaries: async ({ path: { AccountId }, url }) => accountList(AccountId, 'Beneficiary', await bank.beneficiaries(AccountId), url),
    GetAccountsAccountIdDirectDebits: async ({ path: { AccountId }, url }) => accountList(AccountId, 'DirectDebit', await bank.directDebits(AccountId), url),
    GetAccountsAccountIdProduct: async ({ path: { AccountId }, url }) => accountList(AccountId, 'Product', await bank.products(AccountId), url),
    GetScheduledPayments: async ({ path: { AccountId }, url }) => accountList(AccountId, 'ScheduledPayment', await bank.scheduledPayments(AccountId), url),
    GetAccountsAccountIdStandingOrders: async ({ path: { AccountId }, url }) => accountList(AccountId, 'StandingOrder', await bank.standingOrders(AccountId), url),
    GetAccountsAccountIdTransactions: async ({ path: { AccountId }, query, url }) =>
      accountList(AccountId, 'Transaction', await bank.transactions(AccountId, query.fromBookingDateTime, query.toBookingDateTime), url),
    PartiesByAccountId_read: async ({ path: { AccountId }, url }) => accountList(AccountId, 'Party', await bank.accountParties(AccountId), url),
    Parties_read: async (r) => ({ status: 200, body: { Data: { Party: await bank.party(r.auth) }, ...whole(r.url) } }),
    GetAccountAccountIdStatements: async ({ path: { AccountId }, query, url }) => {
      const { subType, statements } = await bank.statements(AccountId, query.fromStatementDate, query.toStatementDate);
      return { status: 200, body: { Data: { AccountId, AccountSubType: subType, Statements: statements }, ...whole(url, statements) } };
    },
  };
}

export function lfiApp(bank: Bank, options: RouterOptions): express.Express {
  const app = express();
  app.use(createRouter(lfiHandlers(bank), options));
  return app;
}
// ── README example ends here ──
