/**
 * Money is generated and summed in minor units (integers) so that totals are exact, and
 * written as the spec's decimal strings only at the edge.
 */
import type { Amount } from '@bank-data-sharing/validators/v2.2';

/** Writes minor units (two decimals) as an unsigned AmountValue string, e.g. 12345 → "123.45". */
export function amountValue(minorUnits: number): string {
  const abs = Math.abs(Math.round(minorUnits));
  return `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** An Amount object; the sign is dropped because the spec carries it in CreditDebitIndicator. */
export function amount(minorUnits: number, currency: string): Amount {
  return { Amount: amountValue(minorUnits), Currency: currency };
}

/** Credit for zero or more, Debit below zero (how a signed balance is reported). */
export function indicatorOf(minorUnits: number): 'Credit' | 'Debit' {
  return minorUnits < 0 ? 'Debit' : 'Credit';
}
