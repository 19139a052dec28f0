import { describe, expect, it } from 'vitest';
import { checkOrder, compareIds, compareInstants, parseInstant, sortRecords, statementOrder, transactionOrder } from '../../src/runtime/index.js';

describe('parseInstant / compareInstants', () => {
  const at = (text: string) => parseInstant(text)!;

  it('treats +04:00 and Z encodings of one instant as equal', () => {
    expect(compareInstants(at('2025-01-01T04:00:00+04:00'), at('2025-01-01T00:00:00Z'))).toBe(0);
    expect(compareInstants(at('2024-12-31T20:00:00-04:00'), at('2025-01-01T00:00:00+00:00'))).toBe(0);
  });

  it('compares fractional seconds of any precision', () => {
    expect(compareInstants(at('2025-01-01T00:00:00.0000001Z'), at('2025-01-01T00:00:00Z'))).toBe(1);
    expect(compareInstants(at('2025-01-01T00:00:00.5Z'), at('2025-01-01T00:00:00.500000Z'))).toBe(0);
    expect(compareInstants(at('2025-01-01T00:00:00.12Z'), at('2025-01-01T00:00:00.120001Z'))).toBe(-1);
  });

  it('reads full dates as midnight UTC', () => {
    expect(at('2025-03-14')).toEqual({ seconds: Date.UTC(2025, 2, 14) / 1000, fraction: '' });
  });

  it.each(['2025-02-30T00:00:00Z', '2025-01-01T24:00:00Z', '2025-01-01T00:00:00', '2025-13-01', 'yesterday', '2025-01-01T00:00:00+25:00'])('rejects %s', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});

describe('compareIds', () => {
  it('compares digit strings numerically and others by code unit', () => {
    expect(compareIds('10', '9')).toBe(1);
    expect(compareIds('007', '7')).toBe(0);
    expect(compareIds('b', 'a')).toBe(1);
    expect(compareIds('T10', 'T9')).toBe(-1);
  });
});

describe('checkOrder', () => {
  const t = (id: string, at: string) => ({ TransactionId: id, BookingDateTime: at });

  it('accepts newest first with mixed offsets, and ties broken by id descending', () => {
    const records = [t('3', '2025-01-01T04:00:00+04:00'), t('2', '2025-01-01T00:00:00Z'), t('1', '2024-12-31T23:59:59.9Z')];
    expect(checkOrder(records, transactionOrder)).toEqual([]);
  });

  it('reports a broken instant order as a MUST violation', () => {
    expect(checkOrder([t('1', '2025-01-01T00:00:00Z'), t('2', '2025-01-01T00:00:01+00:00')], transactionOrder)).toEqual([
      { index: 1, level: 'must', message: 'record 1: BookingDateTime 2025-01-01T00:00:01+00:00 is later than 2025-01-01T00:00:00Z before it (newest first is required)' },
    ]);
  });

  it('reports a broken tie-break as a SHOULD violation', () => {
    const violations = checkOrder([t('1', '2025-01-01T04:00:00+04:00'), t('2', '2025-01-01T00:00:00Z')], transactionOrder);
    expect(violations.map((v) => [v.index, v.level])).toEqual([[1, 'should']]);
  });

  it('reports records without a valid instant', () => {
    expect(checkOrder([{ TransactionId: '1' }, t('2', 'soon')], transactionOrder).map((v) => v.message)).toEqual([
      'record 0: BookingDateTime undefined is not a date-time',
      'record 1: BookingDateTime "soon" is not a date-time',
    ]);
  });

  it('orders statements by OpeningDate, ties by StatementId', () => {
    const s = (id: string, date: string) => ({ StatementId: id, OpeningDate: date });
    const sorted = sortRecords([s('a', '2025-01-01'), s('c', '2025-02-01'), s('b', '2025-01-01')], statementOrder);
    expect(sorted.map((r) => r.StatementId)).toEqual(['c', 'b', 'a']);
    expect(checkOrder(sorted, statementOrder)).toEqual([]);
  });
});
