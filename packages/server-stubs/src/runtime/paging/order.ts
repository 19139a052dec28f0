/**
 * Ordering rules of section 4.5 and the check the adapter runs on every LFI page. The rule
 * reads the records through accessors, so the check does not depend on the record shape.
 */
import { compareInstants, parseInstant } from './instant.js';

/** A descending order: by an instant (MUST), ties by an identifier (SHOULD). */
export interface OrderRule {
  /** Name of the instant field, for messages (e.g. `BookingDateTime`). */
  readonly keyName: string;
  /** The record's instant (date-time or date text). */
  readonly key: (record: unknown) => unknown;
  /** Name of the tie-breaking identifier field (e.g. `TransactionId`). */
  readonly tieName: string;
  readonly tie: (record: unknown) => unknown;
}

function member(name: string): (record: unknown) => unknown {
  return (record) => (record !== null && typeof record === 'object' ? (record as Record<string, unknown>)[name] : undefined);
}

/**
 * Transactions: `BookingDateTime` descending, ties by `TransactionId` descending.
 *
 * @example
 * checkOrder(lfiAnswer.data, transactionOrder)
 */
export const transactionOrder: OrderRule = {
  keyName: 'BookingDateTime',
  key: member('BookingDateTime'),
  tieName: 'TransactionId',
  tie: member('TransactionId'),
};

/** Statements: `OpeningDate` descending, ties by `StatementId` descending. */
export const statementOrder: OrderRule = {
  keyName: 'OpeningDate',
  key: member('OpeningDate'),
  tieName: 'StatementId',
  tie: member('StatementId'),
};

/**
 * Compares identifiers: numerically when both are digit strings (so `10` follows `9`),
 * otherwise by UTF-16 code units.
 *
 * @example
 * compareIds('10', '9') // → 1
 */
export function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) {
    const x = a.replace(/^0+(?=\d)/, '');
    const y = b.replace(/^0+(?=\d)/, '');
    if (x.length !== y.length) return x.length < y.length ? -1 : 1;
    return x === y ? 0 : x < y ? -1 : 1;
  }
  return a === b ? 0 : a < b ? -1 : 1;
}

export interface OrderViolation {
  /** Index (in the page) of the record found out of order. */
  readonly index: number;
  /** `must`: the instant order is broken; `should`: the tie-break is. */
  readonly level: 'must' | 'should';
  readonly message: string;
}

/**
 * Every place where `records` break `rule` (empty when in order).
 *
 * @example
 * checkOrder([{ BookingDateTime: '2025-01-01T00:00:00Z', TransactionId: '1' },
 *             { BookingDateTime: '2025-01-02T00:00:00Z', TransactionId: '2' }], transactionOrder)
 * // → [{ index: 1, level: 'must', message: 'record 1: BookingDateTime 2025-01-02T00:00:00Z is later than ...' }]
 */
export function checkOrder(records: readonly unknown[], rule: OrderRule): OrderViolation[] {
  const violations: OrderViolation[] = [];
  const keys = records.map((r) => {
    const value = rule.key(r);
    return typeof value === 'string' ? parseInstant(value) : undefined;
  });
  keys.forEach((key, index) => {
    if (!key) violations.push({ index, level: 'must', message: `record ${index}: ${rule.keyName} ${JSON.stringify(rule.key(records[index]))} is not a date-time` });
  });
  for (let i = 1; i < records.length; i++) {
    const previous = keys[i - 1];
    const current = keys[i];
    if (!previous || !current) continue;
    const order = compareInstants(previous, current);
    if (order < 0) {
      violations.push({
        index: i,
        level: 'must',
        message: `record ${i}: ${rule.keyName} ${String(rule.key(records[i]))} is later than ${String(rule.key(records[i - 1]))} before it (newest first is required)`,
      });
    } else if (order === 0) {
      const a = String(rule.tie(records[i - 1]) ?? '');
      const b = String(rule.tie(records[i]) ?? '');
      if (compareIds(a, b) <= 0) {
        violations.push({
          index: i,
          level: 'should',
          message: `record ${i}: same ${rule.keyName} as the record before it, but ${rule.tieName} ${JSON.stringify(b)} does not sort before ${JSON.stringify(a)} (descending)`,
        });
      }
    }
  }
  return violations;
}

/**
 * A copy of `records` in the rule's order (for LFI implementations and tests).
 *
 * @example
 * sortRecords(transactions, transactionOrder)
 */
export function sortRecords<R>(records: readonly R[], rule: OrderRule): R[] {
  const keyed = records.map((record) => ({ record, key: parseInstant(String(rule.key(record))), tie: String(rule.tie(record) ?? '') }));
  keyed.sort((a, b) => {
    if (a.key && b.key) {
      const order = compareInstants(b.key, a.key);
      if (order !== 0) return order;
    } else if (a.key || b.key) return a.key ? -1 : 1;
    return compareIds(b.tie, a.tie);
  });
  return keyed.map((k) => k.record);
}
