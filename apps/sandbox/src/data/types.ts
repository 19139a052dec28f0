/**
 * Shapes of the sandbox data set. Records use the types generated from our spec, so a
 * record that does not fit its schema is a compile error as far as the types can tell
 * (patterns and lengths are checked by the validators in the tests).
 */
import type * as V21 from '@bank-data-sharing/validators/v2.1';
import type * as V22 from '@bank-data-sharing/validators/v2.2';

/** Spec versions the sandbox serves; their Transaction and Product records differ. */
export type SpecVersion = 'v2.1' | 'v2.2';

/** All spec versions, in release order. */
export const SPEC_VERSIONS: readonly SpecVersion[] = ['v2.1', 'v2.2'];

/** Records whose shape is the same in every version (taken from v2.2). */
export type Account = V22.Account;
export type Balance = V22.Balance;
export type Beneficiary = V22.Beneficiary;
export type DirectDebit = V22.DirectDebit;
export type ScheduledPayment = V22.ScheduledPayment;
export type StandingOrder = V22.StandingOrder;
export type Statement = V22.Statement;
export type AccountParty = V22.AccountParty;
export type Party = V22.Party;

/** The transaction record of a version (TransactionInformation is required in v2.2 only). */
export type TransactionOf<V extends SpecVersion> = V extends 'v2.1' ? V21.Transaction : V22.Transaction;
/** The product record of a version (v2.2 adds the Takaful members). */
export type ProductOf<V extends SpecVersion> = V extends 'v2.1' ? V21.Product : V22.Product;

/** Everything the LFI holds about one account. */
export interface SandboxAccount<V extends SpecVersion = SpecVersion> {
  readonly account: Account;
  /** Identifier of the customer who owns the account (the sandbox's own key). */
  readonly customerId: string;
  readonly balances: readonly Balance[];
  readonly beneficiaries: readonly Beneficiary[];
  readonly directDebits: readonly DirectDebit[];
  readonly scheduledPayments: readonly ScheduledPayment[];
  readonly standingOrders: readonly StandingOrder[];
  /** In booking order, oldest first (the store orders them per section 4.5). */
  readonly transactions: readonly TransactionOf<V>[];
  /** One per closed calendar month, oldest first. */
  readonly statements: readonly Statement[];
  /** Parties linked to the account (GET /accounts/{AccountId}/parties). */
  readonly parties: readonly AccountParty[];
  readonly product: ProductOf<V>;
}

/** One customer: the party who signs in (GET /parties) and the accounts they hold. */
export interface SandboxCustomer<V extends SpecVersion = SpecVersion> {
  readonly customerId: string;
  readonly party: Party;
  readonly accounts: readonly SandboxAccount<V>[];
}

/** A complete synthetic data set for one spec version. */
export interface SandboxData<V extends SpecVersion = SpecVersion> {
  readonly version: V;
  readonly seed: number;
  /** The "current" instant of the data set: history ends here, scheduled payments lie after it. */
  readonly asOf: string;
  readonly customers: readonly SandboxCustomer<V>[];
}

/** Options of `createSandboxData`. */
export interface SandboxDataOptions<V extends SpecVersion = SpecVersion> {
  /** Seed of the generator; the same seed always gives the same data. Default 1. */
  readonly seed?: number;
  /** Spec version whose record shapes are produced. Default `v2.2`. */
  readonly version?: V;
  /** Number of customers. Default 3. */
  readonly customers?: number;
  /**
   * Length of the transaction history in years (fractions allowed, for small test data).
   * History starts on the first day of the month that lies this far before `asOf`, so it
   * always spans at least this long. Default 2.
   */
  readonly years?: number;
  /** Mean number of transactions per account per day. Default 3. */
  readonly perDay?: number;
  /**
   * The data set's "now". A fixed default keeps the data reproducible; pass another
   * instant to move the whole history. Default `2025-06-15T12:00:00Z`.
   */
  readonly asOf?: string;
}
