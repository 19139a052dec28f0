import * as V21 from '@bank-data-sharing/validators/v2.1';
import * as V22 from '@bank-data-sharing/validators/v2.2';
import { describe, expect, it } from 'vitest';
import { isValidIban } from '../src/data/identifiers.js';
import { validateSandboxData } from '../src/data/validate.js';
import { allAccounts, smallData } from './fixtures.js';

describe.each([
  ['v2.1', V21.schemas],
  ['v2.2', V22.schemas],
] as const)('records of %s', (version, schemas) => {
  const data = smallData(version);
  const accounts = allAccounts(data);

  it('all validate against the generated record schemas', () => {
    expect(validateSandboxData(data)).toEqual([]);
  });

  it('validate one by one with safeParse, by schema name', () => {
    // Independent of validateSandboxData: walk the data again and count every record checked.
    let checked = 0;
    const expectValid = (schema: keyof typeof schemas, value: unknown) => {
      const result = schemas[schema].safeParse(value);
      if (!result.success) throw new Error(`${String(schema)}: ${result.error.message}`);
      checked++;
    };
    for (const customer of data.customers) expectValid('Party', customer.party);
    for (const entry of accounts) {
      expectValid('Account', entry.account);
      const { AccountId: _id, ...detail } = entry.account;
      expectValid('AccountDetail', detail);
      entry.balances.forEach((r) => expectValid('Balance', r));
      entry.beneficiaries.forEach((r) => expectValid('Beneficiary', r));
      entry.directDebits.forEach((r) => expectValid('DirectDebit', r));
      entry.scheduledPayments.forEach((r) => expectValid('ScheduledPayment', r));
      entry.standingOrders.forEach((r) => expectValid('StandingOrder', r));
      entry.transactions.forEach((r) => expectValid('Transaction', r));
      entry.statements.forEach((r) => expectValid('Statement', r));
      entry.parties.forEach((r) => expectValid('AccountParty', r));
      expectValid('Product', entry.product);
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('has the expected population: customers, 2-4 accounts each, a product and balances per account', () => {
    expect(data.customers).toHaveLength(3);
    for (const customer of data.customers) {
      expect(customer.accounts.length).toBeGreaterThanOrEqual(2);
      expect(customer.accounts.length).toBeLessThanOrEqual(4);
      expect(customer.accounts[0]?.account.AccountSubType).toBe('CurrentAccount');
    }
    for (const entry of accounts) {
      expect(entry.balances.length).toBeGreaterThan(0);
      expect(entry.parties.length).toBeGreaterThan(0);
      expect(entry.transactions.length).toBeGreaterThan(0);
      expect(entry.statements.length).toBeGreaterThan(0);
    }
    const total = (pick: (entry: (typeof accounts)[number]) => readonly unknown[]) => accounts.reduce((n, e) => n + pick(e).length, 0);
    expect(total((e) => e.beneficiaries)).toBeGreaterThan(0);
    expect(total((e) => e.directDebits)).toBeGreaterThan(0);
    expect(total((e) => e.scheduledPayments)).toBeGreaterThan(0);
    expect(total((e) => e.standingOrders)).toBeGreaterThan(0);
  });

  it('uses unique identifiers and IBANs with correct check digits', () => {
    const ids = accounts.flatMap((e) => [
      e.account.AccountId,
      ...e.transactions.map((t) => t.TransactionId),
      ...e.statements.map((s) => s.StatementId),
      ...e.beneficiaries.map((b) => b.BeneficiaryId),
      ...e.directDebits.map((d) => d.DirectDebitId),
      ...e.scheduledPayments.map((s) => s.ScheduledPaymentId),
      ...e.standingOrders.map((s) => s.StandingOrderId),
    ]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of accounts) {
      for (const identifier of e.account.AccountIdentifiers ?? []) {
        if (identifier.SchemeName === 'IBAN') expect(isValidIban(identifier.Identification)).toBe(true);
      }
    }
  });

  it('chains statement balances: each closing balance opens the next month', () => {
    for (const e of accounts) {
      for (let i = 1; i < e.statements.length; i++) {
        expect(e.statements[i]?.OpeningBalance).toEqual(e.statements[i - 1]?.ClosingBalance);
      }
    }
  });
});

describe('version differences', () => {
  const v21 = allAccounts(smallData('v2.1'));
  const v22 = allAccounts(smallData('v2.2'));

  it('v2.2 transactions all carry TransactionInformation; some v2.1 ones do not (and would fail v2.2)', () => {
    expect(v22.every((e) => e.transactions.every((t) => typeof t.TransactionInformation === 'string'))).toBe(true);
    const without = v21.flatMap((e) => e.transactions.filter((t) => t.TransactionInformation === undefined));
    expect(without.length).toBeGreaterThan(0);
    expect(V22.Transaction.safeParse(without[0]).success).toBe(false);
    expect(V21.Transaction.safeParse(without[0]).success).toBe(true);
  });

  it('v2.1 products never have Takaful members; v2.2 products may', () => {
    expect(v21.every((e) => !('TakafulRequired' in e.product) && !('TakafulDescription' in e.product))).toBe(true);
    // Finance products always state TakafulRequired in v2.2; v2.1's strict schema refuses it.
    const finance = v22.filter((e) => e.account.AccountSubType === 'Finance' || e.account.AccountSubType === 'Mortgage');
    expect(finance.length).toBeGreaterThan(0);
    for (const e of finance) {
      expect(typeof e.product.TakafulRequired).toBe('boolean');
      expect(V21.Product.safeParse(e.product).success).toBe(false);
    }
  });
});
