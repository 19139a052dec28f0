/**
 * A call's own limits, its abort signal and `timeoutMs`: over a wait before the request is sent
 * (a credential from a function; without this, an application function that never settles
 * would hold the call forever, deaf to its abort), and over each attempt's request and answer
 * (the executor's, and an authorization server's).
 */
import { RequestError } from './errors.js';
import { abortReason } from './retry.js';

/**
 * `promise`, or a rejection with the signal's reason when `signal` aborts first, or a
 * `RequestError` with `timeoutMessage` after `timeoutMs` (not bounded when 0 or not finite).
 */
export function withinCallLimits<T>(promise: Promise<T>, signal: AbortSignal | undefined, timeoutMs: number, timeoutMessage: string): Promise<T> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  const timed = Number.isFinite(timeoutMs) && timeoutMs > 0;
  if (!signal && !timed) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      release();
      reject(abortReason(signal!));
    };
    const timer = timed
      ? setTimeout(() => {
          release();
          reject(new RequestError(timeoutMessage));
        }, timeoutMs)
      : undefined;
    // As the executor's timers: the limit alone does not keep a Node process alive.
    (timer as { unref?: () => void } | undefined)?.unref?.();
    function release(): void {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        release();
        resolve(value);
      },
      (error: unknown) => {
        release();
        reject(error);
      },
    );
  });
}

/** The bound of one attempt: the signal its steps run under, and how to let go of it. */
export interface AttemptLimit {
  signal: AbortSignal | undefined;
  /** True when the attempt's own time limit (not the caller) ended it. */
  timedOut(): boolean;
  release(): void;
}

const NOTHING_TO_RELEASE = (): void => undefined;

/**
 * The signal of one attempt: the caller's, plus the attempt's time limit: a controller and a
 * timer, released as soon as the attempt is over (cheaper than `AbortSignal.any` per call).
 * Not `AbortSignal.timeout`: its timer cannot be cleared, so a client reading a thousand pages
 * a second would keep tens of thousands of pending timers alive for the whole time limit.
 */
export function attemptLimit(signal: AbortSignal | undefined, timeoutMs: number): AttemptLimit {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return { signal, timedOut: () => false, release: NOTHING_TO_RELEASE };
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  // Like the platform's timeout signals, the timer alone does not keep a Node process alive.
  (timer as { unref?: () => void }).unref?.();
  if (!signal) return { signal: controller.signal, timedOut: () => expired, release: () => clearTimeout(timer) };
  const onAbort = (): void => controller.abort(signal.reason);
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired && !signal.aborted,
    release: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}
