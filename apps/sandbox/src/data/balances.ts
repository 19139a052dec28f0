/** Balances of an account at the data set's "now", derived from its ledger. */
import type { Balance } from '@bank-data-sharing/validators/v2.2';
import type { AccountProfile } from './accounts.js';
import { formatInstant, startOfDayUtc } from './datetime.js';
import { amount, indicatorOf } from './money.js';
import type { LedgerEntry } from './transactions.js';

/**
 * Three figures: the booked balance at the last midnight (ClosingBooked), and the
 * booked and available balances now (pending entries count towards available). Cards
 * include their credit line in the available balance.
 */
export function generateBalances(account: AccountProfile, ledger: readonly LedgerEntry[], asOfMs: number): Balance[] {
  const midnight = startOfDayUtc(asOfMs);
  let closing = account.openingBalanceMinor;
  let booked = account.openingBalanceMinor;
  let pending = 0;
  for (const entry of ledger) {
    if (!entry.booked) pending += entry.signedMinor;
    else {
      booked += entry.signedMinor;
      if (entry.bookingMs < midnight) closing += entry.signedMinor;
    }
  }
  const { currency } = account;
  const creditLine = account.creditLimitMinor;
  const available = booked + pending + (creditLine ?? 0);
  const isFinance = account.subType === 'Finance' || account.subType === 'Mortgage';
  return [
    {
      CreditDebitIndicator: indicatorOf(closing),
      Type: 'ClosingBooked',
      DateTime: formatInstant(midnight, '+00:00'),
      Amount: amount(closing, currency),
      ...(isFinance ? { Components: [{ BalanceCategory: 'Principal' as const, Amount: amount(closing, currency) }] } : {}),
    },
    {
      CreditDebitIndicator: indicatorOf(booked),
      Type: 'InterimBooked',
      DateTime: formatInstant(asOfMs, 'Z'),
      Amount: amount(booked, currency),
    },
    {
      CreditDebitIndicator: indicatorOf(available),
      Type: 'InterimAvailable',
      DateTime: formatInstant(asOfMs, '+04:00'),
      Amount: amount(available, currency),
      ...(creditLine === undefined
        ? {}
        : { CreditLine: [{ Included: true, Type: 'Credit' as const, Amount: amount(creditLine, currency) }] }),
    },
  ];
}
