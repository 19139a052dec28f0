/**
 * The time bound of the denial-of-service tests: generous, so that a slow machine passes, and
 * far below what the super-linear readings these tests guard against take (tens of seconds
 * to hours on the same inputs). Speed itself is measured in bench/, not here.
 */
export const SAFETY_BOUND_MS = 2000;

/** `run()` and how long it took, in milliseconds. */
export function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

/** `run()`'s error and how long it took to throw it. */
export function timedThrow(run: () => unknown): { error: unknown; ms: number } {
  const started = performance.now();
  try {
    run();
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error('expected a throw');
}

export const KiB = 1024;
export const MiB = 1024 * 1024;
