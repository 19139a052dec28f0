/**
 * `Retry-After` (RFC 9110 §10.2.3), read strictly: delay-seconds (digits only) or an HTTP-date
 * in one of the three forms §5.6.7 has recipients accept. Anything else is ignored
 * (undefined), never read as "now": `Date.parse` alone takes `-5` and `soon 7` for dates in
 * 2001, which would have a client retry at once and the hub tell the TPP `Retry-After: 0`.
 * Shared by the client's retries and the hub's calls to an LFI.
 */

/** The longest wait passed on, in seconds (about 68 years): keeps the header plain digits, never `1e+23`. */
export const MAX_RETRY_AFTER_SECONDS = 2_147_483_647;

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** IMF-fixdate, rfc850-date and asctime-date, each a fixed shape (linear to test). */
const HTTP_DATES = [
  new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`),
  new RegExp(`^${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`),
  new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`),
];

/**
 * Seconds to wait from `now` (ms), or undefined when `value` is absent or not a Retry-After.
 *
 * @example
 * parseRetryAfter('7', Date.now()) // 7
 * parseRetryAfter('soon', Date.now()) // undefined
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_SECONDS);
  if (!HTTP_DATES.some((shape) => shape.test(text))) return undefined;
  // asctime-date carries no zone; it is GMT too.
  const date = Date.parse(text.endsWith('GMT') ? text : `${text} GMT`);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, Math.ceil((date - now) / 1000)), MAX_RETRY_AFTER_SECONDS);
}
