/**
 * The token and consent store of the sandbox: tokens, consents, attestations, and the
 * access decision for a TPP request that ties them together.
 */
import { api } from '@bank-data-sharing/validators/v2.2';
import { systemClock, type Clock } from './clock.js';
import { AttestationStore, DEFAULT_ATTESTATION_DEADLINE_DAYS } from './attestations.js';
import { ConsentStore, TERMINAL_STATUSES, type ConsentRecord } from './consents.js';
import { isDataOperation, isPerAccountOperation, permitsOperation, scopesFor, type OperationId } from './permissions.js';
import { ACCESS_TOKEN_TTL_SECONDS, TokenStore, type IssuedToken } from './tokens.js';

/** Options of `createAuthStore`. */
export interface AuthStoreOptions {
  /** Clock of the store; inject one in tests to move time. Default: the system clock. */
  readonly now?: Clock;
  /** Access token life in seconds. Default 600 (section 5.3). */
  readonly tokenTtlSeconds?: number;
  /**
   * Absolute base URL for consent `Links.Self`. Default: `http://localhost` followed by the
   * path prefix of the v2.2 spec's `servers` (never hard-coded here).
   */
  readonly linkBase?: string;
  /** Days after a consent ends within which an attestation meets the deadline. Default 30. */
  readonly attestationDeadlineDays?: number;
}

/** What a TPP request carries that matters for access. */
export interface AccessRequest {
  /** The `Authorization` header value, or the bare token. */
  readonly authorization: string | undefined;
  readonly operationId: OperationId;
  /** The account named in the path, for per-account data operations. */
  readonly accountId?: string | undefined;
}

/** Why access was refused, with the status and (for 403) the prescribed code to answer with. */
export type AccessRefusal =
  | { readonly ok: false; readonly status: 401; readonly reason: 'missing' | 'unknown' | 'expired' }
  | {
      readonly ok: false;
      readonly status: 403;
      readonly code: 'AccessToken.InvalidScope' | 'Consent.TransientAccountAccessFailure' | 'Consent.PermanentAccountAccessFailure';
      readonly reason: 'insufficient_scope' | 'no_consent' | 'consent_not_authorized' | 'permission_missing' | 'account_not_in_consent';
      readonly message: string;
    };

/** Outcome of `authorize`. */
export type AccessDecision =
  | { readonly ok: true; readonly token: IssuedToken; readonly consent: ConsentRecord | undefined }
  | AccessRefusal;

/** The auth store; see `createAuthStore`. */
export interface AuthStore {
  readonly tokens: TokenStore;
  readonly consents: ConsentStore;
  readonly attestations: AttestationStore;
  /**
   * Decides whether a request may run: a live token with the operation's scopes and, for
   * data operations, an Authorized consent behind the token that grants one of the
   * operation's permissions and covers the account in the path.
   */
  authorize(request: AccessRequest): AccessDecision;
  /** Refreshes an access token, refused once its consent has ended. */
  refresh(refreshToken: string): IssuedToken;
}

const forbidden = (
  code: Extract<AccessRefusal, { status: 403 }>['code'],
  reason: Extract<AccessRefusal, { status: 403 }>['reason'],
  message: string,
): AccessRefusal => ({ ok: false, status: 403, code, reason, message });

/**
 * Creates an empty token and consent store. Nothing persists: a restart starts afresh.
 *
 * @example
 * const auth = createAuthStore({ now: () => clock });
 * const { consent } = auth.consents.create({ permissions: ['ReadAccountsBasic'], accountIds: ['acc-1'] });
 * const token = auth.tokens.issue({ scopes: ['openid', 'accounts'], consentId: consent.Data.ConsentId });
 * auth.authorize({ authorization: `Bearer ${token.accessToken}`, operationId: 'GetAccounts' }); // { ok: true, ... }
 */
export function createAuthStore(options: AuthStoreOptions = {}): AuthStore {
  const clock = options.now ?? systemClock;
  const tokens = new TokenStore(clock, options.tokenTtlSeconds ?? ACCESS_TOKEN_TTL_SECONDS);
  const consents = new ConsentStore(clock, options.linkBase ?? `http://localhost${api.pathPrefix}`);
  const attestations = new AttestationStore(clock, consents, options.attestationDeadlineDays ?? DEFAULT_ATTESTATION_DEADLINE_DAYS);

  const authorize = (request: AccessRequest): AccessDecision => {
    const check = tokens.check(request.authorization, scopesFor(request.operationId));
    if (!check.ok) {
      return check.status === 401
        ? { ok: false, status: 401, reason: check.reason }
        : forbidden('AccessToken.InvalidScope', 'insufficient_scope', `missing scopes: ${check.missingScopes.join(' ')}`);
    }
    const { token } = check;
    if (!isDataOperation(request.operationId)) {
      const consent = token.consentId !== undefined && consents.has(token.consentId) ? consents.get(token.consentId) : undefined;
      return { ok: true, token, consent };
    }
    if (token.consentId === undefined || !consents.has(token.consentId)) {
      return forbidden('Consent.PermanentAccountAccessFailure', 'no_consent', 'the token is not bound to a known consent');
    }
    const consent = consents.get(token.consentId);
    const { Status, Permissions } = consent.consent.Data;
    if (Status !== 'Authorized') {
      // A suspended or not yet authorised consent may come back; the others never will.
      const transient = Status === 'Suspended' || Status === 'AwaitingAuthorization';
      return forbidden(
        transient ? 'Consent.TransientAccountAccessFailure' : 'Consent.PermanentAccountAccessFailure',
        'consent_not_authorized',
        `consent ${consent.consent.Data.ConsentId} is ${Status}`,
      );
    }
    if (!permitsOperation(Permissions, request.operationId)) {
      return forbidden('Consent.PermanentAccountAccessFailure', 'permission_missing', `the consent grants no permission for ${request.operationId}`);
    }
    if (isPerAccountOperation(request.operationId) && (request.accountId === undefined || !consent.accountIds.includes(request.accountId))) {
      return forbidden('Consent.PermanentAccountAccessFailure', 'account_not_in_consent', `account ${String(request.accountId)} is not covered by the consent`);
    }
    return { ok: true, token, consent };
  };

  const refresh = (refreshToken: string): IssuedToken =>
    tokens.refresh(refreshToken, (grant) => {
      if (grant.consentId === undefined || !consents.has(grant.consentId)) return true;
      return !TERMINAL_STATUSES.includes(consents.get(grant.consentId).consent.Data.Status);
    });

  return { tokens, consents, attestations, authorize, refresh };
}
