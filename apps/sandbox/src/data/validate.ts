/**
 * Checks every record of a data set against the validators generated from our spec, by
 * record schema name. Used by the tests and handy after changing the generator.
 */
import * as V21 from '@bank-data-sharing/validators/v2.1';
import * as V22 from '@bank-data-sharing/validators/v2.2';
import type { SandboxData, SpecVersion } from './types.js';

/** One record that failed its schema. */
export interface RecordIssue {
  /** Schema name, e.g. `Transaction`. */
  readonly schema: string;
  /** Where the record sits, e.g. `customers[0].accounts[1].transactions[17]`. */
  readonly path: string;
  readonly message: string;
}

/** Anything with zod's `safeParse`; the generated schemas are zod schemas. */
interface Checkable {
  safeParse(value: unknown): { success: true } | { success: false; error: { message: string } };
}

const SCHEMAS: Readonly<Record<SpecVersion, Readonly<Record<string, Checkable>>>> = {
  'v2.1': V21.schemas,
  'v2.2': V22.schemas,
};

/** Returns every record that does not validate (an empty list when all are valid). */
export function validateSandboxData(data: SandboxData): RecordIssue[] {
  const schemas = SCHEMAS[data.version];
  const issues: RecordIssue[] = [];
  const check = (schema: string, path: string, value: unknown): void => {
    const validator = schemas[schema];
    if (validator === undefined) throw new Error(`no schema named ${schema} in ${data.version}`);
    const result = validator.safeParse(value);
    if (!result.success) issues.push({ schema, path, message: result.error.message });
  };
  const checkAll = (schema: string, path: string, values: readonly unknown[]): void =>
    values.forEach((value, i) => check(schema, `${path}[${i}]`, value));

  data.customers.forEach((customer, c) => {
    const base = `customers[${c}]`;
    check('Party', `${base}.party`, customer.party);
    customer.accounts.forEach((entry, a) => {
      const at = `${base}.accounts[${a}]`;
      check('Account', `${at}.account`, entry.account);
      checkAll('Balance', `${at}.balances`, entry.balances);
      checkAll('Beneficiary', `${at}.beneficiaries`, entry.beneficiaries);
      checkAll('DirectDebit', `${at}.directDebits`, entry.directDebits);
      checkAll('ScheduledPayment', `${at}.scheduledPayments`, entry.scheduledPayments);
      checkAll('StandingOrder', `${at}.standingOrders`, entry.standingOrders);
      checkAll('Transaction', `${at}.transactions`, entry.transactions);
      checkAll('Statement', `${at}.statements`, entry.statements);
      checkAll('AccountParty', `${at}.parties`, entry.parties);
      check('Product', `${at}.product`, entry.product);
    });
  });
  return issues;
}
