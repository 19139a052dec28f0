/**
 * @bank-data-sharing/sandbox — a sandbox LFI for the Bank Data Sharing APIs.
 *
 * - `createSandboxData` builds deterministic synthetic data (customers, accounts and all
 *   their records) in the record shapes of v2.1 or v2.2.
 * - `createLfiStore` serves that data with the hub-to-LFI paging semantics (section 4.7).
 * - `createAuthStore` keeps bearer tokens, consents and attestations in memory.
 * - `startSandbox` runs the whole chain on loopback: an LFI on the generated hub-to-LFI
 *   stubs and a hub on the generated TPP-facing routers, paging through the LFI over HTTP.
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

export {
  startSandbox,
  DEFAULT_HUB_PORT,
  DEFAULT_LFI_PORT,
  type Sandbox,
  type SandboxOptions,
  type TppSigningKey,
} from './sandbox/start-sandbox.js';
export { listenOnLoopback, LOOPBACK, type Listener } from './sandbox/listen.js';
export { createSandboxRoutes, type SandboxCustomerInfo, type SandboxRouteOptions } from './sandbox/routes.js';
export { ALL_DATA_PERMISSIONS, DEFAULT_SCOPES } from './sandbox/grants.js';
export { createLfiApp, type LfiAppOptions } from './lfi-server/app.js';
export { createLfiHandlers } from './lfi-server/handlers.js';
export { ACCOUNTS_HEADER, CUSTOMER_HEADER, contextHeaders, readContext, type ConsentContext } from './lfi-server/consent-context.js';
export { createHubApp, JWKS_PATH, type HubAppOptions } from './hub/app.js';
export { accessHooks, hubGrant, type HubGrant } from './hub/access.js';
export { createConsentHandlers, createAttestationHandlers, type AttestationHandlers, type ConsentHandlers } from './hub/consent-handlers.js';
export { createDataHandlers, type DataHandlerOptions, type DataHandlers } from './hub/data-handlers.js';
export { createHubKeys, type HubKeys, type Jwks, type SigningAlgorithm } from './hub/keys.js';
export { createLfiAccess, type ForwardedRequest, type LfiAccess, type LfiAccessOptions } from './hub/lfi-access.js';
export { createTppKeyRegistry, TPP_SIGNING_ALGORITHMS, type TppKeyRegistry } from './hub/tpp-keys.js';
export { runDemo, type DemoOptions, type DemoReport } from './demo/run-demo.js';
export { openSession, sandboxIsUp, type SandboxSession } from './demo/session.js';
