/**
 * One logical call: sends the request, and repeats it within the bounds of the retry policy
 * (429 after `Retry-After`; network and recoverable server failures for safe methods) and
 * once after a 401 with a refreshed token. Resolves with the decoded success or throws.
 */
import { decodeResponse, errorsOfDecoded, type DecodedResponse } from './decode.js';
import { ApiError, NetworkError } from './errors.js';
import { newInteractionId } from './interaction-id.js';
import type { SignatureOptions } from './jws.js';
import { abortReason, backoffDelay, isRetryableStatus, isSafeMethod, parseRetryAfter, type ResolvedRetryPolicy } from './retry.js';
import type { TokenManager } from './tokens.js';
import type { OperationSpec, SecurityRequirements } from './types.js';

/** The `fetch` the client calls: the platform's by default, or any compatible one (mTLS agents, tests). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** What the client reports as it works, for logs and metrics. */
export type ClientEvent =
  | { type: 'request'; operationId: string; method: string; url: string; interactionId: string; attempt: number }
  | { type: 'response'; operationId: string; url: string; status: number; interactionId: string }
  | {
      type: 'retry';
      operationId: string;
      reason: 'rate-limited' | 'network' | 'server' | 'unauthorized';
      attempt: number;
      delayMs: number;
      status?: number;
    };

/** Everything the executor needs from the client configuration. */
export interface ExecuteEnvironment {
  fetch: FetchLike;
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
  body: RequestInit['body'] | undefined;
  validate: boolean;
  signal: AbortSignal | undefined;
  /** Caller-chosen interaction id (reused by every attempt); otherwise one per attempt. */
  interactionId: string | undefined;
}

function needsToken(security: SecurityRequirements): boolean {
  return security.some((requirement) => Object.keys(requirement).length > 0);
}

/**
 * The signal of one attempt: the caller's, plus the attempt's time limit. A plain controller
 * and timer, released as soon as the attempt is over (cheaper than `AbortSignal.any` per call).
 */
function attemptSignal(signal: AbortSignal | undefined, timeoutMs: number): { signal: AbortSignal | undefined; release(): void } {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return { signal, release: () => undefined };
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal!.reason);
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  if (signal) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', onAbort, { once: true });
  }
  return {
    signal: controller.signal,
    release: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** Lets the connection be reused: a body left unread would keep it busy. */
async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Nothing to do: the connection is closed either way.
  }
}

export async function execute(env: ExecuteEnvironment, request: PreparedRequest): Promise<DecodedResponse> {
  const { operation, signal } = request;
  const operationId = operation.operationId;
  const safe = isSafeMethod(operation.method, env.retry);
  const useToken = env.tokens !== undefined && needsToken(request.security);
  let rateLimitRetries = 0;
  let failureRetries = 0;
  let rejectedToken: string | undefined;
  let refreshedAfter401 = false;

  // Bounded: each pass either returns, throws, or consumes one of three finite budgets.
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw abortReason(signal);
    const headers = { ...request.headers };
    let token: string | undefined;
    if (useToken) {
      token = await env.tokens!.token(request.security, signal, rejectedToken);
      headers['authorization'] = `Bearer ${token}`;
    }
    const interactionId = request.interactionId ?? newInteractionId();
    headers['x-fapi-interaction-id'] = interactionId;

    env.onEvent?.({ type: 'request', operationId, method: operation.method.toUpperCase(), url: request.url, interactionId, attempt });
    // The time limit covers the whole exchange, body included, so it ends after decoding.
    const limit = attemptSignal(signal, env.timeoutMs);
    let decoded: DecodedResponse;
    let response: Response;
    try {
      try {
        const init: RequestInit = { method: operation.method.toUpperCase(), headers, redirect: 'manual' };
        if (request.body !== undefined) init.body = request.body;
        if (limit.signal) init.signal = limit.signal;
        response = await env.fetch(request.url, init);
      } catch (error) {
        // The caller's abort is final; a timeout or a network failure may be retried.
        if (signal?.aborted) throw abortReason(signal);
        if (safe && failureRetries < env.retry.maxRetries) {
          failureRetries++;
          const delayMs = backoffDelay(failureRetries, env.retry, env.random);
          env.onEvent?.({ type: 'retry', operationId, reason: 'network', attempt, delayMs });
          limit.release();
          await env.sleep(delayMs, signal);
          continue;
        }
        throw new NetworkError(operationId, request.url, error);
      }
      env.onEvent?.({ type: 'response', operationId, url: request.url, status: response.status, interactionId });

      if (response.status === 401 && useToken && !refreshedAfter401) {
        // One fresh token, one repeat: a second 401 is the caller's to handle.
        refreshedAfter401 = true;
        rejectedToken = token;
        await discard(response);
        env.onEvent?.({ type: 'retry', operationId, reason: 'unauthorized', attempt, delayMs: 0, status: 401 });
        continue;
      }

      if (response.status === 429) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'), env.now());
        const withinCap = retryAfter === undefined || retryAfter <= env.retry.maxRetryAfterSeconds;
        if (rateLimitRetries < env.retry.maxRateLimitRetries && withinCap) {
          rateLimitRetries++;
          const delayMs = retryAfter !== undefined ? retryAfter * 1000 : backoffDelay(rateLimitRetries, env.retry, env.random);
          await discard(response);
          limit.release();
          env.onEvent?.({ type: 'retry', operationId, reason: 'rate-limited', attempt, delayMs, status: 429 });
          await env.sleep(delayMs, signal);
          continue;
        }
      }

      try {
        decoded = await decodeResponse(response, {
          operation,
          url: request.url,
          validate: request.validate,
          signatures: env.signatures,
          now: env.now,
          interactionId,
        });
      } catch (error) {
        // A body cut off by the time limit or the network is a network failure, not a contract one.
        if (signal?.aborted) throw abortReason(signal);
        if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError' || error.name === 'TypeError')) {
          throw new NetworkError(operationId, request.url, error);
        }
        throw error;
      }
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
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), env.now());
    throw new ApiError({
      status: decoded.status,
      operationId,
      url: request.url,
      errors,
      interactionId: decoded.interactionId,
      retryAfter,
      body: decoded.body,
      ...(decoded.status === 429 && retryAfter !== undefined
        ? { message: `${operationId} is rate limited (HTTP 429); the server asks to wait ${retryAfter} s` }
        : {}),
    });
  }
}
