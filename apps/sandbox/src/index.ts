/**
 * @bank-data-sharing/sandbox — a sandbox LFI for the Bank Data Sharing APIs.
 *
 * - `createSandboxData` builds deterministic synthetic data (customers, accounts and all
 *   their records) in the record shapes of v2.1 or v2.2.
 * - `createLfiStore` serves that data with the hub-to-LFI paging semantics (section 4.7).
 * - `createAuthStore` keeps bearer tokens, consents and attestations in memory.
 *
 * Everything is in memory; nothing needs installing or persisting.
 */

export { createSandboxData, DEFAULT_AS_OF } from './data/generate.js';
export { validateSandboxData, type RecordIssue } from './data/validate.js';
export { compareInstants, instantOf, type Instant } from './data/datetime.js';
export {
  SPEC_VERSIONS,
  type Account,
  type AccountParty,
  type Balance,
  type Beneficiary,
  type DirectDebit,
  type Party,
  type ProductOf,
  type SandboxAccount,
  type SandboxCustomer,
  type SandboxData,
  type SandboxDataOptions,
  type ScheduledPayment,
  type SpecVersion,
  type StandingOrder,
  type Statement,
  type TransactionOf,
} from './data/types.js';

export { createLfiStore, type HistoryBounds, type LfiListQuery, type LfiStore } from './lfi/store.js';
export { LfiStoreError, type LfiStoreErrorReason } from './lfi/errors.js';
export type { LfiFilters } from './lfi/filters.js';
export { DEFAULT_PAGE_SIZE, paginate, type LfiPage, type LfiPageMeta, type PagingMode } from './lfi/paging.js';
export { LFI_RESOURCES, isLfiResource, type LfiRecords, type LfiResource } from './lfi/resources.js';

export {
  createAuthStore,
  type AccessDecision,
  type AccessRefusal,
  type AccessRequest,
  type AuthStore,
  type AuthStoreOptions,
} from './auth/store.js';
export { AuthError, type AuthErrorReason } from './auth/errors.js';
export { ACCESS_TOKEN_TTL_SECONDS, bearerToken, TokenStore, type IssuedToken, type TokenCheck, type TokenGrant } from './auth/tokens.js';
export { ConsentStore, STATUS_TRANSITIONS, TERMINAL_STATUSES, type ConsentInput, type ConsentRecord } from './auth/consents.js';
export { AttestationStore, DEFAULT_ATTESTATION_DEADLINE_DAYS, type ReadAttestationsOptions } from './auth/attestations.js';
export {
  OPERATION_PERMISSIONS,
  isDataOperation,
  permitsOperation,
  scopesFor,
  type DataOperationId,
  type OperationId,
} from './auth/permissions.js';
export { systemClock, type Clock } from './auth/clock.js';
