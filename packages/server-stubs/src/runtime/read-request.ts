/**
 * Everything between "the caller may call this operation" and "the handler runs": reading
 * and decoding the body (verifying a signed one), and validating every part of the request
 * against the operation's schemas. Failures come back as error items, never as throws.
 */
import type { IncomingMessage } from 'node:http';
import {
  BodyFormatError,
  bodyKind,
  checkPreParsed,
  claimedNames as wireClaimedNames,
  credentialNames as wireCredentialNames,
  decodeBody,
  decodeForm,
  FAILURES,
  FormFieldError,
  jsonPath,
  validateRequestParts,
  type DeclaredNames,
  type ErrorItem,
  type FailureKind,
  type FormLayout,
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
 * The query and cookie names of the API's `apiKey` security schemes, and those an operation's
 * object parameters cannot take: `@bank-data-sharing/wire`'s, worked out once per router.
 */
export function credentialNames(schemes: ApiDefinition['securitySchemes']): DeclaredNames {
  return wireCredentialNames(schemes);
}

export function claimedNames(op: OperationSchemas, credentials: DeclaredNames | undefined): DeclaredNames {
  return wireClaimedNames(op, credentials);
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
    /** The query, parsed or as its text (then the same as `rawQuery`). */
    query: URLSearchParams | string;
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
  const signed = input.body?.signed;
  const bodySchema = input.specContentType !== undefined ? op.request.body?.content[input.specContentType] : undefined;
  const claimsForm = signed !== undefined && bodySchema !== undefined && describesClaims(bodySchema);
  const rawBody = claimsForm ? signed.claims : input.body?.body;
  const unwrap = (value: unknown): unknown =>
    claimsForm && value !== null && typeof value === 'object' && 'message' in value ? (value as { message: unknown }).message : value;
  const result = validateRequestParts(
    op,
    {
      pathParams: input.pathParams,
      rawPathParams: input.rawPathParams,
      query: input.query,
      rawQuery: input.rawQuery,
      headers: input.req.headers,
      body: rawBody,
      bodySchema: bodyKind(input.specContentType ?? '') === 'binary' ? undefined : bodySchema,
      claimedNames: input.claimedNames,
    },
    validate,
  );
  if (!result.ok) return result;
  return { ok: true, parts: { ...result.parts, body: unwrap(result.parts.body) } };
}
