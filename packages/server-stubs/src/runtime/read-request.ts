/**
 * Everything between "the caller may call this operation" and "the handler runs": reading
 * and decoding the body (verifying a signed one), and validating every part of the request
 * against the operation's schemas. Failures come back as error items, never as throws.
 */
import type { IncomingMessage } from 'node:http';
import type { ErrorItem } from './api-error.js';
import { BodyAbortedError, BodyFormatError, BodyTooLargeError, checkPreParsed, decodeBody, readBody } from './body.js';
import { bodyKind } from './content-negotiation.js';
import { FAILURES, type FailureKind } from './error-codes.js';
import { SignedBodyError, verifySignedBody, type VerificationOptions } from './jws.js';
import { describesClaims } from './respond.js';
import { cookieObject, ForbiddenNameError, headerObject, queryObject } from './request-input.js';
import { applyParameterStyles, ParameterStyleError, type DeclaredNames } from './parameters.js';
import type { OperationSchemas, SignedBody } from './types.js';
import { issuesToErrors, type Location } from './validation-issues.js';

export type ReadFailure = { readonly kind: FailureKind; readonly items: readonly ErrorItem[] } | { readonly kind: 'aborted' };

export interface ReadBodyResult {
  readonly body: unknown;
  readonly signed: SignedBody | undefined;
}

function failure(kind: FailureKind, message: string, path?: string): ReadFailure {
  return { kind, items: [{ code: FAILURES[kind].code, message, ...(path !== undefined ? { path } : {}) }] };
}

/**
 * Reads the body of a request whose media type already matched `contentType` of the spec.
 * A signed body is verified here, so no handler ever sees an unverified one.
 */
export async function readRequestBody(
  req: IncomingMessage,
  requestContentType: string,
  limits: { bodyBytes: number; depth: number },
  verification: VerificationOptions | undefined,
): Promise<ReadBodyResult | ReadFailure> {
  let decoded: unknown;
  try {
    const raw = await readBody(req, limits.bodyBytes);
    decoded = 'bytes' in raw ? (raw.bytes.length === 0 ? undefined : decodeBody(raw.bytes, requestContentType, limits.depth)) : checkPreParsed(raw.parsed, limits.depth);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return failure('bodyTooLarge', `The request body exceeds ${error.limit} bytes`);
    if (error instanceof BodyFormatError) return failure('invalidBody', `body: ${error.message}`, error.path ?? '$');
    if (error instanceof BodyAbortedError) return { kind: 'aborted' };
    throw error;
  }
  if (bodyKind(requestContentType) !== 'jwt' || decoded === undefined) return { body: decoded, signed: undefined };
  if (!verification) return failure('jwsInvalidHeader', 'Signed bodies cannot be verified: no verification key is configured');
  const token = String(decoded);
  try {
    const { claims, protectedHeader } = await verifySignedBody(token, verification);
    return { body: token, signed: { claims, protectedHeader, token } };
  } catch (error) {
    if (error instanceof SignedBodyError) return failure(error.kind, `body: ${error.message}`);
    throw error;
  }
}

const declaredCache = new WeakMap<OperationSchemas, DeclaredNames>();

/** The query and cookie names an operation declares (the members of its loose objects). */
function declaredNames(op: OperationSchemas): DeclaredNames {
  let names = declaredCache.get(op);
  if (!names) {
    const keys = (schema: unknown): Set<string> => {
      const shape = (schema as { shape?: unknown } | undefined)?.shape;
      return new Set(shape !== null && typeof shape === 'object' ? Object.keys(shape) : []);
    };
    names = { query: keys(op.request.query), cookie: keys(op.request.cookies) };
    declaredCache.set(op, names);
  }
  return names;
}

/** The validated (or, with validation off, raw) parts a handler receives. */
export interface ValidatedParts {
  readonly path: unknown;
  readonly query: unknown;
  readonly headers: unknown;
  readonly cookies: unknown;
  readonly body: unknown;
}

/**
 * Validates every part of the request. `body` is what `readRequestBody` produced; for a
 * signed body described by its claims, the claims are checked and the handler gets `message`.
 */
export function validateParts(
  op: OperationSchemas,
  input: {
    pathParams: Record<string, string>;
    /** The path parameters still percent-encoded (for `request.parameters` styles). */
    rawPathParams: Record<string, string>;
    query: URLSearchParams;
    /** The query string without `?` (for `request.parameters` styles). */
    rawQuery: string;
    req: IncomingMessage;
    body: ReadBodyResult | undefined;
    specContentType: string | undefined;
  },
  validate: boolean,
): { ok: true; parts: ValidatedParts } | { ok: false; items: ErrorItem[] } {
  let query: Record<string, unknown>;
  let cookies: Record<string, unknown>;
  let path: Record<string, unknown> = input.pathParams;
  let headers: Record<string, unknown> = headerObject(input.req.headers);
  const cookieHeader = input.req.headers.cookie;
  const cookieText = Array.isArray(cookieHeader) ? cookieHeader.join('; ') : cookieHeader;
  try {
    query = queryObject(input.query);
    cookies = cookieObject(cookieText);
    const styled = op.request.parameters;
    if (styled !== undefined && styled.length > 0) {
      // Only operations with styled parameters pay for this; the maps are this request's own.
      const maps = { path: { ...path }, query, headers, cookies };
      applyParameterStyles(styled, { path: input.rawPathParams, query: input.rawQuery, headers: input.req.headers, cookie: cookieText }, maps, declaredNames(op));
      path = maps.path;
    }
  } catch (error) {
    if (error instanceof ForbiddenNameError) {
      return { ok: false, items: [{ code: FAILURES.invalidParameter.code, message: error.message, path: error.field }] };
    }
    if (error instanceof ParameterStyleError) {
      return { ok: false, items: [{ code: FAILURES.invalidParameter.code, message: error.message, path: error.parameter.name }] };
    }
    throw error;
  }
  const signed = input.body?.signed;
  const bodySchema = input.specContentType !== undefined ? op.request.body?.content[input.specContentType] : undefined;
  const claimsForm = signed !== undefined && bodySchema !== undefined && describesClaims(bodySchema);
  const rawBody = claimsForm ? signed.claims : input.body?.body;
  const unwrap = (value: unknown): unknown =>
    claimsForm && value !== null && typeof value === 'object' && 'message' in value ? (value as { message: unknown }).message : value;

  if (!validate) return { ok: true, parts: { path, query, headers, cookies, body: unwrap(rawBody) } };

  const items: ErrorItem[] = [];
  const check = (location: Location, schema: { safeParse(v: unknown): { success: true; data: unknown } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } } } | undefined, value: unknown): unknown => {
    if (!schema) return value;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    items.push(...issuesToErrors(location, result.error.issues));
    return undefined;
  };
  const parts = {
    path: check('path', op.request.path, path),
    query: check('query', op.request.query, query),
    headers: check('header', op.request.headers, headers),
    cookies: check('cookie', op.request.cookies, cookies),
    body: rawBody === undefined || bodyKind(input.specContentType ?? '') === 'binary' ? rawBody : check('body', bodySchema, rawBody),
  };
  if (items.length > 0) return { ok: false, items };
  return { ok: true, parts: { ...parts, body: unwrap(parts.body) } };
}
