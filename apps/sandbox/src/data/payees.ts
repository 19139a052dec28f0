/**
 * Payment set-ups of an account: saved beneficiaries, direct debit mandates, one-off
 * scheduled payments (in the future) and standing orders. Mostly on current accounts,
 * as at a real bank; other accounts often have none, which exercises empty lists.
 */
import type { Beneficiary, DirectDebit, ScheduledPayment, StandingOrder } from '@bank-data-sharing/validators/v2.2';
import type { AccountProfile } from './accounts.js';
import { BANKS, BILLERS, GIVEN_NAMES, SURNAMES } from './catalog.js';
import { formatInstant, MS_PER_DAY, startOfDayUtc, startOfMonthUtc } from './datetime.js';
import { randomIban } from './identifiers.js';
import { amount } from './money.js';
import { streamFor, type Rng } from './prng.js';

/** The four payment set-up lists of an account. */
export interface Payees {
  readonly beneficiaries: Beneficiary[];
  readonly directDebits: DirectDebit[];
  readonly scheduledPayments: ScheduledPayment[];
  readonly standingOrders: StandingOrder[];
}

interface Payee {
  readonly name: string;
  readonly shortName: string;
  readonly iban: string;
  readonly bic: string;
  readonly bankName: string;
}

function payee(rng: Rng): Payee {
  const given = rng.pick(GIVEN_NAMES);
  const [bankName, bic, code] = rng.pick(BANKS);
  return { name: `${given} ${rng.pick(SURNAMES)}`, shortName: given, iban: randomIban(rng, code), bic, bankName };
}

/**
 * The last occurrence before `asOfMs` of a monthly date (day of month, hour UTC), or,
 * with `monthsLater`, the occurrence that many months after it.
 */
function lastMonthlyBefore(asOfMs: number, dayOfMonth: number, hourUtc: number, monthsLater = 0): number {
  const at = (months: number): number => startOfMonthUtc(asOfMs, months) + (dayOfMonth - 1) * MS_PER_DAY + hourUtc * 3_600_000;
  const base = at(0) < asOfMs ? 0 : -1;
  return at(base + monthsLater);
}

/** How many of each set-up an account family gets: [min, max]. */
const COUNTS: Readonly<Record<string, readonly [readonly [number, number], readonly [number, number], readonly [number, number], readonly [number, number]]>> = {
  //               beneficiaries  direct debits  scheduled     standing orders
  CurrentAccount: [[2, 5], [1, 3], [0, 3], [1, 3]],
  Savings: [[0, 1], [0, 0], [0, 0], [0, 1]],
  CreditCard: [[0, 0], [0, 0], [0, 0], [0, 0]],
  Mortgage: [[0, 0], [0, 1], [0, 0], [0, 0]],
  Finance: [[0, 0], [0, 1], [0, 0], [0, 0]],
};

export function generatePayees(seed: number, account: AccountProfile, asOfMs: number): Payees {
  const rng = streamFor(seed, `payees:${account.accountId}`);
  const [b, d, s, o] = COUNTS[account.subType] ?? [[0, 0], [0, 0], [0, 0], [0, 0]];
  const { currency, key } = account;
  const today = startOfDayUtc(asOfMs);

  const beneficiaries: Beneficiary[] = [];
  for (let i = 1, n = rng.int(...b); i <= n; i++) {
    const p = payee(rng);
    beneficiaries.push({
      BeneficiaryId: `ben-${key}-${i}`,
      BeneficiaryType: rng.chance(0.8) ? 'Activated' : 'NotActivated',
      AddedViaOF: rng.chance(0.25),
      AccountHolderName: p.name,
      AccountHolderShortName: p.shortName,
      Reference: `Payee ${i}`,
      CreditorAgent: { SchemeName: 'BICFI', Identification: p.bic, Name: p.bankName },
      CreditorAccount: [{ SchemeName: 'IBAN', Identification: p.iban }],
    });
  }

  const directDebits: DirectDebit[] = [];
  for (let i = 1, n = rng.int(...d); i <= n; i++) {
    directDebits.push({
      DirectDebitId: `ddm-${key}-${i}`,
      MandateIdentification: `MND${rng.digits(10)}`,
      DirectDebitStatusCode: rng.chance(0.85) ? 'Active' : 'Inactive',
      Name: BILLERS[(i - 1) % BILLERS.length] as string,
      Frequency: rng.pick(['Monthly', 'Monthly', 'Quarterly', 'Annual'] as const),
      // Collections happen on the 5th, like the bill payments in the history.
      PreviousPaymentDateTime: formatInstant(lastMonthlyBefore(asOfMs, 5, 6), '+04:00'),
      PreviousPaymentAmount: amount(rng.int(120, 1_400) * 100, currency),
    });
  }

  const scheduledPayments: ScheduledPayment[] = [];
  for (let i = 1, n = rng.int(...s); i <= n; i++) {
    const p = payee(rng);
    scheduledPayments.push({
      ScheduledPaymentId: `spm-${key}-${i}`,
      AccountHolderName: p.name,
      AccountHolderShortName: p.shortName,
      ScheduledType: rng.pick(['Execution', 'Arrival'] as const),
      ScheduledPaymentDateTime: formatInstant(today + rng.int(2, 90) * MS_PER_DAY, 'Z'),
      CreditorReference: `Invoice ${rng.digits(6)}`,
      DebtorReference: `Payment ${i}`,
      InstructedAmount: amount(rng.int(50, 5_000) * 100, currency),
      CreditorAgent: { SchemeName: 'BICFI', Identification: p.bic },
      CreditorAccount: [{ SchemeName: 'IBAN', Identification: p.iban }],
    });
  }

  const standingOrders: StandingOrder[] = [];
  for (let i = 1, n = rng.int(...o); i <= n; i++) {
    const p = payee(rng);
    const monthly = rng.chance(0.7);
    const value = amount(rng.int(100, 4_000) * 100, currency);
    const firstMs = startOfMonthUtc(asOfMs, -rng.int(3, 30)) + 24 * MS_PER_DAY;
    standingOrders.push({
      StandingOrderId: `sto-${key}-${i}`,
      AccountHolderName: p.name,
      AccountHolderShortName: p.shortName,
      StandingOrderType: rng.pick(['LocalBankTransfer', 'SameBankTransfer', 'Charity'] as const),
      Frequency: monthly ? 'IntrvlMnthDay:01:25' : 'EveryDay',
      CreditorReference: `Rent ${i}`,
      Purpose: monthly ? 'Monthly rent' : 'Daily savings sweep',
      FirstPaymentDateTime: formatInstant(firstMs, '+04:00'),
      NextPaymentDateTime: formatInstant(monthly ? lastMonthlyBefore(asOfMs, 25, 0, 1) : today + MS_PER_DAY, '+04:00'),
      LastPaymentDateTime: formatInstant(monthly ? lastMonthlyBefore(asOfMs, 25, 0) : today, '+04:00'),
      StandingOrderStatusCode: 'Active',
      FirstPaymentAmount: value,
      NextPaymentAmount: value,
      LastPaymentAmount: value,
      CreditorAgent: { SchemeName: 'BICFI', Identification: p.bic },
      CreditorAccount: [{ SchemeName: 'IBAN', Identification: p.iban }],
    });
  }

  return { beneficiaries, directDebits, scheduledPayments, standingOrders };
}
