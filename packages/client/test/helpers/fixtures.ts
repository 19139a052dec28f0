/**
 * Valid v2.2 records and page envelopes for the loopback test servers.
 */
import type { Transaction } from '@bank-data-sharing/validators/v2.2';

const DAY = 86_400_000;

/** A valid v2.2 transaction booked at `booked`, identified by `id`. */
export function transaction(id: string, booked: Date): Transaction {
  const at = booked.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    TransactionId: id,
    TransactionDateTime: at,
    TransactionType: 'POS',
    SubTransactionType: 'Purchase',
    CreditDebitIndicator: 'Debit',
    Status: 'Booked',
    BookingDateTime: at,
    TransactionInformation: `Card purchase ${id}`,
    Amount: { Amount: '12.50', Currency: 'AED' },
  } as Transaction;
}

/**
 * Two years of transactions, newest first (section 4.5: descending BookingDateTime, ties by
 * TransactionId descending), `perDay` a day.
 */
export function twoYearHistory(end: Date, perDay: number): Transaction[] {
  const out: Transaction[] = [];
  for (let day = 0; day < 730; day++) {
    for (let n = perDay - 1; n >= 0; n--) {
      const booked = new Date(end.getTime() - day * DAY - n * 60_000);
      out.push(transaction(`tx-${String(729 - day).padStart(3, '0')}-${n}`, booked));
    }
  }
  return out;
}

/** A TPP-facing page of transactions. */
export function transactionsPage(
  accountId: string,
  records: Transaction[],
  links: { Self: string; First?: string; Prev?: string; Next?: string; Last?: string },
  totalPages: number,
) {
  return { Data: { AccountId: accountId, Transaction: records }, Links: links, Meta: { TotalPages: totalPages } };
}
