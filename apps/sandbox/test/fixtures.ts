/** Small, cached data sets for the tests (generation is the slow part). */
import { createSandboxData } from '../src/data/generate.js';
import type { SandboxAccount, SandboxData, SpecVersion, TransactionOf } from '../src/data/types.js';

const cache = new Map<string, SandboxData>();

/** A few months of history at two entries a day: enough shape, little time. */
export function smallData<V extends SpecVersion>(version: V, seed = 42): SandboxData<V> {
  const key = `${version}:${seed}`;
  let data = cache.get(key);
  if (data === undefined) {
    data = createSandboxData({ version, seed, years: 0.25, perDay: 2 });
    cache.set(key, data);
  }
  return data as SandboxData<V>;
}

/** One customer with six months at six entries a day: over 1000 transactions per account. */
export function denseData(): SandboxData<'v2.2'> {
  const key = 'dense';
  let data = cache.get(key);
  if (data === undefined) {
    data = createSandboxData({ version: 'v2.2', seed: 9, customers: 1, years: 0.5, perDay: 6 });
    cache.set(key, data);
  }
  return data as SandboxData<'v2.2'>;
}

/** Every account of a data set. */
export function allAccounts<V extends SpecVersion>(data: SandboxData<V>): SandboxAccount<V>[] {
  return data.customers.flatMap((customer) => customer.accounts);
}

/**
 * A data set of one customer and one account whose records are replaced as given; used to
 * put exactly N transactions, or hand-written edge cases, behind the store.
 */
export function withAccount<V extends SpecVersion>(
  data: SandboxData<V>,
  change: (account: SandboxAccount<V>) => Partial<SandboxAccount<V>>,
): SandboxData<V> {
  const customer = data.customers[0];
  const account = customer?.accounts[0];
  if (customer === undefined || account === undefined) throw new Error('fixture needs a customer with an account');
  return { ...data, customers: [{ ...customer, accounts: [{ ...account, ...change(account) }] }] };
}

/** The first `count` transactions of the first account, as a one-account data set. */
export function withTransactions<V extends SpecVersion>(data: SandboxData<V>, count: number): SandboxData<V> {
  return withAccount(data, (account) => {
    if (account.transactions.length < count) throw new Error(`fixture has only ${account.transactions.length} transactions`);
    return { transactions: account.transactions.slice(0, count) as TransactionOf<V>[] };
  });
}

/** Epoch milliseconds by the platform's own parser: an oracle independent of ours. */
export function platformMs(dateTime: string): number {
  return new Date(dateTime).getTime();
}
