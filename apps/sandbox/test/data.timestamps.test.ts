import { DateTime } from '@bank-data-sharing/validators/v2.2';
import { describe, expect, it } from 'vitest';
import { compareInstants, formatInstant, instantOf, requireInstant } from '../src/data/datetime.js';
import { allAccounts, platformMs, smallData } from './fixtures.js';

const OFFSET = /(Z|[+-]\d{2}:\d{2})$/;

describe('timestamps', () => {
  const transactions = allAccounts(smallData('v2.2')).flatMap((e) => e.transactions);
  const bookings = transactions.map((t) => t.BookingDateTime);

  it('use mixed offset encodings for BookingDateTime: Z, +00:00, +04:00 and -05:00', () => {
    const offsets = new Set(bookings.map((b) => OFFSET.exec(b)?.[1]));
    expect([...offsets].sort()).toEqual(['+00:00', '+04:00', '-05:00', 'Z']);
  });

  it('sometimes carry fractional seconds, of several precisions', () => {
    const precisions = new Set(bookings.map((b) => /\.(\d+)/.exec(b)?.[1]?.length ?? 0));
    expect(precisions).toContain(0);
    expect([...precisions].filter((p) => p > 0).length).toBeGreaterThanOrEqual(2);
  });

  it('never use -00:00 and always match the DateTime pattern', () => {
    const all = transactions.flatMap((t) => [t.BookingDateTime, t.TransactionDateTime, t.ValueDateTime ?? t.BookingDateTime]);
    expect(all.some((v) => v.endsWith('-00:00'))).toBe(false);
    for (const value of all) expect(DateTime.safeParse(value).success).toBe(true);
  });

  it('mean the instant they were generated for (our parser agrees with the platform)', () => {
    for (const b of bookings) {
      const mine = requireInstant(b);
      expect(mine.seconds * 1000 + Number(mine.fraction.slice(0, 3).padEnd(3, '0'))).toBe(platformMs(b));
    }
  });

  it('format one instant identically in every encoding, as far as comparison goes', () => {
    const ms = Date.UTC(2024, 11, 31, 23, 30, 0, 200);
    const encodings = [formatInstant(ms, 'Z', 3), formatInstant(ms, '+00:00', 6), formatInstant(ms, '+04:00', 1), formatInstant(ms, '-05:00', 3)];
    expect(encodings).toEqual(['2024-12-31T23:30:00.200Z', '2024-12-31T23:30:00.200000+00:00', '2025-01-01T03:30:00.2+04:00', '2024-12-31T18:30:00.200-05:00']);
    // Writing the instant with too few digits would change it, so the formatter refuses.
    expect(() => formatInstant(ms + 50, '+04:00', 1)).toThrow();
    for (const e of encodings) expect(compareInstants(requireInstant(e), requireInstant(encodings[0]!))).toBe(0);
  });

  it('compares by instant, not text', () => {
    const earlier = requireInstant('2025-01-01T03:00:00+04:00'); // 2024-12-31T23:00Z
    const later = requireInstant('2024-12-31T23:30:00Z');
    expect(compareInstants(earlier, later)).toBeLessThan(0);
    expect(compareInstants(requireInstant('2025-01-01T00:00:00.1Z'), requireInstant('2025-01-01T00:00:00.099999Z'))).toBeGreaterThan(0);
    expect(instantOf('2025-02-30T00:00:00Z')).toBeUndefined();
    expect(instantOf('2025-01-01T00:00:00')).toBeUndefined();
  });
});
