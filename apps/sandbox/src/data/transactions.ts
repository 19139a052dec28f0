/**
 * The transaction history of an account: a few entries a day over the whole history,
 * booked at times written in mixed offset encodings (section 2.4 says receivers must
 * treat every encoding of an instant alike, so the sandbox makes clients prove it).
 */
import type { Transaction } from '@bank-data-sharing/validators/v2.2';
import type { AccountProfile } from './accounts.js';
import { OWN_BANK } from './catalog.js';
import { formatInstant, MS_PER_DAY, MS_PER_MINUTE, type FractionDigits, type OffsetEncoding } from './datetime.js';
import { amount, indicatorOf } from './money.js';
import { streamFor, type Rng } from './prng.js';
import { statementIdFor } from './statement-ids.js';
import { kindFor } from './transaction-kinds.js';

/** One booked or pending entry, as the statement builder needs it. */
export interface LedgerEntry {
  readonly bookingMs: number;
  readonly signedMinor: number;
  readonly booked: boolean;
  readonly transaction: Transaction;
}

/** Inputs that fix the time window and density of a history. */
export interface HistoryWindow {
  /** Midnight UTC of the first day of history (the first of a month). */
  readonly startMs: number;
  /** The data set's "now": nothing is booked at or after it. */
  readonly asOfMs: number;
  /** Mean number of entries per day. */
  readonly perDay: number;
}

/** Entries booked less than this long before "now" are still pending. */
const PENDING_WINDOW_MS = MS_PER_DAY;

const ENCODINGS: readonly (readonly [OffsetEncoding, number])[] = [
  ['Z', 40],
  ['+00:00', 20],
  ['+04:00', 25],
  ['-05:00', 15],
];

/** Number of entries on one day: `perDay` on average, never negative. */
function countForDay(rng: Rng, perDay: number): number {
  const whole = Math.floor(perDay);
  const base = whole + (rng.chance(perDay - whole) ? 1 : 0);
  return base >= 1 ? base + rng.int(-1, 1) : base;
}

/** Milliseconds part of a booking time: mostly whole seconds, sometimes not. */
function drawMillis(rng: Rng): number {
  return rng.weighted<() => number>([
    [() => 0, 70],
    [() => rng.int(0, 9) * 100, 10],
    [() => rng.int(0, 999), 20],
  ])();
}

/** How many fraction digits can write `ms` exactly; zero digits only for whole seconds. */
function drawFraction(rng: Rng, ms: number): FractionDigits {
  if (ms === 0) return rng.weighted<FractionDigits>([[0, 85], [1, 5], [3, 5], [6, 5]]);
  if (ms % 100 === 0) return rng.pick<FractionDigits>([1, 3, 6]);
  return rng.pick<FractionDigits>([3, 6]);
}

/** Booking instants of one day, ascending; now and then two share an instant (a batch). */
function bookingTimes(rng: Rng, dayMs: number, count: number, limitMs: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(dayMs + rng.int(0, 86_399) * 1000 + drawMillis(rng));
  times.sort((a, b) => a - b);
  for (let i = 1; i < times.length; i++) {
    if (rng.chance(0.04)) times[i] = times[i - 1] as number;
  }
  return times.filter((t) => t < limitMs);
}

/**
 * Generates the history of one account, oldest first, and returns it with the ledger
 * the statements are built from. Identifiers count up in booking order, so that the
 * tie-break of section 4.5 (TransactionId descending) also puts later entries first.
 */
export function generateTransactions(seed: number, account: AccountProfile, window: HistoryWindow): LedgerEntry[] {
  const rng = streamFor(seed, `transactions:${account.accountId}`);
  const entries: LedgerEntry[] = [];
  let balance = account.openingBalanceMinor;
  const lastDayMs = Math.floor((window.asOfMs - 1) / MS_PER_DAY) * MS_PER_DAY;
  for (let dayMs = window.startMs; dayMs <= lastDayMs; dayMs += MS_PER_DAY) {
    let count = countForDay(rng, window.perDay);
    // The first and last full days always have an entry, so the history really spans the window.
    if (count === 0 && (dayMs === window.startMs || dayMs === lastDayMs - MS_PER_DAY)) count = 1;
    const dayOfMonth = new Date(dayMs).getUTCDate();
    const times = bookingTimes(rng, dayMs, count, window.asOfMs);
    times.forEach((bookingMs, ordinal) => {
      const draft = kindFor(rng, account, dayOfMonth, ordinal)(rng, account);
      const booked = bookingMs < window.asOfMs - PENDING_WINDOW_MS;
      if (booked) balance += draft.signedMinor;
      const seq = entries.length + 1;
      const wholeSecondMs = bookingMs - (bookingMs % 1000);
      const occurredMs = wholeSecondMs - rng.int(0, 240) * MS_PER_MINUTE;
      const localOffset = draft.localOffset ?? '+04:00';
      const statementId = statementIdFor(account, bookingMs, window.asOfMs);
      const transaction: Transaction = {
        TransactionId: `txn-${account.key}-${String(seq).padStart(7, '0')}`,
        TransactionDateTime: formatInstant(occurredMs, localOffset),
        LocalTimeZone: `UTC${localOffset}`,
        ...(statementId === undefined || !booked ? {} : { StatementReference: statementId }),
        TransactionReference: `${OWN_BANK.code}${rng.digits(12)}`,
        ...draft.fields,
        CreditDebitIndicator: indicatorOf(draft.signedMinor),
        Status: booked ? 'Booked' : 'Pending',
        TransactionMutability: booked ? 'Immutable' : 'Mutable',
        BookingDateTime: formatInstant(bookingMs, rng.weighted(ENCODINGS), drawFraction(rng, bookingMs % 1000)),
        ValueDateTime: formatInstant(bookingMs, 'Z', bookingMs % 1000 === 0 ? 0 : 3),
        Amount: amount(draft.signedMinor, account.currency),
        ProprietaryBankTransactionCode: { Code: `${draft.fields.TransactionType}-${draft.fields.SubTransactionType}`.slice(0, 35), Issuer: OWN_BANK.name },
        ...(booked ? { Balance: { CreditDebitIndicator: indicatorOf(balance), Type: 'InterimBooked' as const, Amount: amount(balance, account.currency) } } : {}),
      };
      entries.push({ bookingMs, signedMinor: draft.signedMinor, booked, transaction });
    });
  }
  return entries;
}
