/**
 * Reads a response: finds what the operation documents for its status and content type,
 * parses the body (verifying it when signed) and validates body and headers with the
 * generated validators.
 *
 * Success answers must match the contract or the call fails (`ResponseValidationError`);
 * error answers are decoded leniently, since the status is what the caller needs most.
 */
import { declaredContentType, isJsonType, isJwtType } from '@bank-data-sharing/wire';
import { errorItemsOf, ResponseValidationError, SignatureError } from './errors.js';
import { checkInteractionId } from './interaction-id.js';
import { verifySignedBody, type SignatureOptions, type VerifiedJws } from './jws.js';
import type { IssueLike, OperationSpec, ResponseFacts, ResponseSpec } from './types.js';
import { answerOfResponse, type HttpAnswer } from './transport.js';
import { checkValue } from './validation.js';

export interface DecodeContext {
  operation: OperationSpec;
  url: string;
  /** Validate bodies and headers against the contract. */
  validate: boolean;
  signatures: SignatureOptions | undefined;
  now: () => number;
  /** The interaction id the request carried; undefined when it carried none (nothing to compare). */
  interactionId: string | undefined;
  /**
   * The signed form was asked for and must be what a 2xx answer is: an unsigned one is
   * refused (`SignatureError`, problem `unsigned`). See `SignatureOptions.required`.
   */
  requireSignature?: boolean;
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

/** What decoding needs of a documented response, worked out once per response spec. */
interface SpecFacts {
  declared: string[];
  /** How each declared content type is read. */
  kinds: Map<string, 'jwt' | 'json' | 'text'>;
  /** `declaredContentType(declared, received)` by received `Content-Type` (a few per server). */
  matches: Map<string, string | undefined>;
}

const specFacts = new WeakMap<ResponseSpec, SpecFacts>();

function factsOf(spec: ResponseSpec): SpecFacts {
  let facts = specFacts.get(spec);
  if (!facts) {
    const declared = Object.keys(spec.content);
    const kinds = new Map(declared.map((type) => [type, isJwtType(type) ? ('jwt' as const) : isJsonType(type) ? ('json' as const) : ('text' as const)]));
    facts = { declared, kinds, matches: new Map() };
    specFacts.set(spec, facts);
  }
  return facts;
}

/** The declared content type `received` corresponds to (see `declaredContentType`), remembered per spec. */
function declaredTypeOf(facts: SpecFacts, received: string): string | undefined {
  if (facts.matches.has(received)) return facts.matches.get(received);
  const matched = declaredContentType(facts.declared, received);
  // Bounded: a server sends a handful of spellings; anything beyond is matched afresh.
  if (facts.matches.size < 32) facts.matches.set(received, matched);
  return matched;
}

/** The declared content type of `spec` a received `Content-Type` corresponds to, if any. */
export function declaredTypeFor(spec: ResponseSpec, received: string): string | undefined {
  return declaredTypeOf(factsOf(spec), received);
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
  const answer = answerOfResponse(response);
  // Correlation first: a body of another exchange is not worth reading.
  if (ctx.interactionId !== undefined) checkInteractionId(ctx.operation.operationId, ctx.interactionId, answer.header('x-fapi-interaction-id'), answer.status);
  return decodeText(answer, await answer.text(), ctx);
}

/** An unsigned 2xx answer where the signed form was asked for (a stripped signature). */
export function unsignedAnswer(status: number, receivedType: string | undefined, ctx: DecodeContext): SignatureError {
  const came = receivedType === undefined ? 'without a content type' : `as ${receivedType}`;
  const why =
    receivedType !== undefined && isJwtType(receivedType)
      ? 'which the contract does not document for this status, so it cannot be verified'
      : 'unsigned: a signature stripped on the way cannot be told from a genuine answer';
  return new SignatureError(
    'unsigned',
    `signed response refused: ${ctx.operation.operationId} asked for the signed form (application/jwt), but HTTP ${status} came ${came}, ` +
      `${why} (set \`signatures.required: false\` to accept unsigned answers)`,
  );
}

/**
 * `decodeResponse` once the body has been read (`text`): what `execute` calls, so that a body
 * cut off on the way is told apart from one that breaks the contract.
 */
export async function decodeText(response: HttpAnswer, text: string, ctx: DecodeContext): Promise<DecodedResponse> {
  const status = response.status;
  const success = status >= 200 && status < 300;
  const rawHeaders = response.headers();
  const received = rawHeaders['x-fapi-interaction-id'];
  if (ctx.interactionId !== undefined) checkInteractionId(ctx.operation.operationId, ctx.interactionId, received ?? null, status);
  const answer: ResponseFacts = { interactionId: received, url: ctx.url };
  const invalid = (what: string, issues: readonly string[]): ResponseValidationError =>
    new ResponseValidationError({ status, operationId: ctx.operation.operationId, url: ctx.url, interactionId: received, issues, what });

  const receivedType = rawHeaders['content-type'];
  const spec = responseSpecFor(ctx.operation, status);
  const facts = spec ? factsOf(spec) : undefined;
  if (success && ctx.requireSignature) {
    // Only a body documented and sent as application/jwt is verified below; any other body
    // (or none where the contract documents one) is refused.
    const matched = receivedType === undefined || text === '' || !facts ? undefined : declaredTypeOf(facts, receivedType);
    if ((matched === undefined || !isJwtType(matched)) && (text !== '' || (facts !== undefined && facts.declared.length > 0))) {
      throw unsignedAnswer(status, receivedType, ctx);
    }
  }
  if (!spec) {
    // An operation that documents no response at all (OpenAPI 3.1 lets `responses` be left
    // out) gives no status to hold the answer to: it is handed back as received.
    const documentsNone = Object.keys(ctx.operation.responses).length === 0;
    if (success && ctx.validate && !documentsNone) throw invalid('the status', [`HTTP ${status} is not a documented response`]);
    return { ...answer, status, contentType: receivedType, body: lenientBody(text, receivedType), headers: rawHeaders };
  }

  let headers: Record<string, unknown> = rawHeaders;
  if (ctx.validate) {
    const checked = checkValue(spec.headers, rawHeaders);
    if (checked.ok) headers = checked.value as Record<string, unknown>;
    else if (success) throw invalid('the headers', formatIssues(checked.issues));
  }

  const declared = facts!.declared;
  if (declared.length === 0 || text === '') {
    if (declared.length > 0 && success && ctx.validate) throw invalid('the body', ['the body is empty but the contract documents one']);
    return { ...answer, status, contentType: undefined, body: lenientBody(text, receivedType), headers };
  }
  const contentType = receivedType === undefined ? undefined : declaredTypeOf(facts!, receivedType);
  if (contentType === undefined) {
    if (success && ctx.validate) throw invalid('the content type', [`${receivedType ?? '(none)'} is not one of ${declared.join(', ')}`]);
    return { ...answer, status, contentType: receivedType, body: lenientBody(text, receivedType), headers };
  }

  let value: unknown;
  let verified: VerifiedJws | undefined;
  const kind = facts!.kinds.get(contentType);
  if (kind === 'jwt') {
    // Verified whatever `validate` says: an unverified signed body is never handed out.
    verified = await verifySignedBody(text, ctx.signatures, ctx.now);
    value = verified.claims;
  } else if (kind === 'json') {
    const parsed = parseJson(text);
    if (!parsed.ok) {
      if (success) throw invalid('the body', [`not JSON: ${parsed.message}`]);
      return { ...answer, status, contentType, body: text, headers };
    }
    value = parsed.value;
  } else {
    value = text;
  }

  let bodyIssues: string[] | undefined;
  if (ctx.validate) {
    const checked = checkValue(spec.content[contentType]!, value);
    if (checked.ok) value = checked.value;
    else if (success) throw invalid('the body', formatIssues(checked.issues));
    else bodyIssues = formatIssues(checked.issues);
  }

  const result: DecodedResponse = { ...answer, status, contentType, body: value, headers };
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
