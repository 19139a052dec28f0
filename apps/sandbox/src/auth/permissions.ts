/**
 * Scopes and consent permissions of each operation (sections 4.2 and 4.3). A data
 * operation is allowed when the consent grants at least one of its permissions.
 */
import type { Permission } from '@bank-data-sharing/validators/v2.2';

/** Operation ids of the TPP-facing API (v2.2; v2.1 has all but the attestation ones). */
export type OperationId =
  | 'GetAccountAccessConsentsByBaseConsentId'
  | 'GetAccountAccessConsentsConsentId'
  | 'PatchAccountAccessConsentsConsentId'
  | 'ReadAccountAccessConsentAttestations'
  | 'CreateAccountAccessConsentAttestation'
  | DataOperationId;

/** Operation ids of the data operations, which need a consent permission. */
export type DataOperationId =
  | 'GetAccounts'
  | 'GetAccountsAccountId'
  | 'GetAccountsAccountIdBalances'
  | 'GetAccountsAccountIdBeneficiaries'
  | 'GetAccountsAccountIdDirectDebits'
  | 'GetAccountsAccountIdProduct'
  | 'GetScheduledPayments'
  | 'GetAccountsAccountIdStandingOrders'
  | 'GetAccountsAccountIdTransactions'
  | 'PartiesByAccountId_read'
  | 'Parties_read'
  | 'GetAccountAccountIdStatements';

/** Section 4.3: the permissions that each give access to a data operation. */
export const OPERATION_PERMISSIONS: Readonly<Record<DataOperationId, readonly Permission[]>> = {
  GetAccounts: ['ReadAccountsBasic', 'ReadAccountsDetail'],
  GetAccountsAccountId: ['ReadAccountsBasic', 'ReadAccountsDetail'],
  GetAccountsAccountIdBalances: ['ReadBalances'],
  GetAccountsAccountIdBeneficiaries: ['ReadBeneficiariesBasic', 'ReadBeneficiariesDetail'],
  GetAccountsAccountIdDirectDebits: ['ReadDirectDebits'],
  GetAccountsAccountIdProduct: ['ReadProduct'],
  GetScheduledPayments: ['ReadScheduledPaymentsBasic', 'ReadScheduledPaymentsDetail'],
  GetAccountsAccountIdStandingOrders: ['ReadStandingOrdersBasic', 'ReadStandingOrdersDetail'],
  GetAccountsAccountIdTransactions: ['ReadTransactionsBasic', 'ReadTransactionsDetail'],
  PartiesByAccountId_read: ['ReadParty', 'ReadPartyUser', 'ReadPartyUserIdentity'],
  Parties_read: ['ReadParty', 'ReadPartyUser', 'ReadPartyUserIdentity'],
  GetAccountAccountIdStatements: ['ReadStatements'],
};

/** Scopes the access token must hold for each operation (attestations need `accounts` only). */
export function scopesFor(operationId: OperationId): readonly string[] {
  return operationId === 'ReadAccountAccessConsentAttestations' || operationId === 'CreateAccountAccessConsentAttestation'
    ? ['accounts']
    : ['openid', 'accounts'];
}

/** True for the operations gated by consent permissions. */
export function isDataOperation(operationId: string): operationId is DataOperationId {
  return Object.prototype.hasOwnProperty.call(OPERATION_PERMISSIONS, operationId);
}

/** Section 4.3: true when `granted` holds at least one permission listed for the operation. */
export function permitsOperation(granted: readonly Permission[], operationId: DataOperationId): boolean {
  const needed = OPERATION_PERMISSIONS[operationId];
  return needed.some((permission) => granted.includes(permission));
}

/** True for operations whose path names an account, which must then be one of the consent's. */
export function isPerAccountOperation(operationId: DataOperationId): boolean {
  return operationId !== 'GetAccounts' && operationId !== 'Parties_read';
}
