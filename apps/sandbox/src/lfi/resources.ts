/** The lists an LFI serves to the hub, the record each holds, and how each is paged. */
import type {
  Account,
  AccountParty,
  Balance,
  Beneficiary,
  DirectDebit,
  Party,
  ProductOf,
  ScheduledPayment,
  SpecVersion,
  StandingOrder,
  Statement,
  TransactionOf,
} from '../data/types.js';
import type { PagingMode } from './paging.js';

/** Record type of each list resource, named after its path segment. */
export interface LfiRecords<V extends SpecVersion> {
  /** GET /accounts */
  accounts: Account;
  /** GET /accounts/{AccountId}/balances */
  balances: Balance;
  /** GET /accounts/{AccountId}/beneficiaries */
  beneficiaries: Beneficiary;
  /** GET /accounts/{AccountId}/direct-debits */
  'direct-debits': DirectDebit;
  /** GET /accounts/{AccountId}/product (a list of one record) */
  product: ProductOf<V>;
  /** GET /accounts/{AccountId}/scheduled-payments */
  'scheduled-payments': ScheduledPayment;
  /** GET /accounts/{AccountId}/standing-orders */
  'standing-orders': StandingOrder;
  /** GET /accounts/{AccountId}/transactions */
  transactions: TransactionOf<V>;
  /** GET /accounts/{AccountId}/parties */
  'account-parties': AccountParty;
  /** GET /parties */
  parties: Party;
  /** GET /accounts/{AccountId}/statements */
  statements: Statement;
}

/** Name of a list resource. */
export type LfiResource = keyof LfiRecords<SpecVersion>;

/** Every list resource, and whether it is paginated always or only when it must be (section 4.6). */
export const LFI_RESOURCES: Readonly<Record<LfiResource, { readonly perAccount: boolean; readonly paging: PagingMode }>> = {
  accounts: { perAccount: false, paging: 'optional' },
  balances: { perAccount: true, paging: 'optional' },
  beneficiaries: { perAccount: true, paging: 'optional' },
  'direct-debits': { perAccount: true, paging: 'optional' },
  product: { perAccount: true, paging: 'optional' },
  'scheduled-payments': { perAccount: true, paging: 'optional' },
  'standing-orders': { perAccount: true, paging: 'optional' },
  transactions: { perAccount: true, paging: 'always' },
  'account-parties': { perAccount: true, paging: 'optional' },
  parties: { perAccount: false, paging: 'optional' },
  statements: { perAccount: true, paging: 'always' },
};

/** True when `name` is a list resource of the store. */
export function isLfiResource(name: string): name is LfiResource {
  return Object.prototype.hasOwnProperty.call(LFI_RESOURCES, name);
}
