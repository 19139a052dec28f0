/**
 * What keeps one misbehaving LFI from taking the hub with it. Per LFI:
 * - a bound on concurrent calls, with a bounded queue: beyond it, a recoverable answer at
 *   once instead of another socket and another waiting handler;
 * - a circuit breaker: after consecutive failures (unreachable, timed out, 502/503/504) calls
 *   are answered at once, recoverably, with `Retry-After` the time left, until one probe call
 *   after the pause succeeds;
 * - retries of idempotent calls, with full-jitter backoff, only inside the caller's deadline,
 *   and never sooner than an LFI's `Retry-After` says (not at all when it says longer than
 *   the guard would ever wait: the TPP gets the recoverable error with that `Retry-After`).
 * Hand-written rather than a resilience library: the policies must share the caller's
 * deadline (an AbortSignal per TPP request) and answer in the contract's own errors, and the
 * server stubs stay free of dependencies their users would have to audit.
 */
import { LfiResponseError } from './errors.js';
import { LfiUnavailableError } from './lfi-fetch.js';

export interface LfiGuardOptions {
  /** Calls in flight at most (default 16). */
  readonly maxConcurrent?: number;
  /** Calls waiting for a slot at most (default 32); beyond it, `overloaded` at once. */
  readonly maxQueued?: number;
  /** Consecutive failures that open the circuit (default 5). */
  readonly failureThreshold?: number;
  /** Milliseconds the circuit stays open before a probe call is let through (default 10 000). */
  readonly openMs?: number;
  /** Tries of an idempotent call in all (default 2: one retry); 1 turns retries off. */
  readonly attempts?: number;
  /**
   * Backoff before retry n: a random time up to min(maxDelayMs, baseDelayMs × 2^n) (defaults
   * 100 and 1 000). An LFI answer with `Retry-After` waits that long instead; one that asks for
   * more than maxDelayMs, the longest the guard waits, is not retried.
   */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Clock, randomness and the pause before a retry (tests); `wait` resolves false when `signal` ends it. */
  readonly now?: () => number;
  readonly random?: () => number;
  readonly wait?: (ms: number, signal: AbortSignal | undefined) => Promise<boolean>;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface LfiGuard {
  /**
   * Runs `call` under the guard. `signal` is the caller's deadline: a call waiting in the queue,
   * backing off or in flight ends when it aborts.
   */
  run<T>(call: (signal: AbortSignal | undefined) => Promise<T>, options?: { url?: string; idempotent?: boolean; signal?: AbortSignal }): Promise<T>;
  /** For logs and tests. */
  state(): { circuit: CircuitState; active: number; queued: number; consecutiveFailures: number };
}

/** Failures that say the LFI is unavailable (they count against the circuit and may be retried). */
export function isUnavailability(error: unknown): boolean {
  if (error instanceof LfiUnavailableError) return error.kind !== 'circuit-open' && error.kind !== 'overloaded';
  return error instanceof LfiResponseError && (error.lfiStatus === 502 || error.lfiStatus === 503 || error.lfiStatus === 504);
}

/** The LFI's own `Retry-After` on an error status, in milliseconds (the guard's own errors carry none it must honour). */
function toldRetryAfterMs(error: unknown): number | undefined {
  return error instanceof LfiResponseError && error.retryAfter !== undefined ? error.retryAfter * 1000 : undefined;
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * One guard per LFI (per origin): keep it for the hub's life.
 *
 * @example
 * const guard = createLfiGuard({ maxConcurrent: 8, failureThreshold: 5, openMs: 10_000 });
 * httpPageSource(path, { baseUrl, headers, guard, signal: deadlineOfThisTppRequest });
 */
export function createLfiGuard(options: LfiGuardOptions = {}): LfiGuard {
  const maxConcurrent = options.maxConcurrent ?? 16;
  const maxQueued = options.maxQueued ?? 32;
  const threshold = options.failureThreshold ?? 5;
  const openMs = options.openMs ?? 10_000;
  const attempts = Math.max(1, options.attempts ?? 2);
  const baseDelay = options.baseDelayMs ?? 100;
  const maxDelay = options.maxDelayMs ?? 1_000;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const wait = options.wait ?? delay;

  let active = 0;
  const queue: Array<{ resolve: (ok: boolean) => void }> = [];
  let failures = 0;
  let openedAt: number | undefined;
  let probing = false;

  const circuit = (): CircuitState => (openedAt === undefined ? 'closed' : now() - openedAt >= openMs ? 'half-open' : 'open');

  /** A slot, or false when the deadline came first. */
  const acquire = (url: string, signal: AbortSignal | undefined): Promise<boolean> => {
    if (active < maxConcurrent) {
      active++;
      return Promise.resolve(true);
    }
    if (queue.length >= maxQueued) throw new LfiUnavailableError('overloaded', url, { retryAfter: 1 });
    return new Promise((resolve) => {
      const entry = {
        resolve: (ok: boolean) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(ok);
        },
      };
      const onAbort = () => {
        const index = queue.indexOf(entry);
        if (index >= 0) queue.splice(index, 1);
        resolve(false);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(entry);
    });
  };
  const release = () => {
    const next = queue.shift();
    if (next) next.resolve(true);
    else active--;
  };

  const succeeded = () => {
    failures = 0;
    openedAt = undefined;
  };
  const failed = () => {
    failures++;
    // A failed probe, or too many failures in a row: (re)open.
    if (circuit() === 'half-open' || failures >= threshold) openedAt = now();
  };

  return {
    async run(call, { url = '', idempotent = false, signal } = {}) {
      for (let attempt = 1; ; attempt++) {
        const state = circuit();
        if (state === 'open') {
          throw new LfiUnavailableError('circuit-open', url, { retryAfter: Math.max(1, Math.ceil((openMs - (now() - openedAt!)) / 1000)) });
        }
        if (state === 'half-open') {
          // One probe at a time; the others are answered as if still open.
          if (probing) throw new LfiUnavailableError('circuit-open', url, { retryAfter: 1 });
          probing = true;
        }
        const isProbe = state === 'half-open';
        let slot: boolean;
        try {
          slot = await acquire(url, signal);
        } catch (error) {
          if (isProbe) probing = false;
          throw error;
        }
        if (!slot) {
          if (isProbe) probing = false;
          throw new LfiUnavailableError('timeout', url);
        }
        let outcome: { ok: true; value: Awaited<ReturnType<typeof call>> } | { ok: false; error: unknown };
        try {
          outcome = { ok: true, value: await call(signal) };
        } catch (error) {
          outcome = { ok: false, error };
        } finally {
          if (isProbe) probing = false;
          release();
        }
        // Any answer, even an error status, says the LFI is there.
        if (outcome.ok || !isUnavailability(outcome.error)) succeeded();
        if (outcome.ok) return outcome.value;
        const error = outcome.error;
        if (!isUnavailability(error)) throw error;
        failed();
        // Retry only what may be retried, while the circuit lets calls through and the deadline
        // allows; the slot is given back while backing off.
        if (!idempotent || attempt >= attempts || circuit() !== 'closed' || signal?.aborted) throw error;
        // The LFI said when to come back: not sooner, and not at all past what the guard waits.
        const told = toldRetryAfterMs(error);
        if (told !== undefined && told > maxDelay) throw error;
        const backoff = Math.max(told ?? 0, random() * Math.min(maxDelay, baseDelay * 2 ** (attempt - 1)));
        if (!(await wait(backoff, signal))) throw error;
      }
    },
    state: () => ({ circuit: circuit(), active, queued: queue.length, consecutiveFailures: failures }),
  };
}
