/**
 * Everything between "the caller may call this operation" and "the handler runs": reading
 * and decoding the body (verifying a signed one), and validating every part of the request
 * against the operation's schemas. Failures come back as error items, never as throws.
 */
import type { IncomingMessage } from 'node:http';
import {
  applyParameterStyles,
  BodyFormatError,
  bodyKind,
  checkPreParsed,
  cookieObject,
  decodeBody,
  decodeForm,
  FAILURES,
  ForbiddenNameError,
  FormFieldError,
  headerObject,
  issuesToErrors,
  jsonPath,
  objectMembers,
  ParameterStyleError,
  queryObject,
  type DeclaredNames,
  type ErrorItem,
  type FailureKind,
  type FormLayout,
  type Location,
} from '@bank-data-sharing/wire';
import { BodyAbortedError, BodyTooLargeError, earlierBody, readBody } from './body.js';
import { MultipartFormatError, MultipartLimitError, readMultipart, type MultipartLimits } from './multipart.js';
import { SignedBodyError, verifySignedBody, type VerificationOptions } from './jws.js';
import { describesClaims } from './respond.js';
import type { ApiDefinition, OperationSchemas, SignedBody } from './types.js';

export type ReadFailure = { readonly kind: FailureKind; readonly items: readonly ErrorItem[] } | { readonly kind: 'aborted' };

export interface ReadBodyResult {
  readonly body: unknown;
  readonly signed: SignedBody | undefined;
}

function failure(kind: FailureKind, message: string, path?: string): ReadFailure {
  return { kind, items: [{ code: FAILURES[kind].code, message, ...(path !== undefined ? { path } : {}) }] };
}

/** The JSON path of a form field (`$.documentFile`), `$` for the body as a whole. */
function fieldPath(field: string | undefined): string {
  return field === undefined ? '$' : jsonPath([field]);
}

/** What bounds reading a body: its bytes and JSON depth, and the parts of a multipart one. */
export interface BodyLimits extends MultipartLimits {
  readonly bodyBytes: number;
  readonly depth: number;
}

/** The body bytes decoded by media type; a multipart body is read part by part instead. */
async function readDecoded(req: IncomingMessage, contentType: string, limits: BodyLimits, layout: FormLayout | undefined): Promise<unknown> {
  if (bodyKind(contentType) === 'multipart') {
    const earlier = earlierBody(req);
    if (earlier && !Buffer.isBuffer(earlier.value)) return checkPreParsed(earlier.value, limits.depth);
    const entries = await readMultipart(earlier ? (earlier.value as Buffer) : req, contentType, layout, limits);
    return decodeForm(entries, layout, { multipart: true, maxDepth: limits.depth });
  }
  const raw = await readBody(req, limits.bodyBytes);
  if (!('bytes' in raw)) return checkPreParsed(raw.parsed, limits.depth);
  return raw.bytes.length === 0 ? undefined : decodeBody(raw.bytes, contentType, limits.depth, layout);
}

/**
 * Reads the body of a request whose media type already matched `contentType` of the spec.
 * A signed body is verified here, so no handler ever sees an unverified one. `layout` is the
 * form layout of the matched media type, for form and multipart bodies.
 */
export async function readRequestBody(
  req: IncomingMessage,
  requestContentType: string,
  limits: BodyLimits,
  verification: VerificationOptions | undefined,
  layout?: FormLayout,
): Promise<ReadBodyResult | ReadFailure> {
  let decoded: unknown;
  try {
    decoded = await readDecoded(req, requestContentType, limits, layout);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return failure('bodyTooLarge', `The request body exceeds ${error.limit} bytes`);
    if (error instanceof MultipartLimitError) return failure('bodyTooLarge', `body: ${error.message}`, fieldPath(error.field));
    if (error instanceof BodyFormatError) return failure('invalidBody', `body: ${error.message}`, error.path ?? '$');
    if (error instanceof FormFieldError) return failure('invalidBody', `body: ${error.message}`, fieldPath(error.field));
    if (error instanceof MultipartFormatError) return failure('invalidBody', `body: not valid multipart/form-data: ${error.message}`, fieldPath(error.field));
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

/**
 * The query and cookie names of the API's `apiKey` security schemes: a credential, never a
 * member of an object parameter sent under its members' own names. Worked out once per router.
 */
export function credentialNames(schemes: ApiDefinition['securitySchemes']): DeclaredNames {
  const names = { query: new Set<string>(), cookie: new Set<string>() };
  for (const scheme of Object.values(schemes)) {
    if (scheme.type !== 'apiKey' || scheme.name === undefined) continue;
    if (scheme.in === 'query') names.query.add(scheme.name);
    if (scheme.in === 'cookie') names.cookie.add(scheme.name);
  }
  return names;
}

/**
 * The query and cookie names an operation's object parameters cannot take: the ones it
 * declares (the members of its loose query and cookie objects), and the credentials'. The
 * router works them out once per operation, when it is built.
 */
export function claimedNames(op: OperationSchemas, credentials: DeclaredNames | undefined): DeclaredNames {
  const names = (schema: unknown, more: ReadonlySet<string> | undefined): Set<string> => new Set([...Object.keys(objectMembers(schema) ?? {}), ...(more ?? [])]);
  return { query: names(op.request.query, credentials?.query), cookie: names(op.request.cookies, credentials?.cookie) };
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
    /** The operation's `claimedNames` with the API's API keys; without them, its own names alone. */
    claimedNames?: DeclaredNames;
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
      applyParameterStyles(styled, { path: input.rawPathParams, query: input.rawQuery, headers: input.req.headers, cookie: cookieText }, maps, input.claimedNames ?? claimedNames(op, undefined));
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
