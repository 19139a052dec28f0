/**
 * Orders of section 4.5. Times are compared as instants; identifiers by UTF-16 code
 * units (not locale rules), so the order is the same on every machine.
 */
import { compareInstants, requireInstant, type Instant } from '../data/datetime.js';

/** Code-unit comparison of two identifiers. */
export function compareIds(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/** A transaction with its booking instant parsed once. */
export interface Booked<T> {
  readonly record: T;
  readonly booking: Instant;
}

/** Pairs each transaction with its parsed BookingDateTime. */
export function withBookingInstants<T extends { BookingDateTime: string }>(records: readonly T[]): Booked<T>[] {
  return records.map((record) => ({ record, booking: requireInstant(record.BookingDateTime) }));
}

/** Newest booking first; equal instants (in any encoding) by TransactionId descending. */
export function compareTransactions<T extends { TransactionId: string }>(a: Booked<T>, b: Booked<T>): number {
  return compareInstants(b.booking, a.booking) || compareIds(b.record.TransactionId, a.record.TransactionId);
}

/** Newest OpeningDate first (full dates compare as text); ties by StatementId descending. */
export function compareStatements(a: { OpeningDate: string; StatementId: string }, b: { OpeningDate: string; StatementId: string }): number {
  return compareIds(b.OpeningDate, a.OpeningDate) || compareIds(b.StatementId, a.StatementId);
}

/** Ascending by an identifier member: the stable order of the other lists. */
export function byId<T>(id: (record: T) => string): (a: T, b: T) => number {
  return (a, b) => compareIds(id(a), id(b));
}
