/**
 * Filter parameters of section 4.4, applied before paging (section 4.7, rule 2).
 * Bounds are inclusive. Booking times compare as instants, whatever their offsets.
 */
import { compareInstants, instantOf, isFullDate, type Instant } from '../data/datetime.js';
import { LfiStoreError } from './errors.js';

/** The filters a hub may forward; each applies to one resource and is ignored elsewhere. */
export interface LfiFilters {
  /** Transactions booked at or after this instant (RFC 3339 date-time with offset). */
  readonly fromBookingDateTime?: string | undefined;
  /** Transactions booked at or before this instant. */
  readonly toBookingDateTime?: string | undefined;
  /** Statements whose OpeningDate is on or after this day (YYYY-MM-DD). */
  readonly fromStatementDate?: string | undefined;
  /** Statements whose OpeningDate is on or before this day. */
  readonly toStatementDate?: string | undefined;
}

function bookingBound(name: string, value: string | undefined): Instant | undefined {
  if (value === undefined) return undefined;
  const instant = instantOf(value);
  if (instant === undefined) throw new LfiStoreError('InvalidFilter', `${name} must be an RFC 3339 date-time with an offset, got "${value}"`);
  return instant;
}

function dateBound(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isFullDate(value)) throw new LfiStoreError('InvalidFilter', `${name} must be a date (YYYY-MM-DD), got "${value}"`);
  return value;
}

/** A predicate on booking instants; throws `InvalidFilter` on a malformed bound. */
export function bookingFilter(filters: LfiFilters | undefined): (booking: Instant) => boolean {
  const from = bookingBound('fromBookingDateTime', filters?.fromBookingDateTime);
  const to = bookingBound('toBookingDateTime', filters?.toBookingDateTime);
  return (booking) =>
    (from === undefined || compareInstants(booking, from) >= 0) && (to === undefined || compareInstants(booking, to) <= 0);
}

/** A predicate on statement OpeningDates; throws `InvalidFilter` on a malformed bound. */
export function statementDateFilter(filters: LfiFilters | undefined): (openingDate: string) => boolean {
  const from = dateBound('fromStatementDate', filters?.fromStatementDate);
  const to = dateBound('toStatementDate', filters?.toStatementDate);
  // Full dates in one fixed format order correctly as text.
  return (openingDate) => (from === undefined || openingDate >= from) && (to === undefined || openingDate <= to);
}
