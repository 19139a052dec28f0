/**
 * Verification of signed responses (`application/jwt`, section 2.1): the signature against
 * keys the caller supplies, the algorithm against an allow-list, the time claims with a
 * small tolerance, `iss`/`aud` when the caller states them, and the claim set itself.
 */
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  jwtVerify,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
  type JWTVerifyGetKey,
  type KeyObject,
} from 'jose';
import { SignatureError, type SignatureProblem } from './errors.js';

/** Claims section 2.1 allows in a signed data or error envelope; no others are accepted. */
export const SIGNED_ENVELOPE_CLAIMS = ['iss', 'exp', 'nbf', 'aud', 'iat', 'message'] as const;

/** Algorithms accepted unless the caller says otherwise (the FAPI profile's). */
export const DEFAULT_SIGNING_ALGORITHMS = ['PS256', 'ES256'] as const;

/** A key or key set to verify signatures with. */
export type VerificationKeys =
  /** A JWKS document (`{ keys: [...] }`), e.g. the LFI's published signing keys. */
  | JSONWebKeySet
  /** Public JWKs. */
  | readonly JWK[]
  /** One key (a WebCrypto key, a node:crypto KeyObject, or a secret for HMAC). */
  | CryptoKey
  | KeyObject
  | Uint8Array
  /** A jose key resolver, e.g. `createRemoteJWKSet(new URL(jwksUri))`. */
  | JWTVerifyGetKey;

/**
 * How signed responses are checked.
 *
 * @example
 * const signatures: SignatureOptions = { keys: lfiJwks, issuer: 'https://lfi.example', audience: myClientId };
 */
export interface SignatureOptions {
  keys: VerificationKeys;
  /** Allowed `alg` values (default PS256, ES256). `none` is always refused. */
  algorithms?: readonly string[];
  /** Expected `iss` (one value or alternatives); unchecked when absent. */
  issuer?: string | readonly string[];
  /** Our identity: when set and the token has `aud`, `aud` must contain one of these. */
  audience?: string | readonly string[];
  /** Seconds of clock skew tolerated on `exp`/`nbf` (default 30). */
  clockToleranceSeconds?: number;
  /** Claims allowed in the token (default: those of section 2.1). */
  allowedClaims?: readonly string[];
  /**
   * When the signed form is asked for (`prefer: 'signed'`, for the client or the call), refuse
   * a 2xx answer that is not signed with `SignatureError` (`problem: 'unsigned'`): an answer
   * whose signature was stripped on the way must not pass for a verified one. Default true;
   * `false` accepts the unsigned form (then `result.signature` is undefined). Without effect
   * when the JSON form is asked for.
   */
  required?: boolean;
}

export interface VerifiedJws {
  protectedHeader: Record<string, unknown>;
  claims: Record<string, unknown>;
}

type KeyInput = CryptoKey | KeyObject | Uint8Array | JWTVerifyGetKey;

const resolvers = new WeakMap<object, KeyInput>();

/** Turns what the caller gave into something jose verifies with (cached per keys object). */
function keyInput(keys: VerificationKeys): KeyInput {
  const cached = resolvers.get(keys as object);
  if (cached) return cached;
  let input: KeyInput;
  if (Array.isArray(keys)) input = createLocalJWKSet({ keys: [...(keys as readonly JWK[])] });
  else if (typeof keys === 'object' && keys !== null && Array.isArray((keys as JSONWebKeySet).keys)) input = createLocalJWKSet(keys as JSONWebKeySet);
  else input = keys as KeyInput;
  resolvers.set(keys as object, input);
  return input;
}

function fail(problem: SignatureProblem, message: string, cause?: unknown): never {
  throw new SignatureError(problem, `signed response refused: ${message}`, cause === undefined ? undefined : { cause });
}

function listOf(value: string | readonly string[] | undefined): readonly string[] | undefined {
  return value === undefined ? undefined : typeof value === 'string' ? [value] : value;
}

function joseCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : undefined;
}

/** Maps jose's failure to ours, keeping jose's error as the cause. */
function translate(error: unknown): never {
  const code = joseCode(error);
  const claim = (error as { claim?: string }).claim;
  switch (code) {
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return fail('bad-signature', 'the signature does not verify', error);
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return fail('bad-signature', 'no supplied key matches the token (kid/alg)', error);
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return fail('alg-not-allowed', 'the algorithm is not allowed', error);
    case 'ERR_JWT_EXPIRED':
      return fail('expired', 'the token has expired (exp)', error);
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      // Only a well-formed nbf in the future is "not yet valid"; a missing or non-numeric one
      // (jose's reasons "missing" and "invalid") is a broken claim set.
      if (claim === 'nbf' && (error as { reason?: unknown }).reason === 'check_failed') return fail('not-yet-valid', 'the token is not valid yet (nbf)', error);
      return fail('claims', `claim "${claim ?? '?'}" is invalid: ${(error as Error).message}`, error);
    default:
      return fail('malformed', `the token cannot be verified: ${error instanceof Error ? error.message : String(error)}`, error);
  }
}

async function verifyWith(token: string, key: KeyInput, algorithms: readonly string[], tolerance: number, now: Date): Promise<VerifiedJws> {
  const options = { algorithms: [...algorithms], clockTolerance: tolerance, currentDate: now, requiredClaims: ['iss', 'exp', 'nbf'] };
  try {
    const result = await jwtVerify(token, key as JWTVerifyGetKey, options);
    return { protectedHeader: { ...result.protectedHeader }, claims: { ...result.payload } };
  } catch (error) {
    // A key set without `kid` hints may hold several candidates: try each before giving up.
    if (joseCode(error) === 'ERR_JWKS_MULTIPLE_MATCHING_KEYS' && Symbol.asyncIterator in (error as object)) {
      for await (const candidate of error as AsyncIterable<CryptoKey>) {
        try {
          const result = await jwtVerify(token, candidate, options);
          return { protectedHeader: { ...result.protectedHeader }, claims: { ...result.payload } };
        } catch (inner) {
          if (joseCode(inner) !== 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') translate(inner);
        }
      }
      return fail('bad-signature', 'the signature verifies with none of the matching keys');
    }
    return translate(error);
  }
}

/**
 * Verifies a compact JWS response body and returns its header and claims. Throws
 * `SignatureError` (with a `problem` code) on any failure; never returns unverified content.
 *
 * @example
 * const { claims } = await verifySignedBody(text, { keys: jwks, issuer: 'https://lfi.example' }, Date.now);
 * const page = claims.message;
 */
export async function verifySignedBody(token: string, options: SignatureOptions | undefined, now: () => number): Promise<VerifiedJws> {
  if (!options) return fail('no-keys', 'no verification keys are configured (client option `signatures`)');
  const compact = token.trim();
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/.test(compact)) return fail('malformed', 'the body is not a compact JWS');
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(compact) as Record<string, unknown>;
  } catch (error) {
    return fail('malformed', 'the protected header cannot be decoded', error);
  }
  const alg = header['alg'];
  // Refused before any key lookup: an unsigned token must never reach the verifier.
  if (typeof alg !== 'string' || alg.toLowerCase() === 'none') return fail('alg-none', 'unsigned tokens (alg "none") are not accepted');
  const algorithms = options.algorithms ?? DEFAULT_SIGNING_ALGORITHMS;
  if (!algorithms.includes(alg)) return fail('alg-not-allowed', `algorithm ${alg} is not one of ${algorithms.join(', ')}`);

  const verified = await verifyWith(compact, keyInput(options.keys), algorithms, options.clockToleranceSeconds ?? 30, new Date(now()));
  const { claims } = verified;

  const allowed = new Set(options.allowedClaims ?? SIGNED_ENVELOPE_CLAIMS);
  const extra = Object.keys(claims).filter((name) => !allowed.has(name));
  if (extra.length > 0) return fail('claims', `claims not allowed in a signed envelope: ${extra.join(', ')}`);
  if (allowed.has('message') && !('message' in claims)) return fail('claims', 'the "message" claim is missing');

  const issuers = listOf(options.issuer);
  if (issuers && !issuers.includes(String(claims['iss']))) return fail('issuer', `issuer ${JSON.stringify(claims['iss'])} is not the expected one`);

  const audiences = listOf(options.audience);
  const aud = claims['aud'];
  if (audiences && aud !== undefined) {
    const listed = Array.isArray(aud) ? aud : [aud];
    if (!listed.some((a) => typeof a === 'string' && audiences.includes(a))) return fail('audience', 'the token is meant for another audience (aud)');
  }
  return verified;
}
