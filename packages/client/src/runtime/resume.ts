/**
 * Resuming a Server-Sent Events stream that broke off: the client sends the request again with
 * `Last-Event-ID`, as the HTML standard's reconnection does, a bounded number of times.
 */

/**
 * @example
 * createClient({ baseUrl, resume: { maxReconnects: 5, delayMs: 1_000 } });
 */
export interface ResumeOptions {
  /** Reconnections in the life of one stream (default 3); then the break fails the iteration. */
  maxReconnects?: number;
  /** Wait before a reconnection in ms, unless the stream's `retry` field said otherwise (default 3000). */
  delayMs?: number;
}

export type ResolvedResume = Required<ResumeOptions>;

export const DEFAULT_RESUME: ResolvedResume = { maxReconnects: 3, delayMs: 3_000 };

function checkedCount(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`resume.${name} must be a non-negative integer, not ${value}`);
  return value;
}

/** `true` or `{...}`: resume with these bounds; `false` or undefined: an event stream that breaks off fails. */
export function resolveResume(option: ResumeOptions | boolean | undefined): ResolvedResume | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return DEFAULT_RESUME;
  return {
    maxReconnects: checkedCount('maxReconnects', option.maxReconnects ?? DEFAULT_RESUME.maxReconnects),
    delayMs: checkedCount('delayMs', option.delayMs ?? DEFAULT_RESUME.delayMs),
  };
}
