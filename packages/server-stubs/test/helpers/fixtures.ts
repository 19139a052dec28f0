/** Records that satisfy the v2.1 and v2.2 schemas, built from a few varying facts. */
import type { Account, Attestation, Consent, Statement, Transaction } from '@bank-data-sharing/validators/v2.2';

export const ACCOUNT_ID = 'acc-001';
export const CONSENT_ID = 'consent-001';

export function account(id: string): Account {
  return { AccountId: id, Currency: 'AED', AccountType: 'Retail', AccountSubType: 'CurrentAccount', Nickname: `Account ${id}` };
}

/** A v2.2 transaction (TransactionInformation is required there; v2.1 accepts it too). */
export function transaction(id: string, bookingDateTime: string): Transaction {
  return {
    TransactionId: id,
    TransactionDateTime: bookingDateTime,
    TransactionType: 'POS',
    SubTransactionType: 'Purchase',
    CreditDebitIndicator: 'Debit',
    Status: 'Booked',
    BookingDateTime: bookingDateTime,
    TransactionInformation: `Purchase ${id}`,
    Amount: { Amount: '10.00', Currency: 'AED' },
  };
}

/** `count` transactions, one hour apart, newest first, ids `t0001`… (newest has the highest id). */
export function transactions(count: number, newest = Date.UTC(2025, 2, 14, 12)): Transaction[] {
  return Array.from({ length: count }, (_, i) => {
    const n = count - i;
    return transaction(`t${String(n).padStart(4, '0')}`, new Date(newest - i * 3_600_000).toISOString().replace('.000Z', 'Z'));
  });
}

export function statement(id: string, openingDate: string): Statement {
  return {
    StatementId: id,
    StatementDate: openingDate,
    OpeningDate: openingDate,
    ClosingDate: openingDate,
    OpeningBalance: { CreditDebitIndicator: 'Credit', Amount: { Amount: '100.00', Currency: 'AED' } },
    ClosingBalance: { CreditDebitIndicator: 'Credit', Amount: { Amount: '90.00', Currency: 'AED' } },
    Summary: [],
  };
}

export function consent(id: string, self: string): Consent {
  return {
    Data: {
      ConsentId: id,
      BaseConsentId: 'base-001',
      CreationDateTime: '2025-01-01T00:00:00Z',
      Status: 'Authorized',
      StatusUpdateDateTime: '2025-01-01T00:00:00Z',
      Permissions: ['ReadAccountsBasic', 'ReadTransactionsBasic'],
      ExpirationDateTime: '2026-01-01T00:00:00Z',
      OpenFinanceBilling: { UserType: 'Retail', Purpose: 'AccountAggregation' },
    },
    Links: { Self: self },
  };
}

export const attestation: Attestation = {
  AttestationType: 'DataRetentionDeletion',
  AttestationStatusAppliedDateTime: '2025-02-01T00:00:00Z',
  DataAccessCeasedDateTime: '2025-02-01T00:00:00Z',
  DataActions: [{ DataActionType: 'Deleted', DataCategory: 'AllConsentedData', AttestationDate: '2025-02-01T00:00:00Z' }],
};
