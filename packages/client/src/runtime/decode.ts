/**
 * Reads a response: finds what the operation documents for its status and content type,
 * parses the body (verifying it when signed) and validates body and headers with the
 * generated validators.
 *
 * Success answers must match the contract or the call fails (`ResponseValidationError`);
 * error answers are decoded leniently, since the status is what the caller needs most.
 */
import { errorItemsOf, ResponseValidationError } from './errors.js';
import { headersToObject } from './headers.js';
import { checkInteractionId } from './interaction-id.js';
import { verifySignedBody, type SignatureOptions, type VerifiedJws } from './jws.js';
import { isJsonType, isJwtType, matchContentType } from './media-types.js';
import type { IssueLike, OperationSpec, ResponseFacts, ResponseSpec } from './types.js';

export interface DecodeContext {
  operation: OperationSpec;
  url: string;
  /** Validate bodies and headers against the contract. */
  validate: boolean;
  signatures: SignatureOptions | undefined;
  now: () => number;
  /** The interaction id the request carried. */
  interactionId: string;
}

export interface DecodedResponse extends ResponseFacts {
  status: number;
  /** The declared content type the body matched (or the received one if none did). */
  contentType: string | undefined;
  body: unknown;
  headers: Record<string, unknown>;
  /** Problems with an error body that did not match its schema (error answers only). */
  bodyIssues?: string[];
}

/** The documented response for a status: exact, then its range (`4XX`), then `default`. */
export function responseSpecFor(operation: OperationSpec, status: number): ResponseSpec | undefined {
  const responses = operation.responses;
  const exact = responses[String(status)];
  if (exact) return exact;
  const range = Object.keys(responses).find((k) => k.toUpperCase() === `${String(status)[0]}XX`);
  if (range !== undefined) return responses[range];
  return responses['default'];
}

export function formatIssues(issues: readonly IssueLike[]): string[] {
  return issues.map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : '(root)'}: ${i.message}`);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** A body the contract says nothing about, read for what it may tell (e.g. an `Errors` array). */
function lenientBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  if (contentType !== undefined && isJsonType(contentType)) {
    const parsed = parseJson(text);
    return parsed.ok ? parsed.value : text;
  }
  return text;
}

/**
 * Decodes one response. Throws `ResponseValidationError` for a success that breaks the
 * contract, `SignatureError` for a signed body that does not verify, and
 * `InteractionIdMismatchError` when the response answers another request.
 */
export async function decodeResponse(response: Response, ctx: DecodeContext): Promise<DecodedResponse> {
  const status = response.status;
  const success = status >= 200 && status < 300;
  const rawHeaders = headersToObject(response.headers);
  const received = rawHeaders['x-fapi-interaction-id'];
  checkInteractionId(ctx.operation.operationId, ctx.interactionId, received ?? null, status);
  const facts: ResponseFacts = { interactionId: received, url: ctx.url };
  const invalid = (what: string, issues: readonly string[]): ResponseValidationError =>
    new ResponseValidationError({ status, operationId: ctx.operation.operationId, url: ctx.url, interactionId: received, issues, what });

  const text = await response.text();
  const receivedType = rawHeaders['content-type'];
  const spec = responseSpecFor(ctx.operation, status);
  if (!spec) {
    if (success && ctx.validate) throw invalid('the status', [`HTTP ${status} is not a documented response`]);
    return { ...facts, status, contentType: receivedType, body: lenientBody(text, receivedType), headers: rawHeaders };
  }

  let headers: Record<string, unknown> = rawHeaders;
  if (ctx.validate) {
    const parsed = spec.headers.safeParse(rawHeaders);
    if (parsed.success) headers = parsed.data as Record<string, unknown>;
    else if (success) throw invalid('the headers', formatIssues(parsed.error.issues));
  }

  const declared = Object.keys(spec.content);
  if (declared.length === 0 || text === '') {
    if (declared.length > 0 && success && ctx.validate) throw invalid('the body', ['the body is empty but the contract documents one']);
    return { ...facts, status, contentType: undefined, body: lenientBody(text, receivedType), headers };
  }
  const contentType = receivedType === undefined ? undefined : matchContentType(declared, receivedType);
  if (contentType === undefined) {
    if (success && ctx.validate) throw invalid('the content type', [`${receivedType ?? '(none)'} is not one of ${declared.join(', ')}`]);
    return { ...facts, status, contentType: receivedType, body: lenientBody(text, receivedType), headers };
  }

  let value: unknown;
  let verified: VerifiedJws | undefined;
  if (isJwtType(contentType)) {
    // Verified whatever `validate` says: an unverified signed body is never handed out.
    verified = await verifySignedBody(text, ctx.signatures, ctx.now);
    value = verified.claims;
  } else if (isJsonType(contentType)) {
    const parsed = parseJson(text);
    if (!parsed.ok) {
      if (success) throw invalid('the body', [`not JSON: ${parsed.message}`]);
      return { ...facts, status, contentType, body: text, headers };
    }
    value = parsed.value;
  } else {
    value = text;
  }

  let bodyIssues: string[] | undefined;
  if (ctx.validate) {
    const parsed = spec.content[contentType]!.safeParse(value);
    if (parsed.success) value = parsed.data;
    else if (success) throw invalid('the body', formatIssues(parsed.error.issues));
    else bodyIssues = formatIssues(parsed.error.issues);
  }

  const result: DecodedResponse = { ...facts, status, contentType, body: value, headers };
  if (verified) {
    // The caller gets what the JSON form would have given: the `message` claim.
    const claims = value as Record<string, unknown>;
    const { message, ...rest } = claims;
    result.body = 'message' in claims ? message : claims;
    result.signature = { protectedHeader: verified.protectedHeader, claims: rest };
  }
  if (bodyIssues) result.bodyIssues = bodyIssues;
  return result;
}

/** `Errors` of a decoded error response, in either form. */
export function errorsOfDecoded(decoded: DecodedResponse): ReturnType<typeof errorItemsOf> {
  return errorItemsOf(decoded.body);
}
