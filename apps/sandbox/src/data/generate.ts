/** Builds a complete, deterministic synthetic data set (see `createSandboxData`). */
import { accountProfiles, accountRecord } from './accounts.js';
import { generateBalances } from './balances.js';
import { customerProfile, ownParty } from './customers.js';
import { formatInstant, instantOf, epochMsOf, MS_PER_DAY, startOfMonthUtc } from './datetime.js';
import { generateAccountParties } from './parties.js';
import { generatePayees } from './payees.js';
import { generateProduct } from './products.js';
import { generateStatements } from './statements.js';
import { generateTransactions } from './transactions.js';
import type { SandboxAccount, SandboxCustomer, SandboxData, SandboxDataOptions, SpecVersion } from './types.js';
import { productFor, transactionFor } from './versions.js';

/** The default "now" of the data set; fixed so that a seed always gives the same data. */
export const DEFAULT_AS_OF = '2025-06-15T12:00:00Z';

/** Margin added before the requested history length, so the span is never a little short. */
const HISTORY_MARGIN_MS = 7 * MS_PER_DAY;

function positive(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new RangeError(`createSandboxData: ${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${value}`);
  }
  return value;
}

/**
 * Generates the data set: `customers` customers with 2–4 accounts each and, for every
 * account, its transactions, statements, balances, payees, parties and product, in the
 * record shapes of `version`. Same options ⇒ deep-equal data; identifiers depend only on
 * the seed and the customer and account positions, not on `years` or `perDay`.
 */
export function createSandboxData<V extends SpecVersion = 'v2.2'>(options: SandboxDataOptions<V> = {}): SandboxData<V> {
  const version = (options.version ?? 'v2.2') as V;
  if (version !== 'v2.1' && version !== 'v2.2') throw new RangeError(`createSandboxData: unknown version ${String(version)}`);
  const seed = Math.trunc(options.seed ?? 1);
  const customerCount = Math.trunc(positive('customers', options.customers ?? 3, true));
  const years = positive('years', options.years ?? 2);
  const perDay = positive('perDay', options.perDay ?? 3, true);
  const asOfInstant = instantOf(options.asOf ?? DEFAULT_AS_OF);
  if (asOfInstant === undefined) throw new RangeError(`createSandboxData: asOf is not an RFC 3339 date-time: ${options.asOf}`);
  // Whole seconds keep every derived timestamp exactly writable.
  const asOfMs = Math.floor(epochMsOf(asOfInstant) / 1000) * 1000;
  const startMs = startOfMonthUtc(asOfMs - years * 365.25 * MS_PER_DAY - HISTORY_MARGIN_MS);

  const customers: SandboxCustomer<V>[] = [];
  for (let c = 0; c < customerCount; c++) {
    const profile = customerProfile(seed, c, asOfMs);
    const accounts: SandboxAccount<V>[] = accountProfiles(seed, profile, startMs).map((account) => {
      const ledger = generateTransactions(seed, account, { startMs, asOfMs, perDay });
      return {
        account: accountRecord(account),
        customerId: profile.customerId,
        balances: generateBalances(account, ledger, asOfMs),
        ...generatePayees(seed, account, asOfMs),
        transactions: ledger.map((entry) => transactionFor(version, entry.transaction)),
        statements: generateStatements(account, ledger, startMs, asOfMs),
        parties: generateAccountParties(seed, account, asOfMs),
        product: productFor(version, generateProduct(account, asOfMs)),
      };
    });
    customers.push({ customerId: profile.customerId, party: ownParty(profile, asOfMs), accounts });
  }
  return { version, seed, asOf: formatInstant(asOfMs), customers };
}
