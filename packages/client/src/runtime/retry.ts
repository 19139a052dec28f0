/**
 * When a failed call is tried again, and how long to wait first. Rate limiting (429) waits
 * what the server asks; other transient failures back off exponentially with jitter, and only
 * for methods that are safe to repeat. Every loop is bounded.
 */
import type { ErrorItem } from './errors.js';
import { parseRetryAfter as parseWireRetryAfter } from '@bank-data-sharing/wire';

/**
 * @example
 * createClient({ baseUrl, retry: { maxRateLimitRetries: 5, maxRetryAfterSeconds: 120 } });
 */
export interface RetryPolicy {
  /** How many 429 answers are waited out before the call fails (default 3). */
  maxRateLimitRetries?: number;
  /**
   * Longest `Retry-After` honoured, in seconds (default 60). A longer one fails the call at once
   * with its `ApiError` (its `retryAfter` says how long): waiting less than asked would hammer
   * the server, waiting longer would hang the caller.
   */
  maxRetryAfterSeconds?: number;
  /** Retries of network errors and retryable server errors, for safe methods only (default 2). */
  maxRetries?: number;
  /** First backoff delay in ms (default 250); doubles per retry. */
  baseDelayMs?: number;
  /** Upper bound of one backoff delay in ms (default 5000). */
  maxDelayMs?: number;
  /** Methods safe to repeat after a failure whose effect is unknown (default GET, HEAD, OPTIONS). */
  safeMethods?: readonly string[];
}

export type ResolvedRetryPolicy = Required<RetryPolicy>;

export const DEFAULT_RETRY_POLICY: ResolvedRetryPolicy = {
  maxRateLimitRetries: 3,
  maxRetryAfterSeconds: 60,
  maxRetries: 2,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  safeMethods: ['get', 'head', 'options'],
};

/** No retries at all (`retry: false`). */
export const NO_RETRIES: ResolvedRetryPolicy = { ...DEFAULT_RETRY_POLICY, maxRateLimitRetries: 0, maxRetries: 0 };

export function resolveRetryPolicy(policy: RetryPolicy | false | undefined): ResolvedRetryPolicy {
  if (policy === false) return NO_RETRIES;
  return { ...DEFAULT_RETRY_POLICY, ...policy };
}

export function isSafeMethod(method: string, policy: ResolvedRetryPolicy): boolean {
  return policy.safeMethods.some((m) => m.toLowerCase() === method.toLowerCase());
}

/**
 * Server answers worth repeating: 500 whose `Errors` say `GenericRecoverableError` (section 7),
 * and the gateway statuses 502, 503, 504 that mean the request never reached a handler.
 */
export function isRetryableStatus(status: number, errors: readonly ErrorItem[]): boolean {
  if (status === 502 || status === 503 || status === 504) return true;
  return status === 500 && errors.some((e) => e.Code === 'GenericRecoverableError');
}

/**
 * `Retry-After` in seconds: delay-seconds, or an HTTP date (counted from `now`). Undefined
 * when absent or unreadable (`soon`, `-5`: never read as "retry now").
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  return parseWireRetryAfter(value, now);
}

/**
 * Backoff before retry number `attempt` (1-based): exponential, capped, with "equal jitter"
 * (half fixed, half random) so clients that failed together do not retry together.
 */
export function backoffDelay(attempt: number, policy: ResolvedRetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** The error a fetch rejects with when its signal aborts. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * Waits `ms`, or rejects as soon as `signal` aborts.
 *
 * @example
 * await sleep(1000, controller.signal);
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
