import type { ReceivedProblemDetails as ProblemDetails } from '@bank-data-sharing/wire';

/**
 * Every failure the client reports is one of these classes, so callers can branch on
 * `instanceof` (or on `code`) instead of parsing messages.
 */

/** One item of the `Errors` array of an error response (section 2.6). */
export interface ErrorItem {
  Code: string;
  Message: string;
  Path?: string;
  Url?: string;
}

/** Base class of every error the client throws. */
export class ClientError extends Error {
  /** A stable, machine-readable kind. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Longest summary of a server's error text in a message: the server decides that text's size, not us. */
const SUMMARY_LIMIT = 300;

/** The text that says what went wrong: the first `Errors` item, the problem's title and detail, or a `message`-like member. */
function summaryText(errors: readonly ErrorItem[], problem: ProblemDetails | undefined, body: unknown): string {
  const first = errors[0];
  if (first) return `${first.Code} ${first.Message}`;
  const told = [problem?.title, problem?.detail].filter((t) => typeof t === 'string' && t !== '').join(': ');
  if (told !== '') return told;
  if (body !== null && typeof body === 'object') {
    for (const name of ['message', 'detail', 'error_description', 'error']) {
      const text = (body as Record<string, unknown>)[name];
      if (typeof text === 'string' && text !== '') return text;
    }
  }
  return '';
}

/** `: <summary>` for an error message, cut to `SUMMARY_LIMIT`; empty when the body says nothing. */
function summary(errors: readonly ErrorItem[], problem: ProblemDetails | undefined, body: unknown): string {
  const text = summaryText(errors, problem, body);
  if (text === '') return '';
  return `: ${text.length > SUMMARY_LIMIT ? `${text.slice(0, SUMMARY_LIMIT - 1)}…` : text}`;
}

/**
 * The server answered with a status the call does not treat as success. `body` is the
 * answer's body as the spec declares it for that status (validated when validation is on and
 * it matched); `problem` holds the RFC 9457 members of an `application/problem+json` answer
 * (or of a JSON answer whose declared schema is problem details);
 * `errors` this API family's `Errors` items.
 *
 * @example
 * try {
 *   await client.GetAccounts();
 * } catch (error) {
 *   if (error instanceof ApiError && error.status === 403) console.log(error.errors[0]?.Code, error.interactionId);
 * }
 */
export class ApiError<Body = unknown> extends ClientError {
  readonly status: number;
  readonly operationId: string;
  readonly url: string;
  /** `Errors` of the body when it has one (JSON or signed form), otherwise empty. */
  readonly errors: readonly ErrorItem[];
  /** `x-fapi-interaction-id` of the response. */
  readonly interactionId: string | undefined;
  /** `Retry-After` in seconds, when the response carried one. */
  readonly retryAfter: number | undefined;
  /** The decoded body (validated when validation is on and the body matched its schema). */
  readonly body: Body;
  /** The media type the answer declared (`application/problem+json`, ...), when it had a body. */
  readonly contentType: string | undefined;
  /** RFC 9457 members of an `application/problem+json` answer, or of a JSON answer declared as problem details; otherwise undefined. */
  readonly problem: ProblemDetails | undefined;

  constructor(init: {
    status: number;
    operationId: string;
    url: string;
    errors: readonly ErrorItem[];
    interactionId: string | undefined;
    retryAfter: number | undefined;
    body: Body;
    contentType?: string | undefined;
    problem?: ProblemDetails | undefined;
    message?: string;
  }) {
    super('http', init.message ?? `${init.operationId} failed with HTTP ${init.status}${summary(init.errors, init.problem, init.body)}`);
    this.status = init.status;
    this.operationId = init.operationId;
    this.url = init.url;
    this.errors = init.errors;
    this.interactionId = init.interactionId;
    this.retryAfter = init.retryAfter;
    this.body = init.body;
    this.contentType = init.contentType;
    this.problem = init.problem;
  }
}

/**
 * What a fetch failure says, down its `cause` chain: undici's "fetch failed" alone hides the
 * reason (refused, reset, certificate...) one level below.
 */
export function describeFailure(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      const text = typeof code === 'string' && !current.message.includes(code) ? `${code}: ${current.message}` : current.message;
      if (text && !parts.includes(text)) parts.push(text);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.join(' ← ') || 'unknown failure';
}

/**
 * The request never got a complete HTTP answer: no answer at all (connection refused, reset,
 * DNS, TLS, timeout), or an answer whose body broke off (dropped connection, fewer bytes than
 * `Content-Length`, time limit reached while it trickled in).
 */
export class NetworkError extends ClientError {
  readonly operationId: string;
  readonly url: string;
  /** `request`: no answer came; `body`: the answer's headers came, its body did not in full. */
  readonly phase: 'request' | 'body';

  constructor(operationId: string, url: string, cause: unknown, phase: 'request' | 'body' = 'request') {
    const where = phase === 'body' ? ' while reading the body of the answer' : '';
    super('network', `${operationId}: request to ${url} failed${where}: ${describeFailure(cause)}`, { cause });
    this.operationId = operationId;
    this.url = url;
    this.phase = phase;
  }
}

/** A response did not match the contract (undocumented status, content type, body or headers). */
export class ResponseValidationError extends ClientError {
  readonly status: number;
  readonly operationId: string;
  readonly url: string;
  readonly interactionId: string | undefined;
  /** Human-readable problems, `path: message`. */
  readonly issues: readonly string[];

  constructor(init: { status: number; operationId: string; url: string; interactionId: string | undefined; issues: readonly string[]; what: string }) {
    const shown = init.issues.slice(0, 5).join('; ');
    const more = init.issues.length > 5 ? ` (and ${init.issues.length - 5} more)` : '';
    super('invalid-response', `${init.operationId}: ${init.what} of HTTP ${init.status} does not match the contract: ${shown}${more}`);
    this.status = init.status;
    this.operationId = init.operationId;
    this.url = init.url;
    this.interactionId = init.interactionId;
    this.issues = init.issues;
  }
}

/** The response's `x-fapi-interaction-id` is not the one the request carried. */
export class InteractionIdMismatchError extends ClientError {
  readonly sent: string;
  readonly received: string;
  readonly status: number;

  constructor(operationId: string, sent: string, received: string, status: number) {
    super('interaction-id-mismatch', `${operationId}: response (HTTP ${status}) carries x-fapi-interaction-id ${received}, but the request sent ${sent}`);
    this.sent = sent;
    this.received = received;
    this.status = status;
  }
}

/** Why a signed response was refused. */
export type SignatureProblem =
  | 'no-keys'
  | 'malformed'
  | 'alg-none'
  | 'alg-not-allowed'
  | 'bad-signature'
  | 'expired'
  | 'not-yet-valid'
  | 'issuer'
  | 'audience'
  | 'claims'
  /** A 2xx answer came unsigned although the signed form was asked for (see `signatures.required`). */
  | 'unsigned';

/** A signed (`application/jwt`) response failed verification; its content is never returned. */
export class SignatureError extends ClientError {
  readonly problem: SignatureProblem;

  constructor(problem: SignatureProblem, message: string, options?: { cause?: unknown }) {
    super(`signature:${problem}`, message, options);
    this.problem = problem;
  }
}

/** Paging stopped because it would loop or run past its cap. */
export class PaginationError extends ClientError {
  readonly reason: 'loop' | 'page-cap' | 'cross-origin' | 'records';
  /** Pages read before stopping. */
  readonly pagesRead: number;
  readonly url: string | undefined;

  constructor(reason: PaginationError['reason'], message: string, pagesRead: number, url?: string) {
    super(`pagination:${reason}`, message);
    this.reason = reason;
    this.pagesRead = pagesRead;
    this.url = url;
  }
}

/** The token provider failed or returned something unusable. */
export class TokenError extends ClientError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('token', message, options);
  }
}

/** The caller's parameters cannot make a request (a missing path parameter, an unsendable body). */
export class RequestError extends ClientError {
  constructor(message: string) {
    super('request', message);
  }
}

/**
 * A request body did not match the contract: a JSON body (checked before anything is sent), or
 * an item of a streamed sequence (checked as it is sent; the request is then aborted, so the
 * server never gets a complete body).
 */
export class RequestValidationError extends RequestError {
  readonly operationId: string;
  /** Human-readable problems, `path: message` (`item <n>: path: message` in a sequence). */
  readonly issues: readonly string[];

  constructor(operationId: string, what: string, issues: readonly string[]) {
    const shown = issues.slice(0, 5).join('; ');
    const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
    super(`${operationId}: ${what} does not match the contract: ${shown}${more}`);
    this.operationId = operationId;
    this.issues = issues;
  }
}

/** `Errors` of an error body, if it has a well-formed one. */
export function errorItemsOf(body: unknown): ErrorItem[] {
  if (body === null || typeof body !== 'object') return [];
  const errors = (body as { Errors?: unknown }).Errors;
  if (!Array.isArray(errors)) return [];
  return errors.filter(
    (e): e is ErrorItem => e !== null && typeof e === 'object' && typeof (e as ErrorItem).Code === 'string' && typeof (e as ErrorItem).Message === 'string',
  );
}

/**
 * An answer's body was larger than the client reads whole (`maxResponseBytes`): as declared,
 * as it arrived, or once decompressed. The body is let go of, and the call is not retried (the
 * same answer would come again).
 */
export class ResponseTooLargeError extends ClientError {
  /** The limit in bytes the body went over. */
  readonly limit: number;

  constructor(limit: number, where?: string) {
    super('response-too-large', `${where === undefined ? '' : `${where}: `}the answer's body is larger than ${limit} bytes (maxResponseBytes)`);
    this.limit = limit;
  }
}
