/**
 * Bounds a wait before the request is sent (a credential from a function) by the call's own
 * limits: its abort signal and `timeoutMs`. The executor bounds its waits (tokens, answer,
 * body); without this, an application function that never settles would hold the call forever,
 * deaf to its abort.
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
