/**
 * The hub's security hooks for the generated TPP routers, over the sandbox auth store:
 * `authorize` says what a bearer token grants (the router then checks the scopes), and
 * `checkConsent` applies the store's full decision (consent status, permissions of section
 * 4.3, the accounts of the consent) once the request has been validated.
 */
import { ApiError, type AuthGrant, type Authorize, type CheckConsent } from '@bank-data-sharing/server-stubs/runtime';
import type { AuthStore } from '../auth/store.js';
import { isDataOperation, type OperationId } from '../auth/permissions.js';

/** What the hub's grant carries to the handlers (`request.auth`). */
export interface HubGrant extends AuthGrant {
  /** The bearer token, so that `checkConsent` can ask the store about the exact request. */
  readonly credential: string;
  /** The consent the token was issued under, if any. */
  readonly consentId: string | undefined;
}

const CONSENT_OPERATIONS: readonly string[] = [
  'GetAccountAccessConsentsByBaseConsentId',
  'GetAccountAccessConsentsConsentId',
  'PatchAccountAccessConsentsConsentId',
  'ReadAccountAccessConsentAttestations',
  'CreateAccountAccessConsentAttestation',
];

function isOperationId(operationId: string): operationId is OperationId {
  return isDataOperation(operationId) || CONSENT_OPERATIONS.includes(operationId);
}

/** Reads the hub grant back from `request.auth`. */
export function hubGrant(auth: AuthGrant | undefined): HubGrant {
  if (auth === undefined || typeof auth['credential'] !== 'string') throw new ApiError(500, 'GenericError', 'no grant on a secured operation');
  return auth as HubGrant;
}

/**
 * The `authorize` and `checkConsent` options of the hub's routers.
 *
 * @example
 * createRouter(handlers, { ...accessHooks(auth), signing, verification });
 */
export function accessHooks(auth: AuthStore): { authorize: Authorize; checkConsent: CheckConsent } {
  const authorize: Authorize = ({ credential }) => {
    const check = auth.tokens.check(credential);
    if (!check.ok || credential === undefined) return undefined; // unknown or expired: 401
    const grant: HubGrant = { scopes: check.token.scopes, credential, consentId: check.token.consentId };
    return grant;
  };

  const checkConsent: CheckConsent = ({ operationId, grant, request }) => {
    if (!isOperationId(operationId)) throw new ApiError(500, 'GenericError', `no access rule for ${operationId}`);
    const path = request.path as { AccountId?: unknown };
    const decision = auth.authorize({
      authorization: hubGrant(grant).credential,
      operationId,
      accountId: typeof path.AccountId === 'string' ? path.AccountId : undefined,
    });
    if (decision.ok) return;
    // The token expired between the two hooks: answered like any expired token.
    if (decision.status === 401) throw new ApiError(401, 'AccessToken.Expired', 'the access token is no longer valid');
    throw new ApiError(403, decision.code, decision.message);
  };

  return { authorize, checkConsent };
}
