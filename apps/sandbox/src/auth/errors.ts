/**
 * Errors of the token and consent store, each with the HTTP status and (for 400 and
 * 403, whose bodies carry `Errors`) the prescribed code of section 7 the hub answers with.
 */

/** Why the store refused. */
export type AuthErrorReason =
  | 'ConsentNotFound'
  | 'InvalidConsent'
  | 'InvalidTransition'
  | 'InvalidBody'
  | 'ConsentNotTerminated'
  | 'InvalidRefreshToken';

const ANSWERS: Readonly<Record<AuthErrorReason, { status: 400 | 401 | 404; code?: string }>> = {
  ConsentNotFound: { status: 404 },
  InvalidConsent: { status: 400, code: 'Consent.Invalid' },
  InvalidTransition: { status: 400, code: 'Consent.BusinessRuleViolation' },
  InvalidBody: { status: 400, code: 'Body.InvalidFormat' },
  // Section 4.2, rule 4: attestations only for Revoked or Expired consents.
  ConsentNotTerminated: { status: 400, code: 'Consent.BusinessRuleViolation' },
  InvalidRefreshToken: { status: 401 },
};

/** Thrown by the auth store. */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly reason: AuthErrorReason;
  /** HTTP status the hub should answer with. */
  readonly status: 400 | 401 | 404;
  /** Prescribed error code for the `Errors` body; absent for statuses without a body (401, 404). */
  readonly code: string | undefined;

  constructor(reason: AuthErrorReason, message: string) {
    super(message);
    this.reason = reason;
    this.status = ANSWERS[reason].status;
    this.code = ANSWERS[reason].code;
  }
}
