/**
 * Signed bodies (section 2.1): responses signed with the application's key, and signed
 * request bodies verified before a handler sees them. The claims are exactly `iss`, `exp`,
 * `nbf`, `aud` (optional), `iat` (optional) and `message`: nothing else is ever added.
 */
import { SignJWT, errors, jwtVerify, type JWTVerifyGetKey, type KeyInput } from 'jose';
import type { IncomingMessage } from 'node:http';
import type { FailureKind } from '@bank-data-sharing/wire';

/** How responses are signed. Without it, `application/jwt` is never offered (a client asking only for it gets 406). */
export interface SigningOptions {
  /** Private key (CryptoKey, KeyObject, JWK) or shared secret, as jose takes it. */
  readonly key: KeyInput;
  /** JWS algorithm, e.g. `PS256` (FAPI) or `ES256`. */
  readonly alg: string;
  /** `kid` header, so recipients can pick the key from a JWKS. */
  readonly kid?: string;
  /** `iss` claim. */
  readonly issuer: string;
  /** `aud` claim: fixed, or chosen per request (e.g. the TPP's client id). Omitted when undefined. */
  readonly audience?: readonly string[] | ((req: IncomingMessage) => readonly string[] | undefined);
  /** `exp` - `nbf`, in seconds (default 300). */
  readonly lifetimeSeconds?: number;
}

/** How signed request bodies are verified. Required when an operation accepts `application/jwt`. */
export interface VerificationOptions {
  /** Public key or shared secret, or a key resolver such as jose's `createLocalJWKSet(jwks)`. */
  readonly key: KeyInput | JWTVerifyGetKey;
  /** Accepted `alg` values, e.g. `['PS256']`. Required: a verifier must never accept any algorithm. */
  readonly algorithms: readonly string[];
  /** Expected `iss`, when known. */
  readonly issuer?: string | readonly string[];
  /** Expected `aud`, when known. */
  readonly audience?: string | readonly string[];
  /** Allowed clock skew in seconds (default 30). */
  readonly clockToleranceSeconds?: number;
}

function audienceFor(options: SigningOptions, req: IncomingMessage | undefined): readonly string[] | undefined {
  return typeof options.audience === 'function' ? (req ? options.audience(req) : undefined) : options.audience;
}

/**
 * The claims of a signed body carrying `message`: `iss`, `exp`, `nbf`, `aud` (when an
 * audience is configured), `iat` and `message`, nothing else.
 *
 * @example
 * buildClaims({ Data: {} }, { key, alg: 'PS256', issuer: 'lfi-1' })
 * // → { iss: 'lfi-1', exp: 1700000300, nbf: 1700000000, iat: 1700000000, message: { Data: {} } }
 */
export function buildClaims(message: unknown, options: SigningOptions, req?: IncomingMessage): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  const audience = audienceFor(options, req);
  return {
    iss: options.issuer,
    exp: now + (options.lifetimeSeconds ?? 300),
    nbf: now,
    ...(audience && audience.length > 0 ? { aud: [...audience] } : {}),
    iat: now,
    message,
  };
}

/**
 * Signs claims (from `buildClaims`) as a compact JWS; the claims are signed exactly as given.
 *
 * @example
 * const token = await signClaims(buildClaims(body, signing, req), signing);
 */
export async function signClaims(claims: Record<string, unknown>, options: SigningOptions): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: options.alg, typ: 'JWT', ...(options.kid ? { kid: options.kid } : {}) }).sign(options.key);
}

/** A signed body that failed verification, with the section 7 failure it maps to. */
export class SignedBodyError extends Error {
  constructor(
    readonly kind: Extract<FailureKind, 'jwsInvalidSignature' | 'jwsMalformed' | 'jwsInvalidClaim' | 'jwsInvalidHeader'>,
    message: string,
  ) {
    super(message);
    this.name = 'SignedBodyError';
  }
}

function failureOf(error: unknown): SignedBodyError {
  if (error instanceof errors.JWSSignatureVerificationFailed) return new SignedBodyError('jwsInvalidSignature', 'signature does not verify');
  if (error instanceof errors.JWTExpired) return new SignedBodyError('jwsInvalidClaim', `claim ${error.claim} check failed: ${error.reason}`);
  if (error instanceof errors.JWTClaimValidationFailed) return new SignedBodyError('jwsInvalidClaim', `claim ${error.claim} check failed: ${error.reason}`);
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported || error instanceof errors.JWKSNoMatchingKey) {
    return new SignedBodyError('jwsInvalidHeader', `header not accepted: ${error.message}`);
  }
  if (error instanceof errors.JOSEError) return new SignedBodyError('jwsMalformed', `malformed JWS: ${error.message}`);
  return new SignedBodyError('jwsMalformed', 'malformed JWS');
}

/**
 * Verifies a compact JWS body and returns its claims and protected header.
 * `exp`, `nbf` and `iss` are required (section 2.1); expiry and not-before are checked.
 *
 * @example
 * const { claims } = await verifySignedBody(token, { key: publicKey, algorithms: ['PS256'] });
 */
export async function verifySignedBody(
  token: string,
  options: VerificationOptions,
): Promise<{ claims: Record<string, unknown>; protectedHeader: Record<string, unknown> }> {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/.test(token)) throw new SignedBodyError('jwsMalformed', 'body is not a compact JWS');
  try {
    const result = await jwtVerify(token, options.key, {
      algorithms: [...options.algorithms],
      requiredClaims: ['iss', 'exp', 'nbf'],
      clockTolerance: options.clockToleranceSeconds ?? 30,
      ...(options.issuer !== undefined ? { issuer: typeof options.issuer === 'string' ? options.issuer : [...options.issuer] } : {}),
      ...(options.audience !== undefined ? { audience: typeof options.audience === 'string' ? options.audience : [...options.audience] } : {}),
    });
    return { claims: { ...result.payload }, protectedHeader: { ...result.protectedHeader } };
  } catch (error) {
    throw failureOf(error);
  }
}
