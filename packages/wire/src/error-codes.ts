/**
 * Which code the router puts in an error envelope. Section 7 prescribes codes for 400, 403
 * and 500; other statuses have no prescribed code, so the router uses namespaced codes
 * (`Area.Code`, the pattern section 2.6 allows for any status). Those only appear when a
 * spec defines a body for such a status.
 */

/** Section 7: prescribed codes per status. */
export const PRESCRIBED_CODES = {
  400: [
    'Consent.Invalid',
    'Consent.BusinessRuleViolation',
    'Consent.FailsControlParameters',
    'Consent.InvalidUserIdentifier',
    'JWS.InvalidSignature',
    'JWS.Malformed',
    'JWS.InvalidClaim',
    'JWS.InvalidHeader',
    'JWE.DecryptionError',
    'JWE.InvalidHeader',
    'GenericRecoverableError',
    'GenericError',
    'Event.UnexpectedEvent',
    'Body.InvalidFormat',
    'Resource.InvalidFormat',
  ],
  403: [
    'AccessToken.InvalidScope',
    'Consent.TransientAccountAccessFailure',
    'Consent.AccountTemporarilyBlocked',
    'Consent.PermanentAccountAccessFailure',
    'GenericRecoverableError',
    'GenericError',
  ],
  500: ['GenericRecoverableError', 'GenericError'],
} as const;

/** Every failure the router itself detects, with its status and code. */
export const FAILURES = {
  notFound: { status: 404, code: 'Resource.NotFound' },
  methodNotAllowed: { status: 405, code: 'Request.MethodNotAllowed' },
  notAcceptable: { status: 406, code: 'Request.NotAcceptable' },
  unsupportedMediaType: { status: 415, code: 'Body.UnsupportedMediaType' },
  /** Where the operation defines no 415, a body of the wrong type is a bad request. */
  unsupportedMediaTypeAs400: { status: 400, code: 'Body.InvalidFormat' },
  missingToken: { status: 401, code: 'AccessToken.Missing' },
  /** No credential where the operation accepts kinds other than an access token (HTTP Basic, an API key...). */
  missingCredentials: { status: 401, code: 'Credentials.Missing' },
  invalidToken: { status: 401, code: 'AccessToken.Invalid' },
  invalidScope: { status: 403, code: 'AccessToken.InvalidScope' },
  invalidParameter: { status: 400, code: 'Resource.InvalidFormat' },
  invalidBody: { status: 400, code: 'Body.InvalidFormat' },
  bodyTooLarge: { status: 413, code: 'Body.TooLarge' },
  consentDenied: { status: 403, code: 'Consent.Invalid' },
  tooManyRequests: { status: 429, code: 'Request.TooManyRequests' },
  jwsInvalidSignature: { status: 400, code: 'JWS.InvalidSignature' },
  jwsMalformed: { status: 400, code: 'JWS.Malformed' },
  jwsInvalidClaim: { status: 400, code: 'JWS.InvalidClaim' },
  jwsInvalidHeader: { status: 400, code: 'JWS.InvalidHeader' },
  internal: { status: 500, code: 'GenericError' },
  /** An operation the application has no handler for (yet). */
  notImplemented: { status: 501, code: 'Request.NotImplemented' },
} as const;

/** The name of one of the router's own failures (`notFound`, `invalidParameter`, ...). */
export type FailureKind = keyof typeof FAILURES;
