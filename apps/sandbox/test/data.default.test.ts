import { describe, expect, it } from 'vitest';
import { requireInstant } from '../src/data/datetime.js';
import { createSandboxData, DEFAULT_AS_OF } from '../src/data/generate.js';
import { validateSandboxData } from '../src/data/validate.js';
import { allAccounts } from './fixtures.js';

/** The one test over the full default data set (3 customers, 2 years, 3 a day). */
describe.each(['v2.1', 'v2.2'] as const)('default data set, %s', (version) => {
  const data = createSandboxData({ version });
  const accounts = allAccounts(data);

  it('is seeded and anchored as documented', () => {
    expect(data.seed).toBe(1);
    expect(data.asOf).toBe(DEFAULT_AS_OF);
    expect(data.customers).toHaveLength(3);
  });

  it('holds at least two years of transactions and statements per account', () => {
    for (const entry of accounts) {
      const instants = entry.transactions.map((t) => requireInstant(t.BookingDateTime).seconds * 1000);
      const first = Math.min(...instants);
      const last = Math.max(...instants);
      const twoYearsBeforeLast = new Date(last);
      twoYearsBeforeLast.setUTCFullYear(twoYearsBeforeLast.getUTCFullYear() - 2);
      expect(first).toBeLessThanOrEqual(twoYearsBeforeLast.getTime());
      expect(entry.transactions.length).toBeGreaterThan(2 * 365 * 2);
      expect(entry.statements.length).toBeGreaterThanOrEqual(24);
    }
  });

  it('validates in full', () => {
    expect(validateSandboxData(data)).toEqual([]);
  });
});
