/** The store's notion of "now", injectable so tests can move time without waiting. */

/** Returns the current time, as a Date or epoch milliseconds. */
export type Clock = () => Date | number;

/** The system clock. */
export const systemClock: Clock = () => Date.now();

/** Reads a clock as epoch milliseconds. */
export function nowMs(clock: Clock): number {
  const value = clock();
  return typeof value === 'number' ? value : value.getTime();
}

/** RFC 3339 UTC text of an instant, as the store writes DateTime members. */
export function isoInstant(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
