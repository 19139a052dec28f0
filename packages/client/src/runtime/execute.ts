/**
 * One logical call: sends the request, and repeats it within the bounds of the retry policy
 * (429 after `Retry-After`; network and recoverable server failures for safe methods) and
 * once after a 401 with a refreshed token. Resolves with the decoded success or throws.
 * A success whose body is a declared sequence resolves once its headers are checked, its body
 * the items as they arrive (item-stream.ts); a request body streamed from items is never repeated.
 */
import { problemDetailsOf } from '@bank-data-sharing/wire';
import { closeUnread } from './body-chunks.js';
import { attemptLimit, type AttemptLimit } from './call-limits.js';
import { decodeText, errorsOfDecoded, responseSpecFor, type DecodedResponse } from './decode.js';
import { ApiError, NetworkError, ResponseTooLargeError, ResponseValidationError, TokenError } from './errors.js';
import { checkInteractionId, newInteractionId } from './interaction-id.js';
import { itemStream, type SequenceConnection } from './item-stream.js';
import type { SignatureOptions } from './jws.js';
import { StreamedRequestBody } from './request-stream.js';
import type { ResolvedResume } from './resume.js';
import { abortReason, backoffDelay, isRetryableStatus, isSafeMethod, parseRetryAfter, type ResolvedRetryPolicy } from './retry.js';
import { decodeSequenceHead, OpenedSequence, sequenceOfAnswer, type DeclaredSequence } from './sequence-answer.js';
import type { TokenManager } from './tokens.js';
import type { HttpAnswer, HttpBody, Transport } from './transport.js';
import type { OperationSpec, SchemaLike, SecurityRequirements } from './types.js';

export type { FetchLike } from './transport.js';

/**
 * What the client reports as it works, for logs and metrics. `interactionId` is undefined
 * for an operation that does not use `x-fapi-interaction-id`.
 */
export type ClientEvent =
  | { type: 'request'; operationId: string; method: string; url: string; interactionId: string | undefined; attempt: number }
  | { type: 'response'; operationId: string; url: string; status: number; interactionId: string | undefined }
  | {
      type: 'retry';
      operationId: string;
      reason: 'rate-limited' | 'network' | 'server' | 'unauthorized';
      attempt: number;
      delayMs: number;
      status?: number;
    }
  | {
      /** An event stream broke off and is resumed: the request goes again after `delayMs`. */
      type: 'reconnect';
      operationId: string;
      url: string;
      /** 1 for the first reconnection of the stream. */
      reconnect: number;
      delayMs: number;
      /** Sent as `Last-Event-ID`; undefined when the stream gave no event ID yet. */
      lastEventId: string | undefined;
    };

/** Everything the executor needs from the client configuration. */
export interface ExecuteEnvironment {
  transport: Transport;
  tokens: TokenManager | undefined;
  signatures: SignatureOptions | undefined;
  retry: ResolvedRetryPolicy;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  timeoutMs: number;
  onEvent: ((event: ClientEvent) => void) | undefined;
}

/** One request, fully built except for the per-attempt headers (token, interaction id). */
export interface PreparedRequest {
  operation: OperationSpec;
  security: SecurityRequirements;
  url: string;
  headers: Record<string, string>;
  /** A `StreamedRequestBody` is sent once: the call is then never repeated. */
  body: HttpBody | StreamedRequestBody | undefined;
  validate: boolean;
  signal: AbortSignal | undefined;
  /** Caller-chosen interaction id (reused by every attempt); otherwise one per attempt. */
  interactionId: string | undefined;
  /**
   * Send `x-fapi-interaction-id` and require its echo: where the operation declares it, a
   * caller gives one, or the client option says so.
   */
  sendInteractionId: boolean;
  /** Refuse an unsigned 2xx answer (the signed form was asked for and is required). */
  requireSignature?: boolean;
  /** Resume an event stream that breaks off (`Last-Event-ID`); undefined: a break fails it. */
  resume?: ResolvedResume | undefined;
}

const tokenNeeds = new WeakMap<SecurityRequirements, boolean>();

function needsToken(security: SecurityRequirements): boolean {
  let needs = tokenNeeds.get(security);
  if (needs === undefined) {
    needs = security.some((requirement) => Object.keys(requirement).length > 0);
    tokenNeeds.set(security, needs);
  }
  return needs;
}

const safeMethods = new WeakMap<ResolvedRetryPolicy, Map<string, boolean>>();

/** `isSafeMethod`, remembered per policy and method. */
function isSafe(method: string, policy: ResolvedRetryPolicy): boolean {
  let known = safeMethods.get(policy);
  if (!known) {
    known = new Map();
    safeMethods.set(policy, known);
  }
  let safe = known.get(method);
  if (safe === undefined) {
    safe = isSafeMethod(method, policy);
    // Bounded: a policy meets the handful of methods of its operations.
    if (known.size < 64) known.set(method, safe);
  }
  return safe;
}

/** The schema the spec declares for a decoded answer's status and content type, if any. */
function declaredSchemaOf(operation: OperationSpec, decoded: DecodedResponse): SchemaLike | undefined {
  if (decoded.contentType === undefined) return undefined;
  const content = responseSpecFor(operation, decoded.status)?.content;
  return content !== undefined && Object.prototype.hasOwnProperty.call(content, decoded.contentType) ? content[decoded.contentType] : undefined;
}

export async function execute(env: ExecuteEnvironment, request: PreparedRequest): Promise<DecodedResponse> {
  const outcome = await send(env, request);
  if (!(outcome instanceof OpenedSequence)) return outcome;
  const { operation } = request;
  const body = itemStream({
    operationId: operation.operationId,
    url: request.url,
    sequence: outcome.sequence,
    validate: request.validate,
    signal: request.signal,
    first: outcome.connection,
    // Resuming sends the request again, which a body streamed from items cannot be.
    resume: request.body instanceof StreamedRequestBody ? undefined : request.resume,
    reopen: (lastEventId) => reopen(env, request, outcome.sequence, lastEventId),
    sleep: env.sleep,
    onEvent: env.onEvent,
  });
  return { ...outcome.head, body };
}

/**
 * The request again, to resume an event stream: with `Last-Event-ID` when the stream gave one
 * (else as it was). Undefined when the server answers 204, which the HTML standard makes its
 * way of saying "do not reconnect", whether or not the contract documents it.
 */
async function reopen(env: ExecuteEnvironment, request: PreparedRequest, sequence: DeclaredSequence, lastEventId: string | undefined): Promise<SequenceConnection | undefined> {
  const headers = { ...request.headers };
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  let outcome: DecodedResponse | OpenedSequence;
  try {
    outcome = await send(env, { ...request, headers });
  } catch (error) {
    if (error instanceof ResponseValidationError && error.status === 204) return undefined;
    throw error;
  }
  if (outcome instanceof OpenedSequence) {
    if (outcome.sequence.format === sequence.format) return outcome.connection;
    closeUnread(outcome.answer);
  } else if (outcome.status === 204) {
    return undefined;
  }
  const head = outcome instanceof OpenedSequence ? outcome.head : outcome;
  throw new ResponseValidationError({
    status: head.status,
    operationId: request.operation.operationId,
    url: request.url,
    interactionId: head.interactionId,
    issues: [`${head.contentType ?? '(no body)'} is not the ${sequence.contentType} of the stream it resumes`],
    what: 'the answer to a reconnection',
  });
}

/** The attempts of one call, up to a decoded answer or, for a declared sequence, its unread body. */
async function send(env: ExecuteEnvironment, request: PreparedRequest): Promise<DecodedResponse | OpenedSequence> {
  const { operation, signal } = request;
  const operationId = operation.operationId;
  const method = operation.method.toUpperCase();
  const streamedBody = request.body instanceof StreamedRequestBody ? request.body : undefined;
  // Items already sent cannot be sent again: such a call is never repeated, whatever the answer.
  const replayable = streamedBody === undefined;
  const safe = replayable && isSafe(operation.method, env.retry);
  const useToken = env.tokens !== undefined && needsToken(request.security);
  const decodeContext = {
    operation,
    url: request.url,
    validate: request.validate,
    signatures: env.signatures,
    now: env.now,
    requireSignature: request.requireSignature === true,
  };
  let rateLimitRetries = 0;
  let failureRetries = 0;
  let rejectedToken: string | undefined;
  let refreshedAfter401 = false;

  /** A failure without an HTTP answer (or with its body cut off): the backoff to wait before the next attempt, or the error to throw. */
  const networkFailure = (error: unknown, limit: AttemptLimit, attempt: number, phase: 'request' | 'body'): number => {
    // The caller's abort is final; a timeout or a network failure may be retried.
    if (signal?.aborted) throw abortReason(signal);
    if (safe && failureRetries < env.retry.maxRetries) {
      failureRetries++;
      const delayMs = backoffDelay(failureRetries, env.retry, env.random);
      env.onEvent?.({ type: 'retry', operationId, reason: 'network', attempt, delayMs });
      return delayMs;
    }
    // Our own time limit says so in words (the platform's timeout reason says "aborted due to timeout").
    const cause = limit.timedOut()
      ? new DOMException(phase === 'body' ? `the answer was not complete within ${env.timeoutMs} ms` : `no answer within ${env.timeoutMs} ms`, 'TimeoutError')
      : error;
    throw new NetworkError(operationId, request.url, cause, phase);
  };

  // Bounded: each pass either returns, throws, or consumes one of three finite budgets.
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw abortReason(signal);
    // The time limit covers the whole attempt: the token, the answer and its body (a declared
    // sequence's body excepted: the limit ends with its headers).
    const limit = attemptLimit(signal, env.timeoutMs);
    let decoded: DecodedResponse;
    let response: HttpAnswer;
    let interactionId: string | undefined;
    try {
      const headers = { ...request.headers };
      let token: string | undefined;
      if (useToken) {
        try {
          // A held token is used without an asynchronous step.
          token = env.tokens!.current(request.security, rejectedToken) ?? (await env.tokens!.token(request.security, limit.signal, rejectedToken));
        } catch (error) {
          if (signal?.aborted) throw abortReason(signal);
          if (limit.timedOut()) {
            throw new TokenError(`could not get an access token: the token provider gave none within ${env.timeoutMs} ms (timeoutMs)`, { cause: error });
          }
          throw error;
        }
        headers['authorization'] = `Bearer ${token}`;
      }
      interactionId = request.sendInteractionId ? (request.interactionId ?? newInteractionId()) : undefined;
      if (interactionId !== undefined) headers['x-fapi-interaction-id'] = interactionId;

      // Opened before the request goes out: a first item refused sends nothing.
      const body = streamedBody ? await streamedBody.open() : (request.body as HttpBody | undefined);
      env.onEvent?.({ type: 'request', operationId, method, url: request.url, interactionId, attempt });
      try {
        response = await env.transport(request.url, { method, headers, body, signal: limit.signal });
      } catch (error) {
        // Not awaited: the caller's items may be waiting on something that never comes.
        streamedBody?.close();
        // An item refused on the way (or the caller's items failing) is why the request stopped.
        if (streamedBody?.failed) throw streamedBody.failure;
        const delayMs = networkFailure(error, limit, attempt, 'request');
        limit.release();
        await env.sleep(delayMs, signal);
        continue;
      }
      if (streamedBody?.failed) {
        // The server answered a body it did not get in full.
        closeUnread(response);
        throw streamedBody.failure;
      }
      env.onEvent?.({ type: 'response', operationId, url: request.url, status: response.status, interactionId });

      if (response.status === 401 && useToken && !refreshedAfter401 && replayable) {
        // One fresh token, one repeat: a second 401 is the caller's to handle.
        refreshedAfter401 = true;
        rejectedToken = token;
        await response.discard();
        env.onEvent?.({ type: 'retry', operationId, reason: 'unauthorized', attempt, delayMs: 0, status: 401 });
        continue;
      }

      if (response.status === 429) {
        const retryAfter = parseRetryAfter(response.header('retry-after'), env.now());
        const withinCap = retryAfter === undefined || retryAfter <= env.retry.maxRetryAfterSeconds;
        if (rateLimitRetries < env.retry.maxRateLimitRetries && withinCap && replayable) {
          rateLimitRetries++;
          const delayMs = retryAfter !== undefined ? retryAfter * 1000 : backoffDelay(rateLimitRetries, env.retry, env.random);
          await response.discard();
          limit.release();
          env.onEvent?.({ type: 'retry', operationId, reason: 'rate-limited', attempt, delayMs, status: 429 });
          await env.sleep(delayMs, signal);
          continue;
        }
      }

      const sequence = sequenceOfAnswer(operation, response);
      // Correlation first: the body of another exchange is not worth reading, but it is let go
      // of, or its connection would stay taken until the server gave up on it.
      try {
        if (interactionId !== undefined) checkInteractionId(operationId, interactionId, response.header('x-fapi-interaction-id'), response.status);
      } catch (error) {
        // A stream may never end: it is closed, not drained.
        if (sequence) closeUnread(response);
        else await response.discard();
        throw error;
      }
      if (sequence) {
        // The body is the caller's to read; the time limit ends with the headers.
        try {
          return new OpenedSequence(decodeSequenceHead(response, sequence, { ...decodeContext, interactionId }), response, sequence);
        } catch (error) {
          closeUnread(response);
          throw error;
        }
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        // Too large is final: the same answer would come again.
        if (error instanceof ResponseTooLargeError) throw new ResponseTooLargeError(error.limit, `${operationId}: answer (HTTP ${response.status}) from ${request.url}`);
        // A body cut off by the network or the time limit: a network failure like any other.
        const delayMs = networkFailure(error, limit, attempt, 'body');
        limit.release();
        await env.sleep(delayMs, signal);
        continue;
      }
      decoded = await decodeText(response, text, { ...decodeContext, interactionId });
    } finally {
      limit.release();
    }
    if (decoded.status >= 200 && decoded.status < 300) return decoded;

    const errors = errorsOfDecoded(decoded);
    if (safe && isRetryableStatus(decoded.status, errors) && failureRetries < env.retry.maxRetries) {
      failureRetries++;
      const delayMs = backoffDelay(failureRetries, env.retry, env.random);
      env.onEvent?.({ type: 'retry', operationId, reason: 'server', attempt, delayMs, status: decoded.status });
      await env.sleep(delayMs, signal);
      continue;
    }
    const retryAfter = parseRetryAfter(response.header('retry-after'), env.now());
    throw new ApiError({
      status: decoded.status,
      operationId,
      url: request.url,
      errors,
      interactionId: decoded.interactionId,
      retryAfter,
      body: decoded.body,
      contentType: decoded.contentType,
      problem: problemDetailsOf(decoded.contentType, decoded.body, declaredSchemaOf(operation, decoded)),
      ...(decoded.status === 429 && retryAfter !== undefined
        ? { message: `${operationId} is rate limited (HTTP 429); the server asks to wait ${retryAfter} s` }
        : {}),
    });
  }
}
